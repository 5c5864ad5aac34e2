//! The odds' own tests (the million sampled attacks are in tests/rules/odds.rs).

use super::*;
use crate::attack::{Cover, Modifier};
use crate::attack::{RetreatPath, Steadiness};
use crate::geometry::Aspect;
use crate::map::Terrain;
use crate::options::Options;
use crate::unit::{Arm, Quality};
use num_traits::One;

fn p(s: &str) -> Prob {
    match s.split_once('/') {
        Some((n, d)) => Prob::new(n.parse().unwrap(), d.parse().unwrap()),
        None => Prob::from_integer(s.parse().unwrap()),
    }
}

fn odds(s: Situation) -> AttackOdds {
    s.odds(&Options::default()).unwrap()
}

fn assert_results(o: &AttackOdds, miss: &str, shaken: &str, retreat: &str, destroyed: &str) {
    let got = [o.miss, o.shaken, o.retreat, o.destroyed];
    assert_eq!(got, [p(miss), p(shaken), p(retreat), p(destroyed)], "{o:?}");
    let total: Prob = got.iter().copied().sum::<Prob>() + o.stand;
    assert_eq!(total, Prob::from_integer(1));
}

#[test]
fn odds_r6_4_r7_1_infantry_that_did_not_move_shooting_at_steady_infantry() {
    // Needs 5 − 1 = 4: hit 1/2. Steady, not a charge: 1–4 shaken (4/6), 5–6 retreat (2/6).
    let o = odds(Situation::new(Arm::Infantry, Arm::Infantry));
    assert_eq!(o.to_hit(), 4);
    assert_eq!(o.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::DidNotMove]);
    assert_eq!(o.modifiers().applied().next().unwrap().to_string(), "R6.4 +1 attacker did not move");
    assert_results(&o, "1/2", "1/3", "1/6", "0");
}

#[test]
fn odds_r6_3a_cover_and_moving_cost_a_point_each() {
    // Moved (no bonus) and in woods (−1): needs 6, hit 1/6. Veteran infantry, strength 5, steady.
    let s = Situation {
        moved: true,
        terrain: Terrain::Woods,
        target_quality: Quality::Veteran,
        ..Situation::new(Arm::Infantry, Arm::Infantry)
    };
    let o = odds(s);
    assert_eq!(o.to_hit(), 6);
    let m: Vec<_> = o.modifiers().iter().collect();
    assert_eq!(m, vec![Modifier::Cover(Cover::Terrain(Terrain::Woods))]);
    assert_eq!(o.modifiers().applied().next().unwrap().to_string(), "R6.3a -1 cover: woods");
    assert_results(&o, "5/6", "5/36", "1/36", "0");
}

#[test]
fn odds_r7_1_shaken_target_retreats_or_is_destroyed() {
    // Shaken regular cavalry (strength 3) shot by infantry that did not move: hit 1/2, then 1–3 retreat, 4–6 destroyed.
    let o = odds(Situation { target_state: Steadiness::Shaken, ..Situation::new(Arm::Infantry, Arm::Cavalry) });
    assert!(o.assessment.target_shaken);
    assert_results(&o, "1/2", "0", "1/4", "1/4");
}

#[test]
fn odds_r6_1_r6_4_charges_from_flank_and_rear() {
    // Cavalry charge (distance 1), not moved (+1), from the flank (+1): needs 3, hit 2/3.
    // Green artillery, strength 1: 1 retreat, 2–6 destroyed.
    let s = Situation {
        distance: 1,
        from: Aspect::Flank,
        target_quality: Quality::Green,
        ..Situation::new(Arm::Cavalry, Arm::Artillery)
    };
    let o = odds(s);
    assert!(o.assessment.charge);
    assert_eq!(o.to_hit(), 3);
    assert!(o.modifiers().contains(Modifier::FlankCharge));
    assert_results(&o, "1/3", "0", "1/9", "5/9");
    let rear = odds(Situation { from: Aspect::Rear, moved: true, ..s });
    assert_eq!(rear.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::RearCharge]);
    assert_eq!(rear.to_hit(), 4);
}

