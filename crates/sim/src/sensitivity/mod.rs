//! Which rules matter (`pacw sensitivity`): every number of the combat system (the five modifiers, the three
//! strengths, the two quality steps) removed (a modifier or quality set to 0) or moved one step either way, each
//! change played as a variant on the same paired games as the base, and its effect on the statistics a designer
//! weighs measured with its interval. A number whose changes move nothing measurably is a candidate to drop.

mod output;

pub use output::{SENSITIVITY_JSON, SensitivityReport, render_text, write_dir};

use crate::compare::Difference;
use crate::config::SimConfig;
use crate::error::SimError;
use crate::report::{Part, Report};
use crate::run::Simulation;
use pacw_engine::{Options, Scenario};
use serde::Serialize;

/// The options a sensitivity run varies (R11): the combat system's modifiers, strengths and quality steps, in the
/// order of the engine's one list of options ([`pacw_engine::OPTION_SPECS`]), then the to-hit modifiers of
/// the variant `scenario` is played by that are its own (`modifier.V1`) and the strengths of its own arms
/// (`strength.skirmishers`).
pub fn options(scenario: &Scenario) -> Vec<String> {
    let standard: Vec<String> = pacw_engine::OPTION_SPECS
        .iter()
        .map(|s| s.name.to_string())
        .filter(|n| ["modifier.", "strength.", "quality."].iter().any(|p| n.starts_with(p)))
        .collect();
    let system = scenario.system();
    let own = system.modifiers().iter().map(|m| format!("modifier.{}", m.id));
    let own = own.chain(system.arms().iter().map(|a| format!("strength.{}", a.id)));
    let own: Vec<String> = own.filter(|name| !standard.contains(name)).collect();
    standard.into_iter().chain(own).collect()
}

/// The smallest change of a rate (the win rate, a share) that counts as large: 2 points of percentage.
pub const LARGE_RATE: f64 = 0.02;
/// The smallest change of the game length that counts as large: a fifth of a turn.
pub const LARGE_TURNS: f64 = 0.2;

/// The statistics each change is judged on, as [`crate::compare::METRICS`] names them.
pub const JUDGED_ON: [&str; 5] =
    ["first side wins", "turns", "losses to shooting", "share of charges", "shaken units hit again"];

/// The name `part`'s differences give statistic `metric` (one of [`JUDGED_ON`]): pooled by attacker, "first side"
/// is the attacker; under rules whose `[terms]` rename a charge, "share of charges" says their word.
pub fn metric_in(part: &Part, metric: &str) -> String {
    let pooled = part.differences.iter().any(|d| d.metric.starts_with("attacker"));
    let metric = if pooled { metric.replace("first side", "attacker") } else { metric.to_string() };
    part.terms.as_ref().map_or_else(|| metric.clone(), |words| words.say(&metric))
}

/// One change of one option.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    /// The option.
    pub option: String,
    /// Its value in the base.
    pub from: i64,
    /// Its value in the change.
    pub to: i64,
    /// `removed`, `-1` or `+1`.
    pub kind: String,
}

/// An option's value in `options` for `scenario`, as a number: a variant's own modifier or arm that no option sets
/// is worth what its file says.
fn value_of(scenario: &Scenario, options: &Options, option: &str) -> Option<i64> {
    if let Some((_, v)) = scenario.option_pairs(options).into_iter().find(|(k, _)| k == option) {
        return v.parse().ok();
    }
    let (table, id) = option.split_once('.')?;
    match pacw_engine::ArmNumber::of(table) {
        Some(number) => scenario.system().arm(id).map(|a| i64::from(a.number(number))),
        None if table == "modifier" => scenario.system().modifier(id).map(|m| i64::from(m.value)),
        None => None,
    }
}

/// The changes of every option of [`options`] from `base`: removal (for modifiers and quality, when not already
/// 0), one step down and one step up, each only when the engine allows the value and no other change gives it.
pub fn changes(scenario: &Scenario, base: &Options) -> Vec<Change> {
    let mut out = Vec::new();
    for option in options(scenario) {
        let option = option.as_str();
        let Some(from) = value_of(scenario, base, option) else { continue };
        let removable = !option.starts_with("strength.");
        let mut candidates = Vec::new();
        if removable && from != 0 {
            candidates.push((0, "removed"));
        }
        candidates.push((from - 1, "-1"));
        candidates.push((from + 1, "+1"));
        let mut taken = vec![from];
        for (to, kind) in candidates {
            if taken.contains(&to) || scenario.set_option(&mut base.clone(), option, &to.to_string()).is_err() {
                continue;
            }
            taken.push(to);
            out.push(Change { option: option.to_string(), from, to, kind: kind.to_string() });
        }
    }
    out
}

