//! The review's words for orders: each order as a phrase in three forms ("charges …", "charging …", "charged …")
//! with the odds the engine works out and the rules it follows, and from two of them the sentence that says what
//! the better order does that the one played did not. The words and numbers are the engine's (its assessment and
//! exact odds, R6.4, R7.1); nothing here judges, so it holds whichever evaluator made the review.

use pacw_engine::{Action, Battle, Prob, Rule, Side, ToAct, UnitId, narrate};
use serde::Serialize;

/// An attacking order's odds as the engine works them out: what the board labels its arrow with, and what the
/// words cite.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct AttackNote {
    /// The unit attacked.
    pub target: UnitId,
    /// Whether it is a charge: an attack on an adjacent unit (R6.1).
    pub charge: bool,
    /// The number needed on the to-hit die (R6.4).
    pub needed: u8,
    /// The chance to hit.
    pub hit: f32,
    /// The chance the target is destroyed, by the hit-result roll or a blocked retreat (R7.1, R7.4).
    pub destroyed: f32,
}

/// The odds of the attack a plan makes (an activation and its order, or an order of the unit already active), if
/// it attacks and the engine can assess it in `b`, the position before the plan.
pub fn attack_note(b: &Battle, plan: &[Action]) -> Option<AttackNote> {
    let (battle, unit, order) = acting(b, plan)?;
    order.target()?;
    let odds = battle.attack_odds(unit, &order).ok()?;
    Some(AttackNote {
        target: odds.assessment.target,
        charge: odds.assessment.charge,
        needed: odds.assessment.needed,
        hit: fraction(odds.hit()),
        destroyed: fraction(odds.destroyed),
    })
}

/// The battle in which a plan's order is given (after its activation), the unit giving it and the order.
fn acting(b: &Battle, plan: &[Action]) -> Option<(Battle, UnitId, Action)> {
    match *plan {
        [Action::Activate(unit), order, ..] => {
            let mut activated = b.clone();
            activated.apply(Action::Activate(unit)).ok()?;
            Some((activated, unit, order))
        }
        [order] if !matches!(order, Action::Activate(_) | Action::EndActivations) => {
            Some((b.clone(), b.active_unit()?, order))
        }
        _ => None,
    }
}

fn fraction(p: Prob) -> f32 {
    *p.numer() as f32 / (*p.denom()).max(1) as f32
}

/// A chance as a whole percentage, never "0%" or "100%" for what may or may not happen.
pub(super) fn percent(p: f32) -> String {
    let whole = (100.0 * p).round();
    if whole <= 0.0 && p > 0.0 {
        "<1%".to_string()
    } else if whole >= 100.0 && p < 1.0 {
        ">99%".to_string()
    } else {
        format!("{whole:.0}%")
    }
}

/// A verb's three forms: the present ("charges"), the gerund ("charging") and the past ("charged").
type Verb = [&'static str; 3];

const MOVE: Verb = ["moves", "moving", "moved"];
const TURN: Verb = ["turns", "turning", "turned"];
const CHARGE: Verb = ["charges", "charging", "charged"];
const FIRE: Verb = ["fires at", "firing at", "fired at"];
const HOLD: Verb = ["holds", "holding", "held"];
const END: Verb = ["ends", "ending", "ended"];
const STAY: Verb = ["stays", "staying", "stayed"];
const ACTIVATE: Verb = ["is activated", "being activated", "was activated"];

/// Which of a verb's forms a phrase is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Form {
    /// "charges".
    Present = 0,
    /// "charging".
    Gerund = 1,
    /// "charged".
    Past = 2,
}

/// A piece of a phrase: a verb, written in the phrase's form, or words.
#[derive(Clone, Debug, PartialEq)]
enum Part {
    Verb(Verb),
    Words(String),
}

/// What a plan does, in words: who acts, what it does (in any of the three forms), the rules it follows and the odds
/// of its attack.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Phrase {
    /// Who acts: "the 3rd Brigade (e2)", or a side ("the Union") for ending the activations.
    pub subject: String,
    /// The same with its side named, for a sentence that does not say whose turn it is: "the Union 3rd Brigade
    /// (e2)".
    pub named: String,
    /// The unit acting, if a unit acts.
    pub unit: Option<UnitId>,
    parts: Vec<Part>,
    /// The rules it follows, each once, in the order of docs/rules.md.
    pub rules: Vec<Rule>,
}

