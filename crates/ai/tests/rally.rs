//! The computer players under a variant's rally roll (`[rally]`, docs/variants.md): a shaken unit's activation is
//! weighed over its die, not counted on to rally, and every player plays such games through with legal actions.

use pacw_ai::{GreedyPlayer, Player, player};
use pacw_engine::system::CombatSystem;
use pacw_engine::{Action, Battle, Event, Game, Outcome, Scenario, ToAct, UnitId};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// A rally roll needing `needed`, with every unit's roll changed by `modifier` (from −3 to 3).
fn rally_rules(needed: u8, modifier: i8) -> CombatSystem {
    let text = format!(
        "name = \"Rally {needed}+\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = {needed}\n\
         [[rally_modifiers]]\nid = \"R1\"\nvalue = {modifier}\nwhen = \"friends_adjacent >= 0\"\n"
    );
    CombatSystem::with_variant(&text, "rally.toml").expect("a valid variant")
}

/// The shipped battle `name`, under `system` if given.
fn scenario(name: &str, system: Option<CombatSystem>) -> Arc<Scenario> {
    let shipped = pacw_engine::shipped_named(pacw_engine::offered_scenarios(), name).expect("a shipped battle");
    let scenario = Scenario::parse(shipped.text, shipped.file).expect("it reads");
    Arc::new(match system {
        Some(system) => scenario.with_system(Arc::new(system)).expect("its options fit"),
        None => scenario,
    })
}

/// A step of a game: an action, or chance's outcome.
#[derive(Copy, Clone, Debug)]
enum Step {
    Act(Action),
    Chance(Outcome),
}

/// The steps of a random game of the standard rules up to the first time the side to act may activate a shaken
/// unit (no shaken unit has been activated before it, so no rally die has been rolled under any rules), and that unit.
fn to_a_shaken_activation(name: &str, seed: u64) -> Option<(Vec<Step>, UnitId)> {
    let mut b = Battle::from_scenario(scenario(name, None));
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    let mut steps = Vec::new();
    loop {
        match b.to_act() {
            ToAct::Over(_) => return None,
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut rng).expect("an outcome");
                b.apply_chance(outcome).unwrap();
                steps.push(Step::Chance(outcome));
            }
            ToAct::Side(_) => {
                let legal = b.legal_actions();
                let shaken = legal.iter().find_map(|&a| match a {
                    Action::Activate(u) if b.unit(u).shaken => Some(u),
                    _ => None,
                });
                if let Some(unit) = shaken {
                    return Some((steps, unit));
                }
                let action = legal[rng.random_range(0..legal.len())];
                b.apply(action).unwrap();
                steps.push(Step::Act(action));
            }
        }
    }
}

/// The battle after `steps` under `system`.
fn replayed(name: &str, system: Option<CombatSystem>, steps: &[Step]) -> Battle {
    let mut b = Battle::from_scenario(scenario(name, system));
    for step in steps {
        match *step {
            Step::Act(action) => b.apply(action).expect("the same game"),
            Step::Chance(outcome) => b.apply_chance(outcome).expect("the same game"),
        };
    }
    b
}

/// Greedy's value of activating `unit` in `b`.
fn activation_gain(b: &Battle, unit: UnitId) -> f32 {
    let scored = GreedyPlayer::new(1).scored(b);
    scored.into_iter().find(|(a, _)| *a == Action::Activate(unit)).expect("the activation is scored").1
}

#[test]
fn greedy_weighs_a_shaken_unit_s_activation_by_the_exact_chance_of_its_rally_die() {
    let name = "meeting-engagement";
    let (steps, unit) = (0..40).find_map(|seed| to_a_shaken_activation(name, seed)).expect("a unit is shaken");
    let standard = activation_gain(&replayed(name, None, &steps), unit);
    // A die that always rallies (2+ at +3) is the standard rule (R4.1): the same gain.
    let always = activation_gain(&replayed(name, Some(rally_rules(2, 3)), &steps), unit);
    assert!((always - standard).abs() < 2e-3, "always {always}, standard {standard}");
    // One that never does (6+ at −3): its orders as a shaken unit's, without the rally's bonus.
    let never = activation_gain(&replayed(name, Some(rally_rules(6, -3)), &steps), unit);
    assert!(never + 0.1 < always, "never {never}, always {always}");
    // 4+: exactly half of each.
    let half = replayed(name, Some(rally_rules(4, 0)), &steps);
    assert_eq!(half.rally_chance(unit), pacw_engine::Prob::new(1, 2));
    let gain = activation_gain(&half, unit);
    assert!((gain - (always + never) / 2.0).abs() < 2e-3, "4+ {gain}, always {always}, never {never}");
    // 5+: a third rallies.
    let third = activation_gain(&replayed(name, Some(rally_rules(5, 0)), &steps), unit);
    assert!((third - (always + 2.0 * never) / 3.0).abs() < 2e-3, "5+ {third}, always {always}, never {never}");
}

#[test]
fn every_player_plays_games_under_a_rally_roll_through_with_legal_actions() {
    let mut rolled = 0;
    for (i, (first, second)) in
        [("greedy", "td"), ("mcts:24", "greedy"), ("td", "mcts:24:tree")].into_iter().enumerate()
    {
        let scenario = scenario("meeting-engagement", Some(rally_rules(4, 0)));
        let seed = 30 + i as u64;
        let mut game = Game::with_scenario(scenario, "", "meeting-engagement.toml", None, seed);
        let mut players: [Box<dyn Player + Send>; 2] =
            [player(first, seed).expect("known player"), player(second, seed + 1).expect("known player")];
        while let ToAct::Side(side) = game.battle().to_act() {
            let action = players[side.index()].choose(game.battle());
            let name = players[side.index()].name().to_string();
            game.act(action).unwrap_or_else(|e| panic!("{name} chose an illegal action: {e}"));
        }
        assert!(game.battle().result().is_some());
        rolled += game.log().iter().filter(|e| matches!(e, Event::RallyRolled { .. })).count();
    }
    assert!(rolled > 0, "shaken units were activated and rolled to rally");
}
