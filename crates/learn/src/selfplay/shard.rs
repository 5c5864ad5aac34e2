//! A round's games played on many machines: each shard plays the games whose place in the round is K−1 modulo N,
//! with the checkpoint's weights, and records their decisions; the merge replays them all (the dice come from each
//! game's seed) and fits the weights once, to the same end as a round played in one place.

use super::game::{Trajectory, play, replay};
use super::{Checkpoint, SelfPlayConfig};
use crate::LearnError;
use pacw_ai::network::Network;
use pacw_engine::Action;
use pacw_sim::Shard;
use pacw_sim::seed::splitmix64;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// The `format` of a shard file.
pub const SHARD_FORMAT: &str = "pacw-selfplay-shard";

/// One shard of a round: its games' decisions, and what they were played from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundShard {
    /// Always [`SHARD_FORMAT`].
    pub format: String,
    /// Rounds the checkpoint had played: the shard belongs to the next.
    pub rounds: u64,
    /// The digest of the weights that played ([`weights_digest`]).
    pub weights: String,
    /// Which shard of the round.
    pub shard: Shard,
    /// Its games, in order of index.
    pub games: Vec<RecordedGame>,
}

/// One game of a shard: its index in the run, and every decision of the sides.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RecordedGame {
    /// The game's index in the run (its battle and dice follow from the seed and it).
    pub index: u64,
    /// The sides' decisions, in order.
    pub actions: Vec<Action>,
}

/// A digest of a network's weights (their bits), naming the weights a shard was played with.
pub fn weights_digest(network: &Network) -> String {
    let digest = network.parameters().iter().fold(0x7063_6177_u64, |h, w| splitmix64(h ^ u64::from(w.to_bits())));
    format!("{digest:016x}")
}

impl SelfPlayConfig {
    /// The games of the round that starts after `played` games, those of `shard` alone if given.
    fn round_games(&self, played: u64, shard: Option<Shard>) -> impl Iterator<Item = u64> {
        let of = move |index: u64| shard.is_none_or(|s| (index - played) % s.n as u64 == s.k as u64 - 1);
        (played..played + self.games_per_round).filter(move |&i| of(i))
    }
}

impl Checkpoint {
    /// Plays `shard` of the next round with the weights as they stand (on the threads of the current rayon pool).
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network.
    pub fn play_shard(&self, shard: Shard) -> Result<RoundShard, LearnError> {
        let network = Arc::new(self.network()?);
        let indices: Vec<u64> = self.config.round_games(self.games(), Some(shard)).collect();
        let games = indices
            .into_par_iter()
            .map(|index| RecordedGame { index, actions: play(&self.config, &network, index).1 })
            .collect();
        Ok(RoundShard {
            format: SHARD_FORMAT.into(),
            rounds: self.rounds,
            weights: weights_digest(&network),
            shard,
            games,
        })
    }

