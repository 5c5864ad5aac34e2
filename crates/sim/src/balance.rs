//! Balancing a scenario (`pacw balance`): search its turn limit, exhaustion points and objective points for the
//! values that bring the first side's score (a win 1, a draw ½) closest to 50%, and write the scenario back with
//! only those numbers changed.
//!
//! The search *races* candidates: every candidate plays the same games (paired seeds, sides swapping), a few at
//! first, and after each round a candidate whose distance from 50% is surely larger than the best one's (its
//! interval's lower end beyond the best's upper end) is dropped; the survivors play twice as many games, up to the
//! budget. Games are spent where they decide. When the grid of all combinations is too large, the numbers are
//! raced one at a time (coordinate descent) until a full pass changes nothing.

use crate::config::check_player;
use crate::error::SimError;
use crate::record::first_side_score;
use crate::run::{GameSpec, play_game};
use crate::seed::{game_seed, player_seed};
use crate::significance::{Interval, mean_interval};
use crate::stats::Rate;
use pacw_engine::system::CombatSystem;
use pacw_engine::{Scenario, Side};
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
use toml_edit::DocumentMut;

/// A number of the scenario the search may change.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
pub enum Knob {
    /// The turn limit (`turns`).
    Turns,
    /// A side's exhaustion point (`exhaustion` of its `[[sides]]` entry).
    Exhaustion(usize),
    /// An objective's points (`points` of its `[[objectives]]` entry).
    Points(usize),
}

/// What `--tune` names: `turns`, `exhaustion` (both sides) and `points` (every objective).
pub const TUNABLE: [&str; 3] = ["turns", "exhaustion", "points"];

/// The most candidates raced at once before the search goes one number at a time.
pub const MAX_GRID: usize = 150;

/// Games every candidate plays in the first round.
pub const FIRST_ROUND: usize = 64;

impl Knob {
    /// Its name for reports: `turns`, `exhaustion.union`, `points.g5`.
    pub fn name(&self, s: &Scenario) -> String {
        match *self {
            Knob::Turns => "turns".into(),
            Knob::Exhaustion(i) => format!("exhaustion.{}", s.sides[i].id),
            Knob::Points(j) => format!("points.{}", s.objectives[j].at),
        }
    }

    /// Its value in a scenario.
    pub fn value(&self, s: &Scenario) -> i64 {
        match *self {
            Knob::Turns => s.options.turns.map_or(s.turns, |t| t.get()) as i64,
            Knob::Exhaustion(i) => s.options.exhaustion[i].unwrap_or(s.sides[i].exhaustion) as i64,
            Knob::Points(j) => s.objectives[j].points as i64,
        }
    }

    /// The values the search tries: a few either side of the current one, within what the format allows.
    pub fn range(&self, s: &Scenario) -> Vec<i64> {
        let v = self.value(s);
        let (lo, hi, step) = match *self {
            Knob::Turns => (1, 99, 3),
            Knob::Exhaustion(i) => (1, s.starting_units([Side::A, Side::B][i]) as i64, 2),
            Knob::Points(_) => (0, 99, 2),
        };
        ((v - step).max(lo)..=(v + step).min(hi)).collect()
    }
}

/// The knobs `--tune` asks for, in a scenario.
///
/// # Errors
/// When a name is not one of [`TUNABLE`], `points` is asked of a scenario without objectives, or nothing is named.
pub fn knobs(scenario: &Scenario, tune: &[String]) -> Result<Vec<Knob>, SimError> {
    let mut out = Vec::new();
    for name in tune {
        match name.as_str() {
            "turns" => out.push(Knob::Turns),
            "exhaustion" => out.extend([Knob::Exhaustion(0), Knob::Exhaustion(1)]),
            "points" if scenario.objectives.is_empty() => {
                return Err(SimError::BadTune("points: the scenario has no objectives".into()));
            }
            "points" => out.extend((0..scenario.objectives.len()).map(Knob::Points)),
            other => return Err(SimError::BadTune(format!("{other} (known: {})", TUNABLE.join(", ")))),
        }
    }
    if out.is_empty() {
        return Err(SimError::BadTune("nothing to tune".into()));
    }
    Ok(out)
}

