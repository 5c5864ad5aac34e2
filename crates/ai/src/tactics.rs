//! The tactics suite: positions from the shipped battles, each with one order that is clearly best, as chess engines
//! have their test suites (WAC, STS). The positions live in `crates/ai/tactics/`, one TOML file each; the folder's
//! README.md describes the format for whoever adds one.
//!
//! A position is a game replayed exactly (a battle, a seed and the decisions from the start: docs/rules.md R9.2),
//! the side to move, the best order, a sentence saying why with the rules it turns on, and the margin by which the
//! best order beat every other in greedy play-outs ([`measure`]). [`Position::parse`] checks all of it and says
//! what is wrong with a bad file, citing the file; nothing in a file can make it panic.
//!
//! ```
//! let (positions, errors) = pacw_ai::tactics::load_dir(std::path::Path::new(pacw_ai::tactics::SUITE_DIR));
//! assert!(errors.is_empty(), "{errors:?}");
//! let p = &positions[0];
//! assert!(p.is_best(&p.best));
//! ```

use crate::mcts::chance::outcome_in_world;
use crate::review::DEFAULT_BUDGET;
use crate::review::search::{Judgement, Plan, after, judge, plans};
use crate::{GreedyPlayer, Player};
use pacw_engine::{Action, Battle, Game, Rule, Side, ToAct, offered_scenarios, shipped_named};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::{Path, PathBuf};

/// The suite shipped in the repository (`crates/ai/tactics/`).
pub const SUITE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tactics");

/// The longest plan: an activation and its order (review::search's plans).
const MAX_PLAN: usize = 2;

/// A file of the suite as written: every key the format has (README.md of the suite).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawPosition {
    title: String,
    battle: Option<String>,
    scenario: Option<String>,
    seed: u64,
    #[serde(default)]
    decisions: Vec<Action>,
    side: String,
    best: Vec<Action>,
    #[serde(default)]
    equivalent: Vec<Vec<Action>>,
    why: String,
    rules: Vec<String>,
    margin: Margin,
}

/// How the best order was measured against the others: the acting side's mean score (a win 1, a draw ½, a loss 0)
/// after each, over the same greedy play-outs ([`measure`]).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Margin {
    /// Play-outs to the end of the game for each order compared closely (the best and its nearest rivals).
    pub playouts: u32,
    /// How many orders the side had, every one of them screened by fewer play-outs first.
    pub orders: u32,
    /// The best order's mean score.
    pub best: f32,
    /// The best of the other orders' mean score, on the same play-outs.
    pub runner_up: f32,
    /// That other order.
    pub runner_up_order: Vec<Action>,
    /// The standard error of the paired difference, best less runner-up.
    pub standard_error: f32,
}

impl Margin {
    /// By how much the best order beat the runner-up.
    pub fn margin(&self) -> f32 {
        self.best - self.runner_up
    }
}

/// One position of the suite, checked: its decisions replay, the side to move is the one named, and the best order
/// is one of its legal plans.
#[derive(Clone, Debug)]
pub struct Position {
    /// The file's name without `.toml`: the position's id.
    pub id: String,
    /// A short title.
    pub title: String,
    /// The battle: a shipped scenario's short name, or the path of a scenario file in the suite's folder
    /// (`boards/…`).
    pub battle: String,
    /// The seed the game was played with.
    pub seed: u64,
    /// The decisions from the start that reach the position.
    pub decisions: Vec<Action>,
    /// The side to move.
    pub side: Side,
    /// The best order: an activation and its order, or a lone action.
    pub best: Vec<Action>,
    /// Orders that are the best told another way: the same in every play-out (as the same move with a facing that
    /// does not matter). A player choosing one of them finds the position, as a chess suite lists several best
    /// moves.
    pub equivalent: Vec<Vec<Action>>,
    /// Why it is best, in a sentence citing the rules.
    pub why: String,
    /// The rules it turns on.
    pub rules: Vec<Rule>,
    /// How clearly it is best.
    pub margin: Margin,
    game: Game,
}

/// A file of the suite that could not be read or does not hold up, with the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TacticsError {
    /// The file.
    pub file: String,
    /// What is wrong, in words.
    pub message: String,
}

impl fmt::Display for TacticsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

impl std::error::Error for TacticsError {}

/// An action as the saves write it, for messages.
fn json(actions: &[Action]) -> String {
    serde_json::to_string(actions).unwrap_or_default()
}

