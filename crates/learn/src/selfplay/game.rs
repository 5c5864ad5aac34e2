//! One self-play game: the network player on both sides, and the positions it leaves to learn from.

use super::SelfPlayConfig;
use pacw_ai::evaluator::result_value;
use pacw_ai::network::encoding::{Encoding, encode};
use pacw_ai::network::judge::estimates;
use pacw_ai::network::{Network, Scratch, sigmoid};
use pacw_ai::{GreedyPlayer, Player, TdPlayer};
use pacw_engine::{Action, Battle, Side, ToAct};
use pacw_sim::seed::player_seed;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// The most decisions a game may take (a guard: every game ends by its turn limit long before).
pub(super) const MAX_DECISIONS: usize = 200_000;

/// One self-play game: every position the network player's judge estimates (a side to act, a card to be drawn:
/// [`estimates`]), the network's value of each (for the first side), the result, and the λ it is learnt with
/// ([`SelfPlayConfig::lambda_for`]).
pub(super) struct Trajectory {
    pub(super) positions: Vec<Encoding>,
    pub(super) values: Vec<f32>,
    pub(super) result: f32,
    pub(super) lambda: f32,
}

impl Trajectory {
    /// Each position with its λ-return: the result for the last, and for each other (1 − λ) times the next
    /// position's value plus λ times the next position's λ-return.
    pub(super) fn targets(&self) -> Vec<(&Encoding, f32)> {
        let lambda = self.lambda;
        let mut targets = vec![0.0; self.positions.len()];
        let mut ahead = self.result;
        for t in (0..self.positions.len()).rev() {
            targets[t] = ahead;
            ahead = (1.0 - lambda) * self.values[t] + lambda * ahead;
        }
        self.positions.iter().zip(targets).collect()
    }
}

/// Plays self-play game `index` with `network` on both sides, on one side against greedy when the run's sparring
/// share draws the game ([`SelfPlayConfig::greedy_side`]), or on neither when its watching share does
/// ([`SelfPlayConfig::watched`]): the positions to learn from, and every decision made (what a shard records for the
/// merge to replay).
pub(super) fn play(config: &SelfPlayConfig, network: &Arc<Network>, index: u64) -> (Trajectory, Vec<Action>) {
    let seed = config.battles(index).game(index).seed;
    let watched = config.watched(index);
    let greedy = if watched { None } else { config.greedy_side(index) };
    let mut players = [Side::A, Side::B].map(|side| -> Box<dyn Player> {
        let seed = player_seed(seed, side.index());
        if watched || greedy == Some(side) {
            Box::new(GreedyPlayer::new(seed))
        } else {
            Box::new(TdPlayer::new(network.clone(), seed).exploring(config.exploration))
        }
    });
    let mut actions = Vec::new();
    let trajectory = walk(config, network, index, |b, side| {
        let action = players[side.index()].choose(b);
        actions.push(action);
        Some(action)
    });
    // The player's own choices are legal, so the walk reads them all.
    let nothing = |_| Trajectory { positions: Vec::new(), values: Vec::new(), result: 0.5, lambda: config.lambda };
    (trajectory.unwrap_or_else(nothing), actions)
}

/// Game `index` played again from its recorded decisions (a shard's), its positions judged by `network`: the
/// trajectory [`play`] gave, when the record is the one it made with the same weights.
///
/// # Errors
/// When a decision is illegal where it falls, or the record ends before the game or goes on after it.
pub(super) fn replay(
    config: &SelfPlayConfig,
    network: &Network,
    index: u64,
    actions: &[Action],
) -> Result<Trajectory, String> {
    let mut recorded = actions.iter();
    let trajectory = walk(config, network, index, |_, _| recorded.next().copied())?;
    match recorded.len() {
        0 => Ok(trajectory),
        left => Err(format!("game {index}: {left} decisions are recorded after the game's end")),
    }
}

