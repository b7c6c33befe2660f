//! The live game of `spider play FILE`: a companion that follows the game
//! the player really plays.
//!
//! At each move the blind player suggests a move; the player answers at
//! the prompt with the cards it turned up, or Enter (played, nothing to
//! say), or another move (`4-3/1`, `deal`), or a word: `undo`, `fix
//! CARDS`, `board`, `save FILE [--force]`, `hint`, `quit`, `help`. Cards
//! the file knows (a face-down or stock card written in it) are never
//! asked for: they turn up by themselves, and a different card typed for
//! them is refused. The blind player still sees only a [`View`]: the
//! companion keeps the file's cards beside it.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};

use spider_analyzer::cards::{Card, Suit};
use spider_analyzer::deal::{Deal, PILES, Place};
use spider_analyzer::game::{Move, WrittenMove};

use super::known::Known;
use super::prompt::{Answer, HELP, parse_answer};
use spider_analyzer::stats::Interval;
use spider_analyzer::text::count;
use spider_analyzer::unknown::blind::{Choice, HiddenSettings, Player};
use spider_analyzer::unknown::policy::Policy;
use spider_analyzer::unknown::view::View;

/// What [`State::step`] says when the player quits at its prompt.
const QUIT: &str = "\u{0}quit";

/// A move played: the view before it, the move, the cards it turned up
/// (pile order, the file's known cards included) and the view after.
struct Played {
    before: View,
    mv: Move,
    turned: Vec<Card>,
    after: View,
    /// How many of `turned` the player typed (the others the file knew).
    typed: usize,
}

/// The live game (see the module docs).
pub struct Companion<'a> {
    pub name: &'a str,
    /// The input file, if any (a save never writes over it).
    pub inputs: &'a [&'a Path],
    pub settings: &'a HiddenSettings,
    pub max_moves: usize,
    pub seed: u64,
    /// `--html`: the page of the game, written again after each change,
    /// and whether the first write may replace a file (`--force`).
    pub html: Option<(&'a Path, bool)>,
}

/// How a turn ended.
enum Turn {
    Played(Box<Played>),
    /// The move was not played after all (a word handled, or a move
    /// refused): ask again.
    Again,
    /// The position changed (an undo, a fix): the player chooses again.
    Changed,
    Exit(ExitCode),
}

