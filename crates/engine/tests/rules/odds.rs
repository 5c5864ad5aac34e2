//! Proof that the odds and the game agree: a million attacks played through the battle's own chance sampling
//! (`Battle::sample_chance` with a seeded ChaCha8, then `Battle::apply_chance`), each result's frequency checked
//! against the exact fraction of `pacw_engine::odds` within four standard deviations (docs/rules.md R6.4, R7, R9.2).

use pacw_engine::Aspect;
use pacw_engine::odds::{AttackOdds, AttackResult, Situation, ready_to_order};
use pacw_engine::system::CombatSystem;
use pacw_engine::{
    Action, Arm, Battle, BlockedRetreat, ChanceKind, Initiative, Options, Quality, Scenario, Square, ToAct, UnitId,
};
use pacw_engine::{RetreatPath, Steadiness, Terrain};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// Attacks per situation; the twenty-four situations make 1.2 million.
const TRIALS: u32 = 50_000;

/// Plays `order` from `battle` `n` times with sampled dice and counts each result.
fn play(battle: &Battle, order: Action, n: u32, seed: u64) -> [u32; AttackResult::ALL.len()] {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut counts = [0u32; AttackResult::ALL.len()];
    let mut events = Vec::with_capacity(32);
    for _ in 0..n {
        let mut b = battle.clone();
        events.clear();
        b.apply_into(order, &mut events).expect("the order is legal");
        while let ToAct::Chance(ChanceKind::ToHit | ChanceKind::HitResult) = b.to_act() {
            let outcome = b.sample_chance(&mut rng).expect("a die is pending");
            b.apply_chance_into(outcome, &mut events).expect("a die outcome");
        }
        let result = AttackResult::from_events(&events).expect("the attack was resolved");
        counts[AttackResult::ALL.iter().position(|&r| r == result).unwrap()] += 1;
    }
    counts
}

/// Checks every result's frequency against its exact chance, within four standard deviations.
fn agree(label: &str, odds: &AttackOdds, counts: [u32; AttackResult::ALL.len()]) {
    let n: u32 = counts.iter().sum();
    for (i, r) in AttackResult::ALL.into_iter().enumerate() {
        let p = odds.probability(r);
        let exact = *p.numer() as f64 / *p.denom() as f64;
        let freq = counts[i] as f64 / n as f64;
        let sd = (exact * (1.0 - exact) / n as f64).sqrt();
        assert!(
            (freq - exact).abs() <= 4.0 * sd,
            "{label}: {} came {} times in {n} ({freq:.5}), exact {p} ({exact:.5}), 4 sd = {:.5}",
            r.name(),
            counts[i],
            4.0 * sd
        );
    }
}