/// Sets up `config`'s variants for a sensitivity run: the base first, then every change of the first
/// scenario's base options. Returns the changes, in the order of the variants after the base.
///
/// # Errors
/// When the first scenario's base options cannot be made ([`SimConfig::base_options`]).
pub fn plan(config: &mut SimConfig) -> Result<Vec<Change>, SimError> {
    let base = config.base_options(0)?;
    let changes = changes(&config.scenarios[0].scenario, &base);
    let mut variants = vec![config.variant(Vec::new())];
    variants.extend(changes.iter().map(|c| config.variant(vec![(c.option.clone(), c.to.to_string())])));
    config.variants = variants;
    config.axes = Vec::new();
    Ok(changes)
}

/// A change's effect on one statistic.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effect {
    /// The statistic.
    pub metric: String,
    /// The change − the base, and its interval, as the comparison measured them.
    pub difference: Difference,
    /// |difference| over the interval's half-width: above 1, the interval excludes no change.
    pub evidence: f64,
    /// Whether the change is at least [`LARGE_RATE`] (a rate) or [`LARGE_TURNS`] (turns).
    pub large: bool,
}

/// One row of the ranked table: a change and its effects.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Row {
    /// The change.
    pub change: Change,
    /// Its effect on each statistic of [`JUDGED_ON`].
    pub effects: Vec<Effect>,
    /// The largest evidence among its effects: the rows are ranked by it.
    pub evidence: f64,
    /// Whether any effect is significant after Holm's adjustment.
    pub significant: bool,
}

/// An option's verdict, from what its changes did to the statistics.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Verdict {
    /// The option.
    pub option: String,
    /// Whether it matters: some change moved a statistic significantly and by a large amount.
    pub matters: bool,
    /// The statistics its changes moved significantly and by a large amount.
    pub moves: Vec<String>,
    /// The statistics its changes moved significantly, but by less than a large amount (and not largely).
    pub barely: Vec<String>,
    /// Whether its changes left every game as it was (no unit or rule of the scenario uses the number): then
    /// "no measurable effect" says nothing about the rule.
    pub unused: bool,
}

impl Verdict {
    /// The verdict in words.
    pub fn words(&self) -> String {
        let barely =
            if self.barely.is_empty() { String::new() } else { format!("barely moves {}", self.barely.join(", ")) };
        match (self.matters, self.barely.is_empty()) {
            (true, true) => format!("matters: moves {}", self.moves.join(", ")),
            (true, false) => format!("matters: moves {}; {barely}", self.moves.join(", ")),
            (false, false) => format!("measurable but small: {barely}"),
            (false, true) if self.unused => "never changed a game: nothing in the scenario uses it".to_string(),
            (false, true) => "no effect detected at this number of games: a candidate to drop".to_string(),
        }
    }
}

/// The sensitivity table of one part of the report: rows ranked by evidence, and a verdict per option.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Table {
    /// The scenario (or `all N scenarios`).
    pub scenario: String,
    /// The ranked rows, strongest first.
    pub rows: Vec<Row>,
    /// Per option, in the order of [`options`].
    pub verdicts: Vec<Verdict>,
}