impl Companion<'_> {
    pub fn run(&self, deal: &Deal, start: View) -> anyhow::Result<ExitCode> {
        let cancel = super::cancel_on_ctrl_c();
        let known = Known::of(deal);
        let stdin = std::io::stdin();
        let mut state = State {
            known,
            view: start,
            before: deal.moves_played,
            history: Vec::new(),
            player: self.settings.new_player(),
            saved: None,
            suggestion: None,
            echoes: std::io::IsTerminal::is_terminal(&stdin),
            input: stdin.lock(),
            out: std::io::stdout().lock(),
        };
        let out = &mut state.out;
        writeln!(
            out,
            "{}: {} not seen yet; seed {} (--seed {} gives the same moves)",
            self.name,
            count(state.view.hidden_count() as u64, "card"),
            self.seed,
            self.seed
        )?;
        if state.before > 0 {
            writeln!(
                out,
                "the file's position is after move {} (its `moves_played`): the next move is move {}",
                state.before,
                state.before + 1
            )?;
        }
        let known_hidden = state.known.hidden(&state.view).len();
        if known_hidden > 0 {
            writeln!(
                out,
                "{} of them known from the file: they are not asked for when they turn up (the player does not see them)",
                if known_hidden == 1 {
                    "1".to_string()
                } else {
                    known_hidden.to_string()
                }
            )?;
        }
        writeln!(
            out,
            "{}",
            super::player::what_chances_mean(state.view.suits(), self.settings.player)
        )?;
        writeln!(out, "{}", board(&state.view))?;
        writeln!(out, "type `help` at any prompt for what you can say")?;
        let start = state.view.clone();
        let mut force = self.html.is_some_and(|(_, force)| force);
        let mut first_page = true;
        loop {
            if let Some((path, _)) = self.html {
                // The first write is checked like any output; a later one
                // that fails is said, and the game goes on.
                match self.write_page(path, force, &start, &state) {
                    Ok(()) => {}
                    Err(e) if first_page => return Err(e),
                    Err(e) => writeln!(state.out, "  page not written: {e:#}")?,
                }
                // From now on the file is the page itself.
                force = true;
                first_page = false;
            }
            if state.view.is_won() {
                writeln!(state.out, "the game is won after {}", state.played())?;
                return Ok(ExitCode::SUCCESS);
            }
            if state.history.len() >= self.max_moves {
                let played = count(state.history.len() as u64, "move");
                writeln!(
                    state.out,
                    "stopped: {played} played in this session (--max-moves)"
                )?;
                return Ok(ExitCode::from(3));
            }
            let number = state.moves() + 1;
            let choice = state.player.choose(&state.view, &cancel)?;
            if cancel.load(Ordering::Relaxed) {
                return state.interrupted("while the player chose a move");
            }
            let legal = state.view.moves();
            state.suggestion = None;
            let suggested = match choice {
                Some(choice) => {
                    state.suggestion = Some(choice.clone());
                    let Choice {
                        mv, win_estimate, ..
                    } = choice;
                    let win_estimate =
                        self.estimate(&state.view, mv, win_estimate, number, &cancel)?;
                    if cancel.load(Ordering::Relaxed) {
                        return state.interrupted("while the player rated its move");
                    }
                    let out = &mut state.out;
                    writeln!(out, "move {number}: {mv}  ({})", state.view.describe(mv))?;
                    writeln!(
                        out,
                        "  chance to win from here: {}",
                        super::player::chance(
                            win_estimate,
                            Some(&spider_analyzer::unknown::odds::counts_of(&state.view)),
                            self.settings.player,
                            state.view.suits(),
                            super::player::ChanceForm::Long
                        )
                    )?;
                    Some(mv)
                }
                None if legal.is_empty() => {
                    writeln!(
                        state.out,
                        "no move left: the game is lost after {} (`undo` takes a move back)",
                        state.played()
                    )?;
                    None
                }
                None => {
                    let why = if state.player.stats().gave_up {
                        "the player gives up, 200 moves in a row without a plan (no winning line in any sample, no line of the lookahead); the game looks lost".to_string()
                    } else {
                        super::player::gave_up_why(self.settings)
                    };
                    writeln!(
                        state.out,
                        "move {number}: no move suggested: {why}; {}: type one, or `quit`",
                        if legal.len() == 1 {
                            "1 move is legal".to_string()
                        } else {
                            format!("{} moves are legal", legal.len())
                        }
                    )?;
                    None
                }
            };
            loop {
                match self.turn(&mut state, suggested, &cancel)? {
                    Turn::Played(played) => {
                        state
                            .player
                            .observe(played.mv, &played.after, &played.turned);
                        state.view = played.after.clone();
                        state.history.push(*played);
                        break;
                    }
                    Turn::Again => {}
                    Turn::Changed => break,
                    Turn::Exit(code) => return Ok(code),
                }
            }
        }
    }

    /// The page of the game so far (`--html`).
    fn write_page(
        &self,
        path: &Path,
        force: bool,
        start: &View,
        state: &State,
    ) -> anyhow::Result<()> {
        use spider_analyzer::html::play::{Caption, LiveMove, live_page};
        let history = &state.history;
        let from = if state.before == 0 {
            String::new()
        } else {
            format!(
                " from the file's position after move {} (the page's steps count from there)",
                state.before
            )
        };
        let caption = Caption {
            title: format!("{}: a live game", self.name),
            lines: vec![
                format!(
                    "{} played{from}, as the player told the companion; the cards turned up are those typed (or known from the file), the cards never seen stay face down.",
                    count(history.len() as u64, "move")
                ),
                "Step with the buttons, the arrow keys or the slider; the moved cards are yellow, a card that turned up is marked blue.".into(),
            ],
        };
        let played: Vec<LiveMove> = history
            .iter()
            .map(|p| LiveMove {
                before: &p.before,
                mv: p.mv,
                turned: &p.turned,
                after: &p.after,
            })
            .collect();
        let page = live_page(&caption, start, &played);
        super::output::write(path, self.inputs, force, |out| {
            out.write_all(page.as_bytes())
        })
    }

    /// A player that solves no sample gives no chance: the move's share of
    /// sampled completions won after it stands in (a stream of its own, so
    /// the moves are those of `--blind` and `batch`).
    fn estimate(
        &self,
        view: &View,
        mv: Move,
        estimate: Option<Interval>,
        number: usize,
        cancel: &AtomicBool,
    ) -> anyhow::Result<Option<Interval>> {
        let settings = self.settings;
        Ok(match estimate {
            None if settings.player == Player::Lookahead => {
                let won = spider_analyzer::unknown::sample::won_share_after(
                    &view.deal(),
                    &view.unseen(),
                    &[mv],
                    settings.samples,
                    settings.seed ^ (number as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15),
                    &settings.limits,
                    cancel,
                )?;
                Interval::of(won, settings.samples)
            }
            known => known,
        })
    }

    /// One prompt and what follows from it: a move played (with its cards
    /// asked for), a word handled, or the end.
    fn turn(
        &self,
        state: &mut State,
        suggested: Option<Move>,
        cancel: &AtomicBool,
    ) -> anyhow::Result<Turn> {
        let asks = suggested.map_or(0, |mv| state.unknown_turning(mv));
        let question = match (suggested, asks) {
            (None, _) => "  your move? ".to_string(),
            (Some(_), 0) => "  played? (Enter; or your move; `help`) ".to_string(),
            (Some(Move::Deal), n) => format!("  which {n} cards were dealt, pile 1 to 10? "),
            (Some(_), 1) => "  which card turned up? ".to_string(),
            (Some(_), n) => format!("  which {n} cards turned up, pile by pile? "),
        };
        let Some(line) = state.read(&question)? else {
            return state.end_of_input();
        };
        let answer = match parse_answer(&line) {
            Ok(answer) => answer,
            Err(message) => {
                writeln!(state.out, "  {message}; again, please")?;
                return Ok(Turn::Again);
            }
        };
        match answer {
            // Enter says only "played": a card it turned up is still to
            // be typed, so ask for it plainly rather than ask again.
            Answer::Enter => match suggested {
                Some(mv) if asks > 0 => {
                    writeln!(
                        state.out,
                        "  {mv} turns up {}: type {} (or the move you played instead)",
                        if asks == 1 {
                            "a card".to_string()
                        } else {
                            count(asks as u64, "card")
                        },
                        if asks == 1 {
                            "it"
                        } else {
                            "them, pile 1 first"
                        }
                    )?;
                    Ok(Turn::Again)
                }
                Some(mv) => self.play(state, mv, Vec::new()),
                None => Ok(Turn::Again),
            },
            Answer::Cards(cards) => match suggested {
                Some(mv) => self.play(state, mv, cards),
                None => {
                    writeln!(
                        state.out,
                        "  no move is suggested: type the move you played first; again, please"
                    )?;
                    Ok(Turn::Again)
                }
            },
            Answer::Move(written, cards) => match state.resolve(written) {
                Ok(mv) => self.play(state, mv, cards),
                Err(message) => {
                    writeln!(state.out, "  {message}; again, please")?;
                    Ok(Turn::Again)
                }
            },
            Answer::Undo => {
                match state.history.pop() {
                    None => {
                        writeln!(state.out, "  nothing to undo: {}", state.none_played())?;
                        // Nothing changed: the same question again.
                        return Ok(Turn::Again);
                    }
                    Some(last) => {
                        let turned = if last.turned.is_empty() {
                            String::new()
                        } else {
                            format!(" and the cards it turned up ({})", cards_text(&last.turned))
                        };
                        writeln!(state.out, "  undone: {}{turned}", last.mv)?;
                        state.view = last.before;
                        state.replay_player(self.settings);
                        writeln!(state.out, "{}", board(&state.view))?;
                    }
                }
                Ok(Turn::Changed)
            }
            Answer::Fix(cards) => {
                let Some(last) = state.history.pop() else {
                    writeln!(state.out, "  nothing to fix: {}", state.none_played())?;
                    return Ok(Turn::Again);
                };
                let view = std::mem::replace(&mut state.view, last.before.clone());
                match state.step(last.mv, cards, false)? {
                    Ok(played) => {
                        writeln!(
                            state.out,
                            "  fixed: {} turned up {}",
                            played.mv,
                            cards_text(&played.turned)
                        )?;
                        state.view = played.after.clone();
                        state.history.push(played);
                        state.replay_player(self.settings);
                        writeln!(state.out, "{}", board(&state.view))?;
                    }
                    Err(message) => {
                        writeln!(state.out, "  {message}; nothing changed")?;
                        state.view = view;
                        state.history.push(last);
                    }
                }
                // The player chooses again from the corrected position.
                Ok(Turn::Changed)
            }
            Answer::Board => {
                writeln!(state.out, "{}", board(&state.view))?;
                let known = state.known.hidden(&state.view).len();
                if known > 0 {
                    writeln!(
                        state.out,
                        "({} of the cards not seen known from the file)",
                        count(known as u64, "card")
                    )?;
                }
                Ok(Turn::Again)
            }
            Answer::Save(path, force) => {
                let mut deal = state.known.deal(&state.view);
                deal.moves_played = state.moves();
                let text = format!(
                    "# {}: the position after {} (spider play resumes it)\n{}",
                    self.name,
                    count(state.moves() as u64, "move"),
                    spider_analyzer::deal::yaml::to_string(&deal)
                );
                match super::output::write(&path, self.inputs, force, |out| {
                    out.write_all(text.as_bytes())
                }) {
                    Ok(()) => {
                        writeln!(
                            state.out,
                            "  saved to {} (`spider play {}` goes on from here)",
                            path.display(),
                            path.display()
                        )?;
                        state.saved = Some((path, state.moves()));
                    }
                    Err(e) => writeln!(state.out, "  not saved: {e:#}")?,
                }
                Ok(Turn::Again)
            }
            Answer::Hint => {
                self.hint(state, cancel)?;
                Ok(Turn::Again)
            }
            Answer::Help => {
                writeln!(state.out, "{HELP}")?;
                Ok(Turn::Again)
            }
            Answer::Quit => {
                writeln!(state.out, "{}", state.summary("quit"))?;
                let lost = state.view.moves().is_empty();
                Ok(Turn::Exit(ExitCode::from(if lost { 1 } else { 3 })))
            }
        }
    }

    /// Plays `mv`: the cards given first, then each card it turns up that
    /// the file does not know asked for.
    fn play(&self, state: &mut State, mv: Move, given: Vec<Card>) -> anyhow::Result<Turn> {
        match state.step(mv, given, true)? {
            Ok(played) => {
                state.announce(&played)?;
                Ok(Turn::Played(Box::new(played)))
            }
            Err(message) if message.is_empty() => state.end_of_input(),
            Err(message) if message == QUIT => {
                writeln!(state.out, "{}", state.summary("quit"))?;
                Ok(Turn::Exit(ExitCode::from(3)))
            }
            Err(message) => {
                writeln!(state.out, "  {message}; again, please")?;
                Ok(Turn::Again)
            }
        }
    }

    /// `hint`: every legal move with its share of sampled completions in
    /// which a win starts with it (the hint's list, at the player's solve
    /// budget).
    fn hint(&self, state: &mut State, cancel: &AtomicBool) -> anyhow::Result<()> {
        use spider_analyzer::unknown::{hint, sample};
        let deal = state.known.deal(&state.view);
        let candidates = spider_analyzer::deal::check::check(&deal).candidates();
        let samples = 30;
        let seed = self.seed ^ (state.moves() as u64 + 1).wrapping_mul(0x2545_f491_4f6c_dd1d);
        writeln!(
            state.out,
            "  solving {samples} sampled completions, then the best few moves in each winnable one…"
        )?;
        state.out.flush()?;
        let decided = sample::decide_sample(
            &deal,
            &candidates,
            samples,
            seed,
            &self.settings.limits,
            cancel,
            &|_| {},
        )?;
        // The best few moves and the one suggested tried in every winnable
        // completion, as `spider hint` does: a share is the move's, not
        // only that of the first move of the one line the solver found.
        let list = super::hint::try_moves(
            &deal,
            &decided,
            hint::Method::Verify {
                best: Some(hint::VERIFIED_MOVES),
                also: state.suggestion.as_ref().map(|c| c.mv),
            },
            &self.settings.limits,
            cancel,
            &|_| {},
        )?;
        if cancel.load(Ordering::Relaxed) {
            let _ = state.interrupted("while the hint's completions were solved");
        }
        // The move to play now is the one suggested, as in `spider hint`.
        let odds = super::player::odds_line(
            &state.view,
            self.settings.player,
            state.suggestion.as_ref().and_then(|c| c.win_estimate),
        );
        super::hint::print_hint(
            &mut state.out,
            &list,
            true,
            state.suggestion.as_ref(),
            odds.as_deref(),
            "`save FILE`, then `spider hint FILE` decides 100 completions, each within 2,000,000 positions",
        )?;
        Ok(())
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards
        .iter()
        .map(|c| c.pretty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn suit_name(suit: Suit) -> String {
    suit.symbol().to_string()
}

struct State<'a> {
    known: Known,
    view: View,
    /// The moves played before the file's position (its `moves_played`):
    /// the game's moves are numbered on from there.
    before: usize,
    /// The moves played in this session, the last one last.
    history: Vec<Played>,
    player: Box<dyn Policy + Send>,
    /// The player's choice at this move, if any.
    suggestion: Option<Choice>,
    /// The last file saved, and after how many moves.
    saved: Option<(PathBuf, usize)>,
    input: std::io::StdinLock<'a>,
    out: std::io::StdoutLock<'a>,
    /// Whether the input is a terminal, which shows what is typed.
    echoes: bool,
}

impl State<'_> {
    /// The moves of the game so far, those before the file's position
    /// included.
    fn moves(&self) -> usize {
        self.before + self.history.len()
    }

    /// `45 moves`, and how many of them in this session when the file
    /// said moves were played before it: `45 moves, 5 in this session`.
    fn played(&self) -> String {
        let all = count(self.moves() as u64, "move");
        if self.before == 0 {
            all
        } else {
            format!("{all}, {} in this session", self.history.len())
        }
    }

    /// Why there is no move to take back.
    fn none_played(&self) -> String {
        if self.before == 0 {
            "no move played yet".to_string()
        } else {
            format!(
                "no move played in this session (the file's position is after move {}; its moves are not known)",
                self.before
            )
        }
    }

    /// Asks `question` and reads a line; `None` at end of input. Ctrl-C
    /// while it waits exits at once (130), naming the file saved.
    fn read(&mut self, question: &str) -> anyhow::Result<Option<String>> {
        write!(self.out, "{question}")?;
        self.out.flush()?;
        let note = self.stop_note("stopped by Ctrl-C");
        let input = &mut self.input;
        let mut line = String::new();
        let read = super::at_prompt(note, || input.read_line(&mut line))?;
        if read == 0 {
            return Ok(None);
        }
        let line = line.trim().to_string();
        // From a pipe nothing echoes the answer: the transcript shows it.
        if !self.echoes {
            writeln!(self.out, "{line}")?;
        }
        Ok(Some(line))
    }

    fn stop_note(&self, what: &str) -> String {
        let played = self.played();
        match &self.saved {
            Some((path, at)) => format!(
                "{what} after {played}; the position after {} is saved in {} (`spider play {}` resumes it)",
                count(*at as u64, "move"),
                path.display(),
                path.display()
            ),
            None => format!(
                "{what} after {played}; nothing saved (`save FILE` at a prompt keeps the position)"
            ),
        }
    }

    fn interrupted(&mut self, when: &str) -> anyhow::Result<ExitCode> {
        writeln!(self.out)?;
        self.out.flush()?;
        eprintln!("{}", self.stop_note(&format!("stopped by Ctrl-C {when}")));
        Ok(ExitCode::from(super::EXIT_INTERRUPTED))
    }

    fn summary(&self, why: &str) -> String {
        let saved = match &self.saved {
            Some((path, at)) => format!("; saved in {} after move {at}", path.display()),
            None => String::new(),
        };
        format!(
            "{why}: stopped after {}; {} removed, {} not seen yet{saved}",
            self.played(),
            count(self.view.removed().len() as u64, "run"),
            count(self.view.hidden_count() as u64, "card")
        )
    }

    /// End of input: exit 3 (the game goes on), or 1 when no move is
    /// left (the game is lost).
    fn end_of_input(&mut self) -> anyhow::Result<Turn> {
        writeln!(self.out)?;
        writeln!(self.out, "{}", self.summary("end of input"))?;
        self.out.flush()?;
        let lost = self.view.moves().is_empty() && !self.view.is_won();
        Ok(Turn::Exit(ExitCode::from(if lost { 1 } else { 3 })))
    }

    /// A fresh player told the moves played so far (after an undo or a
    /// fix: the old one's plans were made for another game).
    fn replay_player(&mut self, settings: &HiddenSettings) {
        self.player = settings.new_player();
        for played in &self.history {
            self.player
                .observe(played.mv, &played.after, &played.turned);
        }
    }

    /// A move as typed, its count found when left out, and legal here.
    fn resolve(&self, written: WrittenMove) -> Result<Move, String> {
        let game = self.view.game();
        let position = self.view.position();
        let mv = match written {
            WrittenMove::Deal => Move::Deal,
            WrittenMove::Shift { from, to, count } => {
                let count = match count {
                    Some(count) => count,
                    None => game
                        .count_for(position, from as usize, to as usize)
                        .map_err(|e| format!("{}-{}: {e}", from + 1, to + 1))?,
                };
                Move::Shift { from, to, count }
            }
        };
        game.check(position, mv)
            .map_err(|e| format!("{mv} is not legal here: {e}"))?;
        Ok(mv)
    }

    /// How many cards `mv` turns up that the file does not know.
    fn unknown_turning(&self, mv: Move) -> usize {
        let game = self.view.game();
        if game.check(self.view.position(), mv).is_err() {
            return 0;
        }
        let step = game.apply(self.view.position(), mv);
        game.revealed_places(&step)
            .into_iter()
            .filter(|&p| self.known.at(p).is_none())
            .count()
    }

    /// The cards the player may type for a place not known: those not
    /// seen, less the file's known cards still out of sight.
    fn typable(&self) -> Vec<Card> {
        let mut pool = self.view.unseen();
        for card in self.known.hidden(&self.view) {
            if let Some(at) = pool.iter().position(|&c| c == card) {
                pool.remove(at);
            }
        }
        pool
    }

    /// Plays `mv` from the view: each round of cards it turns up filled
    /// from the file's known cards, then from `given`, then (if `ask`)
    /// from the prompt. `Err` with a message when the move or a card is
    /// refused (an empty message: end of input).
    fn step(
        &mut self,
        mv: Move,
        given: Vec<Card>,
        ask: bool,
    ) -> anyhow::Result<Result<Played, String>> {
        let game = self.view.game().clone();
        let position = self.view.position().clone();
        if let Err(e) = game.check(&position, mv) {
            return Ok(Err(format!("{mv} is not legal here: {e}")));
        }
        let mut step = game.apply(&position, mv);
        let mut pool = self.typable();
        let mut given = given.into_iter();
        let mut turned: Vec<Card> = Vec::new();
        let mut first_round = true;
        let mut typed_total = 0;
        while step.position.is_reveal() {
            let places = game.revealed_places(&step);
            let unknown = places
                .iter()
                .filter(|&&p| self.known.at(p).is_none())
                .count();
            let mut typed: Vec<Card> = given.by_ref().take(unknown).collect();
            while typed.len() < unknown {
                if !ask {
                    return Ok(Err(format!(
                        "{mv} turns up {}, {} given",
                        count(unknown as u64, "card"),
                        typed.len()
                    )));
                }
                let want = unknown - typed.len();
                let question = if !first_round {
                    format!(
                        "  the move completed a run, which uncovered {}: which? ",
                        count(want as u64, "card")
                    )
                } else if mv == Move::Deal && typed.is_empty() {
                    format!("  which {want} cards were dealt, pile 1 to 10? ")
                } else if mv == Move::Deal {
                    // The piles still to say, those the file does not know.
                    let next = places
                        .iter()
                        .filter_map(|&p| match p {
                            Place::Stock { pile, .. } if self.known.at(p).is_none() => Some(pile),
                            _ => None,
                        })
                        .nth(typed.len())
                        .unwrap_or(PILES);
                    if want == 1 {
                        format!("  which card was dealt on pile {next}? ")
                    } else {
                        format!("  which {want} more cards were dealt, pile {next} on? ")
                    }
                } else if want == 1 {
                    "  which card turned up? ".to_string()
                } else {
                    format!("  which {want} cards turned up, pile by pile? ")
                };
                let Some(line) = self.read(&question)? else {
                    return Ok(Err(String::new()));
                };
                match parse_answer(&line) {
                    Ok(Answer::Cards(cards)) if cards.len() <= want => typed.extend(cards),
                    Ok(Answer::Cards(cards)) => writeln!(
                        self.out,
                        "  {} given, {want} expected; again, please",
                        count(cards.len() as u64, "card")
                    )?,
                    Ok(Answer::Help) => writeln!(self.out, "{HELP}")?,
                    Ok(Answer::Board) => writeln!(self.out, "{}", board(&self.view))?,
                    Ok(Answer::Quit) => return Ok(Err(String::from(QUIT))),
                    Ok(Answer::Undo) => {
                        return Ok(Err(format!(
                            "{mv} not played (type the move again, with its cards)"
                        )));
                    }
                    Ok(Answer::Enter) => writeln!(
                        self.out,
                        "  {} please, or `undo`",
                        if want == 1 { "the card" } else { "the cards" }
                    )?,
                    Ok(_) => writeln!(
                        self.out,
                        "  the cards {mv} turned up, please (`undo` takes the move back)"
                    )?,
                    Err(message) => writeln!(self.out, "  {message}; again, please")?,
                }
            }
            first_round = false;
            typed_total += unknown;
            // The round's cards, pile order: the file's known, the typed.
            let mut typed = typed.into_iter();
            let mut round = Vec::with_capacity(places.len());
            for &place in &places {
                let card = match self.known.at(place) {
                    Some(card) => card,
                    None => {
                        let card = typed.next().expect("counted above");
                        if !game.suits().suits().contains(&card.suit()) {
                            return Ok(Err(format!(
                                "{} cannot be there: this is a {}-suit game",
                                card.pretty(),
                                game.suits().count()
                            )));
                        }
                        match pool.iter().position(|&c| c == card) {
                            Some(at) => {
                                pool.remove(at);
                            }
                            None => {
                                let known = self.known.hidden(&self.view).contains(&card);
                                return Ok(Err(format!(
                                    "{} cannot be there: every copy of it is already face up, removed or named{}",
                                    card.pretty(),
                                    if known {
                                        " (the file places the last one elsewhere)"
                                    } else {
                                        ""
                                    }
                                )));
                            }
                        }
                        card
                    }
                };
                round.push(card);
            }
            turned.extend(&round);
            step = game.fill_revealed(&step.position, &round)?;
        }
        if let Some(extra) = given.next() {
            let what = if turned.is_empty() {
                format!("{mv} turns up no card: {} cannot be there", extra.pretty())
            } else if typed_total == 0 {
                format!(
                    "{mv} turns up {}, known from the file: {} cannot be there",
                    cards_text(&turned),
                    extra.pretty()
                )
            } else {
                format!(
                    "{mv} turns up {}, more given",
                    count(typed_total as u64, "card")
                )
            };
            return Ok(Err(what));
        }
        let after = self
            .view
            .after(mv, &turned)
            .map_err(|e| anyhow::anyhow!("{e}"));
        match after {
            Ok(after) => Ok(Ok(Played {
                before: self.view.clone(),
                mv,
                turned,
                after,
                typed: typed_total,
            })),
            Err(e) => Ok(Err(e.to_string())),
        }
    }

    /// What a move did, beyond the move: the cards it turned up (those
    /// the file knew said so), the row dealt, the runs removed.
    fn announce(&mut self, played: &Played) -> anyhow::Result<()> {
        let before = &played.before;
        let after = &played.after;
        if played.mv == Move::Deal {
            writeln!(
                self.out,
                "  dealt row {} of the stock: {} left",
                self.known.stock.len() - before.rows_left() + 1,
                count(after.rows_left() as u64, "row")
            )?;
        }
        if !played.turned.is_empty() {
            let all_known = played.typed == 0;
            writeln!(
                self.out,
                "  turned up: {}{}",
                cards_text(&played.turned),
                if all_known {
                    " (known from the file)"
                } else {
                    ""
                }
            )?;
        }
        let removed = &after.removed()[before.removed().len()..];
        for (i, suit) in removed.iter().enumerate() {
            writeln!(
                self.out,
                "  a run of {} K to A is complete and removed ({} of 8 removed)",
                suit_name(*suit),
                before.removed().len() + i + 1
            )?;
        }
        Ok(())
    }
}

/// The table as the player sees it (a face-down card the file knows is
/// still `XX`: the player has not seen it).
pub(crate) fn board(view: &View) -> spider_analyzer::game::Board {
    spider_analyzer::game::Board::of(view.game(), view.position(), view.removed())
}