/// Writes `values` for `knobs` into a scenario's text, changing nothing else (comments and layout kept): a value
/// equal to the scenario's own is left as it is written, or unwritten. A number that the scenario's `[options]`
/// overrides (`turns`, `exhaustion`) is changed there.
///
/// # Errors
/// When the text is not TOML, or lacks the `[[sides]]` or `[[objectives]]` entry a knob writes to.
pub fn rewrite(text: &str, scenario: &Scenario, knobs: &[Knob], values: &[i64]) -> Result<String, SimError> {
    let bad = |m: String| SimError::BadTune(m);
    let mut doc: DocumentMut = text.parse().map_err(|e: toml_edit::TomlError| bad(e.to_string()))?;
    /// Replaces an item's value, keeping its comments and spacing.
    fn put(item: &mut toml_edit::Item, v: i64) {
        match item.as_value_mut() {
            Some(old) => {
                let decor = old.decor().clone();
                *old = toml_edit::Value::from(v);
                *old.decor_mut() = decor;
            }
            None => *item = toml_edit::value(v),
        }
    }
    for (knob, &v) in knobs.iter().zip(values).filter(|&(knob, &v)| knob.value(scenario) != v) {
        match *knob {
            Knob::Turns if scenario.options.turns.is_some() => put(&mut doc["options"]["turns"], v),
            Knob::Turns => put(&mut doc["turns"], v),
            Knob::Exhaustion(i) if scenario.options.exhaustion[i].is_some() => {
                put(&mut doc["options"]["exhaustion"][scenario.sides[i].id.as_str()], v)
            }
            Knob::Exhaustion(i) | Knob::Points(i) => {
                let key = if matches!(knob, Knob::Exhaustion(_)) {
                    ("sides", "exhaustion")
                } else {
                    ("objectives", "points")
                };
                let tables = doc[key.0].as_array_of_tables_mut().ok_or_else(|| bad(format!("no [[{}]]", key.0)))?;
                let table = tables.get_mut(i).ok_or_else(|| bad(format!("no [[{}]] number {}", key.0, i + 1)))?;
                put(&mut table[key.1], v);
            }
        }
    }
    Ok(doc.to_string())
}

/// One candidate: its values, its scenario, and the scores of the games it played.
#[derive(Clone, Debug)]
struct Candidate {
    values: Vec<i64>,
    scenario: Arc<Scenario>,
    text: String,
    /// The first side's score in each game played, in game order.
    scores: Vec<f64>,
    wins: u64,
    draws: u64,
}

impl Candidate {
    /// The interval of the distance of the mean score from ½.
    fn distance(&self) -> (f64, f64, f64) {
        let (mean, i) = mean_interval(&self.scores);
        let d = |x: f64| (x - 0.5).abs();
        let low = if i.low <= 0.5 && 0.5 <= i.high { 0.0 } else { d(i.low).min(d(i.high)) };
        (d(mean), low, d(i.low).max(d(i.high)))
    }
}

/// What the search needs besides the scenario.
#[derive(Clone, Debug)]
pub struct BalanceConfig {
    /// The two computer players (they swap sides every other game).
    pub players: [String; 2],
    /// What to tune: names from [`TUNABLE`].
    pub tune: Vec<String>,
    /// The most games a candidate plays.
    pub games: usize,
    /// The seed.
    pub seed: u64,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    /// The combat system every candidate is played by (a variant file's), if not the standard.
    pub rules: Option<Arc<CombatSystem>>,
    /// `--set OPTION=VALUE` pairs over every candidate's options (never a number being tuned).
    pub sets: Vec<(String, String)>,
}

/// One race of the search: the candidates it started with and the one it kept.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Race {
    /// Which numbers varied.
    pub varied: Vec<String>,
    /// Candidates raced.
    pub candidates: usize,
    /// Games played in it.
    pub games: u64,
    /// The winner's values, one per knob.
    pub chosen: Vec<i64>,
}

/// The search's answer.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Balance {
    /// The scenario.
    pub scenario: String,
    /// The numbers tuned, by name, with their values before and after.
    pub changes: Vec<(String, i64, i64)>,
    /// The first side's mean score in the chosen candidate's games, with its 95% interval.
    pub score: f64,
    /// Its interval.
    pub score_ci: Interval,
    /// The first side's win rate there, with its Wilson interval.
    pub first_side_wins: Rate,
    /// Draws there.
    pub draws: Rate,
    /// The same before any change (the original scenario's games, the same seeds).
    pub before: Rate,
    /// Its score.
    pub before_score: f64,
    /// Games the chosen values and the original were measured on (the budget).
    pub games: u64,
    /// Games played in all.
    pub games_total: u64,
    /// The races, in order.
    pub races: Vec<Race>,
    /// The balanced scenario's text.
    #[serde(skip)]
    pub text: String,
}

