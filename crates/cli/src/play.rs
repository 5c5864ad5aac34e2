//! `pacw play`: a game in the terminal, hot-seat or against a computer player, or two computer players watched.

use crate::args::Usage;
use crate::board;
use crate::source::{scenario_for, scenario_text};
use anyhow::{Context, Result};
use clap::Args;
use pacw_ai::{PLAYERS, Player, player};
use pacw_engine::{Action, Battle, Dir, Event, Game, SaveFile, Side, Square, ToAct, UnitId, narrate};
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

/// Arguments of `pacw play`.
#[derive(Args, Default)]
#[command(after_help = "Examples:\n  pacw play bloody-lane --save game.json\n  pacw play maryes-heights --vs general \
                         --side second\n  pacw play --load game.json\n  pacw play meeting-engagement --players \
                         greedy,mcts:400 --pace-ms 0\n\nIn the game: the number of an order; b board, u units, l log, \
                         z undo, s save, q quit, h help.")]
pub struct PlayArgs {
    /// A scenario file or shipped scenario name (default: the meeting engagement).
    pub scenario: Option<String>,
    /// The seed of the dice and cards (default: from the clock; it is printed so the game can be replayed).
    #[arg(long)]
    pub seed: Option<u64>,
    /// Play against the computer instead of hot-seat: a level, recruit, veteran (`--vs` alone) or general, or one
    /// of the laboratory's players (greedy, mcts with its settings, random).
    #[arg(long, value_name = "PLAYER", value_parser = parse_player, conflicts_with = "players",
          num_args = 0..=1, default_missing_value = pacw_ai::DEFAULT_LEVEL)]
    pub vs: Option<String>,
    /// With --vs, the side you play: `first` (the default), `second`, or a side id from the scenario.
    #[arg(long, requires = "vs")]
    pub side: Option<String>,
    /// Watch two computer players, as A,B (the first plays the scenario's first side).
    #[arg(long, value_name = "A,B", value_parser = crate::args::players)]
    pub players: Option<[String; 2]>,
    /// With --players: the pause after each decision, so the game can be followed.
    #[arg(long, value_name = "MS", default_value_t = 400)]
    pub pace_ms: u64,
    /// Save the game to this file after every decision.
    #[arg(long, value_name = "FILE")]
    pub save: Option<PathBuf>,
    /// Continue a saved game, with the players it was saved with (and keep saving to it unless --save says
    /// otherwise).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["scenario", "seed", "set"])]
    pub load: Option<PathBuf>,
    /// Set a rule option, as NAME=VALUE (docs/rules.md R11), e.g. --set initiative=igougo.
    #[arg(long = "set", value_name = "OPTION=VALUE", value_parser = crate::args::set)]
    pub set: Vec<(String, String)>,
    /// Play by a variant file's combat system (docs/variants.md), laid over the battle's own variant if it names
    /// one; the save keeps it. Give it again to lay more files over it, in order.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    pub variant: Vec<PathBuf>,
}

/// Accepts the names `pacw_ai::player` knows (the levels, random, greedy, mcts with settings such as mcts:2000).
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

/// What a save says of who plays a side.
const HUMAN: &str = "human";

/// Runs the game on the terminal.
///
/// # Errors
/// As [`play`].
pub fn run(args: PlayArgs) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    play(args, stdin.lock(), stdout.lock())
}

/// The game, and who plays each side (`human` or a computer player's name).
fn new_game(args: &PlayArgs) -> Result<(Game, [String; 2])> {
    if let Some(path) = &args.load {
        let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
        let save: SaveFile = serde_json::from_str(&text)
            .map_err(pacw_engine::SaveError::from)
            .with_context(|| format!("cannot load {}", path.display()))?;
        let game = Game::from_save(&save).with_context(|| format!("cannot load {}", path.display()))?;
        let players = match (&save.players, &args.vs) {
            (Some(_), Some(_)) => return Err(Usage("--vs cannot change the players of a saved game".into()).into()),
            (Some(saved), None) => saved.clone(),
            (None, vs) => sides_of(args, &game, vs.as_deref())?,
        };
        return Ok((game, players));
    }
    let (text, file) = scenario_text(args.scenario.as_deref().unwrap_or("meeting-engagement"))?;
    let scenario = scenario_for(&text, &file, &args.variant)?;
    let mut options = scenario.options;
    crate::args::apply_sets(&scenario, &mut options, &args.set).map_err(|e| Usage(e.to_string()))?;
    let seed = args.seed.unwrap_or_else(|| {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64 % 1_000_000_000)
    });
    let game = Game::with_scenario(Arc::new(scenario), &text, &file, Some(options), seed);
    let players = match &args.players {
        Some(both) => both.clone(),
        None => sides_of(args, &game, args.vs.as_deref())?,
    };
    Ok((game, players))
}

