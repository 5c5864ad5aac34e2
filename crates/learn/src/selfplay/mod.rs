//! Self-play training of the value network ([`pacw_ai::network`]), as TD-Gammon learnt: the network plays both sides
//! at one ply ([`pacw_ai::TdPlayer`], with a little exploration), and learns from each game to make its estimate of every
//! position it met agree with its estimate of the positions that followed, and at the end with the result: TD(λ),
//! by its forward view (each position's target is the λ-return of the values after it).
//!
//! Training goes in rounds. A round's games are all played by the same weights, each from the seed and its index
//! alone, so they can be played on any number of threads (or machines) with the same result; then the weights are
//! fitted to the round's targets (Adam, one pass in an order drawn from the seed and the round). After each round a
//! [`Checkpoint`] holds everything the next round needs, so a run stopped at any moment resumes exactly where it
//! was, and a resumed run ends with the same weights as an unbroken one.
//!
//! Every few rounds the network player plays a fixed set of games against greedy on the shipped battles: the
//! learning curve, scored by results and luck-adjusted (the luck of each game judged by the reference evaluator,
//! [`pacw_ai::Evaluator::embedded`], the same yardstick all along).

mod config;
mod curve;
mod fit;
mod game;
mod shard;

pub use config::{
    Averaging, LambdaFrom, MAX_CURVE_GAMES, MAX_GAMES, MAX_GAMES_PER_ROUND, MAX_RATE_STEPS, MAX_WIDENINGS, RateStep,
    SelfPlayConfig, ShareFrom, Widening,
};
pub use curve::{CurvePoint, against_greedy};
pub use fit::Adam;
pub use shard::{RecordedGame, RoundShard, SHARD_FORMAT, weights_digest};

use crate::LearnError;
use fit::fit;
use game::{Trajectory, play};
use pacw_ai::network::encoding::Encoding;
use pacw_ai::network::{Network, NetworkFile};
use pacw_sim::seed::splitmix64;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// The `format` of a checkpoint file.
pub const CHECKPOINT_FORMAT: &str = "pacw-selfplay";

/// Everything a run needs to go on: its settings, its rounds so far, the weights and the optimiser's state.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Checkpoint {
    /// Always [`CHECKPOINT_FORMAT`].
    pub format: String,
    /// The run's settings.
    pub config: SelfPlayConfig,
    /// Rounds played.
    pub rounds: u64,
    /// The network after them.
    pub network: NetworkFile,
    /// The optimiser's state.
    pub adam: Adam,
    /// The running average of the weights, when the run keeps one ([`SelfPlayConfig::averaging`]): what the run
    /// ships and measures.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub averaged: Option<NetworkFile>,
    /// The learning curve so far.
    pub curve: Vec<CurvePoint>,
    /// Seconds spent, over every session of the run.
    pub seconds: f64,
}

impl Checkpoint {
    /// The start of a run: random weights from the seed, nothing played.
    ///
    /// # Errors
    /// When the settings are refused ([`SelfPlayConfig::check`]).
    pub fn start(config: SelfPlayConfig) -> Result<Checkpoint, LearnError> {
        config.check()?;
        let network = Network::random(config.unit_hidden, config.side_hidden, splitmix64(config.seed ^ 0x006e_6574));
        Ok(Checkpoint {
            format: CHECKPOINT_FORMAT.into(),
            adam: Adam::new(network.parameters().len()),
            network: network.to_file("network-0", "untrained"),
            averaged: None,
            config,
            rounds: 0,
            curve: Vec::new(),
            seconds: 0.0,
        })
    }

    /// The run with the learning rate's changes from now on replaced by `ahead` ([`SelfPlayConfig::rescheduled`]).
    ///
    /// # Errors
    /// When a change would fall on rounds already played, or the schedule is refused.
    pub fn reschedule(&mut self, ahead: &[RateStep]) -> Result<(), LearnError> {
        self.config = self.config.rescheduled(self.games(), ahead)?;
        Ok(())
    }

    /// Self-play games played so far.
    pub fn games(&self) -> u64 {
        self.rounds * self.config.games_per_round
    }

