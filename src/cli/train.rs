//! `spider train`: learn the playout policy's weights from blind games
//! (see [`spider_analyzer::unknown::train`]) and write the weights file.

use std::path::PathBuf;
use std::process::ExitCode;

use spider_analyzer::batch::{DealList, Source};
use spider_analyzer::cards::SuitCount;
use spider_analyzer::unknown::odds;
use spider_analyzer::unknown::playout::{
    LINE_POSITIONS, TrainedWith, WeightsFile, shipped_file, starting_weights,
};
use spider_analyzer::unknown::train::{Training, evaluate, own_tables, train};

/// Arguments of `spider train`.
#[derive(Debug, clap::Args)]
#[command(after_help = super::exit_codes!(
    "0  the weights file was written",
    "2  bad usage or bad input (a flag out of range, an unreadable weights file, an output not written over)",
))]
pub struct Args {
    /// The suit count whose weights are learned (the file keeps the others).
    #[arg(long, value_name = "1|2|4", value_parser = super::deal::parse_suits, required_unless_present_any = ["calibrate", "odds"])]
    pub suits: Option<SuitCount>,
    /// The own numbered deals the policy plays, A..B (both inclusive) or a
    /// list of numbers and ranges like 1..100,500..600, at `--suits` suits
    /// and standard rules.
    #[arg(long, value_name = "A..B,...", required_unless_present_any = ["calibrate", "odds"], value_parser = super::batch::deal_list(Source::Own))]
    pub deals: Option<DealList>,
    /// Instead of learning weights: fit the calibration of the search
    /// player's chance on the blind games of these results files
    /// (`spider batch --hidden --player search -o FILE`), one per suit
    /// count found in them, and print the reliability tables before and after.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["suits", "deals"])]
    pub calibrate: Vec<PathBuf>,
    /// Instead of learning weights: fit the chance shown to a player (the
    /// player's odds from a position, `spider_analyzer::unknown::odds`) on
    /// the blind games of these results files (`spider batch --hidden -o
    /// FILE`, which keeps each game's moves), one model per suit count and
    /// player found in them, and print its reliability table.
    #[arg(long, value_name = "FILE", num_args = 1.., conflicts_with_all = ["suits", "deals", "calibrate"])]
    pub odds: Vec<PathBuf>,
    /// With `--odds`: results files of other games to check the fitted
    /// chance on (the reliability table and the Brier score, beside the
    /// share of sampled completions won shown before); the fit never sees
    /// them.
    #[arg(long, value_name = "FILE", num_args = 1.., requires = "odds")]
    pub held_out: Vec<PathBuf>,
    /// Rounds of the cross-entropy method.
    #[arg(long, default_value = "10", value_parser = super::flags::whole_usize(1, 1000))]
    pub rounds: usize,
    /// Weight vectors drawn and played each round.
    #[arg(long, default_value = "30", value_parser = super::flags::whole_usize(4, 10_000))]
    pub population: usize,
    /// Positions of the policy's line search at each decision.
    #[arg(long, default_value_t = LINE_POSITIONS, value_parser = super::flags::whole_usize(1, 1_000_000))]
    pub budget: usize,
    /// Seed of the draws (the same seed writes the same weights).
    #[arg(long, default_value = "1", value_parser = super::flags::whole(0, u64::MAX))]
    pub seed: u64,
    /// Start from the lookahead's value instead of the shipped weights.
    #[arg(long)]
    pub from_scratch: bool,
    /// The weights file to start from (default: the one that ships).
    #[arg(long, value_name = "FILE")]
    pub from: Option<PathBuf>,
    /// Threads (default: one per core).
    #[arg(short, long, value_parser = super::flags::whole_usize(1, 1024))]
    pub jobs: Option<usize>,
    /// Where to write the weights file (JSON).
    #[arg(short, long, value_name = "FILE")]
    pub output: PathBuf,
    /// Replace the output file if it exists.
    #[arg(long)]
    pub force: bool,
}