/// The ranked table of a part whose variants are the base and then `changes` (see [`plan`]); `changed` says, per
/// change, whether it altered any of the part's games.
pub fn table(part: &Part, changes: &[Change], changed: &[bool]) -> Table {
    let mut rows: Vec<Row> = changes
        .iter()
        .enumerate()
        .map(|(i, change)| {
            let label = part.variants.get(i + 1).map(|v| v.label.clone()).unwrap_or_default();
            let effects: Vec<Effect> = JUDGED_ON
                .iter()
                .filter_map(|metric| {
                    let named = metric_in(part, metric);
                    let d = part.differences.iter().find(|d| d.metric == named && d.b == label)?;
                    let half = d.interval().width() / 2.0;
                    let evidence = if half > 0.0 {
                        d.difference.abs() / half
                    } else if d.difference != 0.0 {
                        f64::INFINITY
                    } else {
                        0.0
                    };
                    let large = d.difference.abs() >= if d.is_rate { LARGE_RATE } else { LARGE_TURNS };
                    Some(Effect { metric: metric.to_string(), difference: d.clone(), evidence, large })
                })
                .collect();
            let evidence = effects.iter().map(|e| e.evidence).fold(0.0, f64::max);
            let significant = effects.iter().any(|e| e.difference.significant);
            Row { change: change.clone(), effects, evidence, significant }
        })
        .collect();
    rows.sort_by(|a, b| b.evidence.total_cmp(&a.evidence));
    let mut varied: Vec<&str> = Vec::new();
    for change in changes {
        if !varied.contains(&change.option.as_str()) {
            varied.push(&change.option);
        }
    }
    let verdicts = varied
        .iter()
        .map(|option| {
            let moved = |large: bool| -> Vec<String> {
                JUDGED_ON
                    .iter()
                    .filter(|metric| {
                        rows.iter().filter(|r| r.change.option == *option).any(|r| {
                            r.effects
                                .iter()
                                .any(|e| e.metric == **metric && e.difference.significant && e.large == large)
                        })
                    })
                    .map(|m| m.to_string())
                    .collect()
            };
            let moves = moved(true);
            let barely = moved(false).into_iter().filter(|m| !moves.contains(m)).collect();
            let unused = changes.iter().zip(changed).all(|(c, &changed)| c.option != *option || !changed);
            Verdict { option: option.to_string(), matters: !moves.is_empty(), moves, barely, unused }
        })
        .collect();
    Table { scenario: part.scenario.clone(), rows, verdicts }
}

