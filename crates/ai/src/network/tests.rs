use super::encoding::{Encoding, GLOBAL_INPUTS, UNIT_INPUTS, encode};
use super::judge::Judge;
use super::*;
use crate::{Player, TdPlayer};
use pacw_engine::{Action, Battle, Game, Scenario, ToAct};
use std::sync::Arc;

fn scenario(text: &str) -> Arc<Scenario> {
    Arc::new(Scenario::parse(text, "s.toml").unwrap())
}

/// The scenario with its two sides listed the other way round: the same battle with the first and second sides
/// swapped.
fn mirrored(text: &str) -> String {
    let start = text.find("[[sides]]").unwrap();
    let second = start + 1 + text[start + 1..].find("[[sides]]").unwrap();
    let end = second + text[second..].find("\n[[").unwrap_or(text.len() - second) + 1;
    let (a, b) = (&text[start..second], &text[second..end]);
    format!("{}{}\n{}{}", &text[..start], b.trim_end(), a, &text[end..])
}

/// Positions of a few greedy games of the default battle, at every decision.
fn positions(games: u64) -> Vec<Battle> {
    let scenario = scenario(pacw_engine::DEFAULT_SCENARIO);
    let mut out = Vec::new();
    for seed in 0..games {
        let mut game = Game::with_scenario(scenario.clone(), pacw_engine::DEFAULT_SCENARIO, "m.toml", None, seed);
        let mut players = [crate::GreedyPlayer::new(seed), crate::GreedyPlayer::new(seed + 1)];
        while let ToAct::Side(side) = game.battle().to_act() {
            out.push(game.battle().clone());
            let action = players[side.index()].choose(game.battle());
            game.act_unchecked(action);
        }
    }
    out
}

#[test]
fn the_embedded_network_is_valid() {
    let net = Network::parse(EMBEDDED_NETWORK).unwrap();
    assert_eq!(*shared(), net);
}

#[test]
fn a_mirrored_battle_is_encoded_as_the_same_units_seen_from_the_other_side() {
    let text = pacw_engine::DEFAULT_SCENARIO;
    let (plain, mirror) = (scenario(text), scenario(&mirrored(text)));
    assert_eq!(plain.units.len(), mirror.units.len());
    assert_ne!(plain.units[0].side, mirror.units[0].side, "the sides are swapped");
    let (mut x, mut y) = (Encoding::default(), Encoding::default());
    encode(&Battle::from_scenario(plain), &mut x);
    encode(&Battle::from_scenario(mirror), &mut y);
    assert_eq!(x.units[0], y.units[1]);
    assert_eq!(x.units[1], y.units[0]);
    assert_eq!(x.global[0], y.global[1]);
    assert!(!x.units[0].is_empty() && x.units[0].len() % UNIT_INPUTS == 0);
}

#[test]
fn swapping_the_sides_gives_one_less_the_chances() {
    let net = Network::random(16, 12, 3);
    let mut x = Encoding::default();
    let mut scratch = Scratch::default();
    let mut differed = false;
    for b in positions(2).iter().step_by(7) {
        encode(b, &mut x);
        let p = sigmoid(net.logit(&x, &mut scratch));
        let q = sigmoid(net.logit(&x.swapped(), &mut scratch));
        assert!((p + q - 1.0).abs() < 1e-5, "{p} + {q}");
        differed |= (p - 0.5).abs() > 1e-3;
    }
    assert!(differed, "the network judges positions differently");
    // And on the mirrored battle itself.
    let text = pacw_engine::DEFAULT_SCENARIO;
    let mut judge = Judge::new(Arc::new(net));
    let p = judge.estimate(&Battle::from_scenario(scenario(text)));
    let q = judge.estimate(&Battle::from_scenario(scenario(&mirrored(text))));
    assert!((p + q - 1.0).abs() < 1e-5, "{p} + {q}");
}

