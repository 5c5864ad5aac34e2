//! `pacw train selfplay`: the value network trained by playing itself, round after round, with a checkpoint after
//! each so that the run can be stopped at any moment and resumed; or one round at a time spread over machines
//! (`--shard K/N` plays a share of the round's games, `--merge` learns from them all).

use crate::args::Usage;
use anyhow::{Context, Result};
use clap::Args;
use pacw_learn::selfplay::{
    Averaging, Checkpoint, CurvePoint, LambdaFrom, RateStep, RoundShard, SelfPlayConfig, ShareFrom, Widening,
};
use pacw_sim::Shard;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// What decides a self-play run.
#[derive(Args, Debug)]
pub struct SelfPlayArgs {
    /// The checkpoint: written after every round, and read first when it exists (the run resumes from it; its
    /// settings then stand, and those given here must agree or be left out).
    #[arg(long, value_name = "FILE")]
    checkpoint: PathBuf,
    /// Stop once this many self-play games have been played in all.
    #[arg(long, value_name = "N", default_value_t = 200_000)]
    games: u64,
    /// Stop after this many minutes (at the end of a round).
    #[arg(long, value_name = "M")]
    minutes: Option<f64>,
    /// The seed of every game and shuffle (a new run only).
    #[arg(long, value_name = "S", default_value_t = SelfPlayConfig::default().seed)]
    seed: u64,
    /// Games a round, all played by the same weights (a new run only).
    #[arg(long, value_name = "N", default_value_t = SelfPlayConfig::default().games_per_round)]
    games_per_round: u64,
    /// λ of TD(λ) (a new run only).
    #[arg(long, value_name = "L", default_value_t = SelfPlayConfig::default().lambda)]
    lambda: f32,
    /// Adam's step size (a new run only).
    #[arg(long, value_name = "RATE", default_value_t = SelfPlayConfig::default().learning_rate)]
    learning_rate: f32,
    /// A change of the learning rate from a number of games on, as GAMES=RATE (e.g. 80000=0.0003); may be repeated.
    /// Given on resuming, the changes replace those not yet reached; a change before the games already played is
    /// refused unless the run already has it.
    #[arg(long = "rate-from", value_name = "GAMES=RATE")]
    rate_steps: Vec<RateStep>,
    /// The share of decisions made at random (a new run only).
    #[arg(long, value_name = "F", default_value_t = SelfPlayConfig::default().exploration)]
    exploration: f64,
    /// Hidden units of the unit layer and the side layer, as U,S (a new run only).
    #[arg(long, value_name = "U,S", default_value = "32,32", value_parser = layers)]
    hidden: (usize, usize),
    /// A wider network from a number of games on, as GAMES=U,S (e.g. 113400=64,64): it judges as the narrower did
    /// and grows its new units by training; may be repeated. Given on resuming, as --rate-from.
    #[arg(long = "widen-from", value_name = "GAMES=U,S")]
    widenings: Vec<Widening>,
    /// The share of games on random battles (a new run only).
    #[arg(long, value_name = "F", default_value_t = SelfPlayConfig::default().generated)]
    generated: f64,
    /// A share of the games on the grand battle, Antietam, from a number of games on, as GAMES=SHARE (e.g.
    /// 263000=0.05), taken from the shipped battles' share; may be repeated. Given on resuming, as --rate-from.
    #[arg(long = "grand-from", value_name = "GAMES=SHARE")]
    grand: Vec<ShareFrom>,
    /// λ for the games on the grand battle from a number of games on, as GAMES=LAMBDA (e.g. 240200=1: each of its
    /// positions learns the game's result, which TD(λ) at the run's λ carries back only a few decisions of its
    /// thousand); may be repeated. Given on resuming, as --rate-from.
    #[arg(long = "grand-lambda-from", value_name = "GAMES=LAMBDA")]
    grand_lambda: Vec<LambdaFrom>,
    /// A share of the games the network plays against greedy rather than against itself, from a number of games on,
    /// as GAMES=SHARE (e.g. 303000=0.5); may be repeated. Given on resuming, as --rate-from.
    #[arg(long = "spar-from", value_name = "GAMES=SHARE")]
    sparring: Vec<ShareFrom>,
    /// A share of the games greedy plays on both sides while the network learns from their positions (the chances
    /// of greedy play, which the laboratory and the review's continuations use), from a number of games on, as
    /// GAMES=SHARE (e.g. 240200=0.8); every game on the grand battle is watched while a share is in force. May be
    /// repeated; given on resuming, as --rate-from.
    #[arg(long = "watch-from", value_name = "GAMES=SHARE")]
    watching: Vec<ShareFrom>,
    /// A running average of the weights from a number of games on, as GAMES=DECAY (e.g. 263000=0.98: each round
    /// the average keeps 98% of itself and takes 2% of the new weights); the average is what the curve measures
    /// and --export writes. A decay of 0 stops it. May be repeated; given on resuming, as --rate-from.
    #[arg(long = "average-from", value_name = "GAMES=DECAY")]
    averaging: Vec<Averaging>,
    /// Rounds between points of the learning curve (a new run only).
    #[arg(long, value_name = "N", default_value_t = SelfPlayConfig::default().curve_every)]
    curve_every: u64,
    /// Games a shipped battle for each point of the learning curve, 0 for no curve (a new run only).
    #[arg(long, value_name = "N", default_value_t = SelfPlayConfig::default().curve_games)]
    curve_games: u64,
    /// Also write the network the run would ship as a weights file after every round (the file
    /// `crates/ai/weights/network.json` is): the running average of the weights when the run keeps one.
    #[arg(long, value_name = "FILE")]
    export: Option<PathBuf>,
    /// Also write the learning curve as CSV after every point.
    #[arg(long, value_name = "FILE")]
    curve: Option<PathBuf>,
    /// Also draw the learning curve as an SVG chart after every point.
    #[arg(long, value_name = "FILE")]
    chart: Option<PathBuf>,
    /// Play only this shard of the next round's games (the games whose place in the round is K−1 modulo N, with the
    /// checkpoint's weights) and write their decisions into --out for `--merge`; the checkpoint is left as it is.
    #[arg(long, value_name = "K/N", value_parser = crate::args::shard, requires = "out", conflicts_with = "merge")]
    shard: Option<Shard>,
    /// The folder a shard is written into (created if needed).
    #[arg(long, value_name = "DIR")]
    out: Option<PathBuf>,
    /// Learn from the next round's shards, every one of them (written by --shard), and write the checkpoint: one
    /// round, the same as played in one place.
    #[arg(long, value_name = "FILE", num_args = 1..)]
    merge: Vec<PathBuf>,
    /// Threads (default: all cores); the games do not depend on it.
    #[arg(long, value_name = "T", value_parser = clap::value_parser!(u64).range(1..=1024))]
    threads: Option<u64>,
}