/// Trains and writes the weights file.
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    if !args.calibrate.is_empty() {
        return calibrate(&args);
    }
    if !args.odds.is_empty() {
        return fit_odds(&args);
    }
    let (Some(suits), Some(deals)) = (args.suits, &args.deals) else {
        anyhow::bail!("give --suits and --deals, or --calibrate FILE...");
    };
    if deals.len() > 100_000 {
        anyhow::bail!("--deals: at most 100000 deals");
    }
    let mut file = base_file(&args)?;
    super::output::check(&args.output, &[], args.force)?;
    let start = if args.from_scratch {
        starting_weights(suits)
    } else {
        file.weights(suits)
    };
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(super::flags::threads(args.jobs))
        .build()?;
    let settings = Training {
        rounds: args.rounds,
        population: args.population,
        seed: args.seed,
        budget: args.budget,
        ..Training::default()
    };
    let tables = own_tables(deals.numbers().map(|n| n as u64), suits);
    let (weights, played) = pool.install(|| {
        let before = evaluate(&tables, &start, args.budget);
        eprintln!(
            "start: score {:.4}, won {} of {}",
            before.score, before.won, before.games
        );
        train(&tables, &start, &settings, &mut |round| {
            eprintln!(
                "round {}: the mean's score {:.4} (won {}), best drawn {:.4} (won {})",
                round.round,
                round.mean_of_means.score,
                round.mean_of_means.won,
                round.best.score,
                round.best.won
            );
        })
    });
    file.set(suits, &weights);
    let suits = suits.count();
    file.trained.retain(|t| t.suits != suits);
    file.trained.push(TrainedWith {
        suits,
        command: format!(
            "spider train --suits {suits} --deals {deals} --rounds {} --population {} --budget {} --seed {}{}",
            args.rounds,
            args.population,
            args.budget,
            args.seed,
            if args.from_scratch {
                " --from-scratch"
            } else {
                ""
            }
        ),
        score: played.score,
        won: played.won as f64 / played.games.max(1) as f64,
    });
    file.trained.sort_by_key(|t| t.suits);
    let text = serde_json::to_string_pretty(&file)? + "\n";
    super::output::write(&args.output, &[], args.force, |out| {
        out.write_all(text.as_bytes())
    })?;
    println!(
        "{}: {suits}-suit weights written (score {:.4}, won {} of {} training games)",
        args.output.display(),
        played.score,
        played.won,
        played.games
    );
    Ok(ExitCode::SUCCESS)
}

/// The weights file to start from: `--from`, or the one that ships.
fn base_file(args: &Args) -> anyhow::Result<WeightsFile> {
    Ok(match &args.from {
        Some(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| anyhow::anyhow!("{}: cannot read: {e}", path.display()))?;
            WeightsFile::parse(&text).map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
        }
        None => shipped_file().clone(),
    })
}

