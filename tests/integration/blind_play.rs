//! The blind player cannot peek: two deals that differ only in hidden cards
//! are played alike until one of those cards turns up, and `spider play
//! --blind` never names a card before it is turned up. And `spider play`
//! live, from a pipe.

use std::collections::HashMap;
use std::sync::atomic::AtomicBool;

use assert_cmd::Command;
use spider_analyzer::cards::{Card, CardSlot, SuitCount};
use spider_analyzer::deal::{Deal, Rules, numbered, yaml};
use spider_analyzer::game::Move;
use spider_analyzer::solve::Limits;
use spider_analyzer::unknown::blind::{HiddenSettings, PlayedMove, Player, play_blind};
use spider_analyzer::unknown::referee::Referee;
use spider_analyzer::unknown::view::View;

fn spider() -> Command {
    Command::cargo_bin("spider").unwrap()
}

fn settings(seed: u64) -> HiddenSettings {
    HiddenSettings {
        player: Player::Hop,
        samples: 2,
        limits: Limits {
            max_positions: Some(5_000),
            ..Limits::default()
        },
        max_moves: 150,
        lookahead: 2_000,
        late_lookahead: None,
        check: spider_analyzer::unknown::blind::DEFAULT_CHECK,
        seed,
    }
}

/// Own 1-suit deal 5 and the same deal with two hidden cards swapped: the
/// bottom face-down cards of piles 1 and 2 (J♠ and A♠), and the first two
/// cards of the last stock row.
fn twins() -> (Deal, Deal) {
    let deal = numbered::deal(5, SuitCount::One, Rules::Standard);
    let mut other = deal.clone();
    let (a, b) = (other.piles[0].face_down[0], other.piles[1].face_down[0]);
    assert_ne!(a, b);
    other.piles[0].face_down[0] = b;
    other.piles[1].face_down[0] = a;
    let last = other.stock.len() - 1;
    other.stock[last].swap(0, 3);
    assert_ne!(deal, other);
    assert_eq!(
        View::of(&deal).unwrap().deal(),
        View::of(&other).unwrap().deal()
    );
    (deal, other)
}

fn log(deal: &Deal, seed: u64) -> Vec<PlayedMove> {
    log_of(deal, seed, Player::Hop)
}

fn log_of(deal: &Deal, seed: u64, player: Player) -> Vec<PlayedMove> {
    let mut referee = Referee::new(deal).unwrap();
    let mut settings = settings(seed);
    settings.player = player;
    let mut player = settings.new_player();
    play_blind(
        &mut referee,
        player.as_mut(),
        150,
        &AtomicBool::new(false),
        &mut |_| {},
    )
    .unwrap()
    .log
}

/// The moves of two logs agree up to and including the first move whose
/// turned-up cards differ; returns that move's index, if any.
fn same_until_a_difference_turns_up(
    a: &[(Move, Vec<String>)],
    b: &[(Move, Vec<String>)],
) -> Option<usize> {
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert_eq!(
            x.0,
            y.0,
            "move {} differs before any hidden difference turned up",
            i + 1
        );
        if x.1 != y.1 {
            return Some(i);
        }
    }
    assert_eq!(
        a.len(),
        b.len(),
        "one game stopped before the other with the same cards seen"
    );
    None
}

fn moves_and_cards(log: &[PlayedMove]) -> Vec<(Move, Vec<String>)> {
    log.iter()
        .map(|p| (p.mv, p.turned.iter().map(Card::to_string).collect()))
        .collect()
}

#[test]
fn the_blind_player_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let (deal, other) = twins();
    let (a, b) = (log(&deal, 11), log(&other, 11));
    assert!(!a.is_empty());
    let split = same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b));
    // J♠ and A♠ under five cards each: some move turns one of them up.
    assert!(split.is_some(), "the swapped cards never turned up");
}

/// The same at 4 suits, for HOP (which drops a move only one plan starts
/// with and plays the lookahead's line, `blind::min_votes`) and for the
/// lookahead player (the default, whose search keeps same-suit runs
/// whole): PySol 7 and the same deal with the top face-down cards of two
/// piles swapped, for piles 1 and 2, 3 and 4, 5 and 6. Every pair plays
/// alike until a swapped card turns up, and in one game at least one does.
#[test]
fn at_four_suits_hop_plays_deals_alike_until_a_hidden_difference_turns_up() {
    four_suit_twins_play_alike(Player::Hop);
}

#[test]
fn at_four_suits_the_lookahead_player_plays_deals_alike_until_a_hidden_difference_turns_up() {
    four_suit_twins_play_alike(Player::Lookahead);
}

fn four_suit_twins_play_alike(player: Player) {
    let deal = spider_analyzer::deal::pysol::deal(7, Rules::Standard).unwrap();
    let a = log_of(&deal, 3, player);
    assert!(!a.is_empty());
    let mut splits = 0;
    for first in [0, 2, 4] {
        let mut other = deal.clone();
        let (x, y) = (
            *other.piles[first].face_down.last().unwrap(),
            *other.piles[first + 1].face_down.last().unwrap(),
        );
        if x == y {
            continue;
        }
        *other.piles[first].face_down.last_mut().unwrap() = y;
        *other.piles[first + 1].face_down.last_mut().unwrap() = x;
        assert_eq!(
            View::of(&deal).unwrap().deal(),
            View::of(&other).unwrap().deal()
        );
        let b = log_of(&other, 3, player);
        if same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b)).is_some() {
            splits += 1;
        }
    }
    assert!(splits > 0, "{player}: no swapped card ever turned up");
}