/// Plays games `from..to` of each candidate, adding their scores.
fn play(
    candidates: &mut [Candidate],
    file: &str,
    config: &BalanceConfig,
    from: usize,
    to: usize,
    progress: &(dyn Fn() + Sync),
) -> Result<(), SimError> {
    let jobs: Vec<(usize, usize)> = (0..candidates.len()).flat_map(|c| (from..to).map(move |i| (c, i))).collect();
    let results: Vec<(usize, f64, Option<Side>)> = jobs
        .par_iter()
        .map(|&(c, i)| {
            let cand = &candidates[c];
            let seed = game_seed(config.seed, i as u64);
            let spec = GameSpec {
                scenario: &cand.scenario,
                text: &cand.text,
                file,
                options: cand.scenario.options,
                seed,
                players: [
                    (config.players[0].as_str(), player_seed(seed, 0)),
                    (config.players[1].as_str(), player_seed(seed, 1)),
                ],
                swapped: i % 2 == 1,
            };
            let game = play_game(&spec, i)?;
            let winner = game.battle().result().and_then(|r| r.winner);
            progress();
            Ok((c, first_side_score(winner), winner))
        })
        .collect::<Result<_, SimError>>()?;
    for (c, score, winner) in results {
        let cand = &mut candidates[c];
        cand.scores.push(score);
        cand.wins += (winner == Some(Side::A)) as u64;
        cand.draws += winner.is_none() as u64;
    }
    Ok(())
}