/// `--calibrate`: fits the chance's calibration on recorded games.
fn calibrate(args: &Args) -> anyhow::Result<ExitCode> {
    use spider_analyzer::batch::ResultsFile;
    use spider_analyzer::unknown::chance::{Calibration, Reliability, fit, points_of};
    let mut file = base_file(args)?;
    let inputs: Vec<&std::path::Path> = args.calibrate.iter().map(|p| p.as_path()).collect();
    super::output::check(&args.output, &inputs, args.force)?;
    let mut records = Vec::new();
    for path in &args.calibrate {
        let read = ResultsFile::read(path)?;
        records.extend(read.records);
    }
    let mut fitted = 0;
    for suits in [1usize, 2, 4] {
        let mine: Vec<_> = records
            .iter()
            .filter(|r| {
                r.suits.count() == suits
                    && r.blind
                        .as_ref()
                        .is_some_and(|b| b.settings.player == "search")
            })
            .cloned()
            .collect();
        let points = points_of(&mine);
        if points.is_empty() {
            continue;
        }
        let steps = fit(&points);
        let calibration = Calibration {
            suits,
            steps,
            fitted_on: format!(
                "{} positions of {} games of the search player in {}",
                points.len(),
                mine.len(),
                args.calibrate
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        };
        let raw: Vec<(f64, bool)> = points.iter().map(|&(p, w)| (p as f64, w)).collect();
        let shown: Vec<(f64, bool)> = raw
            .iter()
            .map(|&(p, w)| (calibration.chance(p), w))
            .collect();
        println!(
            "{suits}-suit games, the raw share:\n{}",
            Reliability::of(&raw).text()
        );
        println!(
            "{suits}-suit games, calibrated:\n{}",
            Reliability::of(&shown).text()
        );
        file.chance.retain(|c| c.suits != suits);
        file.chance.push(calibration);
        fitted += 1;
    }
    if fitted == 0 {
        anyhow::bail!("no blind game of the search player with its chances in these files");
    }
    file.chance.sort_by_key(|c| c.suits);
    let text = serde_json::to_string_pretty(&file)? + "\n";
    super::output::write(&args.output, &inputs, args.force, |out| {
        out.write_all(text.as_bytes())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Recorded positions by suit count and player, with the games they come
/// from.
type ByPlayer = std::collections::BTreeMap<(usize, String), (Vec<odds::Sample>, Vec<String>)>;

/// The blind games of `paths` with their moves, by suit count and player,
/// as the positions their players met ([`odds::samples_of`]).
fn samples_by_player(paths: &[PathBuf]) -> anyhow::Result<ByPlayer> {
    use spider_analyzer::batch::ResultsFile;
    let mut groups = std::collections::BTreeMap::new();
    let mut game = 0u32;
    for path in paths {
        let read = ResultsFile::read(path)?;
        for record in &read.records {
            let Some(samples) = odds::samples_of(record, game)
                .map_err(|e| anyhow::anyhow!("{}: {e}", path.display()))?
            else {
                continue;
            };
            let player = record
                .blind
                .as_ref()
                .map_or(String::new(), |b| b.settings.player.clone());
            let entry: &mut (Vec<odds::Sample>, Vec<String>) =
                groups.entry((record.suits.count(), player)).or_default();
            entry.0.extend(samples);
            let name = path.display().to_string();
            if !entry.1.contains(&name) {
                entry.1.push(name);
            }
            game += 1;
        }
    }
    Ok(groups)
}

/// `--odds`: fits the chance shown to a player on its recorded games.
fn fit_odds(args: &Args) -> anyhow::Result<ExitCode> {
    use spider_analyzer::unknown::chance::Reliability;
    let mut file = base_file(args)?;
    let inputs: Vec<&std::path::Path> = args
        .odds
        .iter()
        .chain(&args.held_out)
        .map(|p| p.as_path())
        .collect();
    super::output::check(&args.output, &inputs, args.force)?;
    let fitting = samples_by_player(&args.odds)?;
    let held = samples_by_player(&args.held_out)?;
    let mut fitted = 0;
    for ((suits, player), (samples, files)) in &fitting {
        let (games, _) = odds::games_won(samples);
        let model = odds::fit(
            *suits,
            player,
            samples,
            format!(
                "{} positions of {games} games of the {player} player at {suits}-suit deals in {}",
                samples.len(),
                files.join(", ")
            ),
        );
        println!(
            "{suits}-suit deals, the {player} player, {} games ({} won), {} positions",
            model.games,
            model.won,
            samples.len()
        );
        println!(
            "the chance shown, on the games it was fitted on:\n{}",
            Reliability::of(&odds::points(&model, samples)).text()
        );
        if let Some((other, _)) = held.get(&(*suits, player.clone())) {
            let (other_games, other_won) = odds::games_won(other);
            let share = model.won as f64 / model.games.max(1) as f64;
            let constant: Vec<(f64, bool)> = other.iter().map(|s| (share, s.won)).collect();
            println!(
                "held out: {other_games} games ({other_won} won), {} positions; the chance shown:\n{}",
                other.len(),
                Reliability::of(&odds::points(&model, other)).text()
            );
            println!(
                "held out, one chance for every position ({:.1} %, the fit's share of games won): Brier score {:.4}\n",
                share * 100.0,
                Reliability::of(&constant).brier
            );
        }
        file.odds.retain(|o| !o.is_for(*suits, player));
        file.odds.push(model);
        fitted += 1;
    }
    if fitted == 0 {
        anyhow::bail!(
            "no blind game with its moves in these files (results files written before the moves were kept have none: play the games again with `spider batch --hidden`)"
        );
    }
    file.odds
        .sort_by(|a, b| (a.suits, &a.player).cmp(&(b.suits, &b.player)));
    let text = serde_json::to_string_pretty(&file)? + "\n";
    super::output::write(&args.output, &inputs, args.force, |out| {
        out.write_all(text.as_bytes())
    })?;
    println!(
        "{}: {fitted} chance model(s) written",
        args.output.display()
    );
    Ok(ExitCode::SUCCESS)
}
