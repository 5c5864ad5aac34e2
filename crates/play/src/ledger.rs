//! The luck ledger: for each side, the expected results of its attacks from their exact odds (R6.4, R7, R9.2)
//! against what its dice actually gave.

use num_rational::Ratio;
use pacw_engine::odds::AttackResult;
use pacw_engine::odds::OddsReport;
use pacw_engine::{Event, Game, Prob, Side};
use serde::Serialize;
use std::collections::BTreeMap;

/// One attack made in the game.
#[derive(Serialize, Clone, Debug)]
pub struct LedgerAttack {
    /// The decision that made it (from 1).
    pub decision: usize,
    /// The attacking side.
    pub side: Side,
    /// The attacker.
    pub attacker: u8,
    /// Its odds when it was ordered.
    pub odds: OddsReport,
    /// What happened: `miss`, `shaken`, `retreat`, `destroyed` or `stand`.
    pub result: &'static str,
}

/// One side's account.
#[derive(Serialize, Clone, Debug)]
pub struct SideLedger {
    /// The side.
    pub side: Side,
    /// Attacks it made.
    pub attacks: usize,
    /// Expected number of each result (and of hits), as exact fractions.
    pub expected: BTreeMap<&'static str, String>,
    /// The same as decimals.
    pub expected_decimal: BTreeMap<&'static str, f64>,
    /// How many of each result it got.
    pub actual: BTreeMap<&'static str, u32>,
    /// Actual minus expected, per result (positive: more than expected).
    pub difference: BTreeMap<&'static str, f64>,
}

/// Both sides' accounts and every attack.
#[derive(Serialize, Clone, Debug)]
pub struct Ledger {
    /// First side, then second.
    pub sides: [SideLedger; 2],
    /// Every attack in order.
    pub attacks: Vec<LedgerAttack>,
}

const KEYS: [&str; 7] = ["hit", "miss", "no_effect", "shaken", "retreat", "destroyed", "stand"];

fn wide(p: Prob) -> Ratio<u64> {
    Ratio::new(*p.numer() as u64, *p.denom() as u64)
}

fn approx(r: &Ratio<u64>) -> f64 {
    *r.numer() as f64 / *r.denom() as f64
}

/// The ledger of a game, replayed from its start: each attacking decision's odds are taken from the battle as it
/// stood when the order was given ([`pacw_engine::Battle::attack_odds`]), its result from the dice that followed.
///
/// # Panics
/// If the game's own decisions do not replay from its start, or an attack's result has no column in the ledger; the
/// engine's replay of a game is exact, and every result has its column.
pub fn ledger(game: &Game) -> Ledger {
    let mut replay = game.undo(game.actions().len());
    let mut attacks = Vec::new();
    let mut expected = [[Ratio::<u64>::new(0, 1); KEYS.len()]; 2];
    let mut actual = [[0u32; KEYS.len()]; 2];
    for (i, &action) in game.actions().iter().enumerate() {
        let before = replay.battle().clone();
        let events = replay.act(action).expect("a game's own decisions replay");
        let (Some(_), Some(unit)) = (action.target(), before.active_unit()) else { continue };
        let Ok(odds) = before.attack_odds(unit, &action) else { continue };
        let from = events.iter().position(|e| matches!(e, Event::Attack { .. })).unwrap_or(0);
        let Some(result) = AttackResult::from_events(&events[from..]) else { continue };
        let side = before.info(unit).side;
        let s = side.index();
        let probs = [odds.hit(), odds.miss, odds.no_effect, odds.shaken, odds.retreat, odds.destroyed, odds.stand];
        for (e, p) in expected[s].iter_mut().zip(probs) {
            *e += wide(p);
        }
        let k = KEYS.iter().position(|&k| k == result.name()).expect("every result has a key");
        actual[s][k] += 1;
        if result != AttackResult::Miss {
            actual[s][0] += 1;
        }
        attacks.push(LedgerAttack {
            decision: i + 1,
            side,
            attacker: unit.0,
            odds: odds.report(Some(before.scenario().system())),
            result: result.name(),
        });
    }
    let sides = Side::BOTH.map(|side| {
        let s = side.index();
        SideLedger {
            side,
            attacks: attacks.iter().filter(|a| a.side == side).count(),
            expected: KEYS.iter().zip(&expected[s]).map(|(&k, e)| (k, e.to_string())).collect(),
            expected_decimal: KEYS.iter().zip(&expected[s]).map(|(&k, e)| (k, approx(e))).collect(),
            actual: KEYS.iter().zip(&actual[s]).map(|(&k, &n)| (k, n)).collect(),
            difference: KEYS
                .iter()
                .zip(expected[s].iter().zip(&actual[s]))
                .map(|(&k, (e, &n))| (k, n as f64 - approx(e)))
                .collect(),
        }
    });
    Ledger { sides, attacks }
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::ToAct;

    #[test]
    fn the_ledger_counts_every_attack_and_expectations_add_up() {
        let mut game = Game::new(pacw_engine::DEFAULT_SCENARIO, "meeting-engagement.toml", None, 11).unwrap();
        // Prefer attacks, so the game has some.
        while let ToAct::Side(_) = game.battle().to_act() {
            let legal = game.battle().legal_actions();
            let a = legal.iter().find(|a| a.target().is_some()).copied().unwrap_or(legal[legal.len() / 2]);
            game.act(a).unwrap();
        }
        let l = ledger(&game);
        assert!(!l.attacks.is_empty());
        for s in &l.sides {
            let results: u32 = ["miss", "shaken", "retreat", "destroyed", "stand"].iter().map(|k| s.actual[k]).sum();
            assert_eq!(results as usize, s.attacks);
            let e: f64 =
                ["miss", "shaken", "retreat", "destroyed", "stand"].iter().map(|k| s.expected_decimal[k]).sum();
            assert!((e - s.attacks as f64).abs() < 1e-9, "expected results sum to the attacks: {e}");
            assert_eq!(s.actual["hit"], s.attacks as u32 - s.actual["miss"]);
        }
        let attack_events = game.log().iter().filter(|e| matches!(e, Event::Attack { .. })).count();
        assert_eq!(attack_events, l.attacks.len());
    }
}