    /// The run with the network's widenings from now on replaced by `ahead` ([`SelfPlayConfig::rewidened`]).
    ///
    /// # Errors
    /// When a widening would fall on rounds already played, or the widenings are refused.
    pub fn rewiden(&mut self, ahead: &[Widening]) -> Result<(), LearnError> {
        self.config = self.config.rewidened(self.games(), ahead)?;
        Ok(())
    }

    /// The network the next round plays with: the weights as they stand, [`Network::widened`] when the run's
    /// widenings say so.
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network, or cannot be widened as the run says.
    pub fn network(&self) -> Result<Network, LearnError> {
        Ok(self.next()?.0)
    }

    /// The run with the grand battle's shares from now on replaced by `ahead` ([`SelfPlayConfig::regranded`]).
    ///
    /// # Errors
    /// When a share would fall on games already played, or the shares are refused.
    pub fn regrand(&mut self, ahead: &[ShareFrom]) -> Result<(), LearnError> {
        self.config = self.config.regranded(self.games(), ahead)?;
        Ok(())
    }

    /// The run with its shares of games against greedy from now on replaced by `ahead`
    /// ([`SelfPlayConfig::resparred`]).
    ///
    /// # Errors
    /// When a share would fall on games already played, or the shares are refused.
    pub fn respar(&mut self, ahead: &[ShareFrom]) -> Result<(), LearnError> {
        self.config = self.config.resparred(self.games(), ahead)?;
        Ok(())
    }

    /// The run with the grand battle's values of λ from now on replaced by `ahead` ([`SelfPlayConfig::relambdaed`]).
    ///
    /// # Errors
    /// When a value would fall on games already played, or the values are refused.
    pub fn relambda(&mut self, ahead: &[LambdaFrom]) -> Result<(), LearnError> {
        self.config = self.config.relambdaed(self.games(), ahead)?;
        Ok(())
    }

    /// The run with its shares of games watched from now on replaced by `ahead` ([`SelfPlayConfig::rewatched`]).
    ///
    /// # Errors
    /// When a share would fall on games already played, or the shares are refused.
    pub fn rewatch(&mut self, ahead: &[ShareFrom]) -> Result<(), LearnError> {
        self.config = self.config.rewatched(self.games(), ahead)?;
        Ok(())
    }

    /// The run with its averages from now on replaced by `ahead` ([`SelfPlayConfig::reaveraged`]).
    ///
    /// # Errors
    /// When an average would fall on rounds already played, or the averages are refused.
    pub fn reaverage(&mut self, ahead: &[Averaging]) -> Result<(), LearnError> {
        self.config = self.config.reaveraged(self.games(), ahead)?;
        Ok(())
    }

    /// The weights the run would ship now: its running average when it keeps one, else the weights as they stand.
    pub fn shipped(&self) -> &NetworkFile {
        self.averaged.as_ref().unwrap_or(&self.network)
    }

    /// The network the next round plays with and the optimiser's state for its weights.
    fn next(&self) -> Result<(Network, Adam), LearnError> {
        let config = |e: pacw_ai::network::NetworkError| LearnError::Config(e.to_string());
        let stored = Network::from_file(&self.network).map_err(config)?;
        let (u, s) = self.config.sizes_at(self.games());
        if (u, s) == stored.hidden() {
            return Ok((stored, self.adam.clone()));
        }
        let (stored_u, stored_s) = stored.hidden();
        if u < stored_u || s < stored_s {
            return Err(LearnError::Config(format!(
                "the stored network's layers of {stored_u} and {stored_s} hidden units are wider than the run's \
                 {u} and {s} at {} games",
                self.games()
            )));
        }
        if self.adam.mean.len() != stored.parameters().len() || self.adam.square.len() != stored.parameters().len() {
            return Err(LearnError::Config("the optimiser's state does not fit the network".into()));
        }
        let seed = splitmix64(self.config.seed ^ self.games() ^ 0x7769_6465);
        // A new weight's second moment starts at the old weights' mean, not 0: Adam's steps are already past their
        // bias correction, and from 0 the new weights would take steps several times the rate at first, shaking
        // the network they join.
        let typical =
            self.adam.square.iter().map(|&v| f64::from(v)).sum::<f64>() / self.adam.square.len().max(1) as f64;
        let mut square = stored.carried(&self.adam.square, u, s);
        let old = stored.carried(&vec![1.0; self.adam.square.len()], u, s);
        for (v, _) in square.iter_mut().zip(&old).filter(|(_, kept)| **kept == 0.0) {
            *v = typical as f32;
        }
        let adam = Adam { steps: self.adam.steps, mean: stored.carried(&self.adam.mean, u, s), square };
        Ok((stored.widened(u, s, seed).map_err(config)?, adam))
    }