impl Phrase {
    /// What it does, in a form: "charges the … at e4 at 3+ (67% to hit)".
    pub fn does(&self, form: Form) -> String {
        self.parts
            .iter()
            .map(|p| match p {
                Part::Verb(v) => v[form as usize],
                Part::Words(w) => w.as_str(),
            })
            .collect()
    }

    fn verb(&mut self, verb: Verb) -> &mut Self {
        self.parts.push(Part::Verb(verb));
        self
    }

    fn words(&mut self, words: impl Into<String>) -> &mut Self {
        self.parts.push(Part::Words(words.into()));
        self
    }

    fn cite(&mut self, rule: Rule) -> &mut Self {
        if !self.rules.contains(&rule) {
            self.rules.push(rule);
            self.rules.sort_by_key(|r| Rule::ALL.iter().position(|x| x == r));
        }
        self
    }

    /// An attack on `target` as `note` assesses it: "charges the shaken … at e4 at 3+ (67% to hit, 22% to destroy
    /// it)".
    fn attack(&mut self, b: &Battle, target: UnitId, note: Option<AttackNote>) -> &mut Self {
        let charge = note.is_some_and(|n| n.charge);
        self.verb(if charge { CHARGE } else { FIRE }).words(format!(" {}", target_words(b, target)));
        if charge {
            self.cite(Rule::R6_1);
        }
        if let Some(n) = note {
            let destroy = if n.destroyed > 0.0 {
                self.cite(Rule::R7_1);
                format!(", {} to destroy it", percent(n.destroyed))
            } else {
                String::new()
            };
            self.words(format!(" at {}+ ({} to hit{destroy})", n.needed, percent(n.hit))).cite(Rule::R6_4);
        }
        self
    }
}

/// A unit of the side acting, as the review's orders name it: "3rd Brigade (e2)".
fn own_unit(b: &Battle, unit: UnitId) -> String {
    format!("the {} ({})", b.info(unit).name, b.unit(unit).at)
}

/// A unit with its side: "the Union 3rd Brigade (e2)".
pub(super) fn named_unit(b: &Battle, unit: UnitId) -> String {
    format!("the {} ({})", side_and_name(b, unit), b.unit(unit).at)
}

/// A unit's name with its side's, once: "Union 3rd Brigade", "Union Cavalry" (not "Union Union Cavalry").
pub(super) fn side_and_name(b: &Battle, unit: UnitId) -> String {
    let info = b.info(unit);
    let side = &b.scenario().side(info.side).name;
    if info.name.starts_with(side.as_str()) { info.name.clone() } else { format!("{side} {}", info.name) }
}

/// An attacked unit in words: "the shaken Confederate 3rd Brigade (regular infantry) at e4".
pub(super) fn target_words(b: &Battle, target: UnitId) -> String {
    let shaken = if b.unit(target).shaken { "shaken " } else { "" };
    format!("the {shaken}{} at {}", narrate::unit(b.scenario(), target), b.unit(target).at)
}