/// Own 1-suit deal 5 after its five rows are dealt at once (the stock
/// spent, every face-down card still down), and the same position with
/// the top face-down cards of piles 1 and 2 (the next to turn up there)
/// swapped.
fn twins_with_the_stock_spent() -> (Deal, Deal) {
    let start = numbered::deal(5, SuitCount::One, Rules::Standard);
    let game = spider_analyzer::game::Game::new(&start).unwrap();
    let mut position = game.start().clone();
    for _ in 0..5 {
        game.check(&position, Move::Deal).unwrap();
        position = game.apply(&position, Move::Deal).position;
    }
    let deal = game.deal_at(&position).unwrap();
    assert!(deal.stock.is_empty());
    let mut other = deal.clone();
    let (i, j) = (
        other.piles[0].face_down.len() - 1,
        other.piles[1].face_down.len() - 1,
    );
    let (a, b) = (other.piles[0].face_down[i], other.piles[1].face_down[j]);
    assert_ne!(a, b);
    other.piles[0].face_down[i] = b;
    other.piles[1].face_down[j] = a;
    assert_eq!(
        View::of(&deal).unwrap().deal(),
        View::of(&other).unwrap().deal()
    );
    (deal, other)
}

/// With the stock spent (no deal left to bring news), HOP still plays the
/// twins alike until a swapped card turns up.
#[test]
fn with_the_stock_spent_hop_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let (deal, other) = twins_with_the_stock_spent();
    let (a, b) = (log(&deal, 3), log(&other, 3));
    assert!(a.len() > 5, "{} moves", a.len());
    let split = same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b));
    assert!(split.is_some(), "the swapped cards never turned up");
}

/// HOP's check of the card to turn up (tests/data/blind/a-gamble.yaml, a
/// position of one of its lost games): the plans, each solved with its
/// sample's cards known, may turn up pile 2's card at once, which wins in
/// about a third of the completions (the solver goes there when it knows
/// the card is good); emptying pile 3 first wins in nearly all. Without
/// the check HOP takes the gamble for some seeds; with it, for none.
#[test]
fn hops_check_turns_down_a_card_turned_up_on_a_gamble() {
    let text = std::fs::read_to_string("tests/data/blind/a-gamble.yaml").unwrap();
    let deal = yaml::from_str(&text, std::path::Path::new("a-gamble.yaml")).unwrap();
    let view = View::of(&deal).unwrap();
    let gamble = view
        .moves()
        .into_iter()
        .find(|mv| mv.to_string() == "2-7/2")
        .expect("the gamble is legal");
    assert_eq!(view.turns_up(gamble).unwrap(), 1);
    let cancel = AtomicBool::new(false);
    let first_move = |seed: u64, check: usize| {
        let mut player = HiddenSettings {
            samples: 3,
            limits: Limits {
                max_positions: Some(100_000),
                ..Limits::default()
            },
            lookahead: 5_000,
            check,
            ..settings(seed)
        }
        .new_player();
        player.choose(&view, &cancel).unwrap().expect("a move").mv
    };
    let seeds = 1..=12u64;
    let unchecked = seeds
        .clone()
        .filter(|&s| first_move(s, 0) == gamble)
        .count();
    assert!(unchecked > 0, "without the check no seed took the gamble");
    for seed in seeds {
        assert_ne!(first_move(seed, 10), gamble, "seed {seed}");
    }
}

/// The same for the lookahead player: it reads only views too.
#[test]
fn the_lookahead_player_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let (deal, other) = twins();
    let player = Player::Lookahead;
    let (a, b) = (log_of(&deal, 5, player), log_of(&other, 5, player));
    assert!(!a.is_empty());
    let split = same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b));
    assert!(split.is_some(), "the swapped cards never turned up");
}

#[test]
fn a_view_holds_no_hidden_card_and_learns_only_what_turns_up() {
    let (deal, _) = twins();
    let mut referee = Referee::new(&deal).unwrap();
    let view = referee.view().clone();
    let masked = view.deal();
    assert!(
        masked
            .piles
            .iter()
            .all(|p| p.face_down.iter().all(|s| *s == CardSlot::Unknown))
    );
    assert!(
        masked
            .stock
            .iter()
            .flatten()
            .all(|s| *s == CardSlot::Unknown)
    );
    assert_eq!(view.unseen().len(), 94);
    // A deal turns up ten cards; the view gets exactly those.
    let turned = referee.play(Move::Deal).unwrap();
    assert_eq!(turned.len(), 10);
    let row: Vec<Card> = deal.stock[0].iter().map(|s| s.known().unwrap()).collect();
    assert_eq!(turned, row);
    assert_eq!(referee.view().unseen().len(), 84);
    // The live update agrees with the referee, and refuses what cannot be.
    assert_eq!(
        view.after(Move::Deal, &turned).unwrap().deal(),
        referee.view().deal()
    );
    assert!(view.after(Move::Deal, &turned[..9]).is_err());
}

fn write_yaml(dir: &tempfile::TempDir, name: &str, deal: &Deal) -> std::path::PathBuf {
    let path = dir.path().join(name);
    std::fs::write(&path, yaml::to_string(deal)).unwrap();
    path
}

fn blind_json(path: &std::path::Path, seed: &str) -> serde_json::Value {
    let output = spider()
        .args([
            "play",
            "--blind",
            "--json",
            "--player-samples",
            "2",
            "--solve-positions",
            "5000",
        ])
        .args(["--max-moves", "150", "-j", "1", "--seed", seed])
        .arg(path)
        .output()
        .unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

#[test]
fn play_blind_json_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let (deal, other) = twins();
    let dir = crate::scratch();
    let (p, q) = (
        write_yaml(&dir, "a.yaml", &deal),
        write_yaml(&dir, "b.yaml", &other),
    );
    let (a, b) = (blind_json(&p, "4"), blind_json(&q, "4"));
    // Each move keeps the seconds it took to choose; the game, the slowest.
    let times: Vec<f64> = a["log"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["seconds"].as_f64().expect("a move's seconds"))
        .collect();
    assert!(times.iter().all(|&t| t >= 0.0));
    let slowest = times.iter().copied().fold(0.0, f64::max);
    assert_eq!(a["slowest_move_seconds"].as_f64(), Some(slowest));
    let entries = |v: &serde_json::Value| -> Vec<(String, Vec<String>)> {
        v["log"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["turned"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|c| c.as_str().unwrap().to_string())
                        .collect(),
                )
            })
            .collect()
    };
    let (a, b) = (entries(&a), entries(&b));
    assert!(!a.is_empty());
    let mut split = None;
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        assert_eq!(
            x.0,
            y.0,
            "move {} differs before any hidden difference turned up",
            i + 1
        );
        if x.1 != y.1 {
            split = Some(i);
            break;
        }
    }
    assert!(split.is_some(), "the swapped cards never turned up");
    // The same seed repeats a game exactly.
    assert_eq!(entries(&blind_json(&p, "4")), a);
}

