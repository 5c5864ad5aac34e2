//! Why the game was decided: the biggest swings of the winning chances, each a moment of the game said in words (a
//! decision, an attack's dice, a card, an initiative roll), and each side's luck with the net luck of the game.
//!
//! A moment is what a reader would call one thing that happened: a decision (an activation and its order), or an
//! attack's dice together (the to-hit roll and the hit-result roll that follows a hit), or a card, or an initiative
//! roll. Its swing is the first side's chances after it less before it, as the review's own values say: whichever
//! evaluator judged them.

use super::explain::{capitalised, named_unit, side_and_name, target_words};
use super::{Label, ReviewStep, SideSummary};
use pacw_engine::{Battle, ChanceKind, Event, HitResult, Side, Square, narrate};
use serde::Serialize;

/// How many swings the review tells.
pub const SWINGS: usize = 3;

/// A swing smaller than this (a tenth of a point of winning chances) is no swing at all.
const NOTHING: f32 = 0.001;

/// What kind of moment a swing is.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum MomentKind {
    /// A side's decision (or its resignation).
    Decision,
    /// An attack's dice: the to-hit roll and, after a hit, the hit-result roll.
    Dice,
    /// A card drawn.
    Card,
    /// An initiative die.
    Initiative,
    /// A shaken unit's rally die (a variant's `[rally]`).
    Rally,
}

/// One of the biggest swings of the winning chances, in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Swing {
    /// Its first step (an index into the review's steps).
    pub step: usize,
    /// Its last step: the same for a decision, the hit-result roll for an attack's dice.
    pub last: usize,
    /// The turn it happened in.
    pub turn: u8,
    /// What it is.
    pub kind: MomentKind,
    /// Who decided, whose attack's dice or initiative die (none for a card).
    pub side: Option<Side>,
    /// The first side's expected score before it.
    pub before: f32,
    /// After it.
    pub after: f32,
    /// The decisions made once it is done: the replay's position that shows it.
    pub decision: usize,
    /// In words, with the chances of the side it favoured: "Turn 4: the Confederate 3rd Brigade's fire at … hit and
    /// destroyed it (…): Confederate chances 67% → 84%".
    pub text: String,
}

/// Why the game was decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Decided {
    /// The [`SWINGS`] biggest swings of the winning chances (fewer when the game had fewer moments that moved
    /// them), the biggest first.
    pub swings: Vec<Swing>,
    /// Each side's luck and the net luck of the game in a sentence: who was luckier, and by how much.
    pub luck: String,
}

/// A moment of the game, as the walk along it finds it.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Moment {
    first: usize,
    last: usize,
    kind: MomentKind,
    side: Option<Side>,
    what: What,
}

#[derive(Clone, Debug, PartialEq)]
enum What {
    /// Words written at once: "the Union 3rd Brigade (e2) moved to e3, facing N".
    Words(String),
    /// An attack's dice, written once they are all rolled.
    Dice(Dice),
}

/// An attack's dice and what they did.
#[derive(Clone, Debug, PartialEq)]
struct Dice {
    /// "the Union 3rd Brigade's charge at the Confederate 3rd Brigade (regular infantry) at e4".
    attack: String,
    needed: u8,
    to_hit: Option<(u8, bool)>,
    /// The hit-result roll, the target's strength and the result.
    result: Option<(u8, u8, HitResult)>,
    retreated: Option<Square>,
    blocked: bool,
    destroyed: bool,
}

impl Dice {
    fn words(&self) -> String {
        let Some((roll, hit)) = self.to_hit else { return format!("{} was made", self.attack) };
        let to_hit = format!("a {roll} to hit, needing {}+", self.needed);
        if !hit {
            return format!("{} missed ({to_hit}; R6.4)", self.attack);
        }
        let Some((roll, strength, result)) = self.result else {
            return format!("{} hit ({to_hit}; R6.4)", self.attack);
        };
        let (outcome, rule) = match result {
            HitResult::NoEffect => ("had no effect".to_string(), ""),
            HitResult::Shaken => ("shook it".to_string(), ""),
            HitResult::Retreat | HitResult::Destroyed if self.blocked && self.destroyed => {
                ("destroyed it, with nowhere to retreat".to_string(), ", R7.4")
            }
            HitResult::Retreat if self.blocked => ("shook it; with nowhere to retreat, it stood".to_string(), ", R7.4"),
            HitResult::Retreat => {
                (self.retreated.map_or("drove it back".to_string(), |to| format!("drove it back to {to}")), ", R7.3")
            }
            HitResult::Destroyed => ("destroyed it".to_string(), ""),
        };
        let cmp = if roll <= strength { "≤" } else { ">" };
        format!(
            "{} hit and {outcome} ({to_hit}; then a {roll} {cmp} strength {strength}; R6.4, R7.1{rule})",
            self.attack
        )
    }
}

/// The moments of a game, gathered step by step as the review walks it.
#[derive(Clone, Debug, Default, PartialEq)]
pub(super) struct Moments(Vec<Moment>);

