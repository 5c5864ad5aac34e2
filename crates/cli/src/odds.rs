//! `pacw odds`: the exact chance of every result of an attack, before the dice are rolled (docs/rules.md R6.4, R7).
//!
//! Three forms: an abstract situation (`--attacker inf --target cav:veteran --cover`), an attack on a scenario's
//! board (`--scenario FILE --attacker d1 --target d7`), and the reference chart (`--table`). The arithmetic is the
//! engine's (`pacw_engine::odds`); this module only reads arguments and prints.

use crate::source::{scenario_for, scenario_text, variant_system};
use anyhow::Result;
use clap::{Args, ValueEnum};
use pacw_engine::Aspect;
use pacw_engine::odds::{self, AttackOdds, Exact, Sequence, Situation, TableRow, TargetState};
use pacw_engine::system::CombatSystem;
use pacw_engine::terrain::TerrainRules;
use pacw_engine::{Action, Arm, ArmNumber, Battle, Dir, Game, Options, Prob, Quality, Square, Terrain, UnitId};
use pacw_engine::{RetreatPath, Steadiness};
use serde_json::{Value, json};
use std::process::ExitCode;
use std::sync::Arc;

/// The longest run of attacks `--attacks` accepts: the fractions grow with every attack.
const MAX_ATTACKS: u32 = 1000;

/// Arguments of `pacw odds`.
#[derive(Args, Debug, Default)]
#[command(after_help = "\
Examples:
  pacw odds --attacker inf --target cav:veteran --cover
  pacw odds --attacker cav --target art:green --distance 1 --flank --attacks 3
  pacw odds --scenario maryes-heights --attacker b4 --target f4
  pacw odds --table --json

Each modifier is shown with its docs/rules.md id. With --attacks K, a run of K attacks with the same modifiers and no
activation of the target in between: a retreat counts as the target shaken and still there (unless blocked, R7.4).")]
pub struct OddsArgs {
    /// Print the reference chart: every arm and quality of target, shooting or charge, cover or not, steady or
    /// shaken (the attacker is --attacker ARM, default infantry, that did not move unless --moved).
    #[arg(long)]
    pub table: bool,
    /// A scenario file or shipped scenario: the attack is made on its board, by the units on the given squares.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    pub scenario: Option<String>,
    /// A saved game (pacw play --save): the attack is made in the position at its end, by the units on the given
    /// squares, under the save's options.
    #[arg(long, value_name = "SAVE", conflicts_with = "set")]
    pub load: Option<std::path::PathBuf>,
    /// The attacker: ARM[:QUALITY] (infantry/inf, cavalry/cav, artillery/art; green, regular, veteran), or a
    /// SQUARE with --scenario.
    #[arg(long, value_name = "ARM[:QUALITY]|SQUARE")]
    pub attacker: Option<String>,
    /// The target: ARM[:QUALITY], or a SQUARE with --scenario.
    #[arg(long, value_name = "ARM[:QUALITY]|SQUARE")]
    pub target: Option<String>,
    /// The distance in squares (default 2); 1 is a charge (R6.1).
    #[arg(long, value_name = "N")]
    pub distance: Option<u8>,
    /// The attacker has moved this activation: no "did not move" bonus (R6.4).
    #[arg(long)]
    pub moved: bool,
    /// The target stands in woods, in cover (R6.3a); or in KIND, a terrain of the rules in force (a variant's own
    /// among them: open, woods, town, sunken_road, ford, …), in cover if that kind gives cover under them (R1.5).
    #[arg(long, value_name = "KIND", num_args = 0..=1, default_missing_value = "woods")]
    pub cover: Option<String>,
    /// A charge from the target's flank (R6.4).
    #[arg(long, conflicts_with = "rear")]
    pub flank: bool,
    /// A charge from the target's rear (R6.4).
    #[arg(long)]
    pub rear: bool,
    /// The target is shaken (R7.1). On a board: as if it were.
    #[arg(long)]
    pub shaken: bool,
    /// The attacker gives its order shaken, as a variant's rally roll failed leaves it (docs/variants.md); refused
    /// under rules that rally a shaken unit when it is activated (R4.1). On a board the unit's own state counts.
    #[arg(long)]
    pub attacker_shaken: bool,
    /// Artillery attacking the same target again, neither having moved (R6.4 ranging bonus).
    #[arg(long)]
    pub ranging: bool,
    /// The target has no square to retreat to (R7.3, R7.4).
    #[arg(long)]
    pub blocked: bool,
    /// Also the target's state after K attacks in a row, and the expected number of attacks to destroy it.
    #[arg(long, value_name = "K")]
    pub attacks: Option<u32>,
    /// With --scenario: the attacking order (R4.2).
    #[arg(long, value_enum, value_name = "ORDER")]
    pub order: Option<OrderArg>,
    /// With --scenario and --order move-fire: the square the attacker moves to (default: its own).
    #[arg(long, value_name = "SQUARE")]
    pub to: Option<String>,
    /// With --scenario: the attacker's facing for Fire or Move & Fire (default: its own), N, E, S or W.
    #[arg(long, value_name = "N|E|S|W")]
    pub facing: Option<String>,
    /// Set a rule option, as NAME=VALUE (docs/rules.md R11), e.g. --set blocked_retreat=stand.
    #[arg(long = "set", value_name = "OPTION=VALUE", value_parser = crate::args::set)]
    pub set: Vec<(String, String)>,
    /// Print JSON: results as reduced fraction strings ("1/6", "0", "1").
    #[arg(long)]
    pub json: bool,
    /// The odds under a variant file's combat system (docs/variants.md): its modifiers, cited by their ids, and
    /// its hit-result table (a hit that changes nothing is the result `no_effect`). With a battle, laid over the
    /// battle's own variant if it names one; give it again to lay more files over it, in order.
    #[arg(long, value_name = "FILE", conflicts_with = "load")]
    pub variant: Vec<std::path::PathBuf>,
}

