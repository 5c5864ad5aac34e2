//! Damaged self-play checkpoints: any text is resumed from or refused with a message, never a panic, and a
//! checkpoint that loads holds weights this build can judge by.

use pacw_learn::selfplay::{Checkpoint, SelfPlayConfig, Widening};
use proptest::prelude::*;
use std::sync::OnceLock;

/// A small checkpoint's text, after one round of two games, with a widening of the network ahead.
fn checkpoint_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(|| {
        let config = SelfPlayConfig {
            games_per_round: 2,
            unit_hidden: 4,
            side_hidden: 3,
            generated: 1.0,
            curve_games: 0,
            widenings: vec![Widening { games: 2, unit_hidden: 6, side_hidden: 5 }],
            ..SelfPlayConfig::default()
        };
        let mut run = Checkpoint::start(config).unwrap();
        run.round("test").unwrap();
        serde_json::to_string(&run).unwrap()
    })
}

fn load_or_refuse(text: &str) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    std::fs::write(&path, text).unwrap();
    match Checkpoint::load(&path) {
        Err(e) => assert!(!e.to_string().is_empty()),
        Ok(run) => {
            let network = run.network().expect("a loaded checkpoint's network is this build's");
            assert!(network.parameters().iter().all(|w| w.is_finite()));
            let _ = run.games();
            let _ = run.curve_due();
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_damaged_checkpoint_is_resumed_from_or_refused(seed in 0..u64::MAX, cut in 0..20_000usize, byte in any::<u8>()) {
        let mut bytes = checkpoint_text().as_bytes().to_vec();
        let at = cut % bytes.len();
        match seed % 3 {
            0 => bytes[at] = byte,
            1 => bytes.truncate(at),
            _ => bytes.insert(at, byte),
        }
        load_or_refuse(&String::from_utf8_lossy(&bytes));
    }

    #[test]
    fn a_checkpoint_with_any_count_is_resumed_from_or_refused(rounds in any::<u64>(), per_round in any::<u64>(), steps in any::<u64>()) {
        let mut json: serde_json::Value = serde_json::from_str(checkpoint_text()).unwrap();
        json["rounds"] = rounds.into();
        json["config"]["games_per_round"] = per_round.into();
        json["adam"]["steps"] = steps.into();
        load_or_refuse(&json.to_string());
    }
}

/// Found by the fuzz test above in CI: a comma inserted into the optimiser's numbers made the widening ahead panic.
#[test]
fn an_optimiser_state_of_the_wrong_length_is_refused_before_a_widening() {
    let mut json: serde_json::Value = serde_json::from_str(checkpoint_text()).unwrap();
    json["adam"]["mean"].as_array_mut().unwrap().push(0.0.into());
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let refused = Checkpoint::load(&path).unwrap_err().to_string();
    assert!(refused.contains("does not fit the network"), "{refused}");
}

/// A run whose settings are narrower than its stored network is refused, not narrowed by a panic.
#[test]
fn a_stored_network_wider_than_the_run_is_refused() {
    let mut json: serde_json::Value = serde_json::from_str(checkpoint_text()).unwrap();
    json["config"]["widenings"] = serde_json::json!([]);
    json["config"]["unit_hidden"] = 2.into();
    json["config"]["side_hidden"] = 2.into();
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("run.json");
    std::fs::write(&path, json.to_string()).unwrap();
    let refused = Checkpoint::load(&path).unwrap_err().to_string();
    assert!(refused.contains("wider than the run"), "{refused}");
}

/// A small run and one shard of its next round's games, as text.
fn run_and_shard() -> &'static (Checkpoint, String) {
    static BOTH: OnceLock<(Checkpoint, String)> = OnceLock::new();
    BOTH.get_or_init(|| {
        let config = SelfPlayConfig {
            games_per_round: 2,
            unit_hidden: 4,
            side_hidden: 3,
            generated: 1.0,
            curve_games: 0,
            widenings: vec![Widening { games: 2, unit_hidden: 6, side_hidden: 5 }],
            ..SelfPlayConfig::default()
        };
        let run = Checkpoint::start(config).unwrap();
        let shard = run.play_shard(pacw_sim::Shard { k: 1, n: 1 }).unwrap();
        let text = serde_json::to_string(&shard).unwrap();
        (run, text)
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// A damaged shard is read or refused, and merged or refused with the run left as it was: never a panic.
    #[test]
    fn a_damaged_shard_is_merged_or_refused_never_a_panic(at in 0.0f64..1.0, byte in any::<u8>()) {
        let (run, text) = run_and_shard();
        let mut bytes = text.clone().into_bytes();
        let i = ((bytes.len() as f64 * at) as usize).min(bytes.len() - 1);
        bytes[i] = byte;
        let damaged = String::from_utf8_lossy(&bytes);
        if let Ok(shard) = serde_json::from_str::<pacw_learn::selfplay::RoundShard>(&damaged) {
            let mut merged = run.clone();
            if merged.merge_round(&[shard], "t").is_err() {
                prop_assert_eq!(&merged, run);
            }
        }
    }
}