/// Hot-seat, or the person on `--side` against `vs`.
fn sides_of(args: &PlayArgs, game: &Game, vs: Option<&str>) -> Result<[String; 2]> {
    let Some(vs) = vs else { return Ok([HUMAN.to_string(), HUMAN.to_string()]) };
    let s = game.battle().scenario();
    let me = match args.side.as_deref().unwrap_or("first") {
        "first" => Side::A,
        "second" => Side::B,
        id => s.side_by_id(id).ok_or_else(|| {
            Usage(format!("--side: no side '{id}' (use first, second, {} or {})", s.sides[0].id, s.sides[1].id))
        })?,
    };
    let mut players = [HUMAN.to_string(), HUMAN.to_string()];
    players[me.other().index()] = vs.to_string();
    Ok(players)
}

const HELP: &str = "Type the number of an order (a move then asks its facing); a unit keeps its number all game. \
                    Also: n the next unit ready, e end activations (asks first), b board, u units, l log, z undo, \
                    s save, q quit, h help.";

/// One entry of the menu: an order, or the moves to one square (the facing asked after).
enum Entry {
    Order(Action),
    /// Moves (or Move & Fire at one target, or advances) ending on one square, one per facing allowed.
    Facings {
        text: String,
        choices: Vec<(Dir, Action)>,
    },
}

/// The orders ending on one square (and, for Move & Fire, at one target), one per facing: asked after the square.
type Group = (Square, Option<u8>, Vec<(Dir, Action)>);

/// One line of the menu: what to type, what it does, and how it reads.
struct Item {
    key: String,
    entry: Entry,
    text: String,
}

/// The menu of the side to act, each line with what to type. Choosing a unit to activate, each unit is numbered by
/// its place among its side's units, so a number never moves to another unit or to ending the card (R3.4: `e`);
/// an order is numbered in turn, attacks with their exact odds, moves grouped by square.
fn menu(b: &Battle) -> Vec<Item> {
    let side = b.active_side();
    let own: Vec<UnitId> = b.unit_ids().filter(|&u| b.info(u).side == side).collect();
    let mut items = Vec::new();
    let mut next = 0;
    for (entry, text) in entries(b) {
        let key = match entry {
            Entry::Order(Action::Activate(u)) => (own.iter().position(|&o| o == u).unwrap_or(0) + 1).to_string(),
            Entry::Order(Action::EndActivations) => "e".to_string(),
            _ => {
                next += 1;
                next.to_string()
            }
        };
        items.push(Item { key, entry, text });
    }
    items
}

/// The orders of the side to act, in the engine's order: orders one by one, moves grouped by square.
fn entries(b: &Battle) -> Vec<(Entry, String)> {
    let mut out: Vec<(Entry, String)> = Vec::new();
    let mut grouped: Vec<Group> = Vec::new();
    for action in b.legal_actions() {
        let key = match action {
            Action::Move { to, facing } | Action::Advance { to, facing } => Some((to, None, facing)),
            Action::MoveFire { to, facing, target } => Some((to, Some(target.0), facing)),
            _ => None,
        };
        match key {
            Some((to, target, facing)) => match grouped.iter_mut().find(|(t, g, _)| *t == to && *g == target) {
                Some((_, _, choices)) => choices.push((facing, action)),
                None => grouped.push((to, target, vec![(facing, action)])),
            },
            None => out.push((Entry::Order(action), order_text(b, &action))),
        }
    }
    for (to, target, choices) in grouped {
        let at = b.active_unit().map(|u| b.unit(u).at);
        let facings: Vec<String> = choices.iter().map(|(d, _)| d.to_string()).collect();
        let text = match target {
            None if Some(to) == at => format!("Turn in place (face {})", facings.join("/")),
            None => format!("Move to {to} (face {})", facings.join("/")),
            Some(_) => {
                let first = order_text(b, &choices[0].1);
                let (_, rest) = first.split_once("face ").unwrap_or(("", &first));
                let rest = rest.split_once(", ").map_or(rest, |(_, r)| r);
                let how = if Some(to) == at { "Turn in place".to_string() } else { format!("Move to {to}") };
                format!("{how} (face {}), {rest}", facings.join("/"))
            }
        };
        let entry = if choices.len() == 1 {
            Entry::Order(choices[0].1)
        } else {
            Entry::Facings { text: text.clone(), choices }
        };
        out.push((entry, text));
    }
    out
}

