use super::*;
use pacw_engine::{Scenario, ToAct};
use std::sync::Arc;

fn battle(text: &str) -> Battle {
    Battle::from_scenario(Arc::new(Scenario::parse(text, "test.toml").unwrap()))
}

/// The scenario with its two `[[sides]]` tables swapped: the same battle, the first side now second.
fn sides_swapped(text: &str) -> String {
    let start = text.find("[[sides]]").unwrap();
    let second = start + 1 + text[start + 1..].find("[[sides]]").unwrap();
    let end = second + text[second..].find("\n[[").unwrap() + 1;
    format!("{}{}{}{}", &text[..start], &text[second..end], &text[start..second], &text[end..])
}

#[test]
fn the_fitted_weights_load_and_judge_every_shipped_start_between_0_and_1() {
    let e = Evaluator::reference();
    assert!(e.version().starts_with("evaluator-"));
    for &pacw_engine::Shipped { name, text, .. } in pacw_engine::SHIPPED_SCENARIOS {
        let v = e.value(&battle(text));
        assert!((0.0..=1.0).contains(&v), "{name}: {v}");
    }
}

#[test]
fn swapping_the_sides_negates_every_feature_and_the_value_becomes_one_less_it() {
    let e = Evaluator::reference();
    for &pacw_engine::Shipped { name, text, .. } in pacw_engine::SHIPPED_SCENARIOS {
        let (b, swapped) = (battle(text), battle(&sides_swapped(text)));
        let (x, y) = (features(&b), features(&swapped));
        for i in 0..FEATURES {
            assert!((x[i] + y[i]).abs() < 1e-5, "{name}: {} is {} and {} swapped", FEATURE_NAMES[i], x[i], y[i]);
        }
        assert!((e.value(&b) + e.value(&swapped) - 1.0).abs() < 1e-4, "{name}");
    }
}

#[test]
fn a_finished_battle_is_worth_its_result() {
    let e = Evaluator::embedded();
    let mut b = battle(pacw_engine::DEFAULT_SCENARIO);
    b.resign(Side::A).unwrap();
    assert_eq!(e.value(&b), 0.0);
    let mut b = battle(pacw_engine::DEFAULT_SCENARIO);
    b.resign(Side::B).unwrap();
    assert_eq!(e.value(&b), 1.0);
}

#[test]
fn where_chance_acts_the_value_is_the_exact_average_over_its_outcomes() {
    let e = Evaluator::embedded();
    let b = battle(pacw_engine::DEFAULT_SCENARIO);
    assert!(matches!(b.to_act(), ToAct::Chance(_)), "a battle opens with a card to draw");
    let mut average = 0.0;
    for (outcome, p) in b.chance_outcomes() {
        let mut after = b.clone();
        after.apply_chance(outcome).unwrap();
        average += *p.numer() as f32 / *p.denom() as f32 * e.value(&after);
    }
    assert!((e.value(&b) - average).abs() < 1e-6, "{} against {average}", e.value(&b));
}

#[test]
fn the_value_is_read_from_the_position_alone() {
    let e = Evaluator::embedded();
    let b = battle(pacw_engine::DEFAULT_SCENARIO);
    assert_eq!(e.value(&b).to_bits(), e.value(&b.clone()).to_bits());
    assert_eq!(e.value(&b).to_bits(), e.value(&b.borrowed()).to_bits());
}