    /// Learns from the next round's games, played by `shards` (every shard of the round once, in any order): the
    /// same weights as [`Checkpoint::round`] would give.
    ///
    /// # Errors
    /// When a shard belongs to another round or other weights, a shard is missing or given twice, a game is
    /// missing, or a recorded decision is illegal; the checkpoint is then unchanged.
    pub fn merge_round(&mut self, shards: &[RoundShard], trained: &str) -> Result<super::RoundReport, LearnError> {
        let started = std::time::Instant::now();
        let bad = |what: String| Err(LearnError::Config(what));
        let (network, adam) = self.next()?;
        let digest = weights_digest(&network);
        let Some(n) = shards.first().map(|s| s.shard.n) else {
            return bad("no shard to merge".into());
        };
        let mut seen = vec![false; n];
        for s in shards {
            if s.format != SHARD_FORMAT {
                return bad(format!("shard {}/{} is not a self-play shard", s.shard.k, s.shard.n));
            }
            if s.rounds != self.rounds || s.weights != digest {
                return bad(format!(
                    "shard {}/{} was played for round {} with other weights; the checkpoint is at round {}",
                    s.shard.k,
                    s.shard.n,
                    s.rounds + 1,
                    self.rounds + 1
                ));
            }
            if s.shard.n != n || std::mem::replace(&mut seen[s.shard.k - 1], true) {
                return bad(format!("shard {}/{} is given twice or belongs to another split", s.shard.k, s.shard.n));
            }
        }
        if let Some(k) = seen.iter().position(|&s| !s) {
            return bad(format!("shard {}/{n} is missing", k + 1));
        }
        let mut games: Vec<&RecordedGame> = shards.iter().flat_map(|s| &s.games).collect();
        games.sort_by_key(|g| g.index);
        let expected: Vec<u64> = self.config.round_games(self.games(), None).collect();
        if games.len() != expected.len() || games.iter().zip(&expected).any(|(g, &i)| g.index != i) {
            let (first, last) = (self.games(), self.games() + self.config.games_per_round - 1);
            return bad(format!("the shards do not hold exactly the round's games, {first} to {last}"));
        }
        let trajectories: Result<Vec<Trajectory>, String> =
            games.par_iter().map(|g| replay(&self.config, &network, g.index, &g.actions)).collect();
        let trajectories = trajectories.map_err(LearnError::Config)?;
        let report = self.learn(network, adam, &trajectories, trained);
        self.seconds += started.elapsed().as_secs_f64(); // the merge's own time: each shard's is its machine's
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SelfPlayConfig {
        SelfPlayConfig { games_per_round: 5, unit_hidden: 6, side_hidden: 5, generated: 1.0, ..Default::default() }
    }

    fn shards(run: &Checkpoint, n: usize) -> Vec<RoundShard> {
        (1..=n).map(|k| run.play_shard(Shard { k, n }).unwrap()).collect()
    }

    #[test]
    fn a_round_played_in_shards_and_merged_ends_as_one_played_in_one_place() {
        let mut whole = Checkpoint::start(small()).unwrap();
        whole.round("t").unwrap();
        whole.round("t").unwrap();

        let mut merged = Checkpoint::start(small()).unwrap();
        for _ in 0..2 {
            let mut parts = shards(&merged, 3);
            parts.reverse();
            let text = serde_json::to_string(&parts[0]).unwrap();
            assert_eq!(serde_json::from_str::<RoundShard>(&text).unwrap(), parts[0]);
            merged.merge_round(&parts, "t").unwrap();
        }
        assert_eq!(merged.network.weights, whole.network.weights);
        assert_eq!(merged.adam, whole.adam);
        assert_eq!(merged.rounds, 2);
    }

    #[test]
    fn shards_that_do_not_make_the_round_are_refused_and_leave_the_run_unchanged() {
        let mut run = Checkpoint::start(small()).unwrap();
        let parts = shards(&run, 2);
        let before = run.clone();
        let refused = |run: &mut Checkpoint, parts: &[RoundShard], why: &str| {
            let err = run.merge_round(parts, "t").unwrap_err().to_string();
            assert!(err.contains(why), "{err}");
            assert_eq!(*run, before);
        };
        refused(&mut run, &parts[..1], "shard 2/2 is missing");
        refused(&mut run, &[parts[0].clone(), parts[0].clone()], "given twice");
        refused(&mut run, &[], "no shard");
        let mut stale = parts.clone();
        stale[1].rounds = 7;
        refused(&mut run, &stale, "other weights");
        let mut short = parts.clone();
        short[0].games.pop();
        refused(&mut run, &short, "exactly the round's games");
        let mut tampered = parts.clone();
        let first = tampered[0].games[0].actions[0];
        tampered[0].games[0].actions.insert(0, first);
        tampered[0].games[0].actions.insert(0, first);
        let err = run.merge_round(&tampered, "t").unwrap_err().to_string();
        assert!(err.starts_with("game 0"), "{err}");
        assert_eq!(run, before);
        run.merge_round(&parts, "t").unwrap();
        assert_eq!(run.rounds, 1);
    }
}
