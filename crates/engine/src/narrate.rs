//! Events and actions in words, with the rule ids they follow: for logs, replays and the terminal game.

use crate::action::Action;
use crate::attack::HitResult;
use crate::battle::Battle;
use crate::card::Card;
use crate::event::{EndReason, Event};
use crate::scenario::Scenario;
use crate::system::{AttackerEffect, Terms};
use crate::unit::{Side, UnitId};

/// A unit named with its side, so that a log line is clear on its own: "Union 3rd Brigade (regular infantry)".
pub fn unit(s: &Scenario, u: UnitId) -> String {
    let info = &s.units[u.index()];
    let side = side(s, info.side);
    let arm = s.arm_name(info);
    if info.name.starts_with(side) {
        format!("{} ({} {arm})", info.name, info.quality)
    } else {
        format!("{side} {} ({} {arm})", info.name, info.quality)
    }
}

/// The word a variant's `[terms]` gives in place of a standard one (`term` picks the word and its standard), if it
/// renames it.
fn renamed<'a>(s: &'a Scenario, term: impl Fn(&'a Terms) -> (&'a String, &'static str)) -> Option<&'a str> {
    let (word, standard) = term(s.system().terms());
    (word != standard).then_some(word.as_str())
}

/// A word with its first letter in capitals, to begin a line.
fn capitalised(word: &str) -> String {
    let mut c = word.chars();
    c.next().map(|f| f.to_uppercase().chain(c).collect()).unwrap_or_default()
}

fn side(s: &Scenario, side: Side) -> &str {
    &s.side(side).name
}

/// Describes a card, naming its side.
pub fn card(s: &Scenario, c: Card) -> String {
    match c {
        Card::Joker => "the Joker".to_string(),
        Card::Side { side: sd, value } => format!("{} {value}", side(s, sd)),
    }
}

/// One event in words, under the scenario's own options.
pub fn event(s: &Scenario, e: &Event) -> String {
    event_with(s, &s.options, e)
}

/// One event in words, under the options of the game (the turn limit may be the option `turns`, R8.2).
pub fn event_with(s: &Scenario, options: &crate::Options, e: &Event) -> String {
    match *e {
        Event::TurnStarted { turn, iv } => format!(
            "Turn {turn} of {} begins; initiative values {} {}, {} {} (R3.1)",
            options.turns.map_or(s.turns, |t| t.get()),
            side(s, Side::A),
            iv[0],
            side(s, Side::B),
            iv[1]
        ),
        Event::CardDrawn { card: Card::Joker, left } => {
            format!("The Joker is drawn ({left} cards left): the turn ends (R3.6)")
        }
        Event::CardDrawn { card: c, left } => {
            let value = match c {
                Card::Side { value, .. } => value,
                Card::Joker => 0,
            };
            format!("Card: {} ({left} left): activate up to {value} units (R3.4)", card(s, c))
        }
        Event::InitiativeRolled { side: sd, roll } => format!("{} rolls {roll} for initiative (R3.7)", side(s, sd)),
        Event::InitiativeWon { side: sd } => format!("{} wins the initiative (R3.7)", side(s, sd)),
        Event::Activated { unit: u, rallied: true } => {
            format!("{} is activated and rallies: no longer shaken (R4.1)", unit(s, u))
        }
        Event::Activated { unit: u, rallied: false } => format!("{} is activated", unit(s, u)),
        Event::RallyModified { unit: u, rule } => {
            let m = s.system().rally_modifiers().get(rule as usize);
            let (id, value, name) = m.map_or(("variant", 0, "rally modifier"), |m| (&m.id, m.value, &m.name));
            format!("  {id} {value:+} {name}: {} rolls to rally at {value:+}", unit(s, u))
        }
        Event::RallyRolled { unit: u, roll, test, rallied } => {
            // The variant's rule cited by its id, as the standard rules' are: "MR1 rally test".
            let rule = s.system().rally();
            let (id, name) = rule.map_or(("variant", "rally roll"), |r| (r.id.as_str(), r.name.as_str()));
            let needing = match test {
                crate::system::RallyTest::AtLeast(7) => "needing more than 6".to_string(),
                crate::system::RallyTest::AtLeast(n) => format!("needing {n} or more"),
                crate::system::RallyTest::AtMost(n) => format!("needing at most {n}"),
            };
            let shaken = renamed(s, |t| (&t.shaken, "shaken")).unwrap_or("shaken");
            let what = if rallied { format!("rallies, no longer {shaken}") } else { format!("stays {shaken}") };
            format!("  {id} {name}: {} rolls {roll}, {needing}: {what}", unit(s, u))
        }
        Event::ActivationsEnded { side: sd } => format!("{} ends its activations", side(s, sd)),
        Event::Held { unit: u } => format!("{} holds (R4.2)", unit(s, u)),
        Event::Moved { unit: u, from, to, facing } if from == to => {
            format!("{} turns to face {facing} (R5.4)", unit(s, u))
        }
        Event::Moved { unit: u, from, to, facing } => {
            format!("{} moves {from} → {to}, facing {facing} (R5)", unit(s, u))
        }
        Event::Attack { attacker, target, charge, needed, modifiers } => {
            // A variant may rename the attacks ([terms]): "attacks … (close combat)".
            let renamed = renamed(s, |t| if charge { (&t.charge, "charge") } else { (&t.fire, "fire") });
            let mods: Vec<String> = modifiers
                .applied()
                .map(|m| {
                    let (rule, reason) = s.describe_modifier(m.modifier);
                    format!("{rule} {:+} {reason}", m.value)
                })
                .collect();
            let mods = if mods.is_empty() { "no modifiers".to_string() } else { mods.join(", ") };
            let (a, t) = (unit(s, attacker), unit(s, target));
            match renamed {
                Some(word) => format!("{a} attacks {t} ({word}): needs {needed}+ ({mods}) (R6.1, R6.4)"),
                None => format!(
                    "{a} {} {t}: needs {needed}+ ({mods}) (R6.1, R6.4)",
                    if charge { "charges" } else { "fires at" }
                ),
            }
        }
        Event::ToHitRolled { roll, hit: true } => format!("  rolls {roll}: hit"),
        Event::ToHitRolled { roll, hit: false } => format!("  rolls {roll}: miss"),
        Event::HitResultRolled { unit: u, roll, strength, result } => {
            let cmp = if roll <= strength { "≤" } else { ">" };
            let word = |standard: &'static str, term: fn(&Terms) -> (&String, &'static str)| {
                renamed(s, term).unwrap_or(standard).to_string()
            };
            let what = match result {
                HitResult::NoEffect => "no effect".to_string(),
                HitResult::Shaken => word("shaken", |t| (&t.shaken, "shaken")),
                HitResult::Retreat => word("retreats", |t| (&t.retreat, "retreat")),
                HitResult::Destroyed => word("destroyed", |t| (&t.destroyed, "destroyed")),
            };
            format!("  {} rolls {roll} {cmp} strength {strength}: {what} (R7.1)", unit(s, u))
        }
        Event::AfterAttack { unit: u, rule, effect, at } => {
            // The rule cited by its id, as the standard rules' are: "A1 failed charge: … is shaken".
            let (id, name) = s
                .system()
                .after_attack()
                .get(rule as usize)
                .map_or(("variant", "after the attack"), |r| (r.id.as_str(), r.name.as_str()));
            let what = match effect {
                AttackerEffect::Shaken => format!(" is {}", renamed(s, |t| (&t.shaken, "shaken")).unwrap_or("shaken")),
                AttackerEffect::Advance => format!(" advances into {at}"),
                AttackerEffect::Destroyed => String::new(), // the next line says it is destroyed
            };
            format!("  {id} {name}: {}{what}", unit(s, u))
        }
        Event::ResultModified { unit: u, rule } => {
            let m = s.system().result_modifiers().get(rule as usize);
            let (id, value, name) = m.map_or(("variant", 0, "result modifier"), |m| (&m.id, m.value, &m.name));
            format!("  {id} {value:+} {name}: {} tests its strength at {value:+} (R7.1)", unit(s, u))
        }
        Event::Shaken { unit: u } => {
            let word = renamed(s, |t| (&t.shaken, "shaken")).unwrap_or("shaken");
            format!("  {} is {word} (R7.1, R7.2)", unit(s, u))
        }
        Event::Retreated { unit: u, from, to } => match renamed(s, |t| (&t.retreat, "retreat")) {
            Some(word) => format!("  {}: {word} {from} → {to} (R7.3)", unit(s, u)),
            None => format!("  {} retreats {from} → {to} (R7.3)", unit(s, u)),
        },
        Event::RetreatBlocked { unit: u } => format!("  {} has nowhere to retreat (R7.4)", unit(s, u)),
        Event::Destroyed { unit: u } => {
            let word = renamed(s, |t| (&t.destroyed, "destroyed")).unwrap_or("destroyed");
            format!("  {} is {word}", unit(s, u))
        }
        Event::ObjectiveTaken { at, side: sd } => format!("{} takes the objective at {at} (R8.2)", side(s, sd)),
        Event::Arrived { unit: u, at, group } => {
            format!("{}: {} arrives at {at}", reinforcement(s, group), unit(s, u))
        }
        Event::ArrivalDelayed { unit: u, at, by, group } => format!(
            "{}: {} cannot enter at {at}, held by {}: it tries again next turn",
            reinforcement(s, group),
            unit(s, u),
            unit(s, by)
        ),
        Event::Changed { change } => match s.changes.get(change as usize) {
            Some(c) => format!("Event {}: {}", c.id, s.describe_change(c)),
            None => "A change of the scenario".to_string(),
        },
        Event::TurnEnded { turn } => format!("Turn {turn} ends"),
        Event::GameOver { result } => {
            let how = match result.reason {
                EndReason::Exhaustion(sd) => format!("{} is exhausted (R8.1)", side(s, sd)),
                EndReason::Resigned(sd) => format!("{} resigns", side(s, sd)),
                EndReason::OutOfTime(sd) => {
                    format!("{} did not move by the deadline, and the win was claimed on time", side(s, sd))
                }
                EndReason::DrawAgreed => "the players agreed to a draw".to_string(),
                EndReason::TurnLimit => format!(
                    "the turn limit is reached: {} {} points, {} {} (R8.2)",
                    side(s, Side::A),
                    result.points[0],
                    side(s, Side::B),
                    result.points[1]
                ),
            };
            match result.winner {
                Some(w) => format!("Game over: {how}. {} wins.", side(s, w)),
                None => format!("Game over: {how}. A draw."),
            }
        }
    }
}