impl Position {
    /// Reads and checks a position: the text of file `file`, with `beside` reading a scenario file named in it
    /// (from the position's folder).
    ///
    /// # Errors
    /// When the text is not the format's TOML, its battle is unknown or its scenario does not load, a decision is
    /// illegal, the game is over or another side is to move, the best order (or the runner-up) is not a legal
    /// plan there, a rule id is not one of docs/rules.md's, or the margin does not add up.
    pub fn parse(text: &str, file: &str, beside: &dyn Fn(&str) -> Option<String>) -> Result<Position, TacticsError> {
        let fail = |message: String| TacticsError { file: file.to_string(), message };
        let raw: RawPosition = toml::from_str(text).map_err(|e| fail(e.to_string().trim_end().to_string()))?;
        let (battle, scenario_file, scenario_text) =
            match (&raw.battle, &raw.scenario) {
                (Some(name), None) => {
                    let shipped = shipped_named(offered_scenarios(), name).ok_or_else(|| {
                        let known: Vec<&str> = offered_scenarios().map(|s| s.name).collect();
                        fail(format!("no shipped battle is called '{name}' (the battles: {})", known.join(", ")))
                    })?;
                    (name.clone(), shipped.file.to_string(), shipped.text.to_string())
                }
                (None, Some(scenario)) => {
                    let text = beside(scenario)
                        .ok_or_else(|| fail(format!("the scenario file '{scenario}' beside it cannot be read")))?;
                    (scenario.clone(), scenario.clone(), text)
                }
                _ => return Err(fail(
                    "give the battle either as `battle` (a shipped one) or as `scenario` (a file beside it), not both"
                        .into(),
                )),
            };
        let mut game = Game::new(&scenario_text, &scenario_file, None, raw.seed)
            .map_err(|e| fail(format!("its scenario is not valid:\n{e}")))?;
        for (i, &action) in raw.decisions.iter().enumerate() {
            game.act(action).map_err(|e| fail(format!("decision {} ({}) is illegal: {e}", i + 1, json(&[action]))))?;
        }
        let scenario = game.battle().scenario().clone();
        let side = Side::BOTH.into_iter().find(|&s| scenario.side(s).id == raw.side).ok_or_else(|| {
            let ids: Vec<&str> = Side::BOTH.iter().map(|&s| scenario.side(s).id.as_str()).collect();
            fail(format!("the side '{}' is not one of the battle's ({})", raw.side, ids.join(", ")))
        })?;
        match game.battle().to_act() {
            ToAct::Side(s) if s == side => {}
            ToAct::Side(s) => {
                return Err(fail(format!("after the decisions {} is to move, not {}", scenario.side(s).id, raw.side)));
            }
            _ => return Err(fail("after the decisions the game is over: no side is to move".into())),
        }
        let b = game.battle();
        let legal = plans(b);
        let check_plan = |what: &str, plan: &[Action]| -> Result<(), TacticsError> {
            if plan.is_empty() || plan.len() > MAX_PLAN {
                return Err(fail(format!(
                    "the {what} is {} actions: give an activation and its order, or one lone action",
                    plan.len()
                )));
            }
            if legal.iter().any(|p| p.as_slice() == plan) {
                return Ok(());
            }
            // Say what the engine refuses, where it refuses something; else the plan stops half way.
            let mut b = b.clone();
            for &a in plan {
                if let Err(e) = b.apply(a) {
                    return Err(fail(format!("the {what} {} is not legal here: {e}", json(plan))));
                }
            }
            Err(fail(format!(
                "the {what} {} is not a whole order: an activation must be followed by the unit's order",
                json(plan)
            )))
        };
        check_plan("best order", &raw.best)?;
        check_plan("runner-up order", &raw.margin.runner_up_order)?;
        for plan in &raw.equivalent {
            check_plan("equivalent order", plan)?;
        }
        if raw.margin.runner_up_order == raw.best || raw.equivalent.contains(&raw.margin.runner_up_order) {
            return Err(fail("the runner-up order is the best order itself, or one equivalent to it".into()));
        }
        if raw.title.trim().is_empty() || raw.why.trim().is_empty() {
            return Err(fail("the title and the sentence why must not be empty".into()));
        }
        if raw.rules.is_empty() {
            return Err(fail("name the rules the order turns on (`rules = [\"R7.1\"]`)".into()));
        }
        let rules = raw
            .rules
            .iter()
            .map(|id| Rule::from_id(id).ok_or_else(|| fail(format!("'{id}' is not a rule of docs/rules.md"))))
            .collect::<Result<Vec<Rule>, TacticsError>>()?;
        let m = &raw.margin;
        let score = 0.0..=1.0;
        if m.playouts == 0 || (m.orders as usize) != legal.len() {
            return Err(fail(format!(
                "the margin must say how many play-outs (more than 0) and how many orders the side had ({})",
                legal.len()
            )));
        }
        if !score.contains(&m.best) || !score.contains(&m.runner_up) || m.runner_up >= m.best {
            return Err(fail(format!(
                "the margin's scores must lie between 0 and 1 with the best above the runner-up (best {}, runner-up {})",
                m.best, m.runner_up
            )));
        }
        if !m.standard_error.is_finite() || m.standard_error < 0.0 {
            return Err(fail("the margin's standard error must be a number, 0 or more".into()));
        }
        let id = Path::new(file).file_stem().and_then(|s| s.to_str()).unwrap_or(file).to_string();
        Ok(Position {
            id,
            title: raw.title,
            battle,
            seed: raw.seed,
            decisions: raw.decisions,
            side,
            best: raw.best,
            equivalent: raw.equivalent,
            why: raw.why.split_whitespace().collect::<Vec<_>>().join(" "),
            rules,
            margin: raw.margin,
            game,
        })
    }