#[test]
fn a_weights_file_for_other_features_or_with_bad_numbers_is_refused_with_a_message() {
    let file: serde_json::Value = serde_json::from_str(EMBEDDED_WEIGHTS).unwrap();
    let mut other = file.clone();
    other["features"][0] = "something else".into();
    let e = Evaluator::parse(&other.to_string()).unwrap_err();
    assert!(e.to_string().contains("fitted on other features"), "{e}");
    let bad = serde_json::json!({"format": "pacw-evaluator", "version": "x", "trained": "", "features": FEATURE_NAMES,
        "model": {"kind": "logistic", "weights": [1.0, 2.0]}});
    assert!(Evaluator::parse(&bad.to_string()).unwrap_err().to_string().contains("not 20"));
    let wide = serde_json::json!({"format": "pacw-evaluator", "version": "x", "trained": "", "features": FEATURE_NAMES,
        "model": {"kind": "mlp", "hidden": vec![vec![0.0; FEATURES]; MAX_HIDDEN + 1], "bias": vec![0.0; MAX_HIDDEN + 1],
        "output": vec![0.0; MAX_HIDDEN + 1]}});
    assert!(Evaluator::parse(&wide.to_string()).is_err());
    assert!(Evaluator::parse("{").unwrap_err().to_string().contains("not valid"));
    assert!(Evaluator::parse(r#"{"format": "pacw-save"}"#).is_err());
}

#[test]
fn an_odd_network_says_one_less_the_value_of_the_negated_features() {
    let hidden = vec![(0..FEATURES).map(|i| i as f32 / 10.0 - 1.0).collect::<Vec<_>>(); 3];
    let file = ModelFile {
        format: MODEL_FORMAT.into(),
        version: "t".into(),
        trained: String::new(),
        features: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
        model: Model::Mlp { hidden, bias: vec![0.5, -0.2, 0.1], output: vec![1.0, -2.0, 0.7] },
    };
    let judge = file.judge().unwrap();
    let x: Features = std::array::from_fn(|i| (i as f32 * 0.37).sin());
    let neg = x.map(|v| -v);
    assert!((judge(&x) + judge(&neg) - 1.0).abs() < 1e-6);
}

/// Positions the embedded weights are pinned on: the start of two battles, and the default battle after 40 greedy
/// decisions.
fn pinned_positions() -> Vec<(&'static str, Battle)> {
    let start = |name: &str| {
        let text = pacw_engine::shipped_named(pacw_engine::SHIPPED_SCENARIOS.iter().copied(), name).unwrap().text;
        battle(text)
    };
    let mut game = pacw_engine::Game::new(pacw_engine::DEFAULT_SCENARIO, "m.toml", None, 3).unwrap();
    let mut greedy = crate::GreedyPlayer::new(3);
    while game.actions().len() < 40 {
        let action = crate::Player::choose(&mut greedy, game.battle());
        game.act(action).unwrap();
    }
    vec![
        ("meeting-engagement at the start", start("meeting-engagement")),
        ("maryes-heights at the start", start("maryes-heights")),
        ("meeting-engagement after 40 greedy decisions", game.battle().clone()),
    ]
}

#[test]
fn the_fitted_weights_give_the_recorded_values_on_fixed_positions() {
    // Recorded when the weights were trained (`pacw train`, docs/findings.md): a change of weights or features
    // shows here, and the numbers are recorded again with it.
    let e = Evaluator::reference();
    let values: Vec<f32> = pinned_positions().iter().map(|(_, b)| e.value(b)).collect();
    let agree = values.iter().zip(RECORDED.1).all(|(v, expected)| (v - expected).abs() < 1e-4);
    assert!(e.version() == RECORDED.0 && agree, "{} gives {values:?}; recorded: {RECORDED:?}", e.version());
}

/// The embedded weights' version and their values on [`pinned_positions`].
const RECORDED: (&str, [f32; 3]) = ("evaluator-1", [0.500_000_06, 0.429_675, 0.563_275_8]);

#[test]
fn a_network_file_is_read_as_an_evaluator_and_judges_like_the_network() {
    use crate::network::{EMBEDDED_NETWORK, shared};
    let e = Evaluator::parse(EMBEDDED_NETWORK).unwrap();
    assert!(e.version().starts_with("network-"));
    let scenario = std::sync::Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
    let b = pacw_engine::Battle::from_scenario(scenario);
    let mut judge = crate::network::judge::Judge::new(shared());
    assert!((e.model_value(&b) - judge.estimate(&b)).abs() < 1e-6);
    assert!(Evaluator::parse(&EMBEDDED_NETWORK.replace("pacw-network", "pacw-other")).is_err());
}

#[test]
fn a_grand_battle_is_judged_by_the_grand_judge_and_the_others_by_the_judge() {
    let (judge, grand) = (Evaluator::parse(JUDGE_WEIGHTS).unwrap(), Evaluator::parse(JUDGE_GRAND_WEIGHTS).unwrap());
    let embedded = Evaluator::embedded();
    assert!(embedded.version().contains(judge.version()) && embedded.version().contains(grand.version()));
    let every = pacw_engine::SHIPPED_SCENARIOS.iter().chain([&pacw_engine::GRAND_BATTLE]);
    for &pacw_engine::Shipped { name, text, .. } in every {
        let mut b = battle(text);
        while let ToAct::Chance(_) = b.to_act() {
            let (outcome, _) = b.chance_outcomes()[0];
            b.apply_chance(outcome).unwrap();
        }
        let by = if b.scenario().units.len() > GRAND_BATTLE_UNITS { &grand } else { &judge };
        assert_eq!(embedded.value(&b).to_bits(), by.value(&b).to_bits(), "{name}");
        assert_ne!(judge.value(&b).to_bits(), grand.value(&b).to_bits(), "{name}: the two judges differ");
    }
    assert!(battle(pacw_engine::GRAND_BATTLE.text).scenario().units.len() > GRAND_BATTLE_UNITS);
}

/// A variant's own arm threatens by its own range, as the battle gives it (the option `range.<its id>` or its file's),
/// not the range of the arm it acts as: a skirmisher reaching far threatens more than one reaching a square.
#[test]
fn a_variant_s_own_arm_threatens_by_its_own_range() {
    let variant = include_str!("../../../../docs/examples/skirmishers.toml");
    // One side's skirmishers only (the battle is symmetric, and the features weigh one side against the other).
    let text = include_str!("../../../../docs/examples/skirmish.toml");
    let second = text.rfind("arm = \"skirmishers\"").unwrap();
    let text = format!("{}arm = \"infantry\"{}", &text[..second], &text[second + "arm = \"skirmishers\"".len()..]);
    let system = pacw_engine::system::CombatSystem::with_variant(variant, "skirmishers.toml").unwrap();
    let scenario = Arc::new(Scenario::parse_with(&text, "skirmish.toml", Arc::new(system)).unwrap());
    let with_range = |range: &str| {
        let mut options = scenario.options;
        scenario.set_option(&mut options, "range.skirmishers", range).unwrap();
        let b = Battle::new(scenario.clone(), options);
        assert!(b.alive_units().any(|u| b.range(u) == range.parse::<u8>().unwrap()));
        features(&b)
    };
    assert_ne!(with_range("1"), with_range("8"), "the skirmishers' reach is judged");
}
