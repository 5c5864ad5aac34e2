//! Damaged weights files: any text is read as a judge or refused with a message, never a panic, and a judge read
//! from a damaged file still gives every position a chance between 0 and 1.

use pacw_ai::Evaluator;
use pacw_ai::evaluator::{EMBEDDED_WEIGHTS, MAX_WEIGHT};
use pacw_ai::network::EMBEDDED_NETWORK;
use pacw_engine::{Battle, SHIPPED_SCENARIOS, Scenario, ToAct};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A few positions of a random game of a shipped battle.
fn positions(seed: u64) -> Vec<Battle> {
    let shipped = &SHIPPED_SCENARIOS[(seed % 4) as usize];
    let mut b = Battle::from_scenario(Arc::new(Scenario::parse(shipped.text, shipped.file).unwrap()));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut out = vec![b.clone()];
    for _ in 0..60 {
        match b.to_act() {
            ToAct::Over(_) => break,
            ToAct::Side(_) => {
                let legal = b.legal_actions();
                b.apply(legal[rng.random_range(0..legal.len())]).unwrap();
                out.push(b.clone());
            }
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut rng).unwrap();
                b.apply_chance(outcome).unwrap();
            }
        }
    }
    out
}

/// Reads `text` as weights: refused with a message, or a judge whose every chance is a number from 0 to 1.
fn read_or_refuse(text: &str, seed: u64) {
    match Evaluator::parse(text) {
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(judge) => {
            for b in positions(seed).iter().step_by(7) {
                let v = judge.value(b);
                assert!((0.0..=1.0).contains(&v), "{v} from a judge read from damaged weights");
            }
        }
    }
}

/// `text` with one byte changed, cut short, or with a byte put in, as the seed says.
fn damaged(text: &str, seed: u64, cut: usize, byte: u8) -> String {
    let mut bytes = text.as_bytes().to_vec();
    let at = cut % bytes.len();
    match seed % 3 {
        0 => bytes[at] = byte,
        1 => bytes.truncate(at),
        _ => bytes.insert(at, byte),
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_damaged_network_file_is_refused_or_judges_between_0_and_1(seed in 0..u64::MAX, cut in 0..200_000usize, byte in any::<u8>()) {
        read_or_refuse(&damaged(EMBEDDED_NETWORK, seed, cut, byte), seed);
    }

    #[test]
    fn a_damaged_features_model_is_refused_or_judges_between_0_and_1(seed in 0..u64::MAX, cut in 0..20_000usize, byte in any::<u8>()) {
        read_or_refuse(&damaged(EMBEDDED_WEIGHTS, seed, cut, byte), seed);
    }

    #[test]
    fn any_text_as_weights_is_refused_or_read(text in "\\PC{0,200}") {
        read_or_refuse(&text, 1);
    }
}

/// A weight beyond [`MAX_WEIGHT`] is refused: the sums of a forward pass could overflow to "not a number".
#[test]
fn a_weight_too_large_to_judge_by_is_refused() {
    let mut file: serde_json::Value = serde_json::from_str(EMBEDDED_NETWORK).unwrap();
    file["weights"][0] = serde_json::json!(MAX_WEIGHT * 10.0);
    let e = Evaluator::parse(&file.to_string()).unwrap_err();
    assert!(e.to_string().contains("within"), "{e}");
    file["weights"][0] = serde_json::json!(MAX_WEIGHT / 2.0);
    assert!(Evaluator::parse(&file.to_string()).is_ok(), "a large weight within the bound is read");
}