/// The attacking orders (R4.2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
pub enum OrderArg {
    /// Fire: stay in place and attack.
    Fire,
    /// Move & Fire: move at most one square and/or turn, then attack (needs --to and/or --facing).
    MoveFire,
    /// Fire & Move: attack, then move one square.
    FireMove,
}

/// A mistake in the command line or an attack the rules do not allow: printed, exit code 2.
struct Usage(String);

fn usage<T>(message: impl Into<String>) -> Result<T, Usage> {
    Err(Usage(message.into()))
}

/// Runs `pacw odds`.
///
/// # Errors
/// When a scenario, a save or a variant file cannot be read or is not a good one, or standard output cannot be written;
/// a mistake in the command line is printed, and the exit code is 2.
pub fn run(args: OddsArgs) -> Result<ExitCode> {
    let outcome = if args.table {
        table(&args)
    } else if args.scenario.is_some() || args.load.is_some() {
        on_board(&args)
    } else {
        abstract_odds(&args)
    };
    match outcome {
        Ok(Ok(text)) => {
            std::io::Write::write_all(&mut std::io::stdout().lock(), text.as_bytes())?;
            Ok(ExitCode::SUCCESS)
        }
        Ok(Err(e)) => Err(e),
        Err(Usage(message)) => {
            eprintln!("error: {message}");
            Ok(ExitCode::from(2))
        }
    }
}

/// The options: the defaults with each --set applied (checked when the arguments were read).
fn options(base: Options, set: &[(String, String)], system: Option<&CombatSystem>) -> Result<Options, Usage> {
    let mut options = base;
    for (name, value) in set {
        // A variant's own modifier (`modifier.V1`) or arm's number (`range.skirmishers`) is its option; every other
        // is the standard's.
        let own = system.and_then(|system| system.set_own_option(&mut options, name, value));
        own.unwrap_or_else(|| options.set(name, value)).map_err(|e| Usage(e.to_string()))?;
    }
    Ok(options)
}

/// `--variant`'s combat system, and the options of an abstract situation under it: the defaults, the numbers it
/// changes of the standard and its `[options]`, then `--set`. A bad file is a failure (exit 1), as a bad scenario is.
#[allow(clippy::type_complexity)]
fn variant_and_options(args: &OddsArgs) -> Result<Result<(Option<Arc<CombatSystem>>, Options)>, Usage> {
    let system = match variant_system(&args.variant) {
        Ok(system) => system,
        Err(e) => return Ok(Err(e)),
    };
    let mut base = Options::default();
    if let Some(system) = &system {
        for (name, value) in system.changes_to_standard().iter().chain(system.options()) {
            // Its own modifiers and arms (`modifier.V1`, `range.skirmishers`) are options of its own.
            let own = system.set_own_option(&mut base, name, value);
            own.unwrap_or_else(|| base.set(name, value)).map_err(|e| Usage(format!("the variant's {name}: {e}")))?;
        }
    }
    let options = options(base, &args.set, system.as_deref())?;
    Ok(Ok((system, options)))
}

/// Refuses the flags that do not belong to the form in use.
fn refuse(form: &str, given: &[(&str, bool)]) -> Result<(), Usage> {
    let wrong: Vec<&str> = given.iter().filter(|(_, on)| *on).map(|(name, _)| *name).collect();
    if wrong.is_empty() { Ok(()) } else { usage(format!("{} cannot be used {form}", wrong.join(", "))) }
}

/// A unit described: its arm (the standard arm it acts as, and its place among the variant's arms if it is one of
/// the variant's own) and its quality.
type Described = (Arm, Option<u8>, Quality);

