//! What the value network reads of a position: one row of numbers for every unit on the board, each seen from its
//! own side (so that a unit's row does not change when the sides are swapped), and a few numbers about the game as a
//! whole for each side, again from that side's point of view. Nothing is summed over the board here: the network
//! pools the units itself, so that a skirmish of six units and Antietam's 128 go through the same weights.
//!
//! Everything is read from the battle as it stands: never the seed, never a future die.

use crate::evaluator::{activations_left, next_to_act, time_left};
use pacw_engine::odds::needed;
use pacw_engine::{
    Arm, Aspect, Battle, BlockedRetreat, Dir, MAX_UNITS, Quality, ScenarioRef, Side, SightLines, Square, ToAct, UnitId,
};

/// How many numbers describe one unit.
pub const UNIT_INPUTS: usize = 25;

/// The names of a unit's numbers, in order (a weights file lists them; a file for others is refused).
pub const UNIT_INPUT_NAMES: [&str; UNIT_INPUTS] = [
    "infantry",
    "cavalry",
    "artillery",
    "green",
    "veteran",
    "strength",
    "shaken",
    "activated_this_turn",
    "ready_on_this_card",
    "cover",
    "elevation",
    "nearest_enemy_closeness",
    "nearest_enemy_in_front_arc",
    "in_nearest_enemy_front_arc",
    "enemy_at_flank_or_rear",
    "at_enemy_flank_or_rear",
    "objective_closeness",
    "on_objective",
    "hit_threatened",
    "kill_threatened",
    "hit_threatening",
    "kill_threatening",
    "retreat_blocked",
    "enemies_threatening",
    "present",
];

/// How many numbers describe the game for one side.
pub const GLOBAL_INPUTS: usize = 11;

/// The names of a side's game numbers, in order.
pub const GLOBAL_INPUT_NAMES: [&str; GLOBAL_INPUTS] = [
    "points_margin",
    "points_margin_by_time_left",
    "points_margin_in_last_turn",
    "objectives_held",
    "exhaustion_closeness",
    "acts_next",
    "acts_now",
    "own_activations_left",
    "enemy_activations_left",
    "time_left",
    "urgency",
];

/// A position as the network reads it: each side's units' rows and game numbers, and the scale the units are
/// pooled by. Reused from position to position (its buffers keep their room).
#[derive(Clone, Debug, Default)]
pub struct Encoding {
    /// Each side's units, one row of [`UNIT_INPUTS`] numbers after another.
    pub units: [Vec<f32>; 2],
    /// Each side's game numbers, from its own point of view.
    pub global: [[f32; GLOBAL_INPUTS]; 2],
    /// What a side's pooled units are divided by: half the battle's starting units.
    pub scale: f32,
}

impl Encoding {
    /// How many units of `side` the encoding holds.
    pub fn units_of(&self, side: usize) -> usize {
        self.units[side].len() / UNIT_INPUTS
    }

    /// The encoding with the sides swapped: what the network reads of the mirror position.
    pub fn swapped(&self) -> Encoding {
        Encoding {
            units: [self.units[1].clone(), self.units[0].clone()],
            global: [self.global[1], self.global[0]],
            scale: self.scale,
        }
    }
}

/// A unit on the board as the encoding sees it.
#[derive(Copy, Clone)]
struct Seen {
    id: UnitId,
    at: Square,
    facing: Dir,
    arm: Arm,
    side: usize,
    strength: u8,
    range: u8,
    shaken: bool,
    cover: bool,
    elevation: u8,
}

/// What one unit threatens another with on its next activation: the chance to hit it and to destroy it.
#[derive(Copy, Clone, Default, PartialEq, Debug)]
struct Threat {
    hit: f32,
    kill: f32,
}

impl Threat {
    fn max(self, other: Threat) -> Threat {
        Threat { hit: self.hit.max(other.hit), kill: self.kill.max(other.kill) }
    }
}

