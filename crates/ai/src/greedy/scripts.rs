//! A portfolio of scripts: ways a unit may be played, each a variation of its side's greedy judgement, and an
//! assignment giving each unit of one side its script (Portfolio Greedy Search, Churchill & Buro). greedy plays an
//! assigned unit by its script's weights; a search improves the assignment by trying each unit's other scripts in
//! play-outs (`mcts:…:pgsN`).

use super::judgement::Weights;
use pacw_engine::{Side, UnitId};
use std::sync::Arc;

/// How a unit is played: its side's judgement, or a variation of it.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum Script {
    /// The side's own judgement.
    #[default]
    Greedy,
    /// Stay put and safe: no pull towards the objectives, twice the worth of cover and the fear of enemies in reach;
    /// it still shoots what comes into range.
    Hold,
    /// Go for the objectives: three times their pull, half the fear of enemies in reach.
    Advance,
    /// Close with the enemy: twice the worth of a target in the front arc, three times that of an enemy adjacent in
    /// front, half the fear of enemies in reach.
    Close,
}

impl Script {
    /// Every script, the side's own judgement first.
    pub const ALL: [Script; 4] = [Script::Greedy, Script::Hold, Script::Advance, Script::Close];

    /// Its place in [`Script::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The weights a unit of a side judging by `base` is played by under this script.
    pub fn weights(self, base: &Weights) -> Weights {
        let mut w = *base;
        match self {
            Script::Greedy => {}
            Script::Hold => {
                w.goal_distance = [0.0, 0.0];
                w.cover = base.cover.map(|c| 2.0 * c);
                w.in_reach = base.in_reach.map(|r| 2.0 * r);
            }
            Script::Advance => {
                w.goal_distance = base.goal_distance.map(|d| 3.0 * d);
                w.in_reach = base.in_reach.map(|r| 0.5 * r);
            }
            Script::Close => {
                w.target = base.target.map(|t| 2.0 * t);
                w.adjacent[0] = 3.0 * base.adjacent[0];
                w.in_reach = base.in_reach.map(|r| 0.5 * r);
            }
        }
        w
    }
}

/// Each unit of one side with its script (units not named play by [`Script::Greedy`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assignment {
    side: Side,
    scripts: Arc<[Script]>,
}

impl Assignment {
    /// Every unit of `side` (of `units` in the battle) by its side's own judgement.
    pub fn greedy(side: Side, units: usize) -> Assignment {
        Assignment { side, scripts: vec![Script::Greedy; units].into() }
    }

    /// The side whose units it assigns.
    pub fn side(&self) -> Side {
        self.side
    }

    /// The script of `unit`.
    pub fn script(&self, unit: UnitId) -> Script {
        self.scripts.get(unit.0 as usize).copied().unwrap_or_default()
    }

    /// This assignment with `unit` played by `script`.
    pub fn with(&self, unit: UnitId, script: Script) -> Assignment {
        let mut scripts = self.scripts.to_vec();
        if let Some(s) = scripts.get_mut(unit.0 as usize) {
            *s = script;
        }
        Assignment { side: self.side, scripts: scripts.into() }
    }

    /// Whether every unit plays by its side's own judgement.
    pub fn is_greedy(&self) -> bool {
        self.scripts.iter().all(|&s| s == Script::Greedy)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GreedyPlayer, Player};
    use pacw_engine::{DEFAULT_SCENARIO, Game, ToAct};

    /// The first `n` decisions of a game of the default scenario in which the first side plays by `assignment`.
    fn decisions(assignment: impl Fn(usize) -> Assignment, n: usize) -> Vec<pacw_engine::Action> {
        let mut game = Game::new(DEFAULT_SCENARIO, "default", None, 9).unwrap();
        let units = game.battle().scenario().units.len();
        let mut players = [GreedyPlayer::new(1).with_assignment(assignment(units)), GreedyPlayer::new(2)];
        let mut chosen = Vec::new();
        while let ToAct::Side(side) = game.battle().to_act()
            && chosen.len() < n
        {
            let action = players[side.index()].choose(game.battle());
            game.act(action).expect("greedy's choices are legal, whatever the scripts");
            chosen.push(action);
        }
        chosen
    }

    #[test]
    fn greedy_with_every_unit_on_the_greedy_script_plays_as_greedy_and_another_script_changes_its_play() {
        let plain = decisions(|units| Assignment::greedy(Side::B, units), 60);
        assert_eq!(decisions(|units| Assignment::greedy(Side::A, units), 60), plain);
        for script in &Script::ALL[1..] {
            let all =
                |units| (0..units).fold(Assignment::greedy(Side::A, units), |a, u| a.with(UnitId(u as u8), *script));
            assert_ne!(decisions(all, 60), plain, "{script:?}");
        }
    }

    #[test]
    fn the_greedy_script_is_the_sides_own_judgement_and_the_others_differ_from_it() {
        let base = Weights::TUNED;
        assert_eq!(Script::Greedy.weights(&base), base);
        for s in &Script::ALL[1..] {
            assert_ne!(s.weights(&base), base, "{s:?}");
        }
        assert_eq!(Script::Hold.weights(&base).goal_distance, [0.0, 0.0]);
    }

    #[test]
    fn an_assignment_changes_one_unit_at_a_time() {
        let plan = Assignment::greedy(Side::A, 4);
        assert!(plan.is_greedy());
        let changed = plan.with(UnitId(2), Script::Hold);
        assert_eq!(changed.script(UnitId(2)), Script::Hold);
        assert_eq!(changed.script(UnitId(1)), Script::Greedy);
        assert!(!changed.is_greedy());
        assert!(plan.is_greedy(), "the assignment it was made from is unchanged");
        assert_eq!(plan.script(UnitId(90)), Script::Greedy, "a unit beyond the assignment plays greedy");
    }
}