impl Moments {
    /// A decision at step `index`: `words` say what it did, in the past ("the Union 3rd Brigade (e2) moved to e3,
    /// facing N").
    pub fn decision(&mut self, index: usize, side: Side, words: String) {
        self.0.push(Moment {
            first: index,
            last: index,
            kind: MomentKind::Decision,
            side: Some(side),
            what: What::Words(words),
        });
    }

    /// A chance outcome at step `index`: `before` is the battle as it stood before it (the attack pending, the
    /// chance to come), `kind` what chance it was, `events` what it caused. An attack's hit-result roll joins the
    /// to-hit roll before it.
    pub fn chance(&mut self, index: usize, before: &Battle, kind: ChanceKind, events: &[Event]) {
        match kind {
            ChanceKind::ToHit => {
                let Some((attacker, target, needed)) = before.pending_attack() else { return };
                // An attack on an adjacent unit is a charge (R6.1).
                let charge = before.unit(attacker).at.distance(before.unit(target).at) == 1;
                let attack = format!(
                    "the {}'s {} at {}",
                    side_and_name(before, attacker),
                    if charge { "charge" } else { "fire" },
                    target_words(before, target)
                );
                let mut dice = Dice {
                    attack,
                    needed,
                    to_hit: None,
                    result: None,
                    retreated: None,
                    blocked: false,
                    destroyed: false,
                };
                dice.read(events);
                let side = Some(before.info(attacker).side);
                self.0.push(Moment { first: index, last: index, kind: MomentKind::Dice, side, what: What::Dice(dice) });
            }
            ChanceKind::HitResult => {
                if let Some(Moment { last, what: What::Dice(dice), .. }) = self.0.last_mut()
                    && *last + 1 == index
                {
                    dice.read(events);
                    *last = index;
                }
            }
            ChanceKind::Card => {
                let s = before.scenario();
                let words = events.iter().find_map(|e| match *e {
                    Event::CardDrawn { card: pacw_engine::Card::Joker, .. } => {
                        Some("the Joker was drawn and the turn ended (R3.6)".to_string())
                    }
                    Event::CardDrawn { card, .. } => {
                        Some(format!("the card {} was drawn (R3.4)", narrate::card(s, card)))
                    }
                    _ => None,
                });
                if let Some(words) = words {
                    self.0.push(Moment {
                        first: index,
                        last: index,
                        kind: MomentKind::Card,
                        side: None,
                        what: What::Words(words),
                    });
                }
            }
            ChanceKind::Rally => {
                let Some((unit, _)) = before.pending_rally() else { return };
                let words = events.iter().find_map(|e| match *e {
                    Event::RallyRolled { roll, rallied, .. } => Some(format!(
                        "the {} rolled {roll} to rally and {}",
                        side_and_name(before, unit),
                        if rallied { "rallied" } else { "stayed shaken" }
                    )),
                    _ => None,
                });
                if let Some(words) = words {
                    let side = Some(before.info(unit).side);
                    self.0.push(Moment {
                        first: index,
                        last: index,
                        kind: MomentKind::Rally,
                        side,
                        what: What::Words(words),
                    });
                }
            }
            ChanceKind::Initiative(side) => {
                let roll = events.iter().find_map(|e| match *e {
                    Event::InitiativeRolled { roll, .. } => Some(roll),
                    _ => None,
                });
                let name = &before.scenario().side(side).name;
                let words = match roll {
                    Some(roll) => format!("the {name} rolled {roll} for the initiative (R3.7)"),
                    None => format!("the {name}'s initiative die was rolled (R3.7)"),
                };
                self.0.push(Moment {
                    first: index,
                    last: index,
                    kind: MomentKind::Initiative,
                    side: Some(side),
                    what: What::Words(words),
                });
            }
        }
    }
}

impl Dice {
    /// Takes what the events of one roll say.
    fn read(&mut self, events: &[Event]) {
        for e in events {
            match *e {
                Event::ToHitRolled { roll, hit } => self.to_hit = Some((roll, hit)),
                Event::HitResultRolled { roll, strength, result, .. } => self.result = Some((roll, strength, result)),
                Event::Retreated { to, .. } => self.retreated = Some(to),
                Event::RetreatBlocked { .. } => self.blocked = true,
                Event::Destroyed { .. } => self.destroyed = true,
                _ => {}
            }
        }
    }
}

/// The past-tense words of a decision at the position `b` before it, or `fallback` (the step's own text) when the
/// engine has no phrase for it.
pub(super) fn decision_words(b: &Battle, plan: &[pacw_engine::Action], fallback: &str) -> String {
    match super::explain::phrase(b, plan) {
        Some(p) => format!("{} {}", p.named, p.does(super::explain::Form::Past)),
        None => match plan.first() {
            Some(pacw_engine::Action::Activate(unit)) if unit.index() < b.scenario().units.len() => {
                format!("{}: {fallback}", named_unit(b, *unit))
            }
            _ => fallback.to_string(),
        },
    }
}