/// `ARM[:QUALITY]`: a standard arm (or its short name), or an arm of the variant's own (`skirmishers`).
fn parse_unit(what: &str, text: &str, system: Option<&CombatSystem>) -> Result<Described, Usage> {
    let (arm, quality) = text.split_once(':').unwrap_or((text, "regular"));
    let lower = arm.to_ascii_lowercase();
    let found = match Arm::parse(&lower) {
        Some(standard) => Some((standard, None)),
        None => system.and_then(|system| Situation::arm_of(system, &lower)),
    };
    let Some((arm, own)) = found else {
        let own: Vec<&str> =
            system.map(|s| s.arms().iter().skip(Arm::ALL.len()).map(|a| a.id.as_str()).collect()).unwrap_or_default();
        let own = if own.is_empty() { String::new() } else { format!(", the variant's {}", own.join(", ")) };
        return usage(format!(
            "--{what} {text}: '{arm}' is not an arm (infantry, cavalry, artillery or inf, cav, art{own}){}",
            if text.parse::<Square>().is_ok() { "; a square needs --scenario" } else { "" }
        ));
    };
    let Some(quality) = Quality::parse(&quality.to_ascii_lowercase()) else {
        return usage(format!("--{what} {text}: '{quality}' is not a quality (green, regular, veteran)"));
    };
    Ok((arm, own, quality))
}

/// The terrain rules in force: the variant's, or the standard's.
fn rules_of(system: Option<&CombatSystem>) -> Arc<TerrainRules> {
    system.map_or_else(TerrainRules::standard, |system| system.terrain_rules().clone())
}

/// `--cover KIND`: a terrain kind of the rules in force, by its id (`sunken_road`, or `sunken road`; a variant's own
/// `swamp`).
fn parse_terrain(kind: &str, rules: &TerrainRules) -> Result<Terrain, Usage> {
    match rules.by_id(&kind.to_ascii_lowercase()) {
        Some(terrain) => Ok(terrain),
        None => {
            let kinds: Vec<&str> = rules.kinds().iter().map(|k| k.id.as_str()).collect();
            usage(format!("--cover {kind}: not a terrain of the rules in force ({})", kinds.join(", ")))
        }
    }
}

/// An arm's name: a standard arm's, or the variant's own arm's id.
fn arm_name(arm: Arm, own: Option<u8>, system: &CombatSystem) -> String {
    own.and_then(|i| system.arms().get(i as usize)).map_or_else(|| arm.name().to_string(), |a| a.id.clone())
}

/// Whether `own` names an arm of the variant's own (named by its id) rather than a standard arm.
fn own_arm(own: Option<u8>, system: &CombatSystem) -> bool {
    own.is_some_and(|i| (i as usize) >= Arm::ALL.len() && system.arms().get(i as usize).is_some())
}

fn check_attacks(args: &OddsArgs) -> Result<(), Usage> {
    match args.attacks {
        Some(k) if k > MAX_ATTACKS => usage(format!("--attacks is at most {MAX_ATTACKS}")),
        _ => Ok(()),
    }
}

fn abstract_odds(args: &OddsArgs) -> Result<Result<String>, Usage> {
    refuse(
        "without --scenario",
        &[("--order", args.order.is_some()), ("--to", args.to.is_some()), ("--facing", args.facing.is_some())],
    )?;
    check_attacks(args)?;
    let (Some(attacker), Some(target)) = (&args.attacker, &args.target) else {
        return usage("give --attacker and --target (ARM[:QUALITY]), or --scenario FILE with squares, or --table");
    };
    let (system, options) = match variant_and_options(args)? {
        Ok(found) => found,
        Err(e) => return Ok(Err(e)),
    };
    let (attacker, attacker_own, attacker_quality) = parse_unit("attacker", attacker, system.as_deref())?;
    let (target, target_own, target_quality) = parse_unit("target", target, system.as_deref())?;
    let terrain = match &args.cover {
        Some(kind) => parse_terrain(kind, &rules_of(system.as_deref()))?,
        None => Terrain::Open,
    };
    let distance = args.distance.unwrap_or(2);
    let from = if args.flank {
        Aspect::Flank
    } else if args.rear {
        Aspect::Rear
    } else {
        Aspect::Front
    };
    let situation = Situation {
        attacker,
        attacker_quality,
        target,
        target_quality,
        distance,
        moved: args.moved,
        terrain,
        from,
        target_state: Steadiness::of(args.shaken),
        attacker_state: Steadiness::of(args.attacker_shaken),
        ranging: args.ranging,
        retreat: RetreatPath::of(args.blocked),
        attacker_own,
        target_own,
    };
    let odds = match situation.odds_under(&options, system.as_ref()) {
        Ok(odds) => odds,
        // A restriction's refusal is said by its rule, not by the placeholder units the situation is played by.
        Err(e) => match odds::Forbidden::of(&e, system.as_deref()) {
            Some(rule) => {
                return usage(format!("forbidden by the variant's restrictions on orders (R4.2): {rule}"));
            }
            None => return usage(format!("impossible: {e}")),
        },
    };
    let system = system.unwrap_or_else(|| Arc::new(CombatSystem::standard()));
    let title = describe(&situation, odds.assessment.strength, &system);
    Ok(Ok(report(&title, &odds, &options, &system, args)))
}