#[test]
fn odds_r6_4_canister_and_ranging() {
    // Artillery gets no "did not move" bonus; canister +1 at distance 1 (needs 4).
    let canister = odds(Situation { distance: 1, ..Situation::new(Arm::Artillery, Arm::Infantry) });
    assert_eq!(canister.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::Canister]);
    assert_results(&canister, "1/2", "0", "1/3", "1/6");
    // Ranging +1 at distance 4 after an earlier attack at the same target.
    let s = Situation { distance: 4, ranging: true, ..Situation::new(Arm::Artillery, Arm::Infantry) };
    let ranging = odds(s);
    assert_eq!(ranging.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::Ranging]);
    assert_eq!(ranging.to_hit(), 4);
    let plain = odds(Situation { ranging: false, ..s });
    assert_eq!(plain.to_hit(), 5);
    assert!(plain.modifiers().iter().next().is_none());
}

#[test]
fn odds_r7_4_blocked_retreat_is_destroyed_or_stands() {
    let s = Situation { retreat: RetreatPath::Blocked, ..Situation::new(Arm::Infantry, Arm::Infantry) };
    let o = odds(s);
    assert!(o.retreat_path.is_blocked());
    assert_results(&o, "1/2", "1/3", "0", "1/6");
    assert!(!o.has_stand());
    let stand = s.odds(&Options { blocked_retreat: BlockedRetreat::Stand, ..Options::default() }).unwrap();
    assert!(stand.has_stand());
    assert_results(&stand, "1/2", "1/3", "0", "0");
    assert_eq!(stand.stand, p("1/6"));
    let names: Vec<_> = stand.results().map(|(r, _)| r.name()).collect();
    assert_eq!(names, ["miss", "shaken", "retreat", "destroyed", "stand"]);
    assert!(!odds(Situation::new(Arm::Infantry, Arm::Infantry)).retreat_path.is_blocked());
}

#[test]
fn odds_impossible_situations_are_refused_with_the_rule() {
    let refuse = |s: Situation| s.odds(&Options::default()).unwrap_err().rule;
    let inf = Situation::new(Arm::Infantry, Arm::Infantry);
    assert_eq!(refuse(Situation { from: Aspect::Flank, ..inf }), "R6.4");
    assert_eq!(refuse(Situation { ranging: true, ..inf }), "R6.4");
    assert_eq!(
        refuse(Situation { ranging: true, distance: 1, ..Situation::new(Arm::Artillery, Arm::Infantry) }),
        "R6.4"
    );
    assert_eq!(refuse(Situation { distance: 3, ..inf }), "R6.1");
    assert_eq!(refuse(Situation { distance: 0, ..inf }), "R6.1");
    assert_eq!(refuse(Situation::new(Arm::Cavalry, Arm::Infantry)), "R6.1");
    assert_eq!(refuse(Situation { moved: true, ..Situation::new(Arm::Artillery, Arm::Infantry) }), "R4.3");
}

#[test]
fn odds_sequence_of_attacks_by_hand() {
    // Infantry that did not move at regular infantry: steady → shaken 1/2, stays 1/2; shaken → destroyed 1/6.
    let run = odds(Situation::new(Arm::Infantry, Arm::Infantry)).sequence();
    assert_eq!(run.step(TargetState::Steady), [p("1/2"), p("1/2"), p("0")]);
    assert_eq!(run.step(TargetState::Shaken), [p("0"), p("5/6"), p("1/6")]);
    let e = |s: &str| s.parse::<Exact>().unwrap();
    let two = run.after(TargetState::Steady, 2);
    assert_eq!((two.steady.clone(), two.shaken.clone(), two.destroyed.clone()), (e("1/4"), e("2/3"), e("1/12")));
    assert_eq!(run.after(TargetState::Steady, 0), StateDistribution::certain(TargetState::Steady));
    // E(shaken) = 6; E(steady) = (1 + 1/2 · 6) / (1/2) = 8.
    assert_eq!(run.expected_attacks_to_destroy(TargetState::Shaken), Some(e("6")));
    assert_eq!(run.expected_attacks_to_destroy(TargetState::Steady), Some(e("8")));
    let json = serde_json::to_value(&two).unwrap();
    assert_eq!(json, serde_json::json!({"steady": "1/4", "shaken": "2/3", "destroyed": "1/12"}));
}