#[test]
fn the_gradient_is_the_slope_of_the_log_odds() {
    let mut net = Network::random(8, 6, 5);
    let b = &positions(1)[40];
    let mut x = Encoding::default();
    encode(b, &mut x);
    let mut scratch = Scratch::default();
    net.logit(&x, &mut scratch);
    let mut gradient = vec![0.0; net.parameters().len()];
    net.add_gradient(&x, &scratch, 1.0, &mut gradient);
    assert!(gradient.iter().any(|g| g.abs() > 1e-4));
    let h = 1e-2;
    for i in (0..gradient.len()).step_by(7) {
        let mut weights = net.parameters().to_vec();
        let w = weights[i];
        weights[i] = w + h;
        net.set_parameters(&weights);
        let up = net.logit(&x, &mut scratch) as f64;
        weights[i] = w - h;
        net.set_parameters(&weights);
        let down = net.logit(&x, &mut scratch) as f64;
        weights[i] = w;
        net.set_parameters(&weights);
        let slope = (up - down) / (2.0 * h as f64);
        // A rectifier crossing zero within the step bends the slope: allow for it.
        assert!(
            (slope - gradient[i] as f64).abs() < 2e-2 + 0.05 * slope.abs(),
            "weight {i}: {slope} against {}",
            gradient[i]
        );
    }
}

#[test]
fn a_widened_network_judges_as_before_and_its_new_units_can_learn() {
    let net = Network::random(8, 6, 5);
    let wide = net.widened(12, 9, 77).unwrap();
    assert_eq!(wide.hidden(), (12, 9));
    let mut x = Encoding::default();
    let (mut scratch, mut wide_scratch) = (Scratch::default(), Scratch::default());
    for b in positions(1).iter().step_by(5) {
        encode(b, &mut x);
        let (before, after) = (net.logit(&x, &mut scratch), wide.logit(&x, &mut wide_scratch));
        assert!((before - after).abs() < 1e-5, "{before} against {after}");
    }
    // Weights that read the new units (the output's, and the side layer's from new pooled units) get a gradient:
    // training grows them.
    let l = Layout::of(12, 9);
    let mut gradient = vec![0.0; wide.parameters().len()];
    for b in positions(1).iter().step_by(5) {
        encode(b, &mut x);
        wide.logit(&x, &mut wide_scratch);
        wide.add_gradient(&x, &wide_scratch, 1.0, &mut gradient);
    }
    assert!(gradient[l.v + 6..l.v + 9].iter().any(|g| g.abs() > 1e-6), "new side units");
    let reads_new_units = (0..6).flat_map(|j| (8..12).map(move |k| l.w2 + j * l.side_inputs + k));
    assert!(reads_new_units.map(|i| gradient[i]).any(|g| g.abs() > 1e-6), "new unit-layer units");
    // Moments are carried to the same weights' places, and a layer may not shrink.
    let carried = net.carried(net.parameters(), 12, 9);
    let kept: Vec<f32> = carried.iter().copied().filter(|w| *w != 0.0).collect();
    let mut original: Vec<f32> = net.parameters().iter().copied().filter(|w| *w != 0.0).collect();
    let mut sorted = kept.clone();
    sorted.sort_by(f32::total_cmp);
    original.sort_by(f32::total_cmp);
    assert_eq!(sorted, original, "every weight is carried once");
    assert!(net.widened(7, 6, 1).is_err());
    assert!(net.widened(8, MAX_LAYER + 1, 1).is_err());
    assert_eq!(net.widened(8, 6, 1).unwrap(), net, "no wider: the same network");
}

#[test]
fn the_forward_pass_gives_the_same_bits_on_every_processor() {
    let net = Network::random(24, 20, 8);
    let mut x = Encoding::default();
    let (mut fast, mut portable) = (Scratch::default(), Scratch::default());
    for b in positions(1).iter().step_by(3) {
        encode(b, &mut x);
        assert_eq!(net.logit(&x, &mut fast).to_bits(), net.logit_portable(&x, &mut portable).to_bits());
    }
}

#[test]
fn a_layer_of_a_size_compiled_for_gives_the_same_bits_as_of_any_size() {
    let net = Network::random(64, 32, 5);
    let mut x = Encoding::default();
    for b in positions(1).iter().step_by(5) {
        encode(b, &mut x);
        for (units, hidden) in x.units.iter().zip([64, 32]) {
            let by_input: Vec<f32> = net.by_input[0].iter().copied().cycle().take(UNIT_INPUTS * hidden).collect();
            for row in units.chunks_exact(UNIT_INPUTS) {
                let (mut sized, mut any) = (bias_of(hidden), bias_of(hidden));
                layer(&by_input, row, &mut sized);
                layer_of_any_size(&by_input, row, &mut any);
                let bits = |v: &[f32]| v.iter().map(|f| f.to_bits()).collect::<Vec<u32>>();
                assert_eq!(bits(&sized), bits(&any));
                assert!(sized.iter().zip(&bias_of(hidden)).any(|(s, b)| s != b), "the inputs were added");
            }
        }
    }
}