/// The tables of every part of a sensitivity report made from `sim`.
pub fn tables(sim: &Simulation, report: &Report, changes: &[Change]) -> Vec<Table> {
    // The parts are all games, then each scenario's when there are several (as [`Report::parts`]).
    let games = std::iter::once(None).chain((0..report.scenarios.len()).map(Some));
    report
        .parts()
        .zip(games)
        .map(|(part, s)| {
            let base = sim.records_of(s, 0);
            let changed: Vec<bool> = (1..=changes.len())
                .map(|v| sim.records_of(s, v).iter().zip(&base).any(|(game, base)| game.stats != base.stats))
                .collect();
            table(part, changes, &changed)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::ScenarioSource;
    use crate::run::run;

    #[test]
    fn changes_remove_and_step_within_the_engine_s_ranges() {
        let scenario = Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap();
        let changes = changes(&scenario, &Options::default());
        let of =
            |o: &str| changes.iter().filter(|c| c.option == o).map(|c| (c.kind.as_str(), c.to)).collect::<Vec<_>>();
        assert_eq!(of("modifier.cover"), [("removed", 0), ("-1", -2)], "+1 from -1 is the removal");
        assert_eq!(of("modifier.not_moved"), [("removed", 0), ("+1", 2)]);
        assert_eq!(of("strength.artillery"), [("-1", 1), ("+1", 3)]);
        assert_eq!(of("strength.infantry"), [("-1", 3), ("+1", 5)]);
        assert_eq!(of("quality.green"), [("removed", 0), ("-1", -2)]);
        assert_eq!(changes.iter().map(|c| &c.option).collect::<std::collections::BTreeSet<_>>().len(), 10);
        let mut top = Options::default();
        top.set("strength.infantry", "6").unwrap();
        assert_eq!(
            super::changes(&scenario, &top).iter().filter(|c| c.option == "strength.infantry").count(),
            1,
            "7 is out of range"
        );
    }

    /// The sensitivity run of these settings, judged against the first side, as `pacw sensitivity` makes it.
    fn measured(c: &mut SimConfig) -> SensitivityReport {
        let changes = plan(c).unwrap();
        let sim = run(c, &|| {}).unwrap();
        let report = Report::against_first(&sim, None);
        SensitivityReport { tables: tables(&sim, &report, &changes), report }
    }

    /// The default scenario played by the variant file of this text laid over it, and the file.
    fn under_variant(text: &str) -> (crate::config::VariantFile, ScenarioSource) {
        let variant = crate::config::VariantFile::parse(text, "v.toml").unwrap();
        let none = |name: &str| Err(format!("no file {name}"));
        let source =
            ScenarioSource::parse_for(pacw_engine::DEFAULT_SCENARIO, "m.toml", std::slice::from_ref(&variant), &none)
                .unwrap();
        (variant, source)
    }

    #[test]
    fn a_variant_s_own_modifiers_are_varied_too() {
        let text = "name = \"E\"\n[[modifiers]]\nid = \"V1\"\nname = \"élan\"\nvalue = 1\nwhen = \"charge\"\n";
        let (variant, source) = under_variant(text);
        assert!(options(&source.scenario).contains(&"modifier.V1".to_string()));
        let all = changes(&source.scenario, &source.scenario.options);
        let v1: Vec<_> = all.iter().filter(|c| c.option == "modifier.V1").map(|c| (c.kind.as_str(), c.to)).collect();
        assert_eq!(v1, [("removed", 0), ("+1", 2)]);
        let mut c = SimConfig::of(vec![source]);
        c.variant_files = vec![variant];
        c.games = 4;
        let planned = plan(&mut c).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let t = &tables(&sim, &Report::against_first(&sim, None), &planned)[0];
        assert!(t.verdicts.iter().any(|v| v.option == "modifier.V1"), "judged like any other number");
    }

    #[test]
    fn a_variant_s_own_arm_s_strength_is_varied_too() {
        let text = "name = \"S\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nstrength = 3\n";
        let (_, source) = under_variant(text);
        assert!(options(&source.scenario).contains(&"strength.skirmishers".to_string()));
        let all = changes(&source.scenario, &source.scenario.options);
        let of = |options: &Options| {
            let own = changes(&source.scenario, options).into_iter().filter(|c| c.option == "strength.skirmishers");
            own.map(|c| (c.kind, c.from, c.to)).collect::<Vec<_>>()
        };
        assert_eq!(of(&source.scenario.options), [("-1".to_string(), 3, 2), ("+1".to_string(), 3, 4)]);
        assert!(
            all.iter().all(|c| c.option != "move.skirmishers"),
            "moves and ranges are not varied, as the standard's"
        );
        // From an option's 6, the top of an arm's strength, only down.
        let mut top = source.scenario.options;
        source.scenario.set_option(&mut top, "strength.skirmishers", "6").unwrap();
        assert_eq!(of(&top), [("-1".to_string(), 6, 5)]);
    }

    #[test]
    fn a_run_ranks_every_change_against_the_base() {
        let mut c = SimConfig::of(vec![ScenarioSource::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap()]);
        c.games = 20;
        let changes = plan(&mut c).unwrap();
        assert_eq!(c.variants.len(), changes.len() + 1);
        assert_eq!(c.variants[0].label(), "base");
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::against_first(&sim, None);
        let t = &tables(&sim, &report, &changes)[0];
        assert_eq!(t.rows.len(), changes.len());
        assert!(t.rows.windows(2).all(|w| w[0].evidence >= w[1].evidence), "ranked");
        assert!(t.rows.iter().all(|r| r.effects.len() == JUDGED_ON.len()));
        assert_eq!(t.verdicts.len(), 10);
        for v in &t.verdicts {
            let rows = || t.rows.iter().filter(|r| r.change.option == v.option);
            let large = rows().any(|r| r.effects.iter().any(|e| e.difference.significant && e.large));
            assert_eq!(v.matters, large, "{}", v.option);
            let any = rows().any(|r| r.significant);
            let nothing = v.words().starts_with("no effect detected at this number of games")
                || v.words().starts_with("never changed");
            assert_eq!(nothing, !any, "{}", v.option);
            assert!(!v.unused || !any, "{}: a change that altered no game cannot be significant", v.option);
        }
    }

    #[test]
    fn the_text_keeps_within_120_columns_for_every_shipped_battle_and_long_names() {
        let width = |text: &str| {
            for line in text.lines() {
                assert!(line.chars().count() <= crate::report::text::WIDTH, "{} columns: {line}", line.chars().count());
            }
        };
        // Every shipped battle at once: pooled, then each one's table.
        let sources = pacw_engine::SHIPPED_SCENARIOS.iter().map(|s| ScenarioSource::parse(s.text, s.file).unwrap());
        let mut c = SimConfig::of(sources.collect());
        c.games = 2;
        let result = measured(&mut c);
        let text = render_text(&result);
        width(&text);
        assert_eq!(text.matches("\n== ").count(), pacw_engine::SHIPPED_SCENARIOS.len() + 1, "{text}");
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("The 95% intervals are left to --json and to the report --out DIR"), "{text}");
        // Each effect with its mark, not its interval, which the JSON keeps.
        assert!(!text.contains(" … "), "{text}");
        let row = &result.tables[0].rows[0];
        let json = serde_json::to_value(&result).unwrap();
        assert!(json["tables"][0]["rows"][0]["effects"][0]["difference"]["unpaired"]["low"].is_number());
        let effect = &row.effects[0].difference;
        let mark = if effect.significant { "*" } else { "" };
        let line = text.lines().find(|l| l.trim_start().starts_with(&row.change.option)).unwrap();
        assert!(line.contains(&format!("{:+.1}{mark}", 100.0 * effect.difference)), "{line}");

        // A variant of a long name, with a modifier of a long id, in a file of a long path.
        // The longest id a modifier may have, and a long word for a charge: too wide for the options beside their
        // statistics, so each change is set above them.
        let id = "elan_of_the_veteran_regt";
        let text = format!(
            "name = \"Close combat as the designer of these rules wrote it in the second edition of his notes\"\n\
             [[modifiers]]\nid = \"{id}\"\nname = \"élan\"\nvalue = 1\nwhen = \"charge\"\n[terms]\ncharge = \"close combat with the bayonet and musket\"\n"
        );
        let file = "a/folder/of/variants/with/a/long/name/close-combat-as-the-designer-wrote-it-in-his-notes.toml";
        let variant = crate::config::VariantFile::parse(&text, file).unwrap();
        let none = |name: &str| Err(format!("no file {name}"));
        let pacw_engine::Shipped { file: battle, text: scenario, .. } = pacw_engine::SHIPPED_SCENARIOS[1];
        let source = ScenarioSource::parse_for(scenario, battle, std::slice::from_ref(&variant), &none).unwrap();
        let mut c = SimConfig::of(vec![source]);
        c.variant_files = vec![variant];
        c.games = 2;
        let result = measured(&mut c);
        let text = render_text(&result);
        width(&text);
        assert!(text.contains(&format!("\n  modifier.{id} ")), "{text}");
        assert!(text.contains("share of close combat with"), "{text}");
        let words = text.split_whitespace().collect::<Vec<_>>().join(" ");
        assert!(words.contains("variant: Close combat as the designer of these rules wrote it"), "{text}");
        // The variant's word for a charge heads its column, and every change has a cell under it.
        assert!(text.contains("close combat") && !text.contains("charge"), "{text}");
        assert!(result.tables[0].rows.iter().all(|r| r.effects.len() == JUDGED_ON.len()));
    }

    #[test]
    fn battles_pooled_by_attacker_are_judged_on_the_attacker_s_wins() {
        let source = |name: &str| {
            let pacw_engine::Shipped { file, text, .. } =
                pacw_engine::shipped_named(pacw_engine::SHIPPED_SCENARIOS.iter().copied(), name).unwrap();
            ScenarioSource::parse(text, file).unwrap()
        };
        let mut c = SimConfig::of(vec![source("maryes-heights"), source("franklin")]);
        c.games = 4;
        let changes = plan(&mut c).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        assert!(sim.pooled_by_attacker());
        let report = Report::against_first(&sim, None);
        let tables = tables(&sim, &report, &changes);
        assert_eq!(metric_in(&report.main, "first side wins"), "attacker wins");
        for table in &tables {
            assert!(table.rows.iter().all(|r| r.effects.len() == JUDGED_ON.len()), "{}", table.scenario);
        }
        let text = render_text(&SensitivityReport { tables, report });
        assert!(text.contains("attacker") && text.contains("first") && !text.contains("  —"), "{text}");
    }

    #[test]
    fn a_number_nothing_uses_is_not_called_a_candidate_to_drop() {
        let pacw_engine::Shipped { file, text, .. } = pacw_engine::SHIPPED_SCENARIOS[1];
        assert!(!text.contains("\"cavalry\""), "Bloody Lane has no cavalry");
        let mut c = SimConfig::of(vec![ScenarioSource::parse(text, file).unwrap()]);
        c.games = 10;
        let changes = plan(&mut c).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let t = &tables(&sim, &Report::against_first(&sim, None), &changes)[0];
        let verdict = |o: &str| t.verdicts.iter().find(|v| v.option == o).unwrap();
        assert!(verdict("strength.cavalry").unused);
        assert_eq!(verdict("strength.cavalry").words(), "never changed a game: nothing in the scenario uses it");
        assert!(!verdict("strength.infantry").unused);
    }
}