#[test]
fn odds_sequence_r7_4_blocked_charge_destroys_on_any_hit_result() {
    // A charge (needs 4) at blocked regular infantry: retreat is destroyed, so every hit destroys (1/2 each time).
    let s = Situation { distance: 1, retreat: RetreatPath::Blocked, ..Situation::new(Arm::Infantry, Arm::Infantry) };
    let run = odds(s).sequence();
    let e = |s: &str| s.parse::<Exact>().unwrap();
    assert_eq!(run.after(TargetState::Steady, 3).destroyed, e("7/8"));
    assert_eq!(run.expected_attacks_to_destroy(TargetState::Steady), Some(e("2")));
    // Under `stand` a blocked charge never destroys on 1–4: the target just stays shaken.
    let stand = s.odds(&Options { blocked_retreat: BlockedRetreat::Stand, ..Options::default() }).unwrap();
    let after = stand.sequence().after(TargetState::Steady, 1);
    assert_eq!((after.shaken, after.destroyed), (e("1/3"), e("1/6")));
}

#[test]
fn odds_sequences_are_exact_for_long_runs() {
    let run = odds(Situation { terrain: Terrain::Woods, ..Situation::new(Arm::Artillery, Arm::Infantry) }).sequence();
    let d = run.after(TargetState::Steady, 60);
    assert_eq!(&d.steady + &d.shaken + &d.destroyed, Exact::one());
    assert!(d.steady.denom().bits() > 64);
}

#[test]
fn odds_from_events_reads_each_result() {
    use crate::geometry::Square;
    let (u, sq) = (UnitId(1), Square::new(0, 0));
    let hit = |result| Event::HitResultRolled { unit: u, roll: 3, strength: 4, result };
    let to_hit = Event::ToHitRolled { roll: 6, hit: true };
    let cases = [
        (vec![to_hit, hit(HitResult::Shaken), Event::Shaken { unit: u }], AttackResult::Shaken),
        (vec![to_hit, hit(HitResult::Retreat), Event::Retreated { unit: u, from: sq, to: sq }], AttackResult::Retreat),
        (
            vec![to_hit, hit(HitResult::Retreat), Event::RetreatBlocked { unit: u }, Event::Destroyed { unit: u }],
            AttackResult::Destroyed,
        ),
        (
            vec![to_hit, hit(HitResult::Retreat), Event::RetreatBlocked { unit: u }, Event::Shaken { unit: u }],
            AttackResult::Stand,
        ),
        (vec![to_hit, hit(HitResult::Destroyed), Event::Destroyed { unit: u }], AttackResult::Destroyed),
        // A variant's after-attack rule destroys the attacker after the target stood, its retreat blocked: the
        // attack's result is still the target's.
        (
            vec![
                to_hit,
                hit(HitResult::Retreat),
                Event::RetreatBlocked { unit: u },
                Event::Shaken { unit: u },
                Event::Destroyed { unit: UnitId(0) },
                Event::AfterAttack {
                    unit: UnitId(0),
                    rule: 0,
                    effect: crate::system::AttackerEffect::Destroyed,
                    at: sq,
                },
            ],
            AttackResult::Stand,
        ),
    ];
    for (events, want) in cases {
        assert_eq!(AttackResult::from_events(&events), Some(want));
    }
    assert_eq!(AttackResult::from_events(&[]), None);
}

#[test]
fn odds_table_covers_every_case() {
    let rows = table(Arm::Infantry, false, &Options::default()).unwrap();
    assert_eq!(rows.len(), 3 * 3 * 2 * 2 * 2);
    for r in &rows {
        let odds = r.odds.as_ref().expect("the standard rules forbid no attack of the table");
        let total: Prob = odds.results().map(|(_, p)| p).sum();
        assert_eq!(total, Prob::from_integer(1));
        assert_eq!(odds.assessment.strength, r.situation.target_strength(&Options::default()));
        assert_eq!(odds.assessment.target_shaken, r.situation.target_state.is_shaken());
        assert_eq!(odds.assessment.charge, r.situation.charge());
    }
    // Cavalry (range 1) only charges.
    assert_eq!(table(Arm::Cavalry, false, &Options::default()).unwrap().len(), 36);
}