/// The words the odds print for attacks and results: the variant's where its `[terms]` rename them (docs/variants.md),
/// as the log and the orders offered do.
struct Words {
    /// An attack at distance 2 or more, in a table's column: `shooting`.
    fire: String,
    /// An attack at distance 1: `charge`.
    charge: String,
    /// The attack in a description: `shoots at`, `charges`, or the variant's word with `attacks`.
    fire_verb: String,
    charge_verb: String,
    shaken: String,
    retreat: String,
    destroyed: String,
}

impl Words {
    fn of(system: &CombatSystem) -> Words {
        let t = system.terms();
        let (fire, fire_verb) = if t.fire == "fire" {
            ("shooting".to_string(), "shoots at".to_string())
        } else {
            (t.fire.clone(), "attacks".to_string())
        };
        let charge_verb = if t.charge == "charge" { "charges" } else { "attacks" }.to_string();
        Words {
            fire,
            charge: t.charge.clone(),
            fire_verb,
            charge_verb,
            shaken: t.shaken.clone(),
            retreat: t.retreat.clone(),
            destroyed: t.destroyed.clone(),
        }
    }

    /// An attack's kind as a table's column says it.
    fn attack(&self, charge: bool) -> &str {
        if charge { &self.charge } else { &self.fire }
    }

    /// A result's word in the text (the JSON keeps the result's name).
    fn result(&self, r: odds::AttackResult) -> &str {
        match r {
            odds::AttackResult::Shaken => &self.shaken,
            odds::AttackResult::Retreat => &self.retreat,
            odds::AttackResult::Destroyed => &self.destroyed,
            odds::AttackResult::NoEffect => "no effect",
            other => other.name(),
        }
    }

    /// The target's state as a table's column and a description say it.
    fn state(&self, shaken: bool) -> &str {
        if shaken { &self.shaken } else { "steady" }
    }
}

/// "regular infantry shoots at veteran cavalry 2 squares away, in woods", the target of strength `strength`.
fn describe(s: &Situation, strength: u8, system: &CombatSystem) -> String {
    let words = &Words::of(system);
    let verb = if s.charge() { &words.charge_verb } else { &words.fire_verb };
    // A renamed attack is said as the log says it: "attacks … (close combat, strength 4)".
    let renamed = (verb == "attacks").then(|| format!("{}, ", words.attack(s.charge())));
    // A variant's own arm is named by its id, often a plural ("skirmishers"): "a unit of" lets the verb agree.
    let a_unit_of = if own_arm(s.attacker_own, system) { "a unit of " } else { "" };
    let shaken = if s.attacker_state.is_shaken() { format!("{} ", words.state(true)) } else { String::new() };
    let mut text = format!(
        "{a_unit_of}{shaken}{} {}{} {verb} {} {} ({}strength {})",
        s.attacker_quality,
        arm_name(s.attacker, s.attacker_own, system),
        if s.moved { " that moved" } else { "" },
        s.target_quality,
        arm_name(s.target, s.target_own, system),
        renamed.unwrap_or_default(),
        strength
    );
    if !s.charge() {
        text += &format!(" {} squares away", s.distance);
    }
    match s.from {
        Aspect::Flank => text += " from its flank",
        Aspect::Rear => text += " from its rear",
        Aspect::Front => {}
    }
    let mut state = vec![words.state(s.target_state.is_shaken()).to_string()];
    let rules = system.terrain_rules();
    if let Some(kind) = rules.kinds().get(s.terrain.index()).filter(|_| s.terrain != Terrain::Open) {
        // A kind that gives no cover under these rules is said so: the odds have no cover modifier.
        let no_cover = if s.in_cover(rules) { "" } else { " (no cover, R1.5)" };
        state.push(format!("in {}{no_cover}", kind.name));
    }
    if s.retreat.is_blocked() {
        state.push("cannot retreat".to_string());
    }
    if s.ranging {
        state.push("ranged on".to_string());
    }
    format!("{text}; target {}", state.join(", "))
}