/// An order in words, an attack with its exact odds (R6.4, R7.1).
fn order_text(b: &Battle, a: &Action) -> String {
    let text = narrate::action(b, a);
    let odds = b.active_unit().and_then(|u| b.attack_odds(u, a).ok());
    match odds {
        Some(o) => {
            let pct = |p: pacw_engine::Prob| 100.0 * *p.numer() as f64 / *p.denom() as f64;
            format!(
                "{text}: hit {:.0}% — shaken {:.0}%, retreat {:.0}%, destroyed {:.0}%",
                pct(o.hit()),
                pct(o.shaken),
                pct(o.retreat),
                pct(o.destroyed)
            )
        }
        None => text,
    }
}

/// Whether a decision's events include a die or a card: it cannot be taken back.
fn chance_in(events: &[Event]) -> bool {
    events.iter().any(|e| {
        matches!(
            e,
            Event::CardDrawn { .. }
                | Event::InitiativeRolled { .. }
                | Event::ToHitRolled { .. }
                | Event::HitResultRolled { .. }
        )
    })
}

/// The game as played here: the engine's game, who plays each side, and for each decision whether a person made
/// it and whether chance followed (for undo).
struct Table {
    game: Game,
    players: [String; 2],
    steps: Vec<(bool, bool)>,
}

impl Table {
    fn new(game: Game, players: [String; 2]) -> Table {
        // Replay the decisions once to learn which of them chance followed.
        let mut fresh = game.undo(game.actions().len());
        let mut steps = Vec::new();
        for &a in game.actions() {
            let side = fresh.battle().active_side();
            let events = fresh.act(a).expect("a loaded game's decisions replay");
            steps.push((players[side.index()] == HUMAN, chance_in(&events)));
        }
        Table { game, players, steps }
    }

    fn act(&mut self, action: Action) -> Vec<Event> {
        let human = self.players[self.game.battle().active_side().index()] == HUMAN;
        let events = self.game.act(action).expect("listed actions are legal");
        self.steps.push((human, chance_in(&events)));
        events
    }

    /// Takes back the last decision a person made, and the computer's after it, if no die or card came since.
    fn undo(&mut self) -> Result<usize, &'static str> {
        let last_human = self.steps.iter().rposition(|(human, _)| *human).ok_or("nothing of yours to take back")?;
        if self.steps[last_human..].iter().any(|(_, chance)| *chance) {
            return Err("a die was rolled or a card drawn since: that cannot be taken back");
        }
        let n = self.steps.len() - last_human;
        self.game = self.game.undo(n);
        self.steps.truncate(last_human);
        Ok(n)
    }

    fn save(&self, path: &PathBuf) -> Result<()> {
        let mut save = self.game.save();
        save.players = Some(self.players.clone());
        let json = serde_json::to_string_pretty(&save).context("a save serialises")?;
        std::fs::write(path, json).with_context(|| format!("cannot save to {}", path.display()))
    }
}