    /// Reads a checkpoint file.
    ///
    /// # Errors
    /// When it cannot be read, is not a checkpoint, or its weights do not fit this build's network.
    pub fn load(path: &Path) -> Result<Checkpoint, LearnError> {
        let text = std::fs::read_to_string(path).map_err(|e| LearnError::Io(path.into(), e))?;
        let checkpoint: Checkpoint = serde_json::from_str(&text)
            .map_err(|e| LearnError::Config(format!("{} is not a self-play checkpoint: {e}", path.display())))?;
        if checkpoint.format != CHECKPOINT_FORMAT {
            return Err(LearnError::Config(format!("{} is not a self-play checkpoint", path.display())));
        }
        checkpoint.config.check()?;
        if checkpoint.rounds.checked_mul(checkpoint.config.games_per_round).is_none_or(|games| games > MAX_GAMES) {
            return Err(LearnError::Config(format!("{}: more rounds than a run can have played", path.display())));
        }
        if !checkpoint.adam.mean.iter().chain(&checkpoint.adam.square).all(|x| x.is_finite()) {
            return Err(LearnError::Config(format!("{}: the optimiser's state is not finite", path.display())));
        }
        let network = Network::from_file(&checkpoint.network).map_err(|e| LearnError::Config(e.to_string()))?;
        if checkpoint.adam.mean.len() != network.parameters().len()
            || checkpoint.adam.square.len() != network.parameters().len()
        {
            return Err(LearnError::Config(format!(
                "{}: the optimiser's state does not fit the network",
                path.display()
            )));
        }
        checkpoint.network().map_err(|e| LearnError::Config(format!("{}: {e}", path.display())))?;
        if let Some(averaged) = &checkpoint.averaged {
            Network::from_file(averaged)
                .map_err(|e| LearnError::Config(format!("{}: the average of the weights: {e}", path.display())))?;
        }
        Ok(checkpoint)
    }

    /// Writes the checkpoint whole or not at all (to a file beside it, then renamed over it).
    ///
    /// # Errors
    /// When the file cannot be written.
    pub fn save(&self, path: &Path) -> Result<(), LearnError> {
        let text = serde_json::to_string(self).map_err(|e| LearnError::Config(e.to_string()))?;
        let partial = path.with_extension("partial");
        std::fs::write(&partial, text).map_err(|e| LearnError::Io(partial.clone(), e))?;
        std::fs::rename(&partial, path).map_err(|e| LearnError::Io(path.into(), e))
    }

    /// Plays and learns from one round of games (on the threads of the current rayon pool).
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network.
    pub fn round(&mut self, trained: &str) -> Result<RoundReport, LearnError> {
        let started = std::time::Instant::now();
        let (network, adam) = self.next()?;
        let shared = Arc::new(network.clone());
        let indices: Vec<u64> = (self.games()..self.games() + self.config.games_per_round).collect();
        let games: Vec<Trajectory> =
            indices.into_par_iter().map(|index| play(&self.config, &shared, index).0).collect();
        let report = self.learn(network, adam, &games, trained);
        self.seconds += started.elapsed().as_secs_f64();
        Ok(report)
    }

    /// Fits `network` (the round's, with the optimiser's state `adam`) to a round's games and makes it the
    /// checkpoint's, one round on.
    fn learn(&mut self, mut network: Network, mut adam: Adam, games: &[Trajectory], trained: &str) -> RoundReport {
        let samples: Vec<(&Encoding, f32)> = games.iter().flat_map(Trajectory::targets).collect();
        let seed = self.fit_seed();
        let rate = self.config.rate_at(self.games());
        let loss = fit(&mut network, &mut adam, &samples, rate, seed);
        let averaged = self.config.decay_at(self.games()).map(|decay| self.average(&network, decay));
        self.adam = adam;
        self.rounds += 1;
        let version = format!("network-{}", self.games());
        let trained = format!("{trained}; {} self-play games", self.games());
        self.network = network.to_file(&version, &trained);
        self.averaged = averaged.map(|a| a.to_file(&format!("{version}-averaged"), &trained));
        let positions = games.iter().map(|g| g.positions.len()).sum();
        RoundReport { games: self.games(), positions, loss }
    }