fn abstract_situations() -> Vec<(Situation, Options)> {
    let d = Options::default();
    let stand = Options { blocked_retreat: BlockedRetreat::Stand, ..d };
    let s = Situation::new;
    vec![
        (s(Arm::Infantry, Arm::Infantry), d),
        (
            Situation {
                moved: true,
                terrain: Terrain::Woods,
                target_quality: Quality::Veteran,
                ..s(Arm::Infantry, Arm::Infantry)
            },
            d,
        ),
        (Situation { target_state: Steadiness::Shaken, ..s(Arm::Infantry, Arm::Cavalry) }, d),
        (Situation { distance: 1, ..s(Arm::Infantry, Arm::Infantry) }, d),
        (
            Situation {
                distance: 1,
                from: Aspect::Flank,
                target_quality: Quality::Green,
                ..s(Arm::Cavalry, Arm::Artillery)
            },
            d,
        ),
        (
            Situation {
                distance: 1,
                from: Aspect::Rear,
                moved: true,
                target_state: Steadiness::Shaken,
                ..s(Arm::Cavalry, Arm::Infantry)
            },
            d,
        ),
        (Situation { distance: 1, target_quality: Quality::Veteran, ..s(Arm::Artillery, Arm::Cavalry) }, d),
        (
            Situation {
                distance: 4,
                ranging: true,
                target_state: Steadiness::Shaken,
                ..s(Arm::Artillery, Arm::Infantry)
            },
            d,
        ),
        (Situation { distance: 3, terrain: Terrain::Woods, ..s(Arm::Artillery, Arm::Artillery) }, d),
        (Situation { retreat: RetreatPath::Blocked, ..s(Arm::Infantry, Arm::Infantry) }, d),
        (Situation { retreat: RetreatPath::Blocked, ..s(Arm::Infantry, Arm::Infantry) }, stand),
        (
            Situation {
                distance: 1,
                retreat: RetreatPath::Blocked,
                terrain: Terrain::Woods,
                ..s(Arm::Infantry, Arm::Cavalry)
            },
            d,
        ),
        (
            Situation {
                distance: 1,
                retreat: RetreatPath::Blocked,
                target_state: Steadiness::Shaken,
                ..s(Arm::Cavalry, Arm::Infantry)
            },
            stand,
        ),
        (
            Situation {
                target_state: Steadiness::Shaken,
                retreat: RetreatPath::Blocked,
                ..s(Arm::Infantry, Arm::Artillery)
            },
            stand,
        ),
        (s(Arm::Infantry, Arm::Infantry), Options { to_hit: 3, ..d }),
        // The scripted earlier attacks (shaken, ranging) under the other initiative systems (R3.5, R3.7).
        (
            Situation {
                distance: 2,
                ranging: true,
                target_state: Steadiness::Shaken,
                ..s(Arm::Artillery, Arm::Cavalry)
            },
            Options { initiative: Initiative::Igougo, ..d },
        ),
        (
            Situation {
                distance: 3,
                ranging: true,
                target_state: Steadiness::Shaken,
                ..s(Arm::Artillery, Arm::Infantry)
            },
            Options { initiative: Initiative::Alternate, ..d },
        ),
        (
            Situation { distance: 4, ranging: true, terrain: Terrain::Woods, ..s(Arm::Artillery, Arm::Infantry) },
            Options { once_per_turn: true, ..d },
        ),
        (Situation { moved: true, distance: 1, ..s(Arm::Infantry, Arm::Infantry) }, Options { to_hit: 6, ..d }),
    ]
}

/// A small scenario: side `a` (home south) and side `b` (home north), with the given map layers and units.
fn board(terrain: &str, elevation: &str, extra: &str, units: &[(&str, &str, &str, &str)]) -> Battle {
    let mut text = format!(
        "name = \"odds test\"\nturns = 9\n[map]\nterrain = \"\"\"\n{terrain}\"\"\"\nelevation = \"\"\"\n{elevation}\"\"\"\n{extra}\n\
         [[sides]]\nid = \"a\"\nname = \"A\"\nhome = \"south\"\n[[sides]]\nid = \"b\"\nname = \"B\"\nhome = \"north\"\n"
    );
    for (side, arm, at, facing) in units {
        text += &format!("[[units]]\nside = \"{side}\"\narm = \"{arm}\"\nat = \"{at}\"\nfacing = \"{facing}\"\n");
    }
    let scenario = Scenario::parse(&text, "odds-test.toml").unwrap_or_else(|e| panic!("{e}\n{text}"));
    Battle::from_scenario(Arc::new(scenario))
}

const OPEN: &str = "......\n......\n......\n......\n......\n......\n";
const FLAT: &str = "000000\n000000\n000000\n000000\n000000\n000000\n";

