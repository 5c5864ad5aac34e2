//! Synchronised chance for the play-outs: in a given world, each chance event's outcome comes from a number derived
//! from the world and the event's identity (the turn, how many cards are left, the activations left on the card,
//! the attacker and its target, which die), not from how many events came before it. Two candidates played out in
//! the same world then roll the same dice for the same attack and draw the same cards even after their play-outs
//! have gone different ways, so that comparing them on common worlds measures their difference, not the dice's
//! (common random numbers, synchronised by event). Every die is still fair and every card still drawn with its
//! exact probability (R9.2): the numbers are uniform over the worlds.

use pacw_engine::{Battle, ChanceKind, Outcome, Side, ToAct};

/// The outcome of the pending chance event of `b` in `world`; `None` if none is pending.
pub(crate) fn outcome_in_world(b: &Battle, world: u64) -> Option<Outcome> {
    let ToAct::Chance(kind) = b.to_act() else { return None };
    // The units the die is about: an attack's two, or the unit rolling to rally (a variant's `[rally]`).
    let (attacker, target) = match (b.pending_attack(), b.pending_rally()) {
        (Some((a, t, _)), _) => (a.0, t.0),
        (None, Some((unit, _))) => (unit.0, unit.0),
        (None, None) => (0, 0),
    };
    let kind = match kind {
        ChanceKind::Card => 0u8,
        ChanceKind::Initiative(Side::A) => 1,
        ChanceKind::Initiative(Side::B) => 2,
        ChanceKind::ToHit => 3,
        ChanceKind::HitResult => 4,
        ChanceKind::Rally => 5,
    };
    let event = u64::from_le_bytes([b.turn(), b.deck().len(), b.activations_left(), kind, attacker, target, 0, 0]);
    let number = mix(world ^ mix(event));
    match kind {
        0 => b.deck().nth((number % b.deck().len() as u64) as u8).map(Outcome::Card),
        _ => Some(Outcome::Die((number % 6) as u8 + 1)),
    }
}

/// SplitMix64's finaliser: spreads every bit of the input over the output.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

#[cfg(test)]
mod tests {
    use super::outcome_in_world;
    use crate::{GreedyPlayer, Player};
    use pacw_engine::{Battle, ChanceKind, Game, Outcome, SHIPPED_SCENARIOS, ToAct};

    /// The first position of a shipped scenario, played on (greedy against greedy, chance from world 0) until
    /// `stop` holds.
    fn battle_until(stop: impl Fn(&Battle) -> bool) -> Battle {
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[0];
        let game = Game::new(text, file, None, 3).expect("shipped scenarios are valid");
        let mut b = Battle::new(game.battle().scenario().clone(), *game.battle().options());
        let mut greedy = GreedyPlayer::new(3);
        while !stop(&b) {
            match b.to_act() {
                ToAct::Side(_) => {
                    let action = greedy.choose(&b);
                    b.apply(action).expect("greedy chooses legal actions");
                }
                ToAct::Chance(_) => {
                    let outcome = outcome_in_world(&b, 0).expect("chance is pending");
                    b.apply_chance(outcome).expect("outcomes in a world are legal");
                }
                ToAct::Over(_) => panic!("the game ended first"),
            }
        }
        b
    }

    #[test]
    fn cards_are_drawn_with_their_exact_probabilities_over_the_worlds() {
        let b = battle_until(|b| matches!(b.to_act(), ToAct::Chance(_)) && b.pending_attack().is_none());
        let worlds = 60_000u64;
        for (card, copies) in b.deck().cards() {
            let drawn = (0..worlds).filter(|&w| outcome_in_world(&b, w) == Some(Outcome::Card(card))).count();
            let p = copies as f64 / b.deck().len() as f64;
            let sd = (worlds as f64 * p * (1.0 - p)).sqrt();
            assert!((drawn as f64 - worlds as f64 * p).abs() < 4.0 * sd, "{card}: {drawn} of {worlds}, p = {p}");
        }
    }

    #[test]
    fn dice_are_fair_and_the_same_event_rolls_the_same_die_in_a_world() {
        let b = battle_until(|b| b.pending_attack().is_some());
        let worlds = 60_000u64;
        let mut faces = [0u32; 6];
        for w in 0..worlds {
            let Some(Outcome::Die(n)) = outcome_in_world(&b, w) else { panic!("a die is pending") };
            faces[n as usize - 1] += 1;
        }
        let sd = (worlds as f64 * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
        for count in faces {
            assert!((count as f64 - worlds as f64 / 6.0).abs() < 4.0 * sd, "faces {faces:?}");
        }
        // The hit-result die of the same attack is another event: independent of the to-hit die, not a copy of it.
        let (mut hits, mut same) = (0u32, 0u32);
        for w in 0..worlds {
            let mut after = b.clone();
            let Some(Outcome::Die(to_hit)) = outcome_in_world(&after, w) else { unreachable!() };
            after.apply_chance(Outcome::Die(to_hit)).expect("a die is legal");
            if after.to_act() == ToAct::Chance(ChanceKind::HitResult) {
                hits += 1;
                same += (outcome_in_world(&after, w) == Some(Outcome::Die(to_hit))) as u32;
            }
        }
        let sd = (hits as f64 * (1.0 / 6.0) * (5.0 / 6.0)).sqrt();
        assert!(hits > 1000 && (same as f64 - hits as f64 / 6.0).abs() < 4.0 * sd, "{same} of {hits} hits");
        assert_eq!(outcome_in_world(&battle_until(|b| matches!(b.to_act(), ToAct::Side(_))), 5), None);
    }
}