/// Encodes `b` into `out` (see [`UNIT_INPUT_NAMES`] and [`GLOBAL_INPUT_NAMES`]).
pub fn encode<S: ScenarioRef>(b: &Battle<S>, out: &mut Encoding) {
    let scenario = b.scenario_ref();
    let map = &scenario.map;
    let options = b.options();

    let mut seen = [None::<Seen>; MAX_UNITS];
    let mut n = 0;
    for id in b.alive_units() {
        let (info, state) = (b.info(id), b.unit(id));
        seen[n] = Some(Seen {
            id,
            at: state.at,
            facing: state.facing,
            arm: info.arm,
            side: info.side.index(),
            strength: b.strength(id),
            range: b.range(id),
            shaken: state.shaken,
            cover: map.gives_cover(state.at),
            elevation: map.elevation(state.at),
        });
        n += 1;
    }
    let units: Vec<Seen> = seen[..n].iter().flatten().copied().collect();

    // Every pair of enemies: who threatens whom, who is nearest to whom, and who stands at whose flank.
    // On the stack: a position is encoded at every node of a search and every step of a review.
    let sight = b.sight_lines();
    let mut threatened = [Threat::default(); MAX_UNITS];
    let mut threatening = [Threat::default(); MAX_UNITS];
    let mut threats = [0u8; MAX_UNITS];
    let mut worst = [None::<usize>; MAX_UNITS];
    let mut nearest = [None::<(u8, usize)>; MAX_UNITS];
    let mut flanked = [false; MAX_UNITS];
    let mut flanking = [false; MAX_UNITS];
    let mut of_side = [[0u8; MAX_UNITS]; 2];
    let mut on_side = [0usize; 2];
    for (i, u) in units.iter().enumerate() {
        of_side[u.side][on_side[u.side]] = i as u8;
        on_side[u.side] += 1;
    }
    for (ti, t) in units.iter().enumerate() {
        let enemy = 1 - t.side;
        for &ei in &of_side[enemy][..on_side[enemy]] {
            let ei = ei as usize;
            let e = &units[ei];
            let d = e.at.distance(t.at);
            if nearest[ti].is_none_or(|(nd, _)| d < nd) {
                nearest[ti] = Some((d, ei));
            }
            if d == 1 {
                flanked[ti] |= matches!(t.at.aspect_of(t.facing, e.at), Some(Aspect::Flank | Aspect::Rear));
                flanking[ti] |= matches!(e.at.aspect_of(e.facing, t.at), Some(Aspect::Flank | Aspect::Rear));
            }
            let threat = threat(b, &sight, e, t);
            if threat.hit > 0.0 {
                threats[ti] += 1;
                if threat.kill > threatened[ti].kill || worst[ti].is_none() {
                    worst[ti] = Some(ei);
                }
            }
            threatened[ti] = threatened[ti].max(threat);
            threatening[ei] = threatening[ei].max(threat);
        }
    }

    let active = b.active_side().index();
    let card_open = b.activations_left() > 0 && b.result().is_none();
    for rows in &mut out.units {
        rows.clear();
    }
    for (i, u) in units.iter().enumerate() {
        let info = b.info(u.id);
        let mut row = [0.0f32; UNIT_INPUTS];
        row[match u.arm {
            Arm::Infantry => 0,
            Arm::Cavalry => 1,
            Arm::Artillery => 2,
        }] = 1.0;
        row[3] = (info.quality == Quality::Green) as u8 as f32;
        row[4] = (info.quality == Quality::Veteran) as u8 as f32;
        row[5] = u.strength as f32 / 5.0;
        row[6] = u.shaken as u8 as f32;
        row[7] = b.activated_this_turn(u.id) as u8 as f32;
        row[8] = (card_open && u.side == active && !b.activated_this_card(u.id)) as u8 as f32;
        row[9] = u.cover as u8 as f32;
        row[10] = u.elevation as f32 / 3.0;
        if let Some((d, ei)) = nearest[i] {
            let e = &units[ei];
            row[11] = 1.0 / d.max(1) as f32;
            row[12] = u.at.front_arc_holds(u.facing, e.at) as u8 as f32;
            row[13] = e.at.front_arc_holds(e.facing, u.at) as u8 as f32;
        }
        row[14] = flanked[i] as u8 as f32;
        row[15] = flanking[i] as u8 as f32;
        if let Some(d) = scenario.objectives.iter().map(|o| o.at.distance(u.at)).min() {
            row[16] = 1.0 / (1.0 + d as f32);
            row[17] = (d == 0) as u8 as f32;
        }
        row[18] = threatened[i].hit;
        row[19] = threatened[i].kill;
        row[20] = threatening[i].hit;
        row[21] = threatening[i].kill;
        if let Some(ei) = worst[i] {
            let blocked = options.blocked_retreat == BlockedRetreat::Destroyed && !b.can_retreat(u.id, units[ei].id);
            row[22] = blocked as u8 as f32;
        }
        row[23] = threats[i] as f32 / 3.0;
        row[24] = 1.0;
        out.units[u.side].extend_from_slice(&row);
    }

    let start_units = scenario.units.len().max(2) as f32;
    out.scale = start_units / 2.0;
    out.global = global(b, &units);
}