/// Races `candidates`; returns the index of the winner and the games played.
fn race(
    candidates: &mut [Candidate],
    file: &str,
    config: &BalanceConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<(usize, u64), SimError> {
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    let mut played = 0;
    let mut n = FIRST_ROUND.min(config.games);
    let mut games = 0u64;
    loop {
        let mut racing: Vec<Candidate> = alive.iter().map(|&i| candidates[i].clone()).collect();
        play(&mut racing, file, config, played, n, progress)?;
        games += ((n - played) * alive.len()) as u64;
        for (&i, c) in alive.iter().zip(racing) {
            candidates[i] = c;
        }
        played = n;
        let best_high = alive.iter().map(|&i| candidates[i].distance().2).fold(f64::MAX, f64::min);
        alive.retain(|&i| candidates[i].distance().1 <= best_high);
        if alive.len() == 1 || n >= config.games {
            break;
        }
        n = (2 * n).min(config.games);
    }
    // Of the candidates the games cannot tell apart, the one that changes the scenario least: candidates come
    // ordered by how far they are from the race's start.
    let best = alive.first().copied().expect("a race keeps at least its best candidate");
    Ok((best, games))
}

/// A candidate with `values` for `knobs`, played by `config`'s rules with its `--set` options.
fn candidate(
    text: &str,
    file: &str,
    scenario: &Scenario,
    knobs: &[Knob],
    values: Vec<i64>,
    config: &BalanceConfig,
) -> Result<Candidate, SimError> {
    let text = rewrite(text, scenario, knobs, &values)?;
    let mut parsed = match &config.rules {
        Some(rules) => Scenario::parse_with(&text, file, rules.clone()),
        None => Scenario::parse(&text, file),
    }
    .map_err(|e| SimError::BadTune(e.to_string()))?;
    let option = |flag: &'static str, given: String| move |source| SimError::Option { flag, given, source };
    let mut options = parsed.options;
    for (name, value) in &config.sets {
        parsed.set_option(&mut options, name, value).map_err(option("--set", format!("{name}={value}")))?;
    }
    parsed.options = options;
    Ok(Candidate { values, scenario: Arc::new(parsed), text, scores: Vec::new(), wins: 0, draws: 0 })
}

/// Every combination of the knobs' ranges, the current values first.
fn grid(ranges: &[Vec<i64>], current: &[i64]) -> Vec<Vec<i64>> {
    let mut out: Vec<Vec<i64>> = vec![Vec::new()];
    for r in ranges {
        out = out.into_iter().flat_map(|p| r.iter().map(move |v| [p.clone(), vec![*v]].concat())).collect();
    }
    out.sort_by_key(|v| (v != current, v.iter().zip(current).map(|(a, b)| (a - b).abs()).sum::<i64>()));
    out
}

/// The number of games [`balance`] plays at most, for a progress bar.
///
/// # Errors
/// As [`knobs`].
pub fn max_games(scenario: &Scenario, config: &BalanceConfig) -> Result<u64, SimError> {
    let knobs = knobs(scenario, &config.tune)?;
    let ranges: Vec<Vec<i64>> = knobs.iter().map(|k| k.range(scenario)).collect();
    let grid: usize = ranges.iter().map(Vec::len).product();
    let per = config.games as u64;
    Ok(if grid <= MAX_GRID { grid as u64 * per } else { 3 * ranges.iter().map(|r| r.len() as u64).sum::<u64>() * per }
        + 2 * per)
}

/// Searches the numbers `config.tune` names for the first side's score closest to 50%.
///
/// # Errors
/// When a player is unknown, `config.games` is 0, the text is not a good scenario (by `config.rules`, if given),
/// `config.tune` is refused ([`knobs`]), a candidate's scenario is refused or refuses a `--set`, the thread pool
/// cannot be started, or a game does not end.
pub fn balance(
    text: &str,
    file: &str,
    config: &BalanceConfig,
    progress: &(dyn Fn() + Sync),
) -> Result<Balance, SimError> {
    for p in &config.players {
        check_player(p)?;
    }
    if config.games == 0 {
        return Err(SimError::NoGames);
    }
    let work = || -> Result<Balance, SimError> {
        let original = match &config.rules {
            Some(rules) => Scenario::parse_with(text, file, rules.clone()),
            None => Scenario::parse(text, file),
        }
        .map_err(|e| SimError::BadTune(e.to_string()))?;
        let knobs = knobs(&original, &config.tune)?;
        let names: Vec<String> = knobs.iter().map(|k| k.name(&original)).collect();
        let start: Vec<i64> = knobs.iter().map(|k| k.value(&original)).collect();
        let ranges: Vec<Vec<i64>> = knobs.iter().map(|k| k.range(&original)).collect();
        let mut races = Vec::new();
        let mut total = 0u64;
        let mut current = start.clone();
        let mut last: Option<Candidate> = None;
        let mut run_race = |sets: Vec<Vec<i64>>, varied: Vec<String>, total: &mut u64| -> Result<Candidate, SimError> {
            let mut cands = sets
                .into_iter()
                .map(|v| candidate(text, file, &original, &knobs, v, config))
                .collect::<Result<Vec<_>, _>>()?;
            let count = cands.len();
            let (best, games) = race(&mut cands, file, config, progress)?;
            *total += games;
            races.push(Race { varied, candidates: count, games, chosen: cands[best].values.clone() });
            Ok(cands.swap_remove(best))
        };
        if ranges.iter().map(Vec::len).product::<usize>() <= MAX_GRID {
            let winner = run_race(grid(&ranges, &start), names.clone(), &mut total)?;
            current = winner.values.clone();
            last = Some(winner);
        } else {
            for _pass in 0..3 {
                let before = current.clone();
                for k in 0..knobs.len() {
                    let mut values = ranges[k].clone();
                    values.sort_by_key(|v| ((v - current[k]).abs(), *v));
                    let sets: Vec<Vec<i64>> = values
                        .into_iter()
                        .map(|v| {
                            let mut s = current.clone();
                            s[k] = v;
                            s
                        })
                        .collect();
                    let winner = run_race(sets, vec![names[k].clone()], &mut total)?;
                    current = winner.values.clone();
                    last = Some(winner);
                }
                if current == before {
                    break;
                }
            }
        }
        // The chosen values on every game of the budget, and the original scenario on the same games.
        // At least one race was run: `knobs` refuses to tune nothing.
        let mut chosen = [last.ok_or_else(|| SimError::BadTune("nothing to tune".into()))?];
        let played = chosen[0].scores.len();
        play(&mut chosen, file, config, played, config.games, progress)?;
        let [chosen] = chosen;
        let mut base = vec![candidate(text, file, &original, &knobs, start.clone(), config)?];
        play(&mut base, file, config, 0, config.games, progress)?;
        total += (config.games - played + config.games) as u64;
        let n = chosen.scores.len() as u64;
        let (score, score_ci) = mean_interval(&chosen.scores);
        let (before_score, _) = mean_interval(&base[0].scores);
        Ok(Balance {
            scenario: original.name.clone(),
            changes: names.into_iter().zip(start).zip(current).map(|((n, a), b)| (n, a, b)).collect(),
            score,
            score_ci,
            first_side_wins: Rate::new(chosen.wins, n),
            draws: Rate::new(chosen.draws, n),
            before: Rate::new(base[0].wins, n),
            before_score,
            games: n,
            games_total: total,
            races,
            text: chosen.text,
        })
    };
    match config.threads {
        None => work(),
        Some(threads) => rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| SimError::Threads { threads, message: e.to_string() })?
            .install(work),
    }
}