/// The cards a line names, in the tool's symbols (`10♠`, `A♥`).
fn cards_named(line: &str) -> Vec<String> {
    let mut cards = Vec::new();
    for word in line.split(|c: char| c.is_whitespace() || c == ',' || c == '(' || c == ')') {
        let Some(last) = word.chars().last() else {
            continue;
        };
        if "♠♥♦♣".contains(last) && word.parse::<Card>().is_ok() {
            cards.push(word.to_string());
        }
    }
    cards
}

#[test]
fn play_blind_never_names_a_card_before_it_turns_up() {
    let deal = numbered::deal(8, SuitCount::Two, Rules::Standard);
    let dir = crate::scratch();
    let path = write_yaml(&dir, "two.yaml", &deal);
    let output = spider()
        .args([
            "play",
            "--blind",
            "--player-samples",
            "2",
            "--solve-positions",
            "5000",
        ])
        .args(["--max-moves", "60", "-j", "1"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(matches!(output.status.code(), Some(0 | 1)), "{output:?}");
    let text = String::from_utf8(output.stdout).unwrap();
    // Seen so far, with multiplicity: the face-up cards at the start, then
    // every card turned up.
    let mut seen: HashMap<String, usize> = HashMap::new();
    let mut moves = 0;
    // The board drawn at the start, down to its `stock:` line.
    let mut board = true;
    for line in text.lines() {
        let cards = cards_named(line);
        if board || line.trim_start().starts_with("turned up:") {
            board &= !line.starts_with("stock:");
            for card in cards {
                *seen.entry(card).or_default() += 1;
            }
        } else if !cards.is_empty() {
            moves += 1;
            let mut named: HashMap<String, usize> = HashMap::new();
            for card in cards {
                *named.entry(card).or_default() += 1;
            }
            for (card, n) in named {
                assert!(
                    seen.get(&card).copied().unwrap_or(0) >= n,
                    "{card} named before it turned up: {line}"
                );
            }
        }
    }
    assert!(moves > 5, "{text}");
    // The real hidden cards are not in the first lines: the view shows XX.
    assert!(
        text.lines().nth(2).unwrap().starts_with(" XX   XX"),
        "{text}"
    );
}

/// One suit, seven runs removed; K♠..3♠ on pile 2, 2♠ on pile 1 over one
/// card never seen (it can only be A♠).
const ONE_HIDDEN: &str = "\
suits: 1
piles:
  - {face_down: [XX], face_up: [2S]}
  - {face_down: [], face_up: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S]}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
  - {face_down: [], face_up: []}
removed: [S, S, S, S, S, S, S]
";

fn live(stdin: &str) -> (Option<i32>, String) {
    let dir = crate::scratch();
    let path = dir.path().join("one.yaml");
    std::fs::write(&path, ONE_HIDDEN).unwrap();
    // HOP, named: the dialogues are scripted for its moves (at 1 suit the
    // default is the lookahead player).
    let output = spider()
        .args([
            "play",
            "--player",
            "hop",
            "--player-samples",
            "2",
            "--solve-positions",
            "5000",
            "-j",
            "1",
        ])
        .arg(&path)
        .write_stdin(stdin)
        .output()
        .unwrap();
    (
        output.status.code(),
        String::from_utf8(output.stdout).unwrap(),
    )
}

#[test]
fn play_live_refuses_a_card_that_cannot_be_there_and_asks_again() {
    let (code, text) = live("KS\n7h\nA♠\n\n");
    assert!(text.contains("K♠ cannot be there"), "{text}");
    assert!(text.contains("again, please"), "{text}");
    assert!(text.contains("chance to win from here"), "{text}");
    assert!(text.contains("the game is won"), "{text}");
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn play_live_stops_at_end_of_input_with_exit_3() {
    let (code, text) = live("");
    assert!(text.contains("which card turned up?"), "{text}");
    assert!(text.contains("end of input"), "{text}");
    assert_eq!(code, Some(3), "{text}");
}

#[test]
fn play_live_on_a_won_position_exits_0_and_a_blind_game_needs_every_card() {
    let won = "suits: 1\npiles:\n".to_string()
        + &"  - {face_down: [], face_up: []}\n".repeat(10)
        + "removed: [S, S, S, S, S, S, S, S]\n";
    let dir = crate::scratch();
    let path = dir.path().join("won.yaml");
    std::fs::write(&path, won).unwrap();
    spider()
        .args(["play"])
        .arg(&path)
        .write_stdin("")
        .assert()
        .code(0);
    let hidden = dir.path().join("one.yaml");
    std::fs::write(&hidden, ONE_HIDDEN).unwrap();
    spider()
        .args(["play", "--blind"])
        .arg(&hidden)
        .assert()
        .code(2)
        .stderr(predicates::str::contains("every card known"));
}

#[test]
fn batch_hidden_writes_a_results_file_and_resumes_it() {
    let dir = crate::scratch();
    let out = dir.path().join("blind.jsonl");
    let run = |range: &str, samples: &str| {
        spider()
            .args(["batch", "--hidden", "--number", range, "--suits", "1"])
            .args([
                "--hidden-samples",
                samples,
                "--hidden-max-positions",
                "3000",
            ])
            // A short lookahead: the file is what counts here (0.4 s of
            // CPU for the three games, not 8).
            .args(["--hidden-lookahead", "2000"])
            .args(["--max-positions", "3000", "-j", "1", "-o"])
            .arg(&out)
            .output()
            .unwrap()
    };
    let first = run("1..2", "1");
    assert_eq!(first.status.code(), Some(0), "{first:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.lines().nth(1).unwrap().contains("\"blind\""), "{text}");
    // A wider range plays only the new deal; the file grows, never shrinks.
    let second = run("1..3", "1");
    assert_eq!(second.status.code(), Some(0), "{second:?}");
    let stdout = String::from_utf8(second.stdout).unwrap();
    assert!(stdout.contains("1 game played this run"), "{stdout}");
    assert!(stdout.contains("won played blind"), "{stdout}");
    assert!(stdout.contains("CPU per game"), "{stdout}");
    assert!(stdout.contains(" s played blind (wall "), "{stdout}");
    assert!(stdout.contains("s to choose (deal "), "{stdout}");
    let now = std::fs::read_to_string(&out).unwrap();
    // Each game keeps the CPU its thread spent, which is never more than
    // its wall seconds (one thread, `-j 1`).
    for line in now.lines().skip(1) {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let blind = &record["blind"];
        let cpu = blind["cpu_seconds"].as_f64().expect("CPU seconds kept");
        let wall = blind["seconds"].as_f64().unwrap();
        assert!(cpu > 0.0 && cpu <= wall + 0.01, "{line}");
        let slowest = blind["slowest_move_seconds"]
            .as_f64()
            .expect("the slowest move");
        assert!(slowest > 0.0 && slowest <= wall, "{line}");
    }
    assert!(now.starts_with(&text));
    assert_eq!(now.lines().count(), 4);
    // Other settings are refused, and the file is left alone.
    let third = run("1..3", "2");
    assert_eq!(third.status.code(), Some(2), "{third:?}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), now);
    // The report page and the summary of the file show the share won
    // blind beside the share winnable with the cards known.
    let page = dir.path().join("blind.html");
    let summarized = spider()
        .args(["batch", "--summarize"])
        .arg(&out)
        .arg("--html")
        .arg(&page)
        .output()
        .unwrap();
    assert_eq!(summarized.status.code(), Some(0), "{summarized:?}");
    let summary = String::from_utf8(summarized.stdout).unwrap();
    // The run's own summary and --summarize print each share alike, in
    // the one form every report uses: `66.7 % (2 of 3; 95 % CI 20.8–93.9 %)`.
    let line = |text: &str, name: &str| {
        text.lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no `{name}` in {text}"))
            .to_string()
    };
    for name in ["won played blind", "winnable (known)"] {
        // The run adds how many were left undecided.
        let run_line = line(&stdout, name);
        assert!(
            run_line.starts_with(&line(&summary, name)),
            "{stdout}\n{summary}"
        );
        assert!(run_line.contains(" of 3; 95 % CI "), "{run_line}");
    }
    let html = std::fs::read_to_string(&page).unwrap();
    assert!(html.contains("data-games=\"3\""), "{html}");
    assert!(html.contains(" s of CPU"), "{html}");
    assert!(
        html.contains("Played blind (seeing only the face-up cards)"),
        "{html}"
    );
}

/// The lookahead's budget asked of `batch --hidden` is kept in the
/// results file with the game; the same study with another is refused,
/// naming it; and `spider play --blind --lookahead` with the game's seed
/// plays the study's game again.
#[test]
fn the_players_settings_are_kept_with_the_game_and_replayed_by_play() {
    let dir = crate::scratch();
    let out = dir.path().join("blind.jsonl");
    let run = |look: &str| {
        spider()
            .args(["batch", "--hidden", "--pysol", "3..3"])
            .args(["--hidden-player", "lookahead"])
            .args([
                "--hidden-lookahead",
                look,
                "--max-positions",
                "1",
                "-j",
                "1",
                "-o",
            ])
            .arg(&out)
            .output()
            .unwrap()
    };
    let first = run("3000");
    assert!(matches!(first.status.code(), Some(0 | 1)), "{first:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    let record: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
    let blind = &record["blind"];
    assert_eq!(blind["settings"]["lookahead"], 3000, "{text}");
    let refused = run("2000");
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("lookahead 3000"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text);
    let deal = dir.path().join("p3.yaml");
    let yaml = spider().args(["deal", "--pysol", "3"]).output().unwrap();
    std::fs::write(&deal, yaml.stdout).unwrap();
    let seed = blind["game_seed"].as_u64().unwrap().to_string();
    let play = |look: &str| {
        let out = spider()
            .args(["play", "--blind", "--json", "--player", "lookahead"])
            .args(["--lookahead", look, "--seed", &seed])
            .arg(&deal)
            .output()
            .unwrap();
        serde_json::from_slice::<serde_json::Value>(&out.stdout).unwrap()
    };
    let game = play("3000");
    assert_eq!(game["won"], blind["won"]);
    assert_eq!(game["moves"], blind["moves"]);
    assert_eq!(game["face_down_left"], blind["face_down_left"]);
    // The budget changes the game: with another, another line of moves.
    let moves = |game: &serde_json::Value| -> Vec<String> {
        let log = game["log"].as_array().unwrap();
        log.iter().map(|m| m["move"].to_string()).collect()
    };
    assert_ne!(moves(&play("2000")), moves(&game));
}

/// The lookahead player's late search (with one stock row left) is kept
/// in the results file: 20 times the lookahead at 4 suits unless
/// `--late-lookahead` names another, none at 2 suits; the same study with
/// another late budget is refused, naming it, the file untouched; and
/// the flag without `--hidden` is refused.
#[test]
fn the_late_search_is_kept_with_the_game_and_its_budget_checked() {
    let dir = crate::scratch();
    let study = |source: &[&str], late: Option<&str>, out: &std::path::Path| {
        let mut command = spider();
        command.args(["batch", "--hidden"]).args(source).args([
            "--lookahead",
            "300",
            "--max-positions",
            "1",
            "-j",
            "1",
        ]);
        if let Some(late) = late {
            command.args(["--late-lookahead", late]);
        }
        command.arg("-o").arg(out).output().unwrap()
    };
    let settings = |out: &std::path::Path| -> serde_json::Value {
        let text = std::fs::read_to_string(out).unwrap();
        let record: serde_json::Value = serde_json::from_str(text.lines().nth(1).unwrap()).unwrap();
        record["blind"]["settings"].clone()
    };
    let four = dir.path().join("four.jsonl");
    let first = study(&["--pysol", "3..3"], None, &four);
    assert!(matches!(first.status.code(), Some(0 | 1)), "{first:?}");
    assert_eq!(settings(&four)["late_lookahead"], 6000);
    let before = std::fs::read_to_string(&four).unwrap();
    let refused = study(&["--pysol", "3..3"], Some("7000"), &four);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(stderr.contains("late lookahead 6000"), "{stderr}");
    assert_eq!(std::fs::read_to_string(&four).unwrap(), before);
    let named = dir.path().join("named.jsonl");
    study(&["--pysol", "3..3"], Some("7000"), &named);
    assert_eq!(settings(&named)["late_lookahead"], 7000);
    let two = dir.path().join("two.jsonl");
    study(&["--number", "3..3", "--suits", "2"], None, &two);
    assert!(
        settings(&two).get("late_lookahead").is_none(),
        "{}",
        settings(&two)
    );
    let known = spider()
        .args(["batch", "--pysol", "3..3", "--late-lookahead", "10"])
        .args(["--max-positions", "1", "-o"])
        .arg(dir.path().join("known.jsonl"))
        .output()
        .unwrap();
    assert_eq!(known.status.code(), Some(2), "{known:?}");
    assert!(String::from_utf8_lossy(&known.stderr).contains("--late-lookahead"));
    assert!(!dir.path().join("known.jsonl").exists());
}

/// A deal whose card completes a run uncovers one more card: the view asks
/// for it (the ten dealt cards are not enough), then takes the eleven, with
/// the run removed and the card face up where the run lay.
/// Each game of a study keeps its own seed, the study's mixed with the
/// deal's number, and `spider play --blind --seed` with it plays that game
/// again: the same moves, outcome, runs removed and cards face down, on
/// three 1-suit deals with small budgets (HOP draws its samples with it).
/// The study's own seed is not the game's.
#[test]
fn a_studys_game_is_played_again_by_play_blind_with_its_seed() {
    let dir = crate::scratch();
    let out = dir.path().join("blind.jsonl");
    let budgets = ["2", "3000", "500"];
    let study = spider()
        .args(["batch", "--hidden", "--number", "1..3", "--suits", "1"])
        .args(["--hidden-player", "hop", "--hidden-samples", budgets[0]])
        .args(["--hidden-max-positions", budgets[1]])
        .args(["--hidden-lookahead", budgets[2]])
        .args(["--max-positions", "3000", "-j", "1", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(study.status.code(), Some(0), "{study:?}");
    let text = std::fs::read_to_string(&out).unwrap();
    for line in text.lines().skip(1) {
        let record: serde_json::Value = serde_json::from_str(line).unwrap();
        let number = record["number"].as_u64().unwrap();
        let blind = &record["blind"];
        let seed = blind["game_seed"].as_u64().expect("the game's seed kept");
        assert_ne!(seed, 1, "deal {number}");
        let deal = spider()
            .args(["deal", "--number", &number.to_string(), "--suits", "1"])
            .output()
            .unwrap();
        let file = dir.path().join(format!("d{number}.yaml"));
        std::fs::write(&file, &deal.stdout).unwrap();
        let played = spider()
            .args(["play", "--blind"])
            .arg(&file)
            .args(["--player", "hop", "--player-samples", budgets[0]])
            .args(["--solve-positions", budgets[1], "--lookahead", budgets[2]])
            .args(["--seed", &seed.to_string(), "--json", "-j", "1"])
            .output()
            .unwrap();
        let game: serde_json::Value = serde_json::from_slice(&played.stdout).unwrap();
        assert_eq!(game["won"], blind["won"], "deal {number}");
        for key in ["moves", "runs_removed", "face_down_left", "decisions"] {
            assert_eq!(game[key], blind[key], "deal {number}: {key}");
        }
    }
}

#[test]
fn a_dealt_card_that_completes_a_run_asks_for_the_card_it_uncovers() {
    let text = "\
suits: 1
piles:
  - {face_down: [XX], face_up: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S, 2S]}
  - {face_down: [], face_up: [KS, QS]}
  - {face_down: [], face_up: [KS, QS]}
  - {face_down: [], face_up: [JS, 10S]}
  - {face_down: [], face_up: [JS, 10S]}
  - {face_down: [], face_up: [9S, 8S]}
  - {face_down: [], face_up: [9S, 8S]}
  - {face_down: [], face_up: [7S, 6S]}
  - {face_down: [], face_up: [7S]}
  - {face_down: [], face_up: [6S]}
stock:
  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]
removed: [S, S, S, S, S]
";
    let deal = yaml::from_str(text, std::path::Path::new("chain.yaml")).unwrap();
    let view = View::of(&deal).unwrap();
    assert_eq!(view.hidden_count(), 11);
    assert_eq!(view.turns_up(Move::Deal).unwrap(), 10);
    let card = |t: &str| t.parse::<Card>().unwrap();
    let row: Vec<Card> = ["AS", "AS", "2S", "2S", "3S", "3S", "4S", "4S", "5S", "AS"]
        .map(card)
        .to_vec();
    match view.after(Move::Deal, &row) {
        Err(spider_analyzer::unknown::view::ViewError::NotEnough { needed, given }) => {
            assert_eq!((needed, given), (11, 10))
        }
        other => panic!("expected the uncovered card to be asked for: {other:?}"),
    }
    let mut eleven = row.clone();
    eleven.push(card("5S"));
    let after = view.after(Move::Deal, &eleven).unwrap();
    assert_eq!(after.removed().len(), 6);
    assert_eq!(after.face_up(0), vec![card("5S")]);
    assert_eq!(after.hidden_count(), 0);
    assert!(after.unseen().is_empty());
    // A twelfth card is one too many; a card every copy of which is seen
    // cannot be there.
    let mut twelve = eleven.clone();
    twelve.push(card("5S"));
    assert!(view.after(Move::Deal, &twelve).is_err());
    let mut wrong = row.clone();
    wrong[0] = card("KS");
    assert!(view.after(Move::Deal, &wrong).is_err());
}

/// The live companion through a deal: it asks for the card a move turned
/// up, then for the ten cards a deal puts down (refusing a card that cannot
/// be there and asking again), and plays the game to its win.
#[test]
fn play_live_asks_for_the_ten_cards_a_deal_puts_down() {
    let text = "\
suits: 1
piles:
  - {face_down: [XX], face_up: [KS, QS, JS, 10S, 9S, 8S, 7S, 6S, 5S, 4S, 3S, 2S]}
  - {face_down: [], face_up: [KS, QS]}
  - {face_down: [], face_up: [KS, QS]}
  - {face_down: [], face_up: [JS, 10S]}
  - {face_down: [], face_up: [JS, 10S]}
  - {face_down: [], face_up: [9S, 8S]}
  - {face_down: [], face_up: [9S, 8S]}
  - {face_down: [], face_up: [7S, 6S]}
  - {face_down: [], face_up: [7S]}
  - {face_down: [], face_up: [6S]}
stock:
  - [XX, XX, XX, XX, XX, XX, XX, XX, XX, XX]
removed: [S, S, S, S, S]
";
    let dir = crate::scratch();
    let path = dir.path().join("chain.yaml");
    std::fs::write(&path, text).unwrap();
    let output = spider()
        .args([
            "play",
            "--player",
            "hop",
            "--player-samples",
            "2",
            "--solve-positions",
            "5000",
            "-j",
            "1",
        ])
        .arg(&path)
        // Enter for each move that turns up nothing.
        .write_stdin(
            "\n5S\nAS AS 2S 2S 3S 3S 4S 4S AS KS\nAS AS 2S 2S 3S 3S 4S 4S AS 5S\n".to_string()
                + &"\n".repeat(30),
        )
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert!(text.contains("which card turned up?"), "{text}");
    assert!(
        text.contains(
            "which 10 cards were dealt, pile 1 to 10? AS AS 2S 2S 3S 3S 4S 4S AS KS\n  K♠ cannot be there"
        ),
        "{text}"
    );
    assert!(
        text.contains("turned up: A♠ A♠ 2♠ 2♠ 3♠ 3♠ 4♠ 4♠ A♠ 5♠"),
        "{text}"
    );
    assert!(text.contains("the game is won"), "{text}");
    assert_eq!(output.status.code(), Some(0), "{text}");
}

/// With no player named, `batch --hidden` plays the lookahead player at
/// every suit count (`Player::default_for`), and the results file keeps
/// which; naming one overrides it.
#[test]
fn the_default_blind_player_depends_on_the_suits() {
    let dir = crate::scratch();
    for (suits, named, expected) in [
        ("1", None, "lookahead"),
        ("2", None, "lookahead"),
        ("4", None, "lookahead"),
        ("2", Some("hop"), "hop"),
        ("4", Some("hop"), "hop"),
    ] {
        let out = dir.path().join(format!("{suits}-{named:?}.jsonl"));
        let mut command = spider();
        command
            .args(["batch", "--hidden", "--number", "1..1", "--suits", suits])
            .args(["--hidden-samples", "1", "--hidden-max-positions", "2000"])
            .args(["--hidden-lookahead", "500", "--max-positions", "2000"])
            .args(["-j", "1", "-o"])
            .arg(&out);
        if let Some(name) = named {
            command.args(["--hidden-player", name]);
        }
        let run = command.output().unwrap();
        assert_eq!(run.status.code(), Some(0), "{run:?}");
        let stdout = String::from_utf8(run.stdout).unwrap();
        assert!(
            stdout.contains(&format!("player {expected},")),
            "{suits} suits, {named:?}: {stdout}"
        );
        let text = std::fs::read_to_string(&out).unwrap();
        assert!(
            text.contains(&format!("\"player\":\"{expected}\"")),
            "{suits} suits, {named:?}: {text}"
        );
    }
}

/// At 2 suits the live game's player is the lookahead player, which solves
/// no sample: the chance it prints is the move's share of sampled
/// completions won after it, never "not known".
#[test]
fn play_live_at_two_suits_gives_the_lookahead_players_move_a_chance() {
    let dir = crate::scratch();
    let deal = numbered::deal(5, SuitCount::Two, Rules::Standard);
    let seen = View::of(&deal).unwrap().deal();
    let path = write_yaml(&dir, "two.yaml", &seen);
    let run = spider()
        .arg("play")
        .arg(&path)
        .args(crate::QUICK_PLAYER)
        .write_stdin("")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(3), "{run:?}");
    let stdout = String::from_utf8(run.stdout).unwrap();
    assert!(stdout.contains("move 1: "), "{stdout}");
    // A model's estimate with its interval in the words of every share,
    // and the upper bound beside it as a share of sampled completions.
    let chance = stdout
        .lines()
        .find(|l| l.starts_with("  chance to win from here: about "))
        .unwrap_or_else(|| panic!("{stdout}"));
    let (estimate, bound) = chance
        .split_once(" of this player's recorded games that passed positions like it); with every card known, ")
        .unwrap_or_else(|| panic!("{chance}"));
    assert!(estimate.contains(" % (95 % CI "), "{chance}");
    assert!(estimate.contains(" %; from the "), "{chance}");
    // `50.0 % (1 of 2; 95 % CI 9.5–90.5 %)` of the --samples 2, as every
    // share prints.
    assert!(bound.contains(" of 2; 95 % CI "), "{chance}");
    assert!(
        bound.ends_with(" %) of the sampled completions are won within --solve-positions each (an upper bound only where those solves finish)"),
        "{chance}"
    );
    assert!(!stdout.contains("not known"), "{stdout}");
    // Before the first move, what the chances mean: the player's odds
    // from its recorded games (the default player's share of fresh deals
    // beside it: the test after the next); the share of completions won
    // with every card known is named an upper bound where it is shown.
    assert!(
        stdout.contains("chances: this player's odds from here"),
        "{stdout}"
    );
}

/// A solve of a sampled completion may take 50,000 positions at 4 suits
/// and 100,000 at 1 and 2 when no budget is named, and the named one
/// otherwise: `play --blind --json` reports the budget it played with.
#[test]
fn the_solves_budget_is_50000_positions_at_four_suits_by_default() {
    let dir = crate::scratch();
    for (suits, named, expected) in [
        (SuitCount::Four, None, 50_000),
        (SuitCount::Two, None, 100_000),
        (SuitCount::Four, Some("7000"), 7_000),
    ] {
        let deal = numbered::deal(3, suits, Rules::Standard);
        let path = write_yaml(&dir, "deal.yaml", &deal);
        let mut command = spider();
        command
            .args(["play", "--blind", "--json", "--max-moves", "1", "-j", "1"])
            .args(["--player", "lookahead", "--lookahead", "100"]);
        if let Some(n) = named {
            command.args(["--solve-positions", n]);
        }
        let output = command.arg(&path).output().unwrap();
        let report: serde_json::Value = serde_json::from_slice(&output.stdout).unwrap();
        assert_eq!(report["max_positions"], expected, "{suits:?} {named:?}");
    }
}

/// The share of fresh deals won blind that `spider play` prints before
/// the first move is the report study's, read from its results file in
/// `results/`: the default player at each suit count, at its defaults.
#[test]
fn the_share_play_gives_for_the_default_player_is_the_report_studys() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = crate::scratch();
    for (suits, file) in [
        (SuitCount::One, "blind-1-suit-101-200-lookahead.jsonl"),
        (SuitCount::Two, "blind-2-suit-101-200-lookahead.jsonl"),
        (SuitCount::Four, "blind-pysol-101-200-lookahead.jsonl"),
    ] {
        let text = std::fs::read_to_string(root.join("results").join(file)).unwrap();
        let games: Vec<serde_json::Value> = text
            .lines()
            .skip(1)
            .map(|line| serde_json::from_str(line).unwrap())
            .collect();
        assert_eq!(games.len(), 100, "{file}");
        let won = games.iter().filter(|g| g["blind"]["won"] == true).count();
        // The study played the default player with its default budgets.
        let settings = &games[0]["blind"]["settings"];
        assert_eq!(
            settings["player"],
            Player::default_for(suits).name(),
            "{file}"
        );
        assert_eq!(
            settings["max_positions"],
            spider_analyzer::unknown::policy::default_solve_positions(suits),
            "{file}"
        );
        // Its late search: a million positions at 4 suits, none at 1 and 2.
        assert_eq!(
            settings["late_lookahead"].as_u64(),
            spider_analyzer::unknown::policy::default_late_lookahead(
                suits,
                spider_analyzer::unknown::blind::DEFAULT_LOOKAHEAD
            )
            .map(|n| n as u64),
            "{file}"
        );
        let deal = numbered::deal(1, suits, Rules::Standard);
        let seen = View::of(&deal).unwrap().deal();
        let path = write_yaml(&dir, "fresh.yaml", &seen);
        let run = spider()
            .arg("play")
            .arg(&path)
            .args(["--max-moves", "0"])
            .write_stdin("")
            .output()
            .unwrap();
        let stdout = String::from_utf8(run.stdout).unwrap();
        // In the words of every share: `62.0 % (62 of 100; 95 % CI …)`.
        let expected = format!(
            "this player wins {} of fresh {}-suit deals",
            spider_analyzer::stats::Interval::of(won, 100).unwrap(),
            suits.count()
        );
        assert!(stdout.contains(&expected), "{file}: {expected}\n{stdout}");
    }
}

/// The hint's move to play now is the blind player's at the studies'
/// settings: the first move `spider play` gives with the same seed, at 1
/// suit (HOP) and 2 (the lookahead player), whatever sample and budget
/// the hint's list of shares is given.
#[test]
fn the_hints_move_is_the_first_move_of_play_with_the_same_seed() {
    let dir = crate::scratch();
    for suits in [SuitCount::One, SuitCount::Two] {
        let deal = numbered::deal(4, suits, Rules::Standard);
        let seen = View::of(&deal).unwrap().deal();
        let path = write_yaml(&dir, "seen.yaml", &seen);
        let hint = spider()
            .arg("hint")
            .arg(&path)
            .args(["--json", "--seed", "5", "--samples", "4"])
            .args(["--max-positions", "20000", "-j", "1"])
            .output()
            .unwrap();
        // 3 when the list's small sample finds no win: the move is given
        // all the same.
        assert!(matches!(hint.status.code(), Some(0 | 3)), "{hint:?}");
        let json: serde_json::Value = serde_json::from_slice(&hint.stdout).unwrap();
        let mv = json["blind_player"]["move"].as_str().unwrap().to_string();
        let play = spider()
            .arg("play")
            .arg(&path)
            .args(["--seed", "5", "-j", "1"])
            .write_stdin("")
            .output()
            .unwrap();
        assert_eq!(play.status.code(), Some(3), "{play:?}");
        let stdout = String::from_utf8(play.stdout).unwrap();
        assert!(
            stdout.contains(&format!("move 1: {mv}  (")),
            "{suits:?}: the hint's {mv}\n{stdout}"
        );
    }
}

/// The search over the reveals cannot peek either: twin deals that differ
/// only in hidden cards are played alike until one of them turns up, with
/// the same seed, and the same moves are played on one thread and on two
/// (its playouts run in parallel; their draws are seeded per decision by
/// the position as seen).
#[test]
fn the_search_player_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let (deal, other) = twins();
    let mut logs = Vec::new();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let (a, b) = pool.install(|| {
            (
                log_of(&deal, 11, Player::Search),
                log_of(&other, 11, Player::Search),
            )
        });
        assert!(!a.is_empty());
        let split = same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b));
        assert!(split.is_some(), "the swapped cards never turned up");
        logs.push(moves_and_cards(&a));
    }
    assert_eq!(logs[0], logs[1], "one thread and two played differently");
}