    /// Reads and checks the position in `path` ([`Position::parse`]); a scenario it names is read beside it.
    ///
    /// # Errors
    /// When the file cannot be read, or as [`Position::parse`].
    pub fn read(path: &Path) -> Result<Position, TacticsError> {
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| TacticsError { file: file.clone(), message: format!("cannot be read: {e}") })?;
        let folder = path.parent().map(Path::to_path_buf).unwrap_or_default();
        // Only a path inside the position's folder: a scenario elsewhere would make the suite depend on it.
        let beside = |name: &str| {
            let inside = Path::new(name).components().all(|c| matches!(c, std::path::Component::Normal(_)));
            inside.then(|| std::fs::read_to_string(folder.join(name)).ok()).flatten()
        };
        Position::parse(&text, &file, &beside)
    }

    /// The game at the position.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The battle at the position.
    pub fn battle(&self) -> &Battle {
        self.game.battle()
    }

    /// Whether `plan` is the best order, or one equivalent to it.
    pub fn is_best(&self, plan: &[Action]) -> bool {
        plan == self.best.as_slice() || self.equivalent.iter().any(|e| e.as_slice() == plan)
    }

    /// The best order in words, as the game offers it.
    pub fn best_text(&self) -> String {
        plan_text(self.battle(), &self.best)
    }
}

/// A plan in words: each action as the game offers it, joined.
pub fn plan_text(b: &Battle, plan: &[Action]) -> String {
    let mut b = b.clone();
    let mut words = Vec::new();
    for &a in plan {
        words.push(pacw_engine::narrate::action(&b, &a));
        if b.apply(a).is_err() {
            break;
        }
    }
    words.join(": ")
}

/// Every position of the folder `dir` (its `.toml` files, by name), and the errors of those that do not hold up.
pub fn load_dir(dir: &Path) -> (Vec<Position>, Vec<TacticsError>) {
    let mut files: Vec<PathBuf> = match std::fs::read_dir(dir) {
        Ok(entries) => entries.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => {
            let file = dir.display().to_string();
            return (Vec::new(), vec![TacticsError { file, message: format!("the folder cannot be read: {e}") }]);
        }
    };
    // Scenarios of the positions' own live in a folder below (`boards/`), so every file here is a position.
    files.retain(|f| f.is_file() && f.extension().is_some_and(|x| x == "toml"));
    files.sort();
    let mut positions = Vec::new();
    let mut errors = Vec::new();
    for f in files {
        match Position::read(&f) {
            Ok(p) => positions.push(p),
            Err(e) => errors.push(e),
        }
    }
    (positions, errors)
}

/// The plan `player` chooses in `b`: its action, and where that is an activation, the order it then gives.
pub fn choice(player: &mut dyn Player, b: &Battle) -> Plan {
    let first = player.choose(b);
    let mut plan = vec![first];
    if matches!(first, Action::Activate(_)) {
        let mut activated = b.clone();
        if activated.apply(first).is_ok() && matches!(activated.to_act(), ToAct::Side(_)) {
            plan.push(player.choose(&activated));
        }
    }
    plan
}

/// The plan the player named `name` (as [`crate::player`] takes it, seeded with `seed`) chooses at the position;
/// `None` for a name it does not know.
pub fn player_choice(position: &Position, name: &str, seed: u64) -> Option<Plan> {
    let mut player = crate::player(name, seed)?;
    Some(choice(player.as_mut(), position.battle()))
}