/// Attacks on real boards: fence cover (R6.3c), an uphill charge (R6.3b), a sunken road (R6.3a), and a Move & Fire
/// whose move leaves the target no square to retreat to (R7.3, R7.4).
fn board_situations() -> Vec<(&'static str, Battle, UnitId, Action)> {
    let sq = |s: &str| s.parse::<Square>().unwrap();
    let (u0, u1) = (UnitId(0), UnitId(1));
    let fence = board(OPEN, FLAT, "fences = [\"c3-c4\"]", &[("a", "inf", "c2", "N"), ("b", "inf", "c4", "S")]);
    let hill = board(
        OPEN,
        "000000\n000000\n000000\n001000\n000000\n000000\n",
        "",
        &[("a", "cav", "c2", "N"), ("b", "art", "c3", "S")],
    );
    let sunken = board(
        "......\n......\n......\n..S...\n......\n......\n",
        FLAT,
        "",
        &[("a", "inf", "c2", "N"), ("b", "inf", "c3", "E")],
    );
    // From c2 the target on c4 could retreat east to d4; after moving to d2 only west and north are farther
    // away, and both are river.
    let moved = board(
        "......\n..~...\n.~....\n......\n......\n......\n",
        FLAT,
        "[options]\nrange = { infantry = 3 }\nblocked_retreat = \"destroyed\"",
        &[("a", "inf", "c2", "N"), ("b", "inf", "c4", "S")],
    );
    let target = |b: &Battle| b.unit_at(sq("c4")).or(b.unit_at(sq("c3"))).unwrap();
    assert_eq!(target(&fence), u1);
    vec![
        ("fence", fence.clone(), u0, Action::Fire { target: u1, facing: pacw_engine::Dir::N }),
        ("fence, fire & move", fence, u0, Action::FireMove { target: u1 }),
        ("uphill charge", hill, u0, Action::Fire { target: u1, facing: pacw_engine::Dir::N }),
        ("sunken road, flank charge", sunken, u0, Action::Fire { target: u1, facing: pacw_engine::Dir::N }),
        ("move & fire", moved, u0, Action::MoveFire { to: sq("d2"), facing: pacw_engine::Dir::N, target: u1 }),
    ]
}

#[test]
fn odds_agree_with_a_million_sampled_attacks() {
    let mut played = 0;
    for (i, (situation, options)) in abstract_situations().into_iter().enumerate() {
        let setup = situation.setup(&options).unwrap_or_else(|e| panic!("{situation:?}: {e}"));
        let odds = setup.battle.attack_odds(setup.attacker, &setup.order).unwrap();
        assert_eq!(odds, situation.odds(&options).unwrap());
        let counts = play(&setup.battle, setup.order, TRIALS, i as u64);
        agree(&format!("{situation:?} under {options}"), &odds, counts);
        played += TRIALS;
    }
    // Under a variant's own modifier and hit-result table (a hit on a steady target by fire may change nothing).
    let system = Arc::new(
        CombatSystem::with_variant(
            "name = \"v\"\n[[modifiers]]\nid = \"V1\"\nvalue = -1\nwhen = \"not charge and target.quality == 'veteran'\"\n\
             [results]\nsteady_fire = [\"none\", \"retreat\"]\nshaken_charge = [\"shaken\", \"destroyed\"]\n",
            "v.toml",
        )
        .unwrap(),
    );
    let variant_cases = [
        Situation { target_quality: Quality::Veteran, ..Situation::new(Arm::Infantry, Arm::Infantry) },
        Situation { distance: 1, target_state: Steadiness::Shaken, ..Situation::new(Arm::Cavalry, Arm::Infantry) },
    ];
    for (i, situation) in variant_cases.into_iter().enumerate() {
        let options = Options::default();
        let setup = situation.setup_under(&options, Some(&system)).unwrap();
        let odds = setup.battle.attack_odds(setup.attacker, &setup.order).unwrap();
        assert!(odds.has_no_effect());
        let counts = play(&setup.battle, setup.order, TRIALS, 200 + i as u64);
        agree(&format!("{situation:?} under a variant"), &odds, counts);
        played += TRIALS;
    }
    for (i, (label, battle, attacker, order)) in board_situations().into_iter().enumerate() {
        // The odds are asked of the battle as the scenario starts; the attacks are played once it is activated.
        let odds = battle.attack_odds(attacker, &order).unwrap_or_else(|e| panic!("{label}: {e}"));
        let ready = ready_to_order(&battle, attacker).unwrap();
        assert_eq!(odds, ready.attack_odds(attacker, &order).unwrap(), "{label}");
        let counts = play(&ready, order, TRIALS, 100 + i as u64);
        agree(label, &odds, counts);
        played += TRIALS;
    }
    assert!(played >= 1_000_000, "{played}");
}