/// The same at 4 suits: PySol 7 and the same deal with the top face-down
/// cards of piles 1 and 2 swapped.
#[test]
fn at_four_suits_the_search_player_plays_deals_alike_until_a_hidden_difference_turns_up() {
    let deal = spider_analyzer::deal::pysol::deal(7, Rules::Standard).unwrap();
    let mut other = deal.clone();
    let (a, b) = (
        *other.piles[0].face_down.last().unwrap(),
        *other.piles[1].face_down.last().unwrap(),
    );
    *other.piles[0].face_down.last_mut().unwrap() = b;
    *other.piles[1].face_down.last_mut().unwrap() = a;
    let (a, b) = (
        log_of(&deal, 3, Player::Search),
        log_of(&other, 3, Player::Search),
    );
    assert!(!a.is_empty());
    let split = same_until_a_difference_turns_up(&moves_and_cards(&a), &moves_and_cards(&b));
    assert!(split.is_some(), "the swapped cards never turned up");
}

/// `spider train`: bad input is exit 2 with the flag or file named, and
/// nothing written; a short training writes a weights file that loads.
#[test]
fn train_refuses_bad_input_and_writes_a_weights_file() {
    let dir = crate::scratch();
    let out = dir.path().join("w.json");
    let bad = spider()
        .args(["train", "--suits", "3", "--deals", "1..2", "-o"])
        .arg(&out)
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&bad.get_output().stderr).contains("suits"));
    spider()
        .args(["train", "--suits", "1", "--deals", "x..2", "-o"])
        .arg(&out)
        .assert()
        .code(2);
    let missing = dir.path().join("none.jsonl");
    let read = spider()
        .args(["train", "--calibrate"])
        .arg(&missing)
        .arg("-o")
        .arg(&out)
        .assert()
        .code(2);
    assert!(String::from_utf8_lossy(&read.get_output().stderr).contains("none.jsonl"));
    assert!(!out.exists(), "nothing written on bad input");
    spider()
        .args([
            "train",
            "--suits",
            "1",
            "--deals",
            "1..3",
            "--rounds",
            "1",
            "--population",
            "4",
            "--budget",
            "10",
            "-j",
            "1",
            "-o",
        ])
        .arg(&out)
        .assert()
        .code(0);
    let text = std::fs::read_to_string(&out).unwrap();
    let file = spider_analyzer::unknown::playout::WeightsFile::parse(&text).unwrap();
    assert!(
        file.trained
            .iter()
            .any(|t| t.suits == 1 && t.command.contains("--deals 1..3"))
    );
}

