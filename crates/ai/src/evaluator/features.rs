//! What the evaluator reads of a position: a few numbers, each the first side's share less the second's, so that
//! swapping the sides negates every one (and the fitted model, which has no constant term, says 1 − p for the
//! swapped position). They are scaled to the battle (its starting strength, its points at stake, the time left),
//! so that one set of weights judges a skirmish of six units and Antietam's 128 alike.
//!
//! Everything is read from the battle as it stands: never the seed, never a future die.

use pacw_engine::Aspect;
use pacw_engine::MAX_UNITS;
use pacw_engine::odds::needed;
use pacw_engine::{
    Arm, Battle, BlockedRetreat, Card, ChanceKind, Dir, Initiative, ScenarioRef, Side, SightLines, Square, ToAct,
    UnitId,
};

/// How many numbers describe a position.
pub const FEATURES: usize = 20;

/// The features' names, in order: the weights file lists them, and a file for other features is refused.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "points",
    "points_by_time_left",
    "points_in_last_turn",
    "objectives_held",
    "objectives_nearer",
    "objectives_nearer_by_time_left",
    "exhaustion_closeness",
    "exhaustion_margin",
    "strength",
    "strength_by_time_left",
    "shaken_strength",
    "units",
    "kills_threatened",
    "kills_threatened_by_margin",
    "hits_threatened",
    "kills_threatened_by_tempo",
    "hits_threatened_by_tempo",
    "tempo",
    "activations_left",
    "cover",
];

/// The features of a position, in the order of [`FEATURE_NAMES`].
pub type Features = [f32; FEATURES];

/// A unit on the board as the features see it.
#[derive(Copy, Clone)]
struct Seen {
    id: UnitId,
    at: Square,
    facing: Dir,
    arm: Arm,
    side: usize,
    strength: u8,
    shaken: bool,
    cover: bool,
    elevation: u8,
}

impl Seen {
    const NONE: Seen = Seen {
        id: UnitId(0),
        at: Square::new(0, 0),
        facing: Dir::N,
        arm: Arm::Infantry,
        side: 0,
        strength: 0,
        shaken: false,
        cover: false,
        elevation: 0,
    };
}

/// What one unit threatens another with on its next activation: the chance to hit it and to destroy it.
#[derive(Copy, Clone, Default)]
struct Threat {
    hit: f32,
    kill: f32,
}