fn bias_of(hidden: usize) -> Vec<f32> {
    (0..hidden).map(|j| j as f32 / 100.0 - 0.2).collect()
}

#[test]
fn a_weights_file_is_read_back_and_a_bad_one_refused() {
    let net = Network::random(4, 3, 9);
    let text = serde_json::to_string(&net.to_file("network-test", "pacw train selfplay")).unwrap();
    assert_eq!(Network::parse(&text).unwrap(), net);
    let mut file = net.to_file("v", "t");
    file.weights.pop();
    assert!(matches!(Network::from_file(&file), Err(NetworkError::Shape(_))));
    let mut file = net.to_file("v", "t");
    file.weights[0] = f32::NAN;
    assert!(matches!(Network::from_file(&file), Err(NetworkError::Shape(_))));
    let mut file = net.to_file("v", "t");
    file.unit_inputs.swap(0, 1);
    assert!(matches!(Network::from_file(&file), Err(NetworkError::Inputs(_))));
    let mut file = net.to_file("v", "t");
    file.side_hidden = 100_000;
    assert!(Network::from_file(&file).is_err());
    assert!(Network::parse("{").is_err());
    assert_eq!(GLOBAL_INPUTS, encoding::GLOBAL_INPUT_NAMES.len());
}

#[test]
fn a_unit_turned_away_threatens_an_enemy_no_more_than_one_facing_it() {
    // Two infantry two squares apart: the first side's unit facing its enemy, or turned away from it.
    let board = |facing: &str| {
        format!(
            "name = \"t\"\nturns = 4\n[map]\nterrain = \"\"\"\n......\n......\n......\n......\n......\n......\n\"\"\"\n\
             [[sides]]\nid = \"a\"\nname = \"A\"\nhome = \"south\"\ncolour = \"red\"\n\
             [[sides]]\nid = \"b\"\nname = \"B\"\nhome = \"north\"\ncolour = \"black\"\n\
             [[units]]\nside = \"a\"\narm = \"infantry\"\nat = \"c2\"\nfacing = \"{facing}\"\n\
             [[units]]\nside = \"b\"\narm = \"infantry\"\nat = \"c4\"\nfacing = \"S\"\n"
        )
    };
    let kill_threatening = 21;
    let hit_threatening = 20;
    let mut x = Encoding::default();
    encode(&Battle::from_scenario(scenario(&board("N"))), &mut x);
    let facing = x.units[0].clone();
    encode(&Battle::from_scenario(scenario(&board("S"))), &mut x);
    let away = x.units[0].clone();
    assert!(
        facing[kill_threatening] >= away[kill_threatening],
        "{} < {}",
        facing[kill_threatening],
        away[kill_threatening]
    );
    assert!(facing[hit_threatening] >= away[hit_threatening]);
    assert!(away[kill_threatening] > 0.0, "a step and a charge still threaten it");
}