    /// The running average moved towards `network` by 1 − `decay`; `network` itself when the run has no average
    /// yet, or one of other layers (the network was widened).
    fn average(&self, network: &Network, decay: f32) -> Network {
        let Some(old) = self.averaged.as_ref().and_then(|a| Network::from_file(a).ok()) else {
            return network.clone();
        };
        if old.hidden() != network.hidden() {
            return network.clone();
        }
        let mut averaged = old;
        let weights: Vec<f32> = averaged
            .parameters()
            .iter()
            .zip(network.parameters())
            .map(|(&a, &w)| decay * a + (1.0 - decay) * w)
            .collect();
        averaged.set_parameters(&weights);
        averaged
    }

    /// Whether the learning curve is due a point now.
    pub fn curve_due(&self) -> bool {
        self.rounds.is_multiple_of(self.config.curve_every) && self.curve.last().is_none_or(|p| p.games < self.games())
    }

    /// Adds a point to the learning curve: the network the run would ship ([`Checkpoint::shipped`]) against greedy.
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network.
    pub fn add_curve_point(&mut self) -> Result<CurvePoint, LearnError> {
        let started = std::time::Instant::now();
        let network = match &self.averaged {
            Some(averaged) => Network::from_file(averaged).map_err(|e| LearnError::Config(e.to_string()))?,
            None => self.network()?,
        };
        let network = Arc::new(network);
        let mut point = against_greedy(&network, self.config.curve_games, self.config.seed);
        point.games = self.games();
        self.curve.push(point.clone());
        self.seconds += started.elapsed().as_secs_f64();
        Ok(point)
    }

    fn fit_seed(&self) -> u64 {
        splitmix64(self.config.seed ^ self.rounds.wrapping_mul(0x9e37_79b9))
    }
}