fn on_board(args: &OddsArgs) -> Result<Result<String>, Usage> {
    refuse(
        "with --scenario (the board decides them)",
        &[
            ("--distance", args.distance.is_some()),
            ("--moved", args.moved),
            ("--cover", args.cover.is_some()),
            ("--flank", args.flank),
            ("--rear", args.rear),
            ("--ranging", args.ranging),
            ("--blocked", args.blocked),
            ("--attacker-shaken", args.attacker_shaken),
        ],
    )?;
    check_attacks(args)?;
    let battle = match (&args.scenario, &args.load) {
        (_, Some(save)) => {
            let text = match std::fs::read_to_string(save) {
                Ok(text) => text,
                Err(e) => return Ok(Err(anyhow::Error::new(e).context(format!("cannot read {}", save.display())))),
            };
            match Game::load(&text) {
                Ok(game) => game.battle().clone(),
                Err(e) => return Ok(Err(anyhow::Error::new(e).context(format!("cannot load {}", save.display())))),
            }
        }
        (Some(file), None) => {
            let (text, name) = match scenario_text(file) {
                Ok(found) => found,
                Err(e) => return Ok(Err(e)),
            };
            let scenario = match scenario_for(&text, &name, &args.variant) {
                Ok(s) => s,
                Err(e) => return Ok(Err(e)),
            };
            let mut options = scenario.options;
            crate::args::apply_sets(&scenario, &mut options, &args.set).map_err(|e| Usage(e.to_string()))?;
            Battle::new(Arc::new(scenario), options)
        }
        (None, None) => unreachable!("the caller asks for the board form only with --scenario or --load"),
    };
    let square = |flag: &str, value: &Option<String>| -> Result<Option<Square>, Usage> {
        match value {
            None => Ok(None),
            Some(v) => match v.parse::<Square>() {
                Ok(s) if battle.scenario().map.contains(s) => Ok(Some(s)),
                Ok(s) => usage(format!("--{flag} {s} is off the board (R1.1)")),
                Err(e) => usage(format!("--{flag}: {e}")),
            },
        }
    };
    let unit = |flag: &str, value: &Option<String>| -> Result<UnitId, Usage> {
        let Some(at) = square(flag, value)? else {
            return usage(format!("--{flag} SQUARE is needed with --scenario or --load"));
        };
        match battle.unit_at(at) {
            Some(u) => Ok(u),
            None => usage(format!("--{flag}: there is no unit on {at}")),
        }
    };
    let attacker = unit("attacker", &args.attacker)?;
    let target = unit("target", &args.target)?;
    let to = square("to", &args.to)?;
    let facing = match &args.facing {
        None => None,
        Some(f) => match f.parse::<Dir>() {
            Ok(d) => Some(d),
            Err(e) => return usage(format!("--facing: {e}")),
        },
    };
    let here = *battle.unit(attacker);
    let order = match args.order.unwrap_or(OrderArg::Fire) {
        OrderArg::Fire => {
            if to.is_some() {
                return usage("--to is for --order move-fire");
            }
            Action::Fire { target, facing: facing.unwrap_or(here.facing) }
        }
        OrderArg::MoveFire => {
            if to.is_none() && facing.is_none() {
                return usage("--order move-fire needs --to SQUARE and/or --facing N|E|S|W");
            }
            Action::MoveFire { to: to.unwrap_or(here.at), facing: facing.unwrap_or(here.facing), target }
        }
        OrderArg::FireMove => {
            if to.is_some() || facing.is_some() {
                return usage("--to and --facing are for --order move-fire (Fire & Move moves after the dice)");
            }
            Action::FireMove { target }
        }
    };
    let mut odds = match battle.attack_odds(attacker, &order) {
        Ok(odds) => odds,
        Err(e) => {
            return usage(format!(
                "{} cannot make this attack: {} ({})",
                battle.side_and_name(attacker),
                e.reason,
                e.rule
            ));
        }
    };
    if args.shaken {
        odds = odds.with_target(pacw_engine::Steadiness::Shaken);
    }
    let (a, t) = (battle.info(attacker), battle.info(target));
    let system = battle.scenario().combat_system();
    let words = Words::of(&system);
    let order_text = match order {
        Action::MoveFire { to, facing, .. } => format!("Move & Fire (to {to}, facing {facing})"),
        other => other.order_name().to_string(),
    };
    let title = format!(
        "{} ({} {}, {}) — {order_text} at {} ({} {}, {}, strength {}), distance {}{}; target {}{}",
        a.name,
        a.quality,
        battle.scenario().arm_name(a),
        here.at,
        t.name,
        t.quality,
        battle.scenario().arm_name(t),
        battle.unit(target).at,
        battle.strength(target),
        odds.assessment.distance,
        match (odds.assessment.charge, words.charge.as_str()) {
            (false, _) => String::new(),
            (true, "charge") => " (a charge)".to_string(),
            (true, word) => format!(" ({word})"),
        },
        words.state(odds.assessment.target_shaken),
        if odds.retreat_path.is_blocked() { ", cannot retreat" } else { "" }
    );
    Ok(Ok(report(&title, &odds, battle.options(), &system, args)))
}

/// The width of the chance column for a distribution of states: its longest fraction, at least 7.
fn after_width(after: &odds::StateDistribution) -> usize {
    [&after.steady, &after.shaken, &after.destroyed].iter().map(|p| p.to_string().len()).max().unwrap_or(0).max(7)
}

fn pct(p: Prob) -> String {
    format!("{:5.1}%", *p.numer() as f64 * 100.0 / *p.denom() as f64)
}

fn pct_exact(x: &Exact) -> String {
    format!("{:5.1}%", odds::approx(x) * 100.0)
}

