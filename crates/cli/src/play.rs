//! `pacw play`: a game in the terminal, hot-seat or against a computer player.

use crate::board;
use crate::source::scenario_text;
use anyhow::{Context, Result, bail};
use clap::Args;
use pacw_ai::{PLAYERS, Player, player};
use pacw_engine::{Event, Game, Options, Scenario, Side, ToAct, narrate};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

/// Arguments of `pacw play`.
#[derive(Args, Default)]
pub struct PlayArgs {
    /// A scenario file or shipped scenario name (default: the meeting engagement).
    pub scenario: Option<String>,
    /// The seed of the dice and cards (default: from the clock; it is printed so the game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play against this computer player instead of hot-seat.
    #[arg(long, value_name = "PLAYER", value_parser = parse_player)]
    pub vs: Option<String>,
    /// With --vs, the side you play: `first`, `second`, or a side id from the scenario.
    #[arg(long, default_value = "first")]
    pub side: String,
    /// Save the game to this file after every decision.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue a saved game (and keep saving to it unless --save says otherwise).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "seed"])]
    pub load: Option<PathBuf>,
    /// Set a rule option, as NAME=VALUE (RULES.md R11), e.g. --set initiative=igougo.
    #[arg(long = "set", value_name = "OPTION=VALUE")]
    pub set: Vec<String>,
}

/// Accepts the names `pacw_ai::player` knows (random, greedy, mcts with settings such as mcts:2000).
fn parse_player(name: &str) -> Result<String, String> {
    if pacw_ai::is_player(name) {
        Ok(name.to_string())
    } else {
        Err(format!(
            "unknown player '{name}' (known: {}; mcts also as mcts:ITERATIONS, mcts:MSms, mcts:...:tTHREADS)",
            PLAYERS.join(", ")
        ))
    }
}

/// Runs the game on the terminal.
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    play(args, stdin.lock(), stdout.lock())
}

fn new_game(args: &PlayArgs) -> Result<Game> {
    if let Some(path) = &args.load {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        return Game::load(&text).with_context(|| format!("cannot load {}", path.display()));
    }
    let (text, file) = scenario_text(args.scenario.as_deref().unwrap_or("meeting-engagement"))?;
    let scenario = Scenario::parse(&text, &file)?;
    let mut options: Options = scenario.options;
    for pair in &args.set {
        let Some((name, value)) = pair.split_once('=') else { bail!("--set takes OPTION=VALUE, not '{pair}'") };
        options.set(name.trim(), value.trim())?;
    }
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
    });
    Ok(Game::with_scenario(Arc::new(scenario), &text, &file, Some(options), seed))
}

fn human_side(args: &PlayArgs, game: &Game) -> Result<Side> {
    let s = game.battle().scenario();
    match args.side.as_str() {
        "first" => Ok(Side::A),
        "second" => Ok(Side::B),
        id => s.side_by_id(id).with_context(|| {
            format!("--side: no side '{id}' (use first, second, {} or {})", s.sides[0].id, s.sides[1].id)
        }),
    }
}

const HELP: &str = "Type the number of an order. Other commands: b board, u units, l log, s save, q quit, h help.";

/// The game loop, on any input and output (tests drive it with text).
pub fn play(args: PlayArgs, input: impl BufRead, mut out: impl Write) -> Result<ExitCode> {
    let mut game = new_game(&args)?;
    let save_path = args.save.clone().or_else(|| args.load.clone());
    let mut computer: Option<(Side, Box<dyn Player + Send>)> = match &args.vs {
        Some(name) => {
            let me = human_side(&args, &game)?;
            let p = player(name, game.seed() ^ 0x9e37_79b9_7f4a_7c15).context("unknown player")?;
            Some((me.other(), p))
        }
        None => None,
    };
    let scenario = game.battle().scenario().clone();
    writeln!(out, "{} — seed {} — options: {}", scenario.name, game.seed(), game.battle().options())?;
    writeln!(out, "{HELP}")?;
    for e in game.log() {
        writeln!(out, "{}", narrate::event(&scenario, e))?;
    }
    let mut lines = input.lines();
    let mut show_board = true;
    while let ToAct::Side(side) = game.battle().to_act() {
        let actions = game.battle().legal_actions();
        let events = if let Some((_, p)) = computer.as_mut().filter(|(s, _)| *s == side) {
            let action = p.choose(game.battle());
            writeln!(out, "{} ({}): {}", scenario.side(side).name, p.name(), narrate::action(game.battle(), &action))?;
            game.act(action).expect("computer players choose legal actions")
        } else {
            if show_board {
                writeln!(out, "\n{}", board::render(game.battle()))?;
                show_board = false;
            }
            writeln!(out, "{}", status(&game))?;
            for (i, a) in actions.iter().enumerate() {
                writeln!(out, "  {:>3}. {}", i + 1, narrate::action(game.battle(), a))?;
            }
            write!(out, "{} > ", scenario.side(side).name)?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out, "\n(end of input)")?;
                break;
            };
            let line = line?;
            match line.trim() {
                "q" | "quit" => break,
                "b" | "board" => {
                    show_board = true;
                    continue;
                }
                "u" | "units" => {
                    write!(out, "{}", board::unit_list(game.battle()))?;
                    continue;
                }
                "l" | "log" => {
                    for e in game.log() {
                        writeln!(out, "{}", narrate::event(&scenario, e))?;
                    }
                    continue;
                }
                "s" | "save" => {
                    match &save_path {
                        Some(p) => save(&game, p, &mut out)?,
                        None => writeln!(out, "start the game with --save FILE to save it")?,
                    }
                    continue;
                }
                "h" | "help" | "?" | "" => {
                    writeln!(out, "{HELP}")?;
                    continue;
                }
                text => match text.parse::<usize>().ok().and_then(|n| n.checked_sub(1)).and_then(|i| actions.get(i)) {
                    Some(&action) => game.act(action).expect("listed actions are legal"),
                    None => {
                        writeln!(out, "'{text}' is not one of the numbers 1 to {}. {HELP}", actions.len())?;
                        continue;
                    }
                },
            }
        };
        for e in &events {
            writeln!(out, "{}", narrate::event(&scenario, e))?;
            if matches!(e, Event::CardDrawn { .. } | Event::InitiativeWon { .. } | Event::TurnStarted { .. }) {
                show_board = true;
            }
        }
        if let Some(p) = &save_path {
            std::fs::write(p, game.save_json()).with_context(|| format!("cannot save to {}", p.display()))?;
        }
    }
    if game.battle().result().is_some() {
        writeln!(out, "\n{}", board::render(game.battle()))?;
        write!(out, "{}", board::unit_list(game.battle()))?;
    }
    if let Some(p) = &save_path {
        save(&game, p, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn save(game: &Game, path: &PathBuf, out: &mut impl Write) -> Result<()> {
    std::fs::write(path, game.save_json()).with_context(|| format!("cannot save to {}", path.display()))?;
    writeln!(out, "saved to {} (replay it with: pacw replay {})", path.display(), path.display())?;
    Ok(())
}

fn status(game: &Game) -> String {
    let b = game.battle();
    let s = b.scenario();
    let side = b.active_side();
    let who = match b.active_unit() {
        Some(u) => format!(" — orders for {} at {}", b.info(u).name, b.unit(u).at),
        None => String::new(),
    };
    let cards = if b.options().initiative == pacw_engine::Initiative::Cards {
        format!(", {} activation(s) left on this card, {} cards in the deck", b.activations_left(), b.deck().len())
    } else {
        String::new()
    };
    format!("Turn {}/{}: {} to act{cards}{who}", b.turn(), s.turns, s.side(side).name)
}