/// What a plan does, as the position `b` before it stands; `None` for a plan the engine would not take there.
pub(super) fn phrase(b: &Battle, plan: &[Action]) -> Option<Phrase> {
    if let [Action::EndActivations] = plan {
        let ToAct::Side(side) = b.to_act() else { return None };
        let name = format!("the {}", b.scenario().side(side).name);
        let mut p = Phrase { subject: name.clone(), named: name, unit: None, parts: Vec::new(), rules: Vec::new() };
        p.verb(END).words(" its activations").cite(Rule::R3_4);
        return Some(p);
    }
    if let [Action::Activate(unit)] = plan {
        if unit.index() >= b.scenario().units.len() {
            return None;
        }
        let mut p = subject(b, *unit);
        p.verb(ACTIVATE).cite(Rule::R3_4);
        return Some(p);
    }
    let (battle, unit, order) = acting(b, plan)?;
    let note = attack_note(b, plan);
    let at = battle.unit(unit).at;
    let facing = battle.unit(unit).facing;
    let mut p = subject(b, unit);
    match order {
        Action::Hold => {
            p.verb(HOLD).cite(Rule::R4_2);
        }
        Action::Move { to, facing } | Action::Advance { to, facing } if to == at => {
            if matches!(order, Action::Advance { .. }) {
                p.verb(STAY).words(format!(", facing {facing}")).cite(Rule::R4_4);
            } else {
                p.verb(TURN).words(format!(" to face {facing}")).cite(Rule::R5_4);
            }
        }
        Action::Move { to, facing } | Action::Advance { to, facing } => {
            p.verb(MOVE).words(format!(" to {to}, facing {facing},")).cite(Rule::R5);
            if matches!(order, Action::Advance { .. }) {
                p.cite(Rule::R4_4);
            }
        }
        Action::Fire { target, facing: f } => {
            if f != facing {
                p.verb(TURN).words(format!(" to face {f} and ")).cite(Rule::R5_5);
            }
            p.attack(&battle, target, note);
        }
        Action::MoveFire { to, facing: f, target } => {
            if to == at {
                p.verb(TURN).words(format!(" to face {f} and ")).cite(Rule::R5_4);
            } else {
                p.verb(MOVE).words(format!(" to {to}, facing {f}, and ")).cite(Rule::R5);
            }
            p.attack(&battle, target, note);
        }
        Action::FireMove { target } => {
            p.attack(&battle, target, note).words(" by Fire & Move").cite(Rule::R4_4);
        }
        Action::Activate(_) | Action::EndActivations => return None,
    }
    // A move's phrase ends on the comma that would lead into what follows; a phrase ends without it.
    if let Some(Part::Words(w)) = p.parts.last_mut()
        && w.ends_with(',')
    {
        w.pop();
    }
    Some(p)
}

fn subject(b: &Battle, unit: UnitId) -> Phrase {
    Phrase {
        subject: own_unit(b, unit),
        named: named_unit(b, unit),
        unit: Some(unit),
        parts: Vec::new(),
        rules: Vec::new(),
    }
}

/// Rules cited at the end of a sentence: " (R6.1, R6.4)", or nothing.
pub(super) fn cited(rules: &[Rule]) -> String {
    if rules.is_empty() {
        return String::new();
    }
    let ids: Vec<&str> = rules.iter().map(|r| r.id()).collect();
    format!(" ({})", ids.join(", "))
}

/// Capitalises a sentence's first letter.
pub(super) fn capitalised(text: &str) -> String {
    let mut chars = text.chars();
    chars.next().map_or_else(String::new, |c| c.to_uppercase().chain(chars).collect())
}

/// The sentence saying what the better plan does that the one played did not, as the position `b` before them
/// stands: "The 3rd Brigade (e2) charges the shaken Confederate Divisional Battery (regular artillery) at e3 at 3+
/// (67% to hit, 33% to destroy it) instead of firing at … at 5+ (33% to hit) (R6.1, R6.4, R7.1)." `None` when the
/// two are the same plan, or either is not one the engine would take there.
pub fn why(b: &Battle, played: &[Action], better: &[Action]) -> Option<String> {
    if played == better {
        return None;
    }
    let (good, given) = (phrase(b, better)?, phrase(b, played)?);
    // The unit named once when both orders are its own.
    let other = if good.subject == given.subject { String::new() } else { format!("{} ", given.subject) };
    let mut rules = good.rules.clone();
    rules.extend(given.rules.iter().filter(|r| !good.rules.contains(r)));
    rules.sort_by_key(|r| Rule::ALL.iter().position(|x| x == r));
    let does = good.does(Form::Present);
    // A phrase with commas of its own ("moves to d4, facing E") is set off from the one it is weighed against.
    let comma = if outside_parentheses(&does).contains(',') { "," } else { "" };
    Some(format!(
        "{} {does}{comma} instead of {other}{}{}.",
        capitalised(&good.subject),
        given.does(Form::Gerund),
        cited(&rules)
    ))
}

/// The words of a phrase outside its parentheses (its odds), where a comma is the phrase's own.
fn outside_parentheses(text: &str) -> String {
    let mut depth = 0u32;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => depth = depth.saturating_sub(1),
                _ => return depth == 0,
            }
            false
        })
        .collect()
}

/// A resignation's better plan in words: playing on.
pub fn why_not_resign(side: Side, b: &Battle) -> String {
    format!("The {} plays on instead of resigning.", b.scenario().side(side).name)
}