/// The odds as text or JSON, with the run of attacks if asked.
fn report(title: &str, odds: &AttackOdds, options: &Options, system: &CombatSystem, args: &OddsArgs) -> String {
    let run = args.attacks.map(|k| {
        let seq: Sequence = odds.sequence();
        let start = Sequence::start(odds);
        (k, seq.after(start, k), seq.expected_attacks_to_destroy(start))
    });
    if args.json {
        let mut v = serde_json::to_value(odds.report(Some(system))).expect("odds serialize");
        if args.scenario.is_none() && args.load.is_none() {
            // An attack described, not one on a board: its target is no unit of a battle anyone plays.
            v.as_object_mut().expect("a report is an object").remove("target");
        }
        v["situation"] = Value::String(title.to_string());
        if let Some((file, _)) = system.source() {
            v["variant"] = json!({ "name": system.name, "file": file });
        }
        if let Some((k, after, expected)) = &run {
            v["attacks"] = json!(k);
            v["after"] = serde_json::to_value(after).expect("states serialize");
            v["expected_attacks_to_destroy"] = expected.as_ref().map_or(Value::Null, |e| json!(e.to_string()));
        }
        return serde_json::to_string_pretty(&v).expect("JSON") + "\n";
    }
    let words = Words::of(system);
    let mut out = format!("{title}\n");
    if let Some(variant) = crate::source::system_words(system) {
        out += &format!("Variant: {variant}\n");
    }
    out += "\n";
    let total: i8 = odds.modifiers().total();
    if odds.modifiers().iter().next().is_none() {
        out += "Modifiers: none\n";
    } else {
        out += "Modifiers:\n";
        // Each at the value used: the rules' own, or the one an option `modifier.*` gave it.
        for m in odds.modifiers().applied() {
            let (rule, reason) = system.describe(m.modifier);
            out += &format!("  {rule:<6} {:+}  {reason}\n", m.value);
        }
    }
    out += &format!(
        "To hit: {}+ on a D6 (base {}, modifiers {total:+}; a 6 always hits, a 1 always misses, R6.4): {} ({})\n\n",
        odds.to_hit(),
        options.to_hit,
        odds.hit(),
        pct(odds.hit()).trim()
    );
    let steadiness = odds.result_modifiers(Some(system));
    if !steadiness.is_empty() {
        // A variant's modifiers to the hit-result roll: the strength the target's roll is tested against.
        let said: Vec<String> = steadiness.iter().map(|m| format!("{} {:+} {}", m.rule, m.value, m.reason)).collect();
        out += &format!(
            "Hit result: the target's roll is tested against strength {} {} = {} (R7.1)\n\n",
            odds.assessment.strength,
            said.join(", "),
            odds.assessment.tested_strength()
        );
    }
    let result_width = odds.results().map(|(r, _)| words.result(r).chars().count()).max().unwrap_or(0).max(10);
    out += &format!("{:<result_width$} {:>7} {:>6}\n", "result", "chance", "≈");
    for (r, p) in odds.results() {
        out += &format!("{:<result_width$} {:>7} {}\n", words.result(r), p.to_string(), pct(p));
    }
    if odds.retreat_path.is_blocked() {
        out += &format!(
            "(a retreat is blocked and counts as {}, R7.4 blocked_retreat = {})\n",
            if odds.has_stand() { "stand" } else { &words.destroyed },
            odds.blocked_retreat.name()
        );
    }
    if odds.attacker.any() {
        // Beside the target's results, what the variant's after-attack rules do to the attacker.
        let a = &odds.attacker;
        out += &format!("\nThe attacker ({}):\n", odds.attacker_rules(Some(system)).join("; "));
        let advances = "advances into the target's square";
        let width = [words.shaken.as_str(), advances, &words.destroyed, "unchanged"]
            .iter()
            .map(|w| w.chars().count())
            .max()
            .unwrap_or(0);
        for (what, p) in [
            (words.shaken.as_str(), a.shaken),
            (advances, a.advances),
            (&words.destroyed, a.destroyed),
            ("unchanged", a.unchanged),
        ] {
            if p != Prob::from_integer(0) || what == "unchanged" {
                out += &format!("  {what:<width$} {:>7} {}\n", p.to_string(), pct(p));
            }
        }
    }
    if let Some((k, after, expected)) = run {
        let state_width =
            [&words.shaken, &words.destroyed].iter().map(|w| w.chars().count()).max().unwrap_or(0).max(10);
        out += &format!(
            "\nAfter {k} attack{} in a row (same modifiers, the target not activated between; a retreat counts as\n\
             shaken and still there{}):\n{:<state_width$} {:>w$} {:>6}\n",
            if k == 1 { "" } else { "s" },
            if odds.retreat_path.is_blocked() { "; a blocked retreat follows R7.4" } else { "" },
            "state",
            "chance",
            "≈",
            w = after_width(&after)
        );
        for state in [TargetState::Steady, TargetState::Shaken, TargetState::Destroyed] {
            let name = match state {
                TargetState::Steady => "steady",
                TargetState::Shaken => &words.shaken,
                TargetState::Destroyed => &words.destroyed,
            };
            let p = after.get(state);
            out += &format!("{name:<state_width$} {:>w$} {}\n", p.to_string(), pct_exact(p), w = after_width(&after));
        }
        match expected {
            Some(e) => out += &format!("Expected attacks to destroy it: {e} (≈ {:.2})\n", odds::approx(&e)),
            None => out += "Expected attacks to destroy it: never (it cannot be destroyed)\n",
        }
    }
    out
}