/// The features of `b` (see [`FEATURE_NAMES`]).
pub fn features<S: ScenarioRef>(b: &Battle<S>) -> Features {
    let scenario = b.scenario_ref();
    let options = b.options();
    let map = &scenario.map;

    let mut units = [Seen::NONE; MAX_UNITS];
    let mut n = 0;
    for id in b.alive_units() {
        let (info, state) = (b.info(id), b.unit(id));
        units[n] = Seen {
            id,
            at: state.at,
            facing: state.facing,
            arm: info.arm,
            side: info.side.index(),
            strength: b.strength(id),
            shaken: state.shaken,
            cover: map.gives_cover(state.at),
            elevation: map.elevation(state.at),
        };
        n += 1;
    }
    let units = &units[..n];

    // The battle's own scales: its starting strength and units, and its points at stake.
    let start_units = scenario.units.len().max(1) as f32;
    let start_strength =
        scenario.units.iter().map(|u| options.strength_of(u.arm, u.quality) as f32).sum::<f32>().max(1.0);
    let objective_points: f32 = scenario.objectives.iter().map(|o| o.points as f32).sum();
    let at_stake = (objective_points + scenario.points_per_destroyed as f32 * start_units / 2.0).max(1.0);

    let time_left = time_left(b);
    let by_time = 1.0 / (time_left + 0.25).sqrt();

    // Points as they would be counted now (R8.2).
    let points = b.points();
    let margin = points[0] as f32 - points[1] as f32;

    // Objectives: who holds each, and whose steady units are nearer.
    let (mut held, mut nearer) = (0.0f32, 0.0f32);
    for (i, o) in scenario.objectives.iter().enumerate() {
        let worth = b.objective_points_at_end(i) as f32; // a timed change to come counted (scenario events)
        held += worth * sign(b.objective_holder(i));
        let mut closest = [8u8; 2];
        for u in units.iter().filter(|u| !u.shaken) {
            closest[u.side] = closest[u.side].min(u.at.distance(o.at));
        }
        nearer += worth * (closest[1] as f32 - closest[0] as f32).clamp(-3.0, 3.0) / 3.0;
    }

    // Losses: each side's margin to exhaustion (R8.1), strength, shaken strength, units, cover.
    let margin_to_exhaustion = Side::BOTH.map(|s| b.exhaustion_point(s).saturating_sub(b.destroyed(s)).max(1) as f32);
    let (mut strength, mut shaken, mut count, mut covered) = ([0.0f32; 2], [0.0f32; 2], [0.0f32; 2], [0.0f32; 2]);
    for u in units {
        strength[u.side] += u.strength as f32;
        count[u.side] += 1.0;
        if u.shaken {
            shaken[u.side] += u.strength as f32;
        }
        if u.cover {
            covered[u.side] += 1.0;
        }
    }

    // Threats: for each unit, the best chance an enemy has to hit it, and to destroy it, on its next activation.
    let mut threatened = [Threat::default(); MAX_UNITS];
    let sight = b.sight_lines();
    for (ti, t) in units.iter().enumerate() {
        for e in units.iter().filter(|e| e.side != t.side) {
            let threat = threat(b, &sight, e, t);
            let best = &mut threatened[ti];
            best.hit = best.hit.max(threat.hit);
            best.kill = best.kill.max(threat.kill);
        }
    }
    // What each side threatens: the sums over the other side's units.
    let (mut kills, mut hits) = ([0.0f32; 2], [0.0f32; 2]);
    for (t, threat) in units.iter().zip(&threatened) {
        let attacker = 1 - t.side;
        kills[attacker] += threat.kill;
        hits[attacker] += threat.hit;
    }

    let next = next_to_act(b);
    let activations = activations_left(b, &count);

    let fraction = |x: [f32; 2]| {
        let f = |s: usize| if count[s] > 0.0 { x[s] / count[s] } else { 0.0 };
        f(0) - f(1)
    };
    [
        margin / at_stake,
        margin / at_stake * by_time,
        margin.clamp(-3.0, 3.0) / 3.0 * (1.0 - time_left).max(0.0),
        held / at_stake,
        nearer / at_stake,
        nearer / at_stake * by_time,
        1.0 / margin_to_exhaustion[1] - 1.0 / margin_to_exhaustion[0],
        (margin_to_exhaustion[0] - margin_to_exhaustion[1]) / (margin_to_exhaustion[0] + margin_to_exhaustion[1]),
        (strength[0] - strength[1]) / start_strength,
        (strength[0] - strength[1]) / start_strength * time_left / (time_left + 1.0),
        (shaken[0] - shaken[1]) / start_strength,
        (count[0] - count[1]) / start_units,
        kills[0] - kills[1],
        kills[0] / margin_to_exhaustion[1] - kills[1] / margin_to_exhaustion[0],
        hits[0] - hits[1],
        next * kills[0] - (1.0 - next) * kills[1],
        next * hits[0] - (1.0 - next) * hits[1],
        2.0 * next - 1.0,
        (activations[0] - activations[1]) / ((count[0] + count[1]) / 2.0).max(1.0),
        fraction(covered),
    ]
}

/// +1 for the first side, −1 for the second, 0 for nobody.
fn sign(side: Option<Side>) -> f32 {
    match side {
        Some(Side::A) => 1.0,
        Some(Side::B) => -1.0,
        None => 0.0,
    }
}

/// Turns left, counting the part of this one still to play: under cards the Joker is equally likely anywhere among
/// the cards left, so (n − 1)/2 of them come before it, of a full deck's six (R3.2, R3.6); under the other
/// initiative systems, the share of the units not yet activated this turn (R3.7).
pub(crate) fn time_left<S: ScenarioRef>(b: &Battle<S>) -> f32 {
    if b.result().is_some() {
        return 0.0;
    }
    let later_turns = b.turn_limit().saturating_sub(b.turn()) as f32;
    let this_turn = match b.options().initiative {
        Initiative::Cards => b.deck().len().saturating_sub(1) as f32 / 12.0,
        Initiative::Igougo | Initiative::Alternate => {
            let alive = b.alive_units().count().max(1);
            b.alive_units().filter(|&u| !b.activated_this_turn(u)).count() as f32 / alive as f32
        }
    };
    later_turns + this_turn.min(1.0)
}

