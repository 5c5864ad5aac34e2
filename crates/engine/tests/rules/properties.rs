//! Properties over thousands of random seeded games, on every shipped scenario and every initiative system:
//! no panic, no dead end, one unit per square, shaken cleared on activation (R4.1), the deck rebuilt by R3.2 after
//! each Joker, every game ending by R8, refused actions changing nothing, and replays giving the same events (R9.2).

use pacw_engine::{
    Action, Battle, BlockedRetreat, Deck, Dir, Event, Game, Initiative, Options, Outcome, Prob, SHIPPED_SCENARIOS,
    Scenario, Square, ToAct, UnitId,
};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::HashSet;
use std::sync::Arc;

fn options_strategy() -> impl Strategy<Value = Options> {
    (0..3u8, any::<bool>(), any::<bool>(), any::<bool>(), 3..=6u8).prop_map(|(init, once, stand, pivot, to_hit)| {
        Options {
            initiative: [Initiative::Cards, Initiative::Igougo, Initiative::Alternate][init as usize],
            once_per_turn: once,
            blocked_retreat: if stand { BlockedRetreat::Stand } else { BlockedRetreat::Destroyed },
            pivot_is_move: pivot,
            to_hit,
            ..Options::default()
        }
    })
}

/// An arbitrary action, legal or not, to probe that refusals change nothing.
pub(crate) fn random_action(rng: &mut ChaCha8Rng, b: &Battle) -> Action {
    let sq =
        |rng: &mut ChaCha8Rng| Square::new(rng.random_range(0..b.scenario().map.width() + 1), rng.random_range(0..9));
    let unit = |rng: &mut ChaCha8Rng| UnitId(rng.random_range(0..(b.scenario().units.len() as u8 + 2)));
    let dir = |rng: &mut ChaCha8Rng| Dir::ALL[rng.random_range(0..4)];
    match rng.random_range(0..8) {
        0 => Action::Activate(unit(rng)),
        1 => Action::EndActivations,
        2 => Action::Hold,
        3 => Action::Move { to: sq(rng), facing: dir(rng) },
        4 => Action::Fire { target: unit(rng), facing: dir(rng) },
        5 => Action::MoveFire { to: sq(rng), facing: dir(rng), target: unit(rng) },
        6 => Action::FireMove { target: unit(rng) },
        _ => Action::Advance { to: sq(rng), facing: dir(rng) },
    }
}

pub(crate) fn check_invariants(b: &Battle) {
    let squares: Vec<Square> = b.alive_units().map(|u| b.unit(u).at).collect();
    let distinct: HashSet<Square> = squares.iter().copied().collect();
    assert_eq!(squares.len(), distinct.len(), "R2.5: one unit per square");
    for s in &squares {
        assert!(b.scenario().map.passable(*s), "R5.1: no unit on a river");
    }
    // R7.3: whether a unit could retreat from each enemy is whether it has a square to retreat to.
    for u in b.alive_units() {
        for e in b.alive_units().filter(|&e| b.info(e).side != b.info(u).side) {
            assert_eq!(b.can_retreat(u, e), b.retreat_square(u, e).is_some(), "retreat of {u:?} from {e:?}");
        }
    }
    match b.to_act() {
        ToAct::Side(_) => {
            let actions = b.legal_actions();
            assert!(!actions.is_empty(), "the side to act always has a legal action");
            for a in &actions {
                assert_eq!(b.check(*a), Ok(()), "listed action {a:?} must pass the rules check");
            }
            let unique: HashSet<_> = actions.iter().collect();
            assert_eq!(unique.len(), actions.len(), "legal actions are listed once each");
            // The assessed list is the same list, with each attack assessed as `assess_order` assesses it.
            let mut assessed = pacw_engine::LegalActions::new();
            b.list_assessed(&mut assessed);
            assert_eq!(assessed.actions(), actions.as_slice());
            for (i, a) in assessed.iter().enumerate() {
                let expected = b.active_unit().and_then(|u| b.assess_order(u, &a).ok());
                assert_eq!(assessed.assessment(i).copied(), expected, "assessment of {a:?}");
            }
            // Each unit's orders listed before activating it are the orders listed once it is activated.
            let orders = b.activation_orders();
            for u in (0..b.scenario().units.len() as u8).map(UnitId) {
                let mut before = Vec::new();
                orders.for_each(u, |a, assessment| before.push((a, assessment.copied())));
                let mut activated = b.clone();
                let mut after = Vec::new();
                if activated.apply(Action::Activate(u)).is_ok() && activated.active_unit() == Some(u) {
                    after = activated.orders_for(u);
                }
                assert_eq!(before, after, "orders of unit {u:?} before and after activating it");
            }
        }
        ToAct::Chance(_) => {
            let outcomes = b.chance_outcomes();
            let total: Prob = outcomes.iter().map(|(_, p)| *p).sum();
            assert_eq!(total, Prob::from_integer(1), "R9.2: chance outcomes sum to 1");
            let branches: Vec<Outcome> = b.chance_branches().collect();
            assert_eq!(branches, outcomes.iter().map(|(o, _)| *o).collect::<Vec<_>>());
        }
        ToAct::Over(_) => assert!(b.legal_actions().is_empty()),
    }
}