/// The game loop, on any input and output (tests drive it with text).
///
/// # Errors
/// When the save, the scenario or the variant file cannot be read or is not a good one, `--vs` is given for a saved
/// game's players or a side or an option is refused (bad usage), a player is unknown, the input cannot be read or the
/// output written, or the game cannot be saved.
pub fn play(args: PlayArgs, input: impl BufRead, mut out: impl Write) -> Result<ExitCode> {
    let (game, players) = new_game(&args)?;
    let save_path = args.save.clone().or_else(|| args.load.clone());
    let mut computers: [Option<Box<dyn Player + Send>>; 2] = [None, None];
    for side in Side::BOTH {
        let name = &players[side.index()];
        if name != HUMAN {
            let seed = game.seed() ^ 0x9e37_79b9_7f4a_7c15 ^ side.index() as u64;
            computers[side.index()] = Some(player(name, seed).with_context(|| format!("unknown player '{name}'"))?);
        }
    }
    let watching = players.iter().all(|p| p != HUMAN);
    let mut table = Table::new(game, players);
    let scenario = table.game.battle().scenario().clone();
    let options = scenario.options_text(table.game.battle().options());
    writeln!(out, "{} — seed {} — options: {options}", scenario.name, table.game.seed())?;
    for side in Side::BOTH {
        writeln!(out, "{}: {}", scenario.side(side).name, table.players[side.index()])?;
    }
    writeln!(out, "{HELP}")?;
    for e in table.game.log() {
        writeln!(out, "{}", narrate::event_with(&scenario, table.game.battle().options(), e))?;
    }
    let mut lines = input.lines();
    let mut show_board = true;
    'game: while let ToAct::Side(side) = table.game.battle().to_act() {
        let events = if let Some(p) = computers[side.index()].as_mut() {
            let action = p.choose(table.game.battle());
            writeln!(
                out,
                "{} ({}): {}",
                scenario.side(side).name,
                p.name(),
                narrate::action(table.game.battle(), &action)
            )?;
            if watching && args.pace_ms > 0 {
                out.flush()?;
                std::thread::sleep(Duration::from_millis(args.pace_ms));
            }
            table.act(action)
        } else {
            if show_board {
                writeln!(out, "\n{}", board::render(table.game.battle()))?;
                show_board = false;
            }
            writeln!(out, "{}", status(&table.game))?;
            let items = menu(table.game.battle());
            for item in &items {
                writeln!(out, "  {:>3}. {}", item.key, item.text)?;
            }
            write!(out, "{} > ", scenario.side(side).name)?;
            out.flush()?;
            let Some(line) = lines.next() else {
                writeln!(out, "\n(end of input)")?;
                break;
            };
            let line = line?;
            let mut ask = |question: &str| -> Result<bool> {
                write!(out, "{question} [y/N] ")?;
                out.flush()?;
                Ok(match lines.next() {
                    Some(answer) => matches!(answer?.trim(), "y" | "Y" | "yes"),
                    None => true, // the input has ended: nobody is left to ask
                })
            };
            let ready = items.iter().filter(|i| matches!(i.entry, Entry::Order(Action::Activate(_)))).count();
            let end = items.iter().find(|i| matches!(i.entry, Entry::Order(Action::EndActivations)));
            let typed = match line.trim() {
                // The next unit ready, or the end of the card when none is.
                "n" | "next" => items
                    .iter()
                    .find(|i| matches!(i.entry, Entry::Order(Action::Activate(_))))
                    .or(end)
                    .map_or("n", |i| i.key.as_str()),
                other => other,
            };
            match typed {
                "q" | "quit" => {
                    let unsaved = save_path.is_none() && table.steps.iter().any(|(human, _)| *human);
                    if !unsaved || ask("Quit without saving this game (start it with --save FILE to keep it)?")? {
                        break;
                    }
                    continue;
                }
                "e" | "end" if end.is_some() && ready > 0 => {
                    let question = format!(
                        "End {}'s activations on this card, with {ready} unit(s) ready to act (R3.4)?",
                        scenario.side(side).name
                    );
                    if ask(&question)? {
                        table.act(Action::EndActivations)
                    } else {
                        continue;
                    }
                }
                "b" | "board" => {
                    show_board = true;
                    continue;
                }
                "u" | "units" => {
                    write!(out, "{}", board::unit_list(table.game.battle()))?;
                    continue;
                }
                "l" | "log" => {
                    for e in table.game.log() {
                        writeln!(out, "{}", narrate::event_with(&scenario, table.game.battle().options(), e))?;
                    }
                    continue;
                }
                "z" | "undo" => {
                    match table.undo() {
                        Ok(n) => {
                            writeln!(out, "taken back: {n} decision(s)")?;
                            show_board = true;
                        }
                        Err(why) => writeln!(out, "cannot undo: {why}")?,
                    }
                    continue;
                }
                "s" | "save" => {
                    match &save_path {
                        Some(p) => saved(&table, p, &mut out)?,
                        None => writeln!(out, "start the game with --save FILE to save it")?,
                    }
                    continue;
                }
                "h" | "help" | "?" | "" => {
                    writeln!(out, "{HELP}")?;
                    continue;
                }
                text => {
                    let chosen = items.iter().find(|i| i.key == text.to_ascii_lowercase()).map(|i| &i.entry);
                    match chosen {
                        Some(Entry::Order(action)) => table.act(*action),
                        Some(Entry::Facings { text, choices }) => {
                            let allowed: Vec<String> = choices.iter().map(|(d, _)| d.to_string()).collect();
                            loop {
                                write!(out, "{text}: which facing ({})? ", allowed.join(", "))?;
                                out.flush()?;
                                let Some(answer) = lines.next() else { break 'game };
                                let answer = answer?;
                                let wanted = answer.trim().to_ascii_uppercase().parse::<Dir>().ok();
                                match choices.iter().find(|(d, _)| Some(*d) == wanted) {
                                    Some((_, action)) => break table.act(*action),
                                    None => writeln!(
                                        out,
                                        "'{}' is not one of {} (R5.4)",
                                        answer.trim(),
                                        allowed.join(", ")
                                    )?,
                                }
                            }
                        }
                        None => {
                            let keys: Vec<&str> = items.iter().map(|i| i.key.as_str()).collect();
                            writeln!(out, "'{text}' is not in the menu ({}). {HELP}", keys.join(", "))?;
                            continue;
                        }
                    }
                }
            }
        };
        for e in &events {
            writeln!(out, "{}", narrate::event_with(&scenario, table.game.battle().options(), e))?;
            if matches!(e, Event::CardDrawn { .. } | Event::InitiativeWon { .. } | Event::TurnStarted { .. }) {
                show_board = true;
            }
        }
        if let Some(p) = &save_path {
            table.save(p)?;
        }
    }
    if table.game.battle().result().is_some() {
        writeln!(out, "\n{}", board::render(table.game.battle()))?;
        write!(out, "{}", board::unit_list(table.game.battle()))?;
        write!(out, "{}", ledger(&table.game))?;
    }
    if let Some(p) = &save_path {
        saved(&table, p, &mut out)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn saved(table: &Table, path: &PathBuf, out: &mut impl Write) -> Result<()> {
    table.save(path)?;
    writeln!(out, "saved to {} (replay it with: pacw replay {})", path.display(), path.display())?;
    Ok(())
}

/// Whose turn, the card, the activations left, and the score (R3.4, R8).
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
    let points = b.points();
    let score = format!(
        "Points {} {}, {} {} (R8.2); lost {} {}/{}, {} {}/{} (R8.1)",
        s.side(Side::A).name,
        points[0],
        s.side(Side::B).name,
        points[1],
        s.side(Side::A).name,
        b.destroyed(Side::A),
        b.exhaustion_point(Side::A),
        s.side(Side::B).name,
        b.destroyed(Side::B),
        b.exhaustion_point(Side::B),
    );
    format!("Turn {}/{}: {} to act{cards}{who}\n{score}", b.turn(), b.turn_limit(), s.side(side).name)
}

/// Each side's luck: the expected results of its attacks from their exact odds against the dice's.
fn ledger(game: &Game) -> String {
    let l = pacw_server::ledger::ledger(game);
    let s = game.battle().scenario();
    let mut out = String::from("\nLuck ledger (expected / actual):\n");
    out += &format!(
        "{:<20} {:>8} {:>12} {:>12} {:>12} {:>12} {:>12}\n",
        "", "attacks", "hit", "miss", "shaken", "retreat", "destroyed"
    );
    for side in &l.sides {
        let cell = |k: &str| {
            format!(
                "{:.2} / {}",
                side.expected_decimal.get(k).copied().unwrap_or(0.0),
                side.actual.get(k).copied().unwrap_or(0)
            )
        };
        out += &format!(
            "{:<20} {:>8} {:>12} {:>12} {:>12} {:>12} {:>12}\n",
            s.side(side.side).name,
            side.attacks,
            cell("hit"),
            cell("miss"),
            cell("shaken"),
            cell("retreat"),
            cell("destroyed")
        );
    }
    out
}
