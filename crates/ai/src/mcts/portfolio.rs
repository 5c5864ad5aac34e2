//! Portfolio Greedy Search (Churchill & Buro): the searching side's assignment of scripts to its units improved one
//! unit at a time, each unit's scripts compared in play-outs on common worlds where its side plays by the assignment
//! ([`MctsConfig::portfolio_worlds`]).

use super::worlds::play_rounds;
use super::{MctsConfig, Playout};
use crate::clock::Instant;
use crate::greedy::GreedyPlayer;
use crate::greedy::scripts::{Assignment, Script};
use pacw_engine::{Battle, Side, ToAct, UnitId};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// `assignment` improved for the side to act in `root`: for each of `units` in turn, every other script is played
/// out against the unit's present one on common worlds (the side's other units by their scripts, the enemy as greedy
/// plays), and the unit takes a script that beats its present one by the search's confidence. Returns the improved
/// assignment and the worlds played.
pub(super) fn improve(
    root: &Battle,
    config: &MctsConfig,
    seed: u64,
    assignment: Assignment,
    units: &[UnitId],
) -> (Assignment, usize) {
    let ToAct::Side(side) = root.to_act() else { return (assignment, 0) };
    let playout = Playout::new(root, config);
    let side_a = side == Side::A;
    let started = Instant::now();
    let deadline = config.time_limit.map(|limit| started + limit);
    let (mut assignment, mut worlds) = (assignment, 0);
    for (i, &unit) in units.iter().enumerate() {
        let present = assignment.script(unit);
        let others = Script::ALL.iter().filter(|&&s| s != present).map(|&s| assignment.with(unit, s));
        let trials: Vec<Assignment> = std::iter::once(assignment.clone()).chain(others).collect();
        let unit_seed = seed ^ (i as u64 + 1).wrapping_mul(0xd1b5_4a32_d192_ed03);
        let play_world = |w: usize, values: &mut [i64], racing: &[bool]| {
            let world = unit_seed ^ (w as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15);
            for ((value, trial), _) in values.iter_mut().zip(&trials).zip(racing).filter(|(_, racing)| **racing) {
                let mut policy = GreedyPlayer::with_weights(world, playout.weights).with_assignment(trial.clone());
                let mut rng = ChaCha8Rng::seed_from_u64(world);
                let v =
                    playout.value(root.clone(), &mut policy, |b| b.sample_chance(&mut rng).expect("chance is pending"));
                *value = (v * 1e6).round() as i64;
            }
        };
        let playouts = config.portfolio_worlds * trials.len();
        let tally = play_rounds(playouts, trials.len(), config, side_a, started, deadline, &play_world);
        worlds += tally.worlds;
        assignment = trials[tally.choice(side_a, config.confidence)].clone();
        if deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
    }
    (assignment, worlds)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mcts::tests::first_activation;

    fn improved(config: MctsConfig, seed: u64) -> (Assignment, usize) {
        let battle = first_activation();
        let ToAct::Side(side) = battle.to_act() else { unreachable!() };
        let units: Vec<UnitId> = battle.alive_units().filter(|&u| battle.info(u).side == side).collect();
        improve(&battle, &config, seed, Assignment::greedy(side, battle.scenario().units.len()), &units)
    }

    #[test]
    fn the_assignment_is_improved_the_same_whatever_the_thread_count() {
        let config = |threads| MctsConfig { portfolio_worlds: 100, confidence: 0.0, threads, ..Default::default() };
        let (on_one, worlds) = improved(config(1), 3);
        assert!(worlds > 0, "scripts were played out");
        assert!(!on_one.is_greedy(), "without a bar to clear, some unit takes the script that measured best");
        assert_eq!(improved(config(2), 3), (on_one, worlds));
    }

    #[test]
    fn a_unit_keeps_its_script_unless_another_beats_it_by_the_confidence() {
        let config = MctsConfig { portfolio_worlds: 100, confidence: 10.0, threads: 1, ..Default::default() };
        assert!(improved(config, 3).0.is_greedy(), "no script beats greedy's own by ten standard errors");
    }
}