#[test]
fn the_td_player_plays_legal_orders_and_the_same_game_for_the_same_seed() {
    let net = Arc::new(Network::random(8, 8, 1));
    let play = |seed: u64| {
        let scenario = scenario(pacw_engine::DEFAULT_SCENARIO);
        let mut game = Game::with_scenario(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml", None, 11);
        let mut players = [TdPlayer::new(net.clone(), seed), TdPlayer::new(net.clone(), seed + 1)];
        let mut actions: Vec<Action> = Vec::new();
        while let ToAct::Side(side) = game.battle().to_act() {
            let action = players[side.index()].choose(game.battle());
            game.act(action).expect("a legal order");
            actions.push(action);
        }
        (actions, game.battle().result())
    };
    let (first, result) = play(4);
    assert!(result.is_some() && !first.is_empty());
    assert_eq!(play(4).0, first);
}

/// Under igougo and alternate activation a side that passes keeps its units back only until the next turn: the
/// network must not read them as activations still to come, or passing looks as good as acting.
#[test]
fn a_side_that_passed_has_no_activations_left_this_turn() {
    use pacw_engine::{Initiative, Options};
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    let own_left = encoding::GLOBAL_INPUT_NAMES.iter().position(|&n| n == "own_activations_left").unwrap();
    for initiative in [Initiative::Igougo, Initiative::Alternate] {
        let options = Options { initiative, ..Options::default() };
        let mut b = Battle::new(scenario(pacw_engine::DEFAULT_SCENARIO), options);
        let side = loop {
            match b.to_act() {
                ToAct::Side(side) => break side,
                _ => {
                    let outcome = b.sample_chance(&mut rng).unwrap();
                    b.apply_chance(outcome).unwrap();
                }
            }
        };
        let mut x = Encoding::default();
        encode(&b, &mut x);
        assert!(x.global[side.index()][own_left] > 0.0, "{initiative:?}: units still to activate");
        b.apply(Action::EndActivations).unwrap();
        assert!(b.is_done_this_turn(side));
        encode(&b, &mut x);
        assert_eq!(x.global[side.index()][own_left], 0.0, "{initiative:?}: none once it passed");
    }
}

/// The judge gives the network's own estimate exactly where a side is to act or a card is to be drawn, and averages
/// over the dice elsewhere: [`judge::estimates`] names those positions, the ones self-play learns from (a position it
/// is asked about but never learns from is judged by whatever the weights happen to say there).
#[test]
fn the_judge_estimates_where_a_side_acts_or_a_card_is_drawn_and_averages_the_dice() {
    use pacw_engine::ChanceKind;
    use rand::SeedableRng;
    let mut b = Battle::from_scenario(scenario(pacw_engine::DEFAULT_SCENARIO));
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut judge = Judge::new(Arc::new(Network::random(8, 8, 1)));
    let mut player = crate::GreedyPlayer::new(1);
    let (mut cards, mut rolls, mut decisions) = (0, 0, 0);
    for _ in 0..5000 {
        match b.to_act() {
            ToAct::Over(_) => break,
            ToAct::Side(_) => {
                decisions += 1;
                assert!(judge::estimates(&b));
                assert_eq!(judge.value(&b), judge.estimate(&b));
                let action = player.choose(&b);
                b.apply(action).unwrap();
            }
            ToAct::Chance(kind) => {
                if kind == ChanceKind::Card {
                    cards += 1;
                    assert!(judge::estimates(&b));
                    assert_eq!(judge.value(&b), judge.estimate(&b));
                } else {
                    rolls += 1;
                    assert!(!judge::estimates(&b), "{kind:?}");
                }
                let outcome = b.sample_chance(&mut dice).unwrap();
                b.apply_chance(outcome).unwrap();
            }
        }
    }
    assert!(b.result().is_some(), "the game ended");
    assert!(cards > 3 && rolls > 3 && decisions > 10, "{cards} cards, {rolls} rolls, {decisions} decisions");
}

#[test]
fn a_judge_averaging_cards_averages_the_draw_where_the_plain_judge_estimates_it() {
    let net = shared();
    let ended = positions(2)
        .into_iter()
        .filter_map(|mut b| {
            b.apply(Action::EndActivations).ok()?;
            (b.to_act() == ToAct::Chance(pacw_engine::ChanceKind::Card)).then_some(b)
        })
        .next()
        .expect("a side ends its activations before the next card");
    let (mut plain, mut averaging) = (Judge::new(net.clone()), Judge::new(net.clone()).averaging_cards());
    assert_eq!(plain.value(&ended), plain.estimate(&ended));
    let mut expected = 0.0;
    for (card, p) in ended.chance_outcomes() {
        let mut after = ended.clone();
        after.apply_chance_into(card, &mut Vec::new()).unwrap();
        expected += *p.numer() as f32 / *p.denom() as f32 * averaging.value(&after);
    }
    assert!((averaging.value(&ended) - expected).abs() < 1e-5);
    assert_ne!(averaging.value(&ended), plain.value(&ended));
    assert!(crate::player("td:cards", 1).is_some() && crate::player("td:deck", 1).is_none());
}

#[test]
fn the_shipped_weights_say_how_they_were_made_without_a_machine_s_folders() {
    let judges = [crate::evaluator::JUDGE_WEIGHTS, crate::evaluator::JUDGE_GRAND_WEIGHTS];
    for text in [EMBEDDED_NETWORK, crate::evaluator::EMBEDDED_WEIGHTS].into_iter().chain(judges) {
        let file: serde_json::Value = serde_json::from_str(text).unwrap();
        let trained = file["trained"].as_str().unwrap();
        assert!(trained.starts_with("pacw train"), "{trained}");
        assert!(!trained.split_whitespace().any(|w| w.trim_start_matches("--out=").starts_with('/')), "{trained}");
    }
}