#[test]
fn odds_json_names_each_result_and_modifier() {
    let o = odds(Situation { terrain: Terrain::Woods, ..Situation::new(Arm::Infantry, Arm::Infantry) });
    let v = serde_json::to_value(o.report(None)).unwrap();
    assert_eq!(v["needed"], 5);
    assert_eq!((&v["fractions"]["miss"], &v["fractions"]["hit"]), (&"2/3".into(), &"1/3".into()));
    assert_eq!((&v["fractions"]["destroyed"], &v["decimals"]["destroyed"]), (&"0".into(), &0.0.into()));
    assert!(v["fractions"].get("no_effect").is_none(), "only where a variant's table has such hits");
    assert_eq!((&v["retreat_blocked"], &v["blocked_retreat"]), (&false.into(), &"destroyed".into()));
    assert_eq!(
        v["modifiers"],
        serde_json::json!([
            {"rule": "R6.4", "value": 1, "reason": "attacker did not move"},
            {"rule": "R6.3a", "value": -1, "reason": "cover: woods"}
        ])
    );
}

#[test]
fn a_shaken_target_is_shaken_whatever_the_variant_s_table_does_to_a_steady_one() {
    // Under this table a hit on a steady unit never shakes it: a scripted earlier hit could not set the question up.
    let text =
        "name = \"Mild\"\n[results]\nsteady_fire = [\"none\", \"shaken\"]\nsteady_charge = [\"none\", \"shaken\"]\n";
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(text, "mild.toml").unwrap());
    for distance in [2, 1] {
        let shaken =
            Situation { distance, target_state: Steadiness::Shaken, ..Situation::new(Arm::Infantry, Arm::Infantry) };
        let o = shaken.odds_under(&Options::default(), Some(&system)).unwrap();
        assert!(o.assessment.target_shaken, "distance {distance}: the target asked about is shaken");
        // The shaken rows are the standard's: no hit leaves a shaken target as it was.
        assert_eq!(o.no_effect, p("0"), "distance {distance}");
        let steady = Situation { target_state: Steadiness::Steady, ..shaken };
        assert!(!steady.odds_under(&Options::default(), Some(&system)).unwrap().assessment.target_shaken);
    }
}

#[test]
fn a_variant_s_own_arm_attacks_and_is_attacked_with_its_own_numbers_and_has_its_rows() {
    let text = "name = \"Skirmishers\"\n[[arms]]\nid = \"skirmishers\"\nlike = \"infantry\"\nstrength = 2\nrange = 3\n\
                [[modifiers]]\nid = \"S1\"\nname = \"hard to hit\"\nvalue = -1\nwhen = \"target.arm == 'skirmishers'\"\n";
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(text, "s.toml").unwrap());
    let (arm, own) = Situation::arm_of(&system, "skirmishers").unwrap();
    assert_eq!((arm, own), (Arm::Infantry, Some(3)));
    assert_eq!(Situation::arm_of(&system, "infantry"), Some((Arm::Infantry, None)));
    let o = Options::default();
    // Fired at: its own strength, and the variant's modifier sees its arm.
    let at = Situation { target_own: own, ..Situation::new(Arm::Infantry, arm) };
    let odds = at.odds_under(&o, Some(&system)).unwrap();
    assert_eq!(odds.assessment.strength, 2);
    assert_eq!(odds.to_hit(), 5, "5, +1 not moved, -1 S1");
    // Firing: its own range of 3, beyond infantry's 2.
    let far = Situation { distance: 3, attacker_own: own, ..Situation::new(arm, Arm::Infantry) };
    assert!(far.odds_under(&o, Some(&system)).is_ok());
    assert!(Situation { attacker_own: None, ..far }.odds_under(&o, Some(&system)).is_err());
    // Without the variant there is no such arm.
    assert!(far.odds_under(&o, None).is_err());
    // The table has the standard targets' rows, then its own.
    let rows = table_of(Arm::Infantry, None, false, &o, Some(&system)).unwrap();
    assert_eq!(rows.len(), 4 * 24);
    assert!(
        rows[72..].iter().all(|r| r.situation.target_own == own && r.odds.as_ref().unwrap().assessment.strength <= 3)
    );
}

