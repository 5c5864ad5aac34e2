//! Damaged saves and the review: a save that loads is reviewed without a panic, with its chain of values whole;
//! one that does not load is refused before the review begins.

use pacw_ai::Evaluator;
use pacw_ai::review::{Budget, ReviewConfig, StepKind, review};
use pacw_engine::{Game, SHIPPED_SCENARIOS, ToAct};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A short random game's save, as JSON.
fn a_save(seed: u64) -> String {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[(seed % SHIPPED_SCENARIOS.len() as u64) as usize];
    let mut game = Game::new(text, file, None, seed).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..rng.random_range(0..40) {
        let ToAct::Side(_) = game.battle().to_act() else { break };
        let legal = game.battle().legal_actions();
        game.act(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    game.save_json()
}

fn check_review(json: &str, quick: bool) {
    let Ok(game) = Game::load(json) else { return };
    let config = ReviewConfig { quick, budget: Budget::Positions(200), threads: 1 };
    let r = review(&game, &Evaluator::embedded(), &config, &|_, _| {});
    for pair in r.steps.windows(2) {
        assert_eq!(pair[0].after.to_bits(), pair[1].before.to_bits());
    }
    assert!(r.steps.iter().all(|s| (0.0..=1.0).contains(&s.after) && s.judged.as_ref().is_none_or(|j| j.loss >= 0.0)));
    assert_eq!(r.steps.iter().filter(|s| s.kind == StepKind::Chance).count(), game.outcomes().len());
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 60, ..ProptestConfig::default() })]

    #[test]
    fn mutated_saves_are_refused_or_reviewed(seed in 0..u64::MAX, cut in 0..2000usize, byte in any::<u8>()) {
        let mut json = a_save(seed % 50).into_bytes();
        let at = cut % json.len();
        match seed % 3 {
            0 => json[at] = byte,
            1 => json.truncate(at),
            _ => json.insert(at, byte),
        }
        check_review(&String::from_utf8_lossy(&json), seed % 4 != 0);
    }

    #[test]
    fn random_games_of_every_battle_are_reviewed(seed in 0..u64::MAX) {
        let json = a_save(seed);
        prop_assert!(Game::load(&json).is_ok());
        check_review(&json, seed % 2 == 0);
    }

    #[test]
    fn any_text_as_a_save_is_refused_or_reviewed(text in "\\PC{0,200}") {
        check_review(&text, true);
    }
}