/// Attacks per situation and shipped variant.
const VARIANT_TRIALS: u32 = 15_000;

#[test]
fn every_shipped_variant_s_odds_agree_with_its_sampled_attacks() {
    let s = Situation::new;
    // Long-range fire into cover by veteran guns; fire at a shaken unit; a veteran charge into a shaken unit's flank.
    let situations = [
        Situation {
            attacker_quality: Quality::Veteran,
            distance: 3,
            terrain: Terrain::Woods,
            ..s(Arm::Artillery, Arm::Infantry)
        },
        Situation { target_state: Steadiness::Shaken, ..s(Arm::Infantry, Arm::Infantry) },
        Situation {
            attacker_quality: Quality::Veteran,
            distance: 1,
            target_state: Steadiness::Shaken,
            from: Aspect::Flank,
            ..s(Arm::Cavalry, Arm::Infantry)
        },
    ];
    for (v, &pacw_engine::Shipped { name, file, text }) in pacw_engine::SHIPPED_VARIANTS.iter().enumerate() {
        let system = Arc::new(CombatSystem::with_variant(text, file).unwrap());
        let mut options = Options::default();
        for (option, value) in system.changes_to_standard().iter().chain(system.options()) {
            options.set(option, value).unwrap();
        }
        let mut differs = false;
        for (i, situation) in situations.iter().enumerate() {
            let setup = situation.setup_under(&options, Some(&system)).unwrap();
            let odds = setup.battle.attack_odds(setup.attacker, &setup.order).unwrap();
            differs |= odds != situation.odds(&Options::default()).unwrap();
            let counts = play(&setup.battle, setup.order, VARIANT_TRIALS, 1000 + (10 * v + i) as u64);
            agree(&format!("{situation:?} under {name}"), &odds, counts);
        }
        assert!(differs, "{name}: the situations exercise what the variant changes");
    }
}

#[test]
fn odds_on_boards_cite_the_cover_rules() {
    let rules: Vec<Vec<&str>> = board_situations()
        .iter()
        .map(|(_, b, a, order)| b.attack_odds(*a, order).unwrap().modifiers().iter().map(|m| m.rule()).collect())
        .collect();
    assert_eq!(rules[0], ["R6.4", "R6.3c"]); // did not move; fence on the target's edge
    assert_eq!(rules[1], ["R6.3c"]); // Fire & Move counts as moved (R4.2)
    assert_eq!(rules[2], ["R6.4", "R6.3b"]); // did not move; charging uphill
    assert_eq!(rules[3], ["R6.4", "R6.4", "R6.3a"]); // did not move; flank charge; sunken road
}

#[test]
fn odds_of_move_and_fire_judge_the_retreat_from_the_destination() {
    let (_, battle, attacker, order) = board_situations().pop().unwrap();
    let target = order.target().unwrap();
    // From where the attacker stands now the target could retreat; from d2 it cannot (R7.3), so it is destroyed.
    assert!(battle.retreat_square(target, attacker).is_some());
    let odds = battle.attack_odds(attacker, &order).unwrap();
    assert!(odds.retreat_path.is_blocked());
    assert_eq!(odds.retreat, pacw_engine::Prob::from_integer(0));
    assert_eq!(odds.to_hit(), 5); // moved: no bonus (R6.4)
    assert_eq!(odds.destroyed.to_string(), "1/9"); // hit 1/3, then 5-6 retreat (blocked): 1/3 · 1/3
}