fn layers(text: &str) -> Result<(usize, usize), String> {
    let max = pacw_ai::network::MAX_LAYER;
    let bad = || format!("'{text}' is not two layer sizes U,S from 1 to {max}");
    let (u, s) = text.split_once(',').ok_or_else(bad)?;
    let (u, s) = (u.trim().parse().map_err(|_| bad())?, s.trim().parse().map_err(|_| bad())?);
    if (1..=max).contains(&u) && (1..=max).contains(&s) { Ok((u, s)) } else { Err(bad()) }
}

impl SelfPlayArgs {
    fn config(&self) -> SelfPlayConfig {
        SelfPlayConfig {
            seed: self.seed,
            games_per_round: self.games_per_round,
            lambda: self.lambda,
            learning_rate: self.learning_rate,
            rate_steps: Vec::new(),
            exploration: self.exploration,
            unit_hidden: self.hidden.0,
            side_hidden: self.hidden.1,
            widenings: Vec::new(),
            generated: self.generated,
            grand: Vec::new(),
            grand_lambda: Vec::new(),
            sparring: Vec::new(),
            watching: Vec::new(),
            averaging: Vec::new(),
            curve_every: self.curve_every,
            curve_games: self.curve_games,
        }
    }

    /// The command that makes this run, with relative paths only: the weights record it.
    fn trained(&self, config: &SelfPlayConfig) -> String {
        let rates = config.rate_steps.iter().map(|s| format!(" --rate-from {}={}", s.games, s.rate));
        let widths =
            config.widenings.iter().map(|w| format!(" --widen-from {}={},{}", w.games, w.unit_hidden, w.side_hidden));
        let grand = config.grand.iter().map(|g| format!(" --grand-from {}={}", g.games, g.share));
        let grand_lambda = config.grand_lambda.iter().map(|l| format!(" --grand-lambda-from {}={}", l.games, l.lambda));
        let spars = config.sparring.iter().map(|g| format!(" --spar-from {}={}", g.games, g.share));
        let watches = config.watching.iter().map(|g| format!(" --watch-from {}={}", g.games, g.share));
        let averages = config.averaging.iter().map(|a| format!(" --average-from {}={}", a.games, a.decay));
        let steps: String =
            rates.chain(widths).chain(grand).chain(grand_lambda).chain(spars).chain(watches).chain(averages).collect();
        format!(
            "pacw train selfplay --seed {} --games-per-round {} --lambda {} --learning-rate {} --exploration {} \
             --hidden {},{} --generated {}{steps}",
            config.seed,
            config.games_per_round,
            config.lambda,
            config.learning_rate,
            config.exploration,
            config.unit_hidden,
            config.side_hidden,
            config.generated
        )
    }
}