fn table(args: &OddsArgs) -> Result<Result<String>, Usage> {
    refuse(
        "with --table",
        &[
            ("--scenario", args.scenario.is_some()),
            ("--target", args.target.is_some()),
            ("--distance", args.distance.is_some()),
            ("--cover", args.cover.is_some()),
            ("--flank", args.flank),
            ("--rear", args.rear),
            ("--shaken", args.shaken),
            ("--attacker-shaken", args.attacker_shaken),
            ("--ranging", args.ranging),
            ("--blocked", args.blocked),
            ("--attacks", args.attacks.is_some()),
            ("--order", args.order.is_some()),
            ("--to", args.to.is_some()),
            ("--facing", args.facing.is_some()),
        ],
    )?;
    let (system, options) = match variant_and_options(args)? {
        Ok(found) => found,
        Err(e) => return Ok(Err(e)),
    };
    let (attacker, attacker_own, _) = match &args.attacker {
        Some(a) => parse_unit("attacker", a, system.as_deref())?,
        None => (Arm::Infantry, None, Quality::Regular),
    };
    let rows = match odds::table_of(attacker, attacker_own, args.moved, &options, system.as_ref()) {
        Ok(rows) => rows,
        Err(e) => return usage(format!("impossible: {e}")),
    };
    let moved = if args.moved { "that moved" } else { "that did not move" };
    let words = Words::of(system.as_deref().unwrap_or(&CombatSystem::standard()));
    let (fire, charge) = (words.attack(false), words.attack(true));
    let charges = if charge == "charge" { "charges" } else { charge };
    let own_range = attacker_own.and_then(|i| system.as_deref()?.arm_number(i as usize, ArmNumber::Range, &options));
    let shooting = if own_range.unwrap_or(options.range.get(attacker)) >= 2 {
        format!("{fire} at distance 2, {charges} at distance 1 from the front")
    } else {
        format!("{charges} at distance 1 from the front (its range is 1: no {fire})")
    };
    let attacker_name = arm_name(attacker, attacker_own, system.as_deref().unwrap_or(&CombatSystem::standard()));
    let rules = rules_of(system.as_deref());
    // The terrain of the rows in cover: the first kind of the rules in force that gives cover.
    let cover = match Situation::cover_terrain(&rules) {
        Some(t) => format!("cover: {} (R6.3a)", rules.kind(t).name),
        None => "cover: none, no terrain gives it (R1.5)".to_string(),
    };
    let mut title = format!("Odds for {attacker_name} {moved}: {shooting}; {cover}");
    if title.chars().count() > MAX_WIDTH {
        title = format!("Odds for {attacker_name} {moved}: {shooting}\nC{}", &cover[1..]);
    }
    if args.json {
        let system = system.clone().unwrap_or_else(|| Arc::new(CombatSystem::standard()));
        let rows: Vec<Value> = rows.iter().map(|r| row_json(r, &options, &system)).collect();
        let mut v = json!({
            "attacker": attacker_name,
            "moved": args.moved,
            "to_hit_base": options.to_hit,
            "blocked_retreat": options.blocked_retreat.name(),
            "rows": rows,
        });
        if let Some((file, _)) = system.source() {
            v["variant"] = json!({ "name": system.name, "file": file });
        }
        return Ok(Ok(serde_json::to_string_pretty(&v).expect("JSON") + "\n"));
    }
    let system = system.unwrap_or_else(|| Arc::new(CombatSystem::standard()));
    // A hit that changes nothing has its own column only where the variant's table has such hits.
    let no_effect = rows.iter().any(|r| r.odds.as_ref().is_ok_and(AttackOdds::has_no_effect));
    let mut out = format!("{title}\n");
    if let Some(variant) = crate::source::system_words(&system) {
        out += &format!("Variant: {variant}\n");
    }
    out += "\n";
    // Each column as wide as its words, which a variant may make longer ("close combat").
    let width = |words: &[&str], least: usize| words.iter().map(|w| w.chars().count()).max().unwrap_or(0).max(least);
    let attack_w = width(&["attack", fire, charge], 8);
    let state_w = width(&["state", "steady", &words.shaken], 7);
    let (shaken_w, retreat_w, destroyed_w) =
        (width(&[&words.shaken], 7), width(&[&words.retreat], 7), width(&[&words.destroyed], 9));
    out += &format!(
        "{:<19} {:>3}  {:<attack_w$} {:<5} {:<state_w$} {:>6}  {:>6}{} {:>shaken_w$} {:>retreat_w$} {:>destroyed_w$}\n",
        "target",
        "str",
        "attack",
        "cover",
        "state",
        "to hit",
        "miss",
        if no_effect { format!(" {:>9}", "no effect") } else { String::new() },
        words.shaken,
        words.retreat,
        words.destroyed
    );
    for r in &rows {
        let s = &r.situation;
        // The columns that say the situation, then its odds, or the restriction that forbids it.
        let strength = r
            .odds
            .as_ref()
            .map_or_else(|_| s.target_strength_under(&options, Some(&system)), |o| o.assessment.strength);
        let situation = format!(
            "{:<19} {:>3}  {:<attack_w$} {:<5} {:<state_w$} ",
            format!("{} {}", s.target_quality, arm_name(s.target, s.target_own, &system)),
            strength,
            words.attack(s.charge()),
            if s.in_cover(&rules) { "yes" } else { "no" },
            words.state(s.target_state.is_shaken()),
        );
        let odds = match &r.odds {
            Ok(o) => format!(
                "{:>5}+  {:>6}{} {:>shaken_w$} {:>retreat_w$} {:>destroyed_w$}",
                o.to_hit(),
                o.miss.to_string(),
                if no_effect { format!(" {:>9}", o.no_effect.to_string()) } else { String::new() },
                o.shaken.to_string(),
                o.retreat.to_string(),
                o.destroyed.to_string(),
            ),
            Err(forbidden) => {
                fitted(&format!("forbidden: {forbidden}"), MAX_WIDTH.saturating_sub(situation.chars().count()))
            }
        };
        out += &format!("{situation}{odds}\n");
    }
    let mut modifiers: Vec<String> = Vec::new();
    for m in rows.iter().filter_map(|r| r.odds.as_ref().ok()).flat_map(|o| o.modifiers().applied()) {
        let (rule, reason) = system.describe(m.modifier);
        let said = format!("{rule} {:+} {reason}", m.value);
        if !modifiers.contains(&said) {
            modifiers.push(said);
        }
    }
    out += &format!("\nModifiers used: {}\n", modifiers.join("; "));
    // Each restriction that forbids a row, whole: a row may have had to cut its name.
    let mut forbidding: Vec<&odds::Forbidden> = Vec::new();
    for f in rows.iter().filter_map(|r| r.odds.as_ref().err()) {
        if !forbidding.contains(&f) {
            forbidding.push(f);
        }
    }
    if !forbidding.is_empty() {
        out += "Forbidden by the variant's restrictions on orders (R4.2), the attacks are refused in play:\n";
        for f in forbidding {
            out += &wrapped("  ", &f.to_string(), "    ");
        }
    }
    Ok(Ok(out))
}