/// The review's judgement of the best order played at the position ([`crate::review::search::judge`] with the
/// embedded evaluator and the review's default budget): a loss of 5 points or more would label it an inaccuracy,
/// a mistake or a blunder ([`crate::review::Label::of`]).
pub fn review(position: &Position) -> Option<Judgement> {
    let evaluator = crate::evaluator::shared();
    judge(evaluator, position.battle(), position.side, &position.best, DEFAULT_BUDGET)
}

/// The acting side's score (a win 1, a draw ½, a loss 0) after each plan in each world of `worlds`: one greedy
/// play-out to the end of the game a world, both sides greedy, chance decided by the world and the event (the mcts's
/// synchronised worlds), so that every plan meets the same dice and cards and the differences are the plans', not
/// the luck's. A plan that is not legal in `b` scores nothing (an empty row).
pub fn measure(b: &Battle, plans: &[Plan], worlds: std::ops::Range<u64>) -> Vec<Vec<f32>> {
    let ToAct::Side(side) = b.to_act() else { return vec![Vec::new(); plans.len()] };
    plans
        .iter()
        .map(|plan| match after(b, plan) {
            Some(start) => worlds.clone().map(|w| playout(start.clone(), side, w)).collect(),
            None => Vec::new(),
        })
        .collect()
}

/// One greedy play-out of `b` to the end in `world`, scored for `side`.
fn playout(mut b: Battle, side: Side, world: u64) -> f32 {
    let mut greedy = GreedyPlayer::new(world);
    let mut events = Vec::new();
    loop {
        match b.to_act() {
            ToAct::Over(result) => {
                return match result.winner {
                    Some(w) if w == side => 1.0,
                    Some(_) => 0.0,
                    None => 0.5,
                };
            }
            ToAct::Chance(_) => match outcome_in_world(&b, world) {
                Some(outcome) => {
                    events.clear();
                    if b.apply_chance_into(outcome, &mut events).is_err() {
                        return 0.5; // never: an outcome in a world is one of the legal ones
                    }
                }
                None => return 0.5,
            },
            ToAct::Side(_) => {
                let action = greedy.choose(&b);
                events.clear();
                if b.apply_into(action, &mut events).is_err() {
                    return 0.5; // never: greedy chooses among the legal actions
                }
            }
        }
    }
}

/// The mean of a row of scores.
pub fn mean(row: &[f32]) -> f32 {
    if row.is_empty() { 0.0 } else { row.iter().sum::<f32>() / row.len() as f32 }
}

/// The mean of the paired difference `a - b` (the same worlds) and its standard error.
pub fn paired(a: &[f32], b: &[f32]) -> (f32, f32) {
    let n = a.len().min(b.len());
    if n < 2 {
        return (mean(a) - mean(b), f32::INFINITY);
    }
    let d: Vec<f32> = a.iter().zip(b).map(|(x, y)| x - y).collect();
    let m = mean(&d);
    let var = d.iter().map(|x| (x - m) * (x - m)).sum::<f32>() / (n - 1) as f32;
    (m, (var / n as f32).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn no_file(_: &str) -> Option<String> {
        None
    }

    #[test]
    fn a_bad_file_says_what_is_wrong_and_where() {
        let err = Position::parse("title = 3", "x.toml", &no_file).unwrap_err();
        assert_eq!(err.file, "x.toml");
        assert!(err.message.contains("invalid type"), "{err}");
        let mut text = String::from(
            r#"title = "t"
battle = "no-such-battle"
seed = 1
side = "union"
best = ["end_activations"]
why = "w"
rules = ["R7.1"]
[margin]
playouts = 1
orders = 1
best = 1.0
runner_up = 0.0
runner_up_order = ["hold"]
standard_error = 0.0
"#,
        );
        let err = Position::parse(&text, "x.toml", &no_file).unwrap_err();
        assert!(err.message.contains("no shipped battle is called 'no-such-battle'"), "{err}");
        text = text.replace("no-such-battle", "meeting-engagement");
        let err = Position::parse(&text, "x.toml", &no_file).unwrap_err();
        assert!(err.message.contains("after the decisions confederate is to move, not union"), "{err}");
        let err = Position::parse(&text.replace("\"union\"", "\"prussia\""), "x.toml", &no_file).unwrap_err();
        assert!(err.message.contains("the side 'prussia' is not one of the battle's (union, confederate)"), "{err}");
    }

    #[test]
    fn the_paired_difference_has_no_error_when_the_plans_always_differ_alike() {
        assert_eq!(paired(&[1.0, 1.0, 0.0], &[0.0, 0.0, -1.0]), (1.0, 0.0));
        assert_eq!(mean(&[]), 0.0);
    }
}