/// Runs `pacw train selfplay`.
///
/// # Errors
/// When the settings are refused, the checkpoint cannot be read or written, or the thread pool cannot start.
pub fn run(args: SelfPlayArgs) -> Result<ExitCode> {
    let mut run = if args.checkpoint.exists() {
        let run = Checkpoint::load(&args.checkpoint)?;
        eprintln!("resuming {} after {} games", args.checkpoint.display(), run.games());
        run
    } else {
        Checkpoint::start(args.config()).map_err(|e| Usage(e.to_string()))?
    };
    if !args.rate_steps.is_empty() {
        run.reschedule(&args.rate_steps).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.widenings.is_empty() {
        run.rewiden(&args.widenings).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.grand.is_empty() {
        run.regrand(&args.grand).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.grand_lambda.is_empty() {
        run.relambda(&args.grand_lambda).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.sparring.is_empty() {
        run.respar(&args.sparring).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.watching.is_empty() {
        run.rewatch(&args.watching).map_err(|e| Usage(e.to_string()))?;
    }
    if !args.averaging.is_empty() {
        run.reaverage(&args.averaging).map_err(|e| Usage(e.to_string()))?;
    }
    let trained = args.trained(&run.config);
    if let Some(shard) = args.shard {
        return in_pool(args.threads, || play_shard(&run, shard, args.out.as_deref().unwrap_or(Path::new("."))));
    }
    if !args.merge.is_empty() {
        return in_pool(args.threads, || merge(&mut run, &args, &trained));
    }
    let work = || -> Result<()> {
        let started = std::time::Instant::now();
        let out_of_time = || args.minutes.is_some_and(|m| started.elapsed().as_secs_f64() > m * 60.0);
        if run.curve.is_empty() && run.config.curve_games > 0 {
            point(&mut run, &args)?;
        }
        while run.games() < args.games && !out_of_time() {
            let round = run.round(&trained)?;
            if run.curve_due() && run.config.curve_games > 0 {
                point(&mut run, &args)?;
            }
            save(&run, &args)?;
            eprintln!(
                "round {}: {} games, {} positions, loss {:.4}, {:.0} s in all",
                run.rounds, round.games, round.positions, round.loss, run.seconds
            );
        }
        save(&run, &args)
    };
    in_pool(args.threads, work)
}

/// Runs `work` on `threads` threads (all cores by default).
fn in_pool(threads: Option<u64>, work: impl FnOnce() -> Result<()> + Send) -> Result<ExitCode> {
    match threads {
        None => work()?,
        Some(t) => rayon::ThreadPoolBuilder::new().num_threads(t as usize).build()?.install(work)?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The most bytes a shard file may hold (a round's games of decisions are far smaller).
const MAX_SHARD_BYTES: u64 = 512 << 20;

/// Plays one shard of the next round and writes it into `out`.
fn play_shard(run: &Checkpoint, shard: Shard, out: &Path) -> Result<()> {
    let played = run.play_shard(shard)?;
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let path = out.join(format!("round-{}-shard-{}-of-{}.json", run.rounds + 1, shard.k, shard.n));
    std::fs::write(&path, serde_json::to_string(&played)?)
        .with_context(|| format!("cannot write {}", path.display()))?;
    eprintln!(
        "shard {}/{} of round {}: {} games, written to {}",
        shard.k,
        shard.n,
        run.rounds + 1,
        played.games.len(),
        path.display()
    );
    Ok(())
}

/// Learns from the next round's shards and writes the checkpoint (and the curve, when a point is due).
fn merge(run: &mut Checkpoint, args: &SelfPlayArgs, trained: &str) -> Result<()> {
    let mut shards = Vec::new();
    for path in &args.merge {
        let size = std::fs::metadata(path).with_context(|| format!("cannot read {}", path.display()))?.len();
        if size > MAX_SHARD_BYTES {
            return Err(Usage(format!(
                "{} is larger than a shard can be ({} MB)",
                path.display(),
                MAX_SHARD_BYTES >> 20
            ))
            .into());
        }
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let shard: RoundShard = serde_json::from_str(&text)
            .map_err(|e| Usage(format!("{} is not a self-play shard: {e}", path.display())))?;
        shards.push(shard);
    }
    let round = run.merge_round(&shards, trained).map_err(|e| Usage(e.to_string()))?;
    if run.curve_due() && run.config.curve_games > 0 {
        point(run, args)?;
    }
    save(run, args)?;
    eprintln!(
        "round {}: {} games, {} positions, loss {:.4} (merged from {} shards)",
        run.rounds,
        round.games,
        round.positions,
        round.loss,
        shards.len()
    );
    Ok(())
}

/// Adds a point to the learning curve and reports it.
fn point(run: &mut Checkpoint, args: &SelfPlayArgs) -> Result<()> {
    let p: CurvePoint = run.add_curve_point()?;
    eprintln!(
        "after {} games: {:.3} against greedy by results, {:.3} ± {:.3} luck-adjusted ({} games)",
        p.games, p.score, p.luck_adjusted, p.standard_error, p.played
    );
    if let Some(path) = &args.curve {
        write_curve(path, &run.curve)?;
    }
    if let Some(path) = &args.chart {
        let points: Vec<_> = run.curve.iter().map(|p| (p.games, p.luck_adjusted, p.standard_error, p.score)).collect();
        let svg = pacw_sim::charts::learning_curve(&points)?;
        std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn save(run: &Checkpoint, args: &SelfPlayArgs) -> Result<()> {
    run.save(&args.checkpoint)?;
    if let Some(path) = &args.export {
        let text = serde_json::to_string(run.shipped())? + "\n";
        std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))?;
    }
    Ok(())
}

fn write_curve(path: &Path, curve: &[CurvePoint]) -> Result<()> {
    let mut out = csv::Writer::from_path(path).with_context(|| format!("cannot write {}", path.display()))?;
    for p in curve {
        out.serialize(p)?;
    }
    out.flush()?;
    Ok(())
}