/// Each side's game numbers, from its own point of view (see [`GLOBAL_INPUT_NAMES`]).
fn global<S: ScenarioRef>(b: &Battle<S>, units: &[Seen]) -> [[f32; GLOBAL_INPUTS]; 2] {
    let scenario = b.scenario_ref();
    let start_units = scenario.units.len().max(1) as f32;
    let objective_points: f32 = scenario.objectives.iter().map(|o| o.points as f32).sum();
    let at_stake = (objective_points + scenario.points_per_destroyed as f32 * start_units / 2.0).max(1.0);
    let time_left = time_left(b);
    let by_time = 1.0 / (time_left + 0.25).sqrt();
    let points = b.points();
    let mut count = [0.0f32; 2];
    for u in units {
        count[u.side] += 1.0;
    }
    let activations = activations_left(b, &count);
    let average_units = ((count[0] + count[1]) / 2.0).max(1.0);
    let margin_to_exhaustion = Side::BOTH.map(|s| b.exhaustion_point(s).saturating_sub(b.destroyed(s)).max(1) as f32);
    let next = next_to_act(b);
    Side::BOTH.map(|side| {
        let (own, other) = (side.index(), side.other().index());
        let margin = points[own] as f32 - points[other] as f32;
        let mut held = 0.0;
        // What each objective will score at the turn limit, a scenario's timed change to come counted: the inputs
        // are the same, their values those of the end.
        for i in 0..scenario.objectives.len() {
            held += b.objective_points_at_end(i) as f32
                * match b.objective_holder(i) {
                    Some(s) if s == side => 1.0,
                    Some(_) => -1.0,
                    None => 0.0,
                };
        }
        [
            margin / at_stake,
            margin / at_stake * by_time,
            margin.clamp(-3.0, 3.0) / 3.0 * (1.0 - time_left).max(0.0),
            held / at_stake,
            1.0 / margin_to_exhaustion[other] - 1.0 / margin_to_exhaustion[own],
            if side == Side::A { next } else { 1.0 - next },
            (b.to_act() == ToAct::Side(side)) as u8 as f32,
            activations[own] / average_units,
            activations[other] / average_units,
            (time_left / 6.0).min(2.0),
            by_time / 2.0,
        ]
    })
}

/// What `e` threatens `t` with on its next activation, from the exact arithmetic of R6.4 and R7.1: the better of a
/// Fire order where it stands (when `t` is in range, in its front arc and in sight, R6.2) and, for foot and horse
/// (R4.2), a Move & Fire after a step closer or a turn, its sight judged from where it stands. Its own facing counts
/// only through the first: a unit turned away from an enemy threatens it no more than one facing it. A retreat with
/// nowhere to go destroys (R7.4). Fences, zones of control and the ranging bonus are left out: they cost more than
/// they tell.
fn threat<S: ScenarioRef>(b: &Battle<S>, sight: &SightLines<S>, e: &Seen, t: &Seen) -> Threat {
    let options = b.options();
    let distance = e.at.distance(t.at);
    let guns = e.arm == Arm::Artillery;
    let reach = if guns { e.range } else { e.range + 1 };
    if distance > reach || (distance > 1 && sight.check(e.id, e.at, t.at).is_err()) {
        return Threat::default();
    }
    let mut best = Threat::default();
    if distance <= e.range && e.at.front_arc_holds(e.facing, t.at) {
        let mut modifiers = 0i8;
        if !guns {
            modifiers += options.modifier.not_moved;
        }
        if guns && distance == 1 {
            modifiers += options.modifier.canister;
        }
        if distance == 1 && matches!(t.at.aspect_of(t.facing, e.at), Some(Aspect::Flank | Aspect::Rear)) {
            modifiers += options.modifier.flank_rear;
        }
        best = attack(b, e, t, modifiers, distance == 1);
    }
    if !guns {
        // A step closer (or, adjacent already, a turn to face it), then the attack.
        let after = distance.saturating_sub(1).max(1);
        if after <= e.range {
            let charge = after == 1;
            let flank = charge && flank_or_rear_reachable(b, e, t);
            let modifiers = if flank { options.modifier.flank_rear } else { 0 };
            best = best.max(attack(b, e, t, modifiers, charge));
        }
    }
    best
}

/// Whether `e` can charge `t` from its flank or rear: a square beside `t` on that side that is `e`'s own or an
/// empty one a step from it.
fn flank_or_rear_reachable<S: ScenarioRef>(b: &Battle<S>, e: &Seen, t: &Seen) -> bool {
    let map = &b.scenario_ref().map;
    Dir::ALL.iter().filter_map(|&dir| t.at.step(dir, map.width(), map.height())).any(|s| {
        matches!(t.at.aspect_of(t.facing, s), Some(Aspect::Flank | Aspect::Rear))
            && (s == e.at || (e.at.is_adjacent(s) && b.unit_at(s).is_none() && map.passable(s)))
    })
}

/// The chance to hit `t` and to destroy it with an attack of these modifiers (R6.3, R6.4, R7.1, R7.4).
fn attack<S: ScenarioRef>(b: &Battle<S>, e: &Seen, t: &Seen, mut modifiers: i8, charge: bool) -> Threat {
    let options = b.options();
    if t.cover || (charge && t.elevation > e.elevation) {
        modifiers += options.modifier.cover;
    }
    let hit = (7 - needed(options.to_hit, modifiers)) as f32 / 6.0;
    let low = t.strength.min(6) as f32 / 6.0;
    let severe = charge || t.shaken;
    let blocked = options.blocked_retreat == BlockedRetreat::Destroyed && !b.can_retreat(t.id, e.id);
    let destroyed = match (severe, blocked) {
        (true, true) => 1.0,
        (true, false) | (false, true) => 1.0 - low,
        (false, false) => 0.0,
    };
    Threat { hit, kill: hit * destroyed }
}