/// The restrictions of docs/variants.md ("Orders forbidden"): M1 forbids a charge on a steady unit.
const STEADY_LINES: &str = "name = \"Steady lines\"\n[[restrictions]]\nid = \"M1\"\n\
                            name = \"troops will not charge a steady line\"\nwhen = \"charge and not target.shaken\"\n";

#[test]
fn the_table_shows_the_rows_a_restriction_forbids_and_computes_the_others() {
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(STEADY_LINES, "m1.toml").unwrap());
    let o = Options::default();
    let rows = table_under(Arm::Infantry, false, &o, Some(&system)).expect("a forbidden row is a row of the table");
    let standard = table(Arm::Infantry, false, &o).unwrap();
    assert_eq!(rows.len(), standard.len());
    let m1 = Forbidden { id: "M1".into(), name: "troops will not charge a steady line".into() };
    assert_eq!(m1.to_string(), "M1 troops will not charge a steady line");
    for (r, s) in rows.iter().zip(&standard) {
        assert_eq!(r.situation, s.situation);
        if r.situation.charge() && !r.situation.target_state.is_shaken() {
            assert_eq!(r.odds, Err(m1.clone()), "{:?}", r.situation);
        } else {
            // The rows M1 leaves alone are the standard's.
            let (odds, want) = (r.odds.as_ref().unwrap(), s.odds.as_ref().unwrap());
            assert_eq!(odds.results().collect::<Vec<_>>(), want.results().collect::<Vec<_>>(), "{:?}", r.situation);
        }
    }
    assert_eq!(rows.iter().filter(|r| r.odds.is_err()).count(), 3 * 3 * 2, "arm × quality × cover, charged steady");
    // A refusal that is not a restriction's is no row's: the situation cannot be asked at all.
    let refusal = Situation { distance: 3, ..Situation::new(Arm::Infantry, Arm::Infantry) }
        .odds_under(&o, Some(&system))
        .unwrap_err();
    assert_eq!(Forbidden::of(&refusal, Some(&system)), None);
}

/// A variant's terrain (docs/variants.md, "Terrain and movement"): woods that give no cover, a thicket that does,
/// a swamp that does not.
const OPEN_WOODS: &str = "name = \"Open woods\"\n[[terrain]]\nid = \"woods\"\ncover = false\n\
                          [[terrain]]\nid = \"thicket\"\nletter = \"K\"\nmove = 2\ncover = true\nblocks_sight = true\n\
                          [[terrain]]\nid = \"swamp\"\nletter = \"M\"\nmove = \"stop\"\n";

#[test]
fn a_situation_s_terrain_is_read_by_the_variant_s_terrain_rules() {
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(OPEN_WOODS, "open.toml").unwrap());
    let o = Options::default();
    let rules = system.terrain_rules();
    let (thicket, swamp) = (rules.by_id("thicket").unwrap(), rules.by_id("swamp").unwrap());
    let at = |terrain| Situation { terrain, ..Situation::new(Arm::Infantry, Arm::Infantry) };
    // Woods give no cover under these rules: +1 did not move alone, 4+.
    let woods = at(Terrain::Woods).odds_under(&o, Some(&system)).unwrap();
    assert_eq!(woods.modifiers().iter().collect::<Vec<_>>(), vec![Modifier::DidNotMove]);
    assert_eq!(woods.to_hit(), 4);
    assert!(!at(Terrain::Woods).in_cover(rules));
    // The thicket does, cited by its name (R6.3a); the swamp does not.
    let in_thicket = at(thicket).odds_under(&o, Some(&system)).unwrap();
    assert_eq!(in_thicket.to_hit(), 5);
    let cover = in_thicket.modifiers().applied().find(|m| m.modifier == Modifier::Cover(Cover::Terrain(thicket)));
    assert_eq!(system.describe(cover.expect("cover by the thicket").modifier).1, "cover: thicket");
    assert_eq!(at(swamp).odds_under(&o, Some(&system)).unwrap().to_hit(), 4);
    // Under the standard rules the woods still cover, and there is no thicket.
    assert_eq!(at(Terrain::Woods).odds(&o).unwrap().to_hit(), 5);
    assert_eq!(at(thicket).odds(&o).unwrap_err().rule, "R1.5");
    // The table's cover is the first kind that gives it: the town here.
    assert_eq!(Situation::cover_terrain(rules), Some(Terrain::Town));
    let rows = table_under(Arm::Infantry, false, &o, Some(&system)).unwrap();
    let covered: Vec<&TableRow> = rows.iter().filter(|r| r.situation.terrain != Terrain::Open).collect();
    assert_eq!(covered.len(), rows.len() / 2);
    for r in covered {
        assert_eq!(r.situation.terrain, Terrain::Town);
        let cover = Modifier::Cover(Cover::Terrain(Terrain::Town));
        assert!(r.odds.as_ref().unwrap().modifiers().iter().any(|m| m == cover), "{:?}", r.situation);
    }
}