/// A reinforcement group as the log cites it: "Reinforcements E1 (Buford's Cavalry)".
fn reinforcement(s: &Scenario, group: u8) -> String {
    match s.reinforcements.get(group as usize) {
        Some(r) => format!("Reinforcements {} ({})", r.id, r.name),
        None => "Reinforcements".to_string(),
    }
}

/// One action in words, as offered to the side to act.
pub fn action(b: &Battle, a: &Action) -> String {
    order(b, b.active_unit(), a)
}

/// An order in words as `unit` would give it (with the number needed for attacks): also for a unit not yet
/// activated, whose orders a player looks at before choosing it ([`Battle::orders_for`]).
pub fn order(b: &Battle, unit: Option<UnitId>, a: &Action) -> String {
    let s = b.scenario();
    let unit_at = |u: UnitId| format!("{} at {}", self::unit(s, u), b.unit(u).at);
    let assessed = unit.and_then(|me| b.assess_order(me, a).ok());
    let needed = assessed.map_or(String::new(), |x| format!(" ({}+)", x.needed));
    // An attack at distance 1 is a charge (R6.1), and says so, in the variant's word if it renames it ([terms]):
    // "close combat against …".
    let charge = assessed.is_some_and(|x| x.charge);
    let attack_word = renamed(s, |t| if charge { (&t.charge, "charge") } else { (&t.fire, "fire") });
    let verb = |capital: bool| match (attack_word, charge, capital) {
        (Some(word), _, true) => format!("{} against", capitalised(word)),
        (Some(word), _, false) => format!("{word} against"),
        (None, true, true) => "Charge".to_string(),
        (None, true, false) => "charge".to_string(),
        (None, false, true) => "Fire at".to_string(),
        (None, false, false) => "fire at".to_string(),
    };
    let attack = |target: UnitId| format!("{} {}{needed}", verb(false), unit_at(target));
    match *a {
        Action::Activate(u) => {
            let word = renamed(s, |t| (&t.shaken, "shaken")).unwrap_or("shaken");
            let shaken = if b.unit(u).shaken { format!(", {word}") } else { String::new() };
            format!("Activate {}{shaken}", unit_at(u))
        }
        Action::EndActivations => "End activations".to_string(),
        Action::Hold => "Hold".to_string(),
        Action::Move { to, facing } => format!("Move to {to}, face {facing}"),
        Action::Fire { target, facing } if Some(facing) == unit.map(|u| b.unit(u).facing) => {
            format!("{} {}{needed}", verb(true), unit_at(target))
        }
        Action::Fire { target, facing } => format!("Face {facing} and {}", attack(target)),
        // A Move & Fire that stays on its square only turns (R4.2): said so, not as a move to where it stands.
        Action::MoveFire { to, facing, target } if Some(to) == unit.map(|u| b.unit(u).at) => {
            format!("Turn in place to face {facing}, {}", attack(target))
        }
        Action::MoveFire { to, facing, target } => format!("Move to {to}, face {facing}, {}", attack(target)),
        Action::FireMove { target } => format!("Fire & Move: {}, then move", attack(target)),
        Action::Advance { to, facing } if Some(to) == unit.map(|u| b.unit(u).at) => format!("Stay, face {facing}"),
        Action::Advance { to, facing } => format!("Move to {to}, face {facing}"),
    }
}