/// What a round did.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RoundReport {
    /// Self-play games played in all, this round's included.
    pub games: u64,
    /// Positions learnt from this round.
    pub positions: usize,
    /// The mean cross-entropy of the targets under the weights as they were fitted.
    pub loss: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn small() -> SelfPlayConfig {
        SelfPlayConfig { games_per_round: 3, unit_hidden: 6, side_hidden: 5, generated: 1.0, ..Default::default() }
    }

    #[test]
    fn a_resumed_run_ends_as_an_unbroken_one() {
        let mut unbroken = Checkpoint::start(small()).unwrap();
        unbroken.round("t").unwrap();
        unbroken.round("t").unwrap();

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        let mut first = Checkpoint::start(small()).unwrap();
        first.round("t").unwrap();
        first.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        assert_eq!(resumed.network, first.network);
        resumed.round("t").unwrap();
        assert_eq!(resumed.network.weights, unbroken.network.weights);
        assert_eq!(resumed.adam, unbroken.adam);
        assert_ne!(resumed.network.weights, Checkpoint::start(small()).unwrap().network.weights, "it learnt");
    }

    #[test]
    fn a_schedule_given_on_resuming_runs_as_if_given_at_the_start() {
        let step = [RateStep { games: 3, rate: 0.01 }];
        let mut unbroken = Checkpoint::start(small().rescheduled(0, &step).unwrap()).unwrap();
        unbroken.round("t").unwrap();
        unbroken.round("t").unwrap();

        let mut resumed = Checkpoint::start(small()).unwrap();
        resumed.round("t").unwrap();
        resumed.reschedule(&step).unwrap();
        resumed.round("t").unwrap();
        assert_eq!(resumed.network.weights, unbroken.network.weights);
        assert_eq!(resumed.config, unbroken.config);

        let mut constant = Checkpoint::start(small()).unwrap();
        constant.round("t").unwrap();
        constant.round("t").unwrap();
        assert_ne!(constant.network.weights, unbroken.network.weights, "the new rate was used");
    }

    #[test]
    fn a_schedule_cannot_change_the_rounds_already_played() {
        let mut run = Checkpoint::start(small()).unwrap();
        run.round("t").unwrap();
        run.round("t").unwrap();
        let err = run.reschedule(&[RateStep { games: 3, rate: 0.01 }]).unwrap_err();
        assert!(err.to_string().contains("already played"), "{err}");
        run.reschedule(&[RateStep { games: 6, rate: 0.01 }]).unwrap();
        run.reschedule(&[RateStep { games: 9, rate: 0.02 }]).unwrap();
        assert_eq!(run.config.rate_steps, [RateStep { games: 9, rate: 0.02 }], "a step not yet used may be replaced");
        run.round("t").unwrap();
        run.reschedule(&[RateStep { games: 12, rate: 0.01 }]).unwrap();
        let used = RateStep { games: 6, rate: 0.02 };
        assert!(run.reschedule(&[used]).is_err());
        assert_eq!(run.config.rate_steps, [RateStep { games: 12, rate: 0.01 }]);
        assert_eq!(run.config.rate_at(12), 0.01);
        assert_eq!(run.config.rate_at(11), small().learning_rate);
        let disordered = [RateStep { games: 12, rate: 0.01 }, RateStep { games: 9, rate: 0.01 }];
        assert!(run.reschedule(&disordered).is_err());
        assert!(run.reschedule(&[RateStep { games: 12, rate: 0.0 }]).is_err());
        assert_eq!("80000=0.0003".parse::<RateStep>().unwrap(), RateStep { games: 80_000, rate: 0.0003 });
        assert!("80000".parse::<RateStep>().is_err());
    }

    #[test]
    fn the_running_average_moves_towards_each_round_and_is_what_ships() {
        let mut run = Checkpoint::start(small()).unwrap();
        run.reaverage(&[Averaging { games: 3, decay: 0.25 }]).unwrap();
        run.round("t").unwrap();
        assert!(run.averaged.is_none(), "no average before its games");
        assert_eq!(run.shipped(), &run.network);
        run.round("t").unwrap();
        assert_eq!(run.averaged.as_ref().unwrap().weights, run.network.weights, "it starts at the weights");
        let before = run.network.weights.clone();

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        run.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        run.round("t").unwrap();
        resumed.round("t").unwrap();
        let timeless = |c: &Checkpoint| Checkpoint { seconds: 0.0, ..c.clone() };
        assert_eq!(timeless(&resumed), timeless(&run), "a resumed run averages alike");

        let averaged = &run.averaged.as_ref().unwrap().weights;
        for ((a, b), w) in averaged.iter().zip(&before).zip(&run.network.weights) {
            assert!((a - (0.25 * b + 0.75 * w)).abs() < 1e-6, "{a} is not between {b} and {w}");
        }
        assert_ne!(averaged, &run.network.weights);
        assert_eq!(run.shipped(), run.averaged.as_ref().unwrap());
        assert!(run.shipped().version.ends_with("-averaged"));

        run.reaverage(&[Averaging { games: 9, decay: 0.0 }]).unwrap();
        run.round("t").unwrap();
        assert!(run.averaged.is_none(), "a decay of 0 stops averaging");
        assert!(run.reaverage(&[Averaging { games: 12, decay: 1.0 }]).is_err(), "an average that never moves");
        assert!(run.reaverage(&[Averaging { games: 3, decay: 0.5 }]).is_err(), "rounds already played");
        assert_eq!("263000=0.98".parse::<Averaging>().unwrap(), Averaging { games: 263_000, decay: 0.98 });
        assert!("0.98".parse::<Averaging>().is_err());
    }

    #[test]
    fn the_grand_battle_gets_its_share_of_the_games_from_its_games_on() {
        let config = SelfPlayConfig { generated: 0.0, ..small() };
        let grand = config.regranded(0, &[ShareFrom { games: 4, share: 1.0 }]).unwrap();
        for index in 0..8 {
            let (before, after) = (config.battles(index).game(index), grand.battles(index).game(index));
            if index < 4 {
                assert_eq!((before.battle, before.seed), (after.battle, after.seed), "game {index} is unchanged");
            } else {
                assert_eq!(after.battle, "shipped:antietam");
                assert_ne!(before.battle, "shipped:antietam");
            }
        }
        assert!(config.regranded(0, &[ShareFrom { games: 4, share: 1.5 }]).is_err());
        assert_eq!("263000=0.05".parse::<ShareFrom>().unwrap(), ShareFrom { games: 263_000, share: 0.05 });
    }

    #[test]
    fn a_widening_given_on_resuming_runs_as_if_given_at_the_start() {
        let wider = [Widening { games: 3, unit_hidden: 9, side_hidden: 7 }];
        let mut unbroken = Checkpoint::start(small().rewidened(0, &wider).unwrap()).unwrap();
        unbroken.round("t").unwrap();
        assert_eq!((unbroken.network.unit_hidden, unbroken.network.side_hidden), (6, 5), "not yet");
        unbroken.round("t").unwrap();
        assert_eq!((unbroken.network.unit_hidden, unbroken.network.side_hidden), (9, 7));
        assert_eq!(unbroken.adam.mean.len(), unbroken.network.weights.len());

        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("run.json");
        let mut first = Checkpoint::start(small()).unwrap();
        first.round("t").unwrap();
        first.save(&path).unwrap();
        let mut resumed = Checkpoint::load(&path).unwrap();
        resumed.rewiden(&wider).unwrap();
        let (network, adam) = resumed.next().unwrap();
        assert_eq!(network.hidden(), (9, 7));
        let zeros = |v: &[f32]| v.iter().filter(|x| **x == 0.0).count();
        assert_eq!(zeros(&adam.square), zeros(&resumed.adam.square), "a new weight's second moment is not 0");
        assert_eq!(zeros(&adam.mean), zeros(&resumed.adam.mean) + adam.mean.len() - resumed.adam.mean.len());
        resumed.round("t").unwrap();
        assert_eq!(resumed.network.weights, unbroken.network.weights);
        assert_eq!(resumed.adam, unbroken.adam);
        assert_eq!(resumed.config, unbroken.config);
        resumed.save(&path).unwrap();
        assert_eq!(Checkpoint::load(&path).unwrap().network, resumed.network, "a widened run reads back");

        let err = resumed.rewiden(&[Widening { games: 3, unit_hidden: 10, side_hidden: 7 }]).unwrap_err();
        assert!(err.to_string().contains("already played"), "{err}");
        let narrower = [Widening { games: 9, unit_hidden: 8, side_hidden: 7 }];
        assert!(resumed.rewiden(&narrower).is_err(), "a layer may not shrink");
        assert_eq!(resumed.config, unbroken.config, "a refused widening changes nothing");
        assert_eq!(
            "113400=64,64".parse::<Widening>().unwrap(),
            Widening { games: 113_400, unit_hidden: 64, side_hidden: 64 }
        );
        assert!("113400=64".parse::<Widening>().is_err());
    }

    #[test]
    fn a_round_is_the_same_on_one_thread_and_two() {
        let on = |threads: usize| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| {
                let mut run = Checkpoint::start(small()).unwrap();
                run.round("t").unwrap();
                run.network.weights
            })
        };
        assert_eq!(on(1), on(2));
    }

    #[test]
    fn the_lambda_return_runs_from_the_result_back() {
        let x = Encoding::default();
        let positions = vec![x.clone(), x.clone(), x];
        let game =
            |lambda| Trajectory { positions: positions.clone(), values: vec![0.5, 0.6, 0.8], result: 1.0, lambda };
        let t: Vec<f32> = game(0.5).targets().into_iter().map(|(_, t)| t).collect();
        assert_eq!(t[2], 1.0);
        assert!((t[1] - (0.5 * 0.8 + 0.5 * 1.0)).abs() < 1e-6);
        assert!((t[0] - (0.5 * 0.6 + 0.5 * t[1])).abs() < 1e-6);
        let td0: Vec<f32> = game(0.0).targets().into_iter().map(|(_, t)| t).collect();
        assert_eq!(td0, vec![0.6, 0.8, 1.0]);
        let monte_carlo: Vec<f32> = game(1.0).targets().into_iter().map(|(_, t)| t).collect();
        assert_eq!(monte_carlo, vec![1.0; 3], "with λ = 1 every position learns the result");
    }

    #[test]
    fn bad_settings_and_files_are_refused() {
        assert!(Checkpoint::start(SelfPlayConfig { lambda: 1.5, ..small() }).is_err());
        assert!(Checkpoint::start(SelfPlayConfig { games_per_round: 0, ..small() }).is_err());
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.json");
        std::fs::write(&path, "{\"format\": 1}").unwrap();
        assert!(Checkpoint::load(&path).is_err());
        assert!(Checkpoint::load(&dir.path().join("missing.json")).is_err());
    }
}