fn play_random_game(scenario: usize, options: Options, seed: u64) {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[scenario];
    let parsed = Arc::new(Scenario::parse(text, file).unwrap());
    let mut game = Game::with_scenario(parsed.clone(), text, file, Some(options), seed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0xabcdef);
    let mut steps = 0;
    let mut seen_events = game.log().len();
    while let ToAct::Side(_) = game.battle().to_act() {
        check_invariants(game.battle());
        // A refused action leaves the battle unchanged.
        let probe = random_action(&mut rng, game.battle());
        let mut copy = game.battle().clone();
        let actions = game.battle().legal_actions();
        if copy.apply(probe).is_err() {
            assert_eq!(&copy, game.battle(), "refused {probe:?} changed the battle");
        } else {
            assert!(actions.contains(&probe), "accepted {probe:?} must be listed: the list is exactly the accepted");
        }
        let action = actions[rng.random_range(0..actions.len())];
        game.act(action).unwrap();
        for e in &game.log()[seen_events..] {
            match *e {
                // The unit may have been hit since (not within its own activation), so check it only while it
                // is still the active unit.
                Event::Activated { unit, .. } if game.battle().active_unit() == Some(unit) => {
                    assert!(!game.battle().unit(unit).shaken, "R4.1: activation removes shaken");
                }
                Event::TurnStarted { iv, .. } if options.initiative == Initiative::Cards => {
                    assert_eq!(iv, game.battle().initiative_values(), "R3.6: IVs recomputed");
                }
                _ => {}
            }
        }
        if options.initiative == Initiative::Cards
            && matches!(game.log().last(), Some(Event::TurnStarted { .. }))
            && game.battle().result().is_none()
        {
            assert_eq!(*game.battle().deck(), Deck::full(game.battle().initiative_values()), "R3.2 after a Joker");
        }
        seen_events = game.log().len();
        steps += 1;
        assert!(steps < 20_000, "a game must end (R8)");
    }
    let result = game.battle().result().expect("R8: the game is over when no side acts");
    let turns = parsed.turns;
    assert!(game.battle().turn() <= turns);
    match result.reason {
        pacw_engine::EndReason::Exhaustion(side) => {
            assert!(game.battle().destroyed(side) >= parsed.side(side).exhaustion, "R8.1")
        }
        pacw_engine::EndReason::TurnLimit => assert_eq!(game.battle().turn(), turns, "R8.2"),
        pacw_engine::EndReason::Resigned(_)
        | pacw_engine::EndReason::OutOfTime(_)
        | pacw_engine::EndReason::DrawAgreed => {
            panic!("nobody resigned, ran out of time or agreed a draw")
        }
    }
    // R9.2: the same seed and decisions replay identically, through a save.
    let replayed = Game::load(&game.save_json()).unwrap();
    assert_eq!(replayed.log(), game.log());
    assert_eq!(replayed.battle(), game.battle());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    #[test]
    fn r9_random_games_keep_every_invariant(scenario in 0..SHIPPED_SCENARIOS.len(), options in options_strategy(), seed in any::<u64>()) {
        play_random_game(scenario, options, seed);
    }
}

#[test]
fn r9_1_chance_outcomes_are_dice_or_cards_only() {
    let b = Battle::from_scenario(Arc::new(Scenario::parse(SHIPPED_SCENARIOS[0].text, "d").unwrap()));
    let outcomes = b.chance_outcomes();
    assert!(outcomes.iter().all(|(o, _)| matches!(o, Outcome::Card(_))));
    assert_eq!(outcomes.iter().map(|(_, p)| *p).sum::<Prob>(), Prob::from_integer(1));
}