/// The widest line the table prints.
const MAX_WIDTH: usize = 120;

/// `text` in at most `width` characters: cut with "…" if longer.
fn fitted(text: &str, width: usize) -> String {
    if text.chars().count() <= width {
        return text.to_string();
    }
    let kept: String = text.chars().take(width.saturating_sub(1)).collect();
    format!("{}…", kept.trim_end())
}

/// `text` as lines of at most [`MAX_WIDTH`] characters where its words allow, broken between words: the first
/// line after `first`, each other after `indent`.
fn wrapped(first: &str, text: &str, indent: &str) -> String {
    let mut out = String::new();
    let mut line = first.to_string();
    let mut fresh = true;
    for word in text.split_whitespace() {
        if !fresh && line.chars().count() + 1 + word.chars().count() > MAX_WIDTH {
            out += &line;
            out.push('\n');
            line = indent.to_string();
            fresh = true;
        }
        if !fresh {
            line.push(' ');
        }
        line += word;
        fresh = false;
    }
    out + &line + "\n"
}

fn row_json(r: &TableRow, options: &Options, system: &CombatSystem) -> Value {
    let s = &r.situation;
    let mut v = match &r.odds {
        Ok(odds) => serde_json::to_value(odds.report(Some(system))).expect("odds serialize"),
        // No odds: the restriction that forbids the attack, cited as a refusal of it is (docs/api.md).
        Err(forbidden) => json!({
            "charge": s.charge(),
            "target_strength": s.target_strength_under(options, Some(system)),
            "forbidden": { "rule": forbidden.id, "name": forbidden.name },
        }),
    };
    v.as_object_mut().expect("a report is an object").remove("target");
    v["target_arm"] = json!(arm_name(s.target, s.target_own, system));
    v["quality"] = json!(s.target_quality.name());
    v["attack"] = json!(if s.charge() { "charge" } else { "shooting" });
    v["cover"] = json!(s.in_cover(system.terrain_rules()));
    v["terrain"] = json!(system.terrain_rules().kinds().get(s.terrain.index()).map(|k| k.id.as_str()));
    v["target_state"] = json!(if s.target_state.is_shaken() { "shaken" } else { "steady" });
    v
}