/// Chances before and after in the words of a side: "67% → 84%" (to a tenth where whole numbers would hide the
/// change).
fn chances(before: f32, after: f32) -> String {
    let whole = |p: f32| format!("{:.0}%", 100.0 * p);
    if whole(before) == whole(after) {
        format!("{:.1}% → {:.1}%", 100.0 * before, 100.0 * after)
    } else {
        format!("{} → {}", whole(before), whole(after))
    }
}

/// The size of a change of chances as [`chances`] words it, in tenths of a point.
fn shown_size(before: f32, after: f32) -> i32 {
    let whole = |p: f32| (100.0 * p).round() as i32;
    if whole(before) == whole(after) {
        ((1000.0 * after).round() - (1000.0 * before).round()).abs() as i32
    } else {
        10 * (whole(after) - whole(before)).abs()
    }
}

/// Points of winning chances with their sign: "+15.8", "−9.7" (a true minus sign), "0.0".
pub(super) fn signed(points: f32) -> String {
    let tenths = (1000.0 * points).round() / 10.0;
    if tenths == 0.0 {
        "0.0".to_string()
    } else if tenths > 0.0 {
        format!("+{tenths:.1}")
    } else {
        format!("−{:.1}", -tenths)
    }
}

/// Why the game was decided: the biggest swings among `moments`, the biggest first (the earlier of two as big),
/// and the luck in a sentence.
pub(super) fn decided(
    steps: &[ReviewStep],
    moments: &Moments,
    sides: &[String; 2],
    summary: &[SideSummary; 2],
) -> Decided {
    let change = |m: &Moment| match (steps.get(m.first), steps.get(m.last)) {
        (Some(first), Some(last)) => last.after - first.before,
        _ => 0.0,
    };
    let mut ranked: Vec<&Moment> = moments.0.iter().filter(|m| change(m).abs() >= NOTHING).collect();
    ranked.sort_by(|a, b| change(b).abs().total_cmp(&change(a).abs()).then(a.first.cmp(&b.first)));
    let mut swings: Vec<(i32, Swing)> = ranked
        .into_iter()
        .take(SWINGS)
        .filter_map(|m| {
            let (first, last) = (steps.get(m.first)?, steps.get(m.last)?);
            let (before, after) = (first.before, last.after);
            let what = match &m.what {
                What::Words(w) => w.clone(),
                What::Dice(d) => d.words(),
            };
            // A decision the search labelled says so, with what it gave away.
            let label = match (&first.judged, m.kind) {
                (Some(j), MomentKind::Decision) => j.label.map_or(String::new(), |l| {
                    format!(
                        " ({} {}, −{:.1} points)",
                        if l == Label::Inaccuracy { "an" } else { "a" },
                        l.name(),
                        100.0 * j.loss
                    )
                }),
                _ => String::new(),
            };
            let favoured = if after >= before { Side::A } else { Side::B };
            let (b, a) = if favoured == Side::A { (before, after) } else { (1.0 - before, 1.0 - after) };
            let swing = Swing {
                step: m.first,
                last: m.last,
                turn: first.turn,
                kind: m.kind,
                side: m.side,
                before,
                after,
                decision: last.decision,
                text: format!(
                    "Turn {}: {what}{label}: {} chances {}",
                    first.turn,
                    sides[favoured.index()],
                    chances(b, a)
                ),
            };
            Some((shown_size(b, a), swing))
        })
        .collect();
    // Listed biggest first as the words show them: two swings of nearly the same size could read in the wrong order
    // once rounded to whole percents. The sort is stable, so the bigger by the unrounded change stays first.
    swings.sort_by_key(|(shown, _)| std::cmp::Reverse(*shown));
    Decided { swings: swings.into_iter().map(|(_, swing)| swing).collect(), luck: luck_words(sides, summary) }
}

/// Each side's luck and the game's net luck in a sentence, the verdict first: "Confederate was the luckier side, by
/// 41.0 points of winning chances: luck Union −14.4, Confederate +26.6; net luck (own less the opponent's) Union
/// −41.0, Confederate +41.0."
pub(super) fn luck_words(sides: &[String; 2], summary: &[SideSummary; 2]) -> String {
    let [a, b] = summary;
    let verdict = if signed(a.net_luck) == "0.0" {
        "neither side was the luckier".to_string()
    } else {
        let luckier = if a.net_luck > 0.0 { 0 } else { 1 };
        format!("{} was the luckier side, by {:.1} points of winning chances", sides[luckier], 100.0 * a.net_luck.abs())
    };
    capitalised(&format!(
        "{verdict}: luck {} {}, {} {}; net luck (own less the opponent's) {} {}, {} {}.",
        sides[0],
        signed(a.luck),
        sides[1],
        signed(b.luck),
        sides[0],
        signed(a.net_luck),
        sides[1],
        signed(b.net_luck)
    ))
}