/// Game `index` from its first card to its end, each side's decision taken from `decide` and checked against the
/// rules, the dice drawn from the game's seed; every position the judge estimates recorded with its value.
fn walk(
    config: &SelfPlayConfig,
    network: &Network,
    index: u64,
    mut decide: impl FnMut(&Battle, Side) -> Option<Action>,
) -> Result<Trajectory, String> {
    let game = config.battles(index).game(index);
    let mut dice = ChaCha8Rng::seed_from_u64(game.seed);
    let mut b = Battle::new(game.scenario.clone(), game.options);
    let (mut positions, mut values) = (Vec::new(), Vec::new());
    let mut scratch = Scratch::default();
    let mut events = Vec::new();
    for decision in 0..MAX_DECISIONS {
        if estimates(&b) {
            let mut x = Encoding::default();
            encode(&b, &mut x);
            values.push(sigmoid(network.logit(&x, &mut scratch)));
            positions.push(x);
        }
        match b.to_act() {
            ToAct::Side(side) => {
                let action =
                    decide(&b, side).ok_or_else(|| format!("game {index}: the record ends before the game"))?;
                b.apply(action).map_err(|e| format!("game {index}, decision {decision}: {e}"))?;
            }
            ToAct::Chance(_) => {
                let outcome = b.sample_chance(&mut dice).ok_or_else(|| format!("game {index}: no chance outcome"))?;
                b.apply_chance_into(outcome, &mut events).map_err(|e| format!("game {index}: {e}"))?;
            }
            ToAct::Over(_) => break,
        }
    }
    let result = b.result().map_or(0.5, result_value);
    Ok(Trajectory { positions, values, result, lambda: config.lambda_for(index) })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::selfplay::{LambdaFrom, ShareFrom};

    #[test]
    fn a_game_against_greedy_is_drawn_from_its_share_and_greedy_makes_every_choice_of_its_side() {
        let config =
            SelfPlayConfig { games_per_round: 3, unit_hidden: 6, side_hidden: 5, generated: 1.0, ..Default::default() };
        let sparring = config.resparred(0, &[ShareFrom { games: 4, share: 1.0 }]).unwrap();
        let sides: Vec<Option<Side>> = (0..8).map(|index| sparring.greedy_side(index)).collect();
        assert_eq!(&sides[..4], [None; 4], "self-play before the share's games");
        assert_eq!(&sides[4..], [Some(Side::B), Some(Side::A), Some(Side::B), Some(Side::A)], "sides alternate");
        assert!((0..8).all(|index| config.greedy_side(index).is_none()), "no share, no greedy");
        let some = config.resparred(0, &[ShareFrom { games: 0, share: 0.5 }]).unwrap();
        let drawn = (0..200).filter(|&index| some.greedy_side(index).is_some()).count();
        assert!((70..130).contains(&drawn), "{drawn} of 200 games drawn at a share of one half");
        assert!(config.resparred(0, &[ShareFrom { games: 4, share: 1.5 }]).is_err());

        let network = Arc::new(Network::random(6, 5, 7));
        for index in [4, 5] {
            let (trajectory, actions) = play(&sparring, &network, index);
            let side = sparring.greedy_side(index).unwrap();
            let mut greedy = GreedyPlayer::new(player_seed(sparring.battles(index).game(index).seed, side.index()));
            let (mut recorded, mut chosen_by_greedy) = (actions.iter(), 0);
            let replayed = walk(&sparring, &network, index, |b, to_act| {
                let action = recorded.next().copied();
                if to_act == side {
                    assert_eq!(action, Some(greedy.choose(b)), "game {index}: greedy's choice");
                    chosen_by_greedy += 1;
                }
                action
            })
            .unwrap();
            assert!(chosen_by_greedy > 0);
            assert_eq!(replayed.values, trajectory.values, "every position learnt from, greedy's too");
        }
    }

    #[test]
    fn a_watched_game_is_greedy_on_both_sides_and_every_game_on_the_grand_battle_is_watched() {
        let config =
            SelfPlayConfig { games_per_round: 3, unit_hidden: 6, side_hidden: 5, generated: 1.0, ..Default::default() };
        let watching = config.rewatched(0, &[ShareFrom { games: 2, share: 1.0 }]).unwrap();
        let watched: Vec<bool> = (0..6).map(|index| watching.watched(index)).collect();
        assert_eq!(watched, [false, false, true, true, true, true]);
        assert!((0..6).all(|index| !config.watched(index)), "no share, no game watched");
        // Watching takes the game from the sparring share too.
        let both = watching.resparred(0, &[ShareFrom { games: 0, share: 1.0 }]).unwrap();
        let network = Arc::new(Network::random(6, 5, 7));
        let (trajectory, actions) = play(&both, &network, 3);
        let seed = both.battles(3).game(3).seed;
        let mut greedy = [Side::A, Side::B].map(|side| GreedyPlayer::new(player_seed(seed, side.index())));
        let mut recorded = actions.iter();
        let replayed = walk(&both, &network, 3, |b, side| {
            let action = recorded.next().copied();
            assert_eq!(action, Some(greedy[side.index()].choose(b)), "greedy's choice for {side:?}");
            action
        })
        .unwrap();
        assert!(!trajectory.positions.is_empty());
        assert_eq!(replayed.values, trajectory.values, "every position of a watched game is learnt from");

        let grand = config.regranded(0, &[ShareFrom { games: 0, share: 0.3 }]).unwrap();
        let barely = grand.rewatched(0, &[ShareFrom { games: 0, share: 0.01 }]).unwrap();
        let on_grand: Vec<u64> = (0..100).filter(|&index| grand.battles(index).on_grand_battle(index)).collect();
        assert!((15..45).contains(&on_grand.len()), "{} of 100 games on the grand battle", on_grand.len());
        assert!(on_grand.iter().all(|&index| barely.watched(index)), "every grand battle watched under a share");
        assert!(on_grand.iter().all(|&index| !grand.watched(index)), "and none without one");
        let others = (0..100).filter(|&index| !on_grand.contains(&index) && barely.watched(index)).count();
        assert!(others < 6, "{others} other games watched at a share of 0.01");
    }

    #[test]
    fn the_grand_battle_learns_with_its_own_lambda_from_its_games_on() {
        let config = SelfPlayConfig { generated: 0.0, ..Default::default() };
        let grand = config.regranded(0, &[ShareFrom { games: 0, share: 0.5 }]).unwrap();
        let results = grand.relambdaed(0, &[LambdaFrom { games: 40, lambda: 1.0 }]).unwrap();
        let (on_grand, elsewhere): (Vec<u64>, Vec<u64>) =
            (0..80).partition(|&index| grand.battles(index).on_grand_battle(index));
        assert!(on_grand.iter().any(|&i| i < 40) && on_grand.iter().any(|&i| i >= 40) && !elsewhere.is_empty());
        for index in on_grand {
            assert_eq!(results.lambda_for(index), if index < 40 { 0.7 } else { 1.0 }, "grand battle game {index}");
        }
        assert!(elsewhere.iter().all(|&index| results.lambda_for(index) == 0.7), "other battles keep the run's λ");
        assert!(grand.relambdaed(0, &[LambdaFrom { games: 0, lambda: 1.5 }]).is_err());
        assert_eq!("240200=1".parse::<LambdaFrom>(), Ok(LambdaFrom { games: 240_200, lambda: 1.0 }));
    }
}