/// A blind game that wins says so once, with its moves: `won after 2
/// moves`, never "won after 2 moves (won)"; the removed runs are drawn
/// with their suits on the board at the start.
#[test]
fn a_blind_win_is_said_once() {
    let dir = crate::scratch();
    let path = dir.path().join("one.yaml");
    std::fs::write(&path, ONE_HIDDEN.replace("[XX]", "[AS]")).unwrap();
    let output = spider()
        .args(["play", "--blind", "--player", "hop", "-j", "1"])
        .arg(&path)
        .output()
        .unwrap();
    let text = String::from_utf8(output.stdout).unwrap();
    assert_eq!(output.status.code(), Some(0), "{text}");
    assert!(
        text.contains("stock: empty; runs removed: 7 of 8 (♠ ♠ ♠ ♠ ♠ ♠ ♠)\n"),
        "{text}"
    );
    let last = text.lines().last().unwrap();
    assert!(
        last.starts_with("won after 2 moves: 8 runs removed, 0 cards face down, "),
        "{text}"
    );
    assert!(!text.contains("(won)"), "{text}");
}

/// The chance shown to a player ships as `spider train --odds` fits it on
/// the recorded games in `results/blind/` (the same command writes the
/// shipped weights file again, byte for byte), and on games the fit never
/// saw it beats one chance for every position (the fit's share of games
/// won) at 1, 2 and 4 suits. A results file whose games keep no moves is
/// refused, exit 2, nothing written.
#[test]
fn the_shipped_chances_are_train_odds_fits_and_beat_one_chance_for_all() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = crate::scratch();
    let out = dir.path().join("w.json");
    let run = spider()
        .current_dir(root)
        .args(["train", "--odds"])
        .args(ODDS_FIT)
        .arg("--held-out")
        .args(ODDS_HELD_OUT)
        .arg("-o")
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let shipped = std::fs::read_to_string(root.join("weights/playout.json")).unwrap();
    assert_eq!(std::fs::read_to_string(&out).unwrap(), shipped);
    let stdout = String::from_utf8(run.stdout).unwrap();
    let briers: Vec<f64> = stdout
        .lines()
        .filter(|l| l.starts_with("Brier score") || l.starts_with("held out, one chance"))
        .map(|l| {
            let at = l.find("Brier score ").unwrap() + "Brier score ".len();
            l[at..].split_whitespace().next().unwrap().parse().unwrap()
        })
        .collect();
    // Per suit count: in-sample, held out, and one chance for all held out.
    assert_eq!(briers.len(), 12, "{stdout}");
    for three in briers.chunks(3) {
        assert!(three[1] < three[2], "{stdout}");
    }
    let old = spider()
        .current_dir(root)
        .args([
            "train",
            "--odds",
            "results/blind/hop-1-suit-30001-30025.jsonl",
            "-o",
        ])
        .arg(dir.path().join("none.json"))
        .assert()
        .code(2);
    assert!(
        String::from_utf8_lossy(&old.get_output().stderr).contains("no blind game with its moves")
    );
    assert!(!dir.path().join("none.json").exists());
}

/// The recorded games the shipped chances are fitted on, and those they
/// are checked on (`results/blind/`).
const ODDS_FIT: [&str; 4] = [
    "results/blind/odds-1-suit-41001-41100.jsonl",
    "results/blind/odds-1-suit-lookahead-41001-41100.jsonl",
    "results/blind/odds-2-suit-41001-41100.jsonl",
    "results/blind/odds-pysol-lookahead-21001-21100.jsonl",
];
const ODDS_HELD_OUT: [&str; 4] = [
    "results/blind/odds-1-suit-42001-42100.jsonl",
    "results/blind/odds-1-suit-lookahead-42001-42100.jsonl",
    "results/blind/odds-2-suit-42001-42100.jsonl",
    "results/blind/odds-pysol-lookahead-22001-22100.jsonl",
];