/// The search's answer as text within 120 columns (the report's width): the battle and players, the variant
/// played by, each number before and after, the scores, and each race on a line of its own; `out` is the file the
/// balanced scenario was written to, if any. `file` is the scenario's file.
pub fn render_text(b: &Balance, file: &str, config: &BalanceConfig, out: Option<&std::path::Path>) -> String {
    use crate::report::text::{wrap, wrap_after};
    let pct = |x: f64| format!("{:.1}%", 100.0 * x);
    let mut text =
        wrap(&format!("{} ({file}), {} vs {}, sides swapping", b.scenario, config.players[0], config.players[1]), 2);
    if let Some(rules) = config.rules.as_ref().filter(|r| r.source().is_some()) {
        text.push_str(&wrap(&format!("variant: {}", rules.name), 2));
    }
    if !config.sets.is_empty() {
        let sets: Vec<String> = config.sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        text.push_str(&wrap(&format!("set: {}", sets.join(" ")), 2));
    }
    let width = b.changes.iter().map(|(name, _, _)| name.chars().count()).max().unwrap_or(0).max(24);
    for (name, from, to) in &b.changes {
        let mark = if from == to { "  (unchanged)" } else { "" };
        text.push_str(&wrap_after(&format!("  {name:<width$} "), &format!("{from} → {to}{mark}"), 4));
    }
    text.push_str(&wrap(
        &format!(
            "first side's score {} [{}–{}] over {} games (a draw counts half); before: {}",
            pct(b.score),
            pct(b.score_ci.low),
            pct(b.score_ci.high),
            b.games,
            pct(b.before_score)
        ),
        2,
    ));
    text.push_str(&wrap(
        &format!(
            "first side wins {} [{}–{}], draws {}; before: wins {}",
            pct(b.first_side_wins.rate),
            pct(b.first_side_wins.ci_low),
            pct(b.first_side_wins.ci_high),
            pct(b.draws.rate),
            pct(b.before.rate)
        ),
        2,
    ));
    let races = b.races.len();
    text.push_str(&format!("{} games in all, in {races} race{}:\n", b.games_total, if races == 1 { "" } else { "s" }));
    for r in &b.races {
        let race = format!("{} ({} candidates, {} games)", r.varied.join(" + "), r.candidates, r.games);
        text.push_str(&wrap_after("  ", &race, 4));
    }
    match out {
        Some(path) => text.push_str(&wrap(&format!("Balanced scenario: {}", path.display()), 2)),
        None => text.push_str("Give --out FILE.toml to write the balanced scenario.\n"),
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The meeting engagement made lopsided: the second side is exhausted after one loss.
    fn lopsided() -> String {
        let text = pacw_engine::DEFAULT_SCENARIO;
        let mut doc: DocumentMut = text.parse().unwrap();
        doc["sides"].as_array_of_tables_mut().unwrap().get_mut(1).unwrap()["exhaustion"] = toml_edit::value(1);
        format!("# A scenario built to be unbalanced.\n{doc}")
    }

    #[test]
    fn rewriting_changes_only_the_numbers() {
        let text = lopsided();
        let s = Scenario::parse(&text, "l.toml").unwrap();
        let knobs = knobs(&s, &["turns".into(), "exhaustion".into()]).unwrap();
        assert_eq!(knobs, [Knob::Turns, Knob::Exhaustion(0), Knob::Exhaustion(1)]);
        let out = rewrite(&text, &s, &knobs, &[9, 2, 3]).unwrap();
        let again = Scenario::parse(&out, "l.toml").unwrap();
        assert_eq!((again.turns, again.sides[0].exhaustion, again.sides[1].exhaustion), (9, 2, 3));
        assert!(out.starts_with("# A scenario built to be unbalanced."));
        // As multisets of lines: only the numbers' lines differ (a key the side lacked is added).
        let minus = |a: &str, b: &str| {
            let mut rest: Vec<&str> = b.lines().collect();
            a.lines()
                .filter(|l| rest.iter().position(|r| r == l).map(|i| rest.remove(i)).is_none())
                .map(String::from)
                .collect::<Vec<_>>()
        };
        assert_eq!(minus(&out, &text), ["turns = 9", "exhaustion = 2", "exhaustion = 3"]);
        assert_eq!(minus(&text, &out), ["turns = 6", "exhaustion = 1"]);
        // Unchanged values are not written, not even where the scenario leaves them to their default.
        let current: Vec<i64> = knobs.iter().map(|k| k.value(&s)).collect();
        assert_eq!(rewrite(&text, &s, &knobs, &current).unwrap(), text);
        assert!(knobs_err(&s, "weather"));
    }

    fn knobs_err(s: &Scenario, name: &str) -> bool {
        knobs(s, &[name.to_string()]).is_err()
    }

    #[test]
    fn the_text_keeps_within_120_columns_for_every_shipped_battle_and_long_names() {
        let long = "Close combat as the designer of these rules wrote it in the second edition of his notes";
        let variant = format!("name = \"{long}\"\n[terms]\ncharge = \"close combat\"\n");
        let rules = CombatSystem::with_variant(&variant, "v.toml").unwrap();
        let config = BalanceConfig {
            players: ["general".into(), "mcts:400".into()],
            tune: TUNABLE.map(String::from).to_vec(),
            games: 1000,
            seed: 3,
            threads: None,
            rules: Some(Arc::new(rules)),
            sets: vec![("modifier.cover".into(), "-2".into()), ("initiative".into(), "alternate".into())],
        };
        for shipped in pacw_engine::offered_scenarios() {
            let scenario = Scenario::parse(shipped.text, shipped.file).unwrap();
            let tune: Vec<String> = TUNABLE
                .iter()
                .filter(|t| **t != "points" || !scenario.objectives.is_empty())
                .map(|t| t.to_string())
                .collect();
            let knobs = knobs(&scenario, &tune).unwrap();
            let names: Vec<String> = knobs.iter().map(|k| k.name(&scenario)).collect();
            let values: Vec<i64> = knobs.iter().map(|k| k.value(&scenario)).collect();
            // Every number in one race, then each in one of its own, three times over: the most races a search runs.
            let race = |varied: Vec<String>| Race { varied, candidates: 150, games: 96_000, chosen: values.clone() };
            let mut races = vec![race(names.clone())];
            for _ in 0..3 {
                races.extend(names.iter().map(|n| race(vec![n.clone()])));
            }
            let b = Balance {
                scenario: scenario.name.clone(),
                changes: names.iter().zip(&values).map(|(n, v)| (n.clone(), *v, v + 99)).collect(),
                score: 0.5,
                score_ci: Interval { low: 0.469, high: 0.531 },
                first_side_wins: Rate::new(480, 1000),
                draws: Rate::new(40, 1000),
                before: Rate::new(700, 1000),
                before_score: 0.72,
                games: 1000,
                games_total: 1_234_567,
                races,
                text: String::new(),
            };
            let file = format!("a/folder/of/battles/with/a/long/name/{}", shipped.file);
            let out = std::path::Path::new("a/folder/for/the/balanced/battles/with/a/long/name/balanced.toml");
            let text = render_text(&b, &file, &config, Some(out));
            for line in text.lines() {
                assert!(line.chars().count() <= crate::report::text::WIDTH, "{} columns: {line}", line.chars().count());
            }
            assert!(text.contains(&format!("variant: {long}")), "{text}");
            for name in &names {
                assert!(text.contains(&format!("  {name} ")), "{name}: {text}");
            }
            assert!(text.contains(&format!("{} races:\n  turns + exhaustion.", b.races.len())), "{text}");
        }
    }

    #[test]
    fn an_unbalanced_scenario_is_brought_toward_even() {
        let text = lopsided();
        let config = BalanceConfig {
            players: ["greedy".into(), "greedy".into()],
            tune: vec!["exhaustion".into()],
            games: 256,
            seed: 3,
            threads: None,
            rules: None,
            sets: Vec::new(),
        };
        let b = balance(&text, "l.toml", &config, &|| {}).unwrap();
        assert!(b.before.rate > 0.8, "the first side wins most games before: {:?}", b.before);
        assert!((b.score - 0.5).abs() < (b.before_score - 0.5).abs() - 0.2, "{} from {}", b.score, b.before_score);
        // The first side's exhaustion point falls or the second side's rises, and the text says so.
        let [first, second] = [0, 1].map(|i| b.changes[i].clone());
        assert!(first.2 < first.1 || second.2 > second.1, "{:?}", b.changes);
        let s = Scenario::parse(&b.text, "l.toml").unwrap();
        assert_eq!([s.sides[0].exhaustion as i64, s.sides[1].exhaustion as i64], [first.2, second.2]);
        assert_eq!(b.games, 256, "the chosen values are measured on the whole budget");
        assert!(b.games_total > b.games);
    }
}