/// The chance that the first side makes the next activation: certain for the side acting now (or whose attack is
/// being resolved, while its card has activations left), else by the cards left in the deck (the Joker's turn
/// after it even).
pub(crate) fn next_to_act<S: ScenarioRef>(b: &Battle<S>) -> f32 {
    let first = |side: Side| if side == Side::A { 1.0 } else { 0.0 };
    match b.to_act() {
        ToAct::Side(side) => first(side),
        ToAct::Chance(ChanceKind::Rally | ChanceKind::ToHit | ChanceKind::HitResult)
            if b.activations_left() > 0 || b.options().initiative != Initiative::Cards =>
        {
            first(b.active_side())
        }
        ToAct::Chance(ChanceKind::Initiative(_)) | ToAct::Over(_) => 0.5,
        ToAct::Chance(_) => {
            let cards = b.deck().len().max(1) as f32;
            let mut first_side = 0.0;
            for (card, copies) in b.deck().cards() {
                first_side += copies as f32
                    * match card {
                        Card::Side { side, .. } => first(side),
                        Card::Joker => 0.5,
                    };
            }
            first_side / cards
        }
    }
}

/// Each side's activations expected in the rest of this turn: the card in play's, and half of its cards left in the
/// deck (each comes before the Joker half the time), never more a card than it has units; under the other initiative
/// systems, its units not yet activated this turn.
pub(crate) fn activations_left<S: ScenarioRef>(b: &Battle<S>, units: &[f32; 2]) -> [f32; 2] {
    let mut left = [0.0f32; 2];
    match b.options().initiative {
        Initiative::Cards => {
            if b.result().is_none() {
                left[b.active_side().index()] += b.activations_left() as f32;
            }
            if b.deck().has_joker() {
                for (card, copies) in b.deck().cards() {
                    if let Card::Side { side, value } = card {
                        left[side.index()] += 0.5 * copies as f32 * (value as f32).min(units[side.index()]);
                    }
                }
            }
        }
        Initiative::Igougo | Initiative::Alternate => {
            // A side that has passed activates no more this turn, whatever units it kept back.
            let waiting = |u| !b.activated_this_turn(u) && !b.is_done_this_turn(b.info(u).side);
            for u in b.alive_units().filter(|&u| waiting(u)) {
                left[b.info(u).side.index()] += 1.0;
            }
        }
    }
    left
}

/// What `e` threatens `t` with on its next activation, from the exact arithmetic of R6.4 and R7.1: a Fire order
/// where it stands when `t` is in range, in its front arc and in sight (R6.2), else (foot and horse, R4.2) a Move &
/// Fire from a square closer, its sight judged from where it stands. A retreat with nowhere to go destroys (R7.4).
/// Fences and the ranging bonus are left out: they cost more than they tell.
fn threat<S: ScenarioRef>(b: &Battle<S>, sight: &SightLines<S>, e: &Seen, t: &Seen) -> Threat {
    let options = b.options();
    let range = b.range(e.id);
    let distance = e.at.distance(t.at);
    let guns = e.arm == Arm::Artillery;
    if distance > range + !guns as u8 || (distance > 1 && sight.check(e.id, e.at, t.at).is_err()) {
        return Threat::default();
    }
    let mut modifiers = 0i8;
    let charge = if distance <= range && e.at.front_arc_holds(e.facing, t.at) {
        if !guns {
            modifiers += options.modifier.not_moved;
        }
        if guns && distance == 1 {
            modifiers += options.modifier.canister;
        }
        if distance == 1 && matches!(t.at.aspect_of(t.facing, e.at), Some(Aspect::Flank | Aspect::Rear)) {
            modifiers += options.modifier.flank_rear;
        }
        distance == 1
    } else if !guns {
        distance <= 2
    } else {
        return Threat::default();
    };
    if t.cover || (charge && t.elevation > e.elevation) {
        modifiers += options.modifier.cover;
    }
    let hit = (7 - needed(options.to_hit, modifiers)) as f32 / 6.0;
    let low = t.strength.min(6) as f32 / 6.0;
    let severe = charge || t.shaken;
    // A roll over its strength destroys a unit charged or already shaken, and a retreat with nowhere to go does
    // too (R7.1, R7.4).
    let blocked = options.blocked_retreat == BlockedRetreat::Destroyed && !b.can_retreat(t.id, e.id);
    let destroyed = match (severe, blocked) {
        (true, true) => 1.0,
        (true, false) => 1.0 - low,
        (false, true) => 1.0 - low,
        (false, false) => 0.0,
    };
    Threat { hit, kill: hit * destroyed }
}