#[test]
fn a_situation_s_target_stands_only_where_the_rules_let_a_unit_stand_and_a_blocked_retreat_stays_blocked() {
    let o = Options::default();
    let at = |terrain| Situation { terrain, ..Situation::new(Arm::Infantry, Arm::Infantry) };
    assert_eq!(at(Terrain::River).odds(&o).unwrap_err().rule, "R1.5");
    // A river that may be forded: a retreat is blocked by the variant's impassable kind instead.
    let fordable = "name = \"Fordable\"\n[[terrain]]\nid = \"river\"\nmove = \"stop\"\n";
    let cliffs = format!("{fordable}[[terrain]]\nid = \"cliff\"\nletter = \"C\"\nmove = \"impassable\"\n");
    let blocked = Situation { retreat: RetreatPath::Blocked, ..at(Terrain::Open) };
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(&cliffs, "cliffs.toml").unwrap());
    let odds = blocked.odds_under(&o, Some(&system)).unwrap();
    assert!(odds.retreat_path.is_blocked());
    assert_eq!(odds.retreat, p("0"), "a blocked retreat is destroyed (R7.4)");
    // With no impassable kind nothing can block it: refused rather than left open.
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(fordable, "fordable.toml").unwrap());
    assert_eq!(blocked.odds_under(&o, Some(&system)).unwrap_err().rule, "R7.4");
}

/// A rally roll (docs/variants.md, "Rally"), a to-hit modifier for a shaken attacker and a restriction on it.
const SHAKEN_ORDERS: &str = "name = \"Shaken orders\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n\
                             [[modifiers]]\nid = \"S1\"\nname = \"shaken troops shoot wild\"\nvalue = -1\n\
                             when = \"attacker.shaken\"\n[[restrictions]]\nid = \"M1\"\n\
                             name = \"shaken troops will not charge\"\nwhen = \"attacker.shaken and charge\"\n";

#[test]
fn a_shaken_attacker_is_asked_under_a_rally_roll_and_refused_where_activation_rallies() {
    let system = std::sync::Arc::new(crate::system::CombatSystem::with_variant(SHAKEN_ORDERS, "s.toml").unwrap());
    let o = Options::default();
    let steady = Situation::new(Arm::Infantry, Arm::Infantry);
    let shaken = Situation { attacker_state: Steadiness::Shaken, ..steady };
    // Under the standard rules R4.1 rallies it on activation: the question has no answer.
    let refusal = shaken.odds(&o).unwrap_err();
    assert_eq!(refusal.rule, Rule::R4_1, "{refusal}");
    // Under the variant the shaken attacker gives its order shaken, and S1 takes 1 from its roll: 5+ for 4+.
    let (calm, wild) = (steady.odds_under(&o, Some(&system)).unwrap(), shaken.odds_under(&o, Some(&system)).unwrap());
    assert_eq!(calm.assessment.needed, 4);
    assert_eq!(wild.assessment.needed, 5);
    assert!(wild.results().zip(calm.results()).any(|(a, b)| a != b));
    // M1 forbids it a charge, and the refusal names M1.
    let charge = Situation { distance: 1, ..shaken };
    let forbidden = charge.odds_under(&o, Some(&system)).unwrap_err();
    assert_eq!(Forbidden::of(&forbidden, Some(&system)).map(|f| f.id), Some("M1".to_string()), "{forbidden}");
    assert!(Situation { distance: 1, ..steady }.odds_under(&o, Some(&system)).is_ok());
}
