//! Self-play training of the value network ([`pacw_ai::network`]), as TD-Gammon learnt: the network plays both sides
//! at one ply ([`TdPlayer`], with a little exploration), and learns from each game to make its estimate of every
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
//! [`Evaluator::embedded`], the same yardstick all along).

use crate::LearnError;
use crate::positions::PositionsConfig;
use pacw_ai::evaluator::result_value;
use pacw_ai::network::encoding::{Encoding, encode};
use pacw_ai::network::judge::estimates;
use pacw_ai::network::{Network, NetworkFile, Scratch, sigmoid};
use pacw_ai::{Evaluator, GreedyPlayer, Player, TdPlayer};
use pacw_engine::{Battle, Game, SHIPPED_SCENARIOS, Scenario, Side, ToAct};
use pacw_sim::seed::{game_seed, player_seed, splitmix64};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::Arc;

/// The `format` of a checkpoint file.
pub const CHECKPOINT_FORMAT: &str = "pacw-selfplay";

/// The most decisions a training game may take (a guard: every game ends by its turn limit long before).
const MAX_DECISIONS: usize = 200_000;

/// What decides a training run: the same from its first round to its last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// The seed of every game, choice and shuffle.
    pub seed: u64,
    /// Games a round.
    pub games_per_round: u64,
    /// λ of TD(λ): 0 learns from the next position alone, 1 from the result alone.
    pub lambda: f32,
    /// Adam's step size.
    pub learning_rate: f32,
    /// The share of decisions made at random.
    pub exploration: f64,
    /// Hidden units of the unit layer.
    pub unit_hidden: usize,
    /// Hidden units of the side layer.
    pub side_hidden: usize,
    /// The share of games on random battles (the rest on the shipped ones, Antietam included).
    pub generated: f64,
    /// Rounds between two points of the learning curve.
    pub curve_every: u64,
    /// Games a shipped battle for each point of the learning curve (sides swapping).
    pub curve_games: u64,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            seed: 1,
            games_per_round: 200,
            lambda: 0.7,
            learning_rate: 1e-3,
            exploration: 0.02,
            unit_hidden: 32,
            side_hidden: 32,
            generated: 0.5,
            curve_every: 10,
            curve_games: 8,
        }
    }
}

impl SelfPlayConfig {
    /// Checks the settings.
    ///
    /// # Errors
    /// A count of 0 or beyond its bound, a share or λ outside 0..=1, a step size that is not a small positive number, or a layer size
    /// out of range.
    pub fn check(&self) -> Result<(), LearnError> {
        let bad = |what: String| Err(LearnError::Config(what));
        if self.games_per_round == 0 || self.curve_every == 0 {
            return bad("games a round and rounds between curve points must each be at least 1".into());
        }
        if self.games_per_round > MAX_GAMES_PER_ROUND || self.curve_games > MAX_CURVE_GAMES {
            return bad(format!(
                "at most {MAX_GAMES_PER_ROUND} games a round and {MAX_CURVE_GAMES} games a battle at each curve point"
            ));
        }
        for (name, share) in [("generated", self.generated), ("exploration", self.exploration)] {
            if !(0.0..=1.0).contains(&share) {
                return bad(format!("the share of {name} must be from 0 to 1, not {share}"));
            }
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad(format!("λ must be from 0 to 1, not {}", self.lambda));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return bad(format!("the learning rate must be above 0 and at most 1, not {}", self.learning_rate));
        }
        let sizes = 1..=pacw_ai::network::MAX_LAYER;
        if !sizes.contains(&self.unit_hidden) || !sizes.contains(&self.side_hidden) {
            return bad(format!("hidden layers must have 1 to {} units", pacw_ai::network::MAX_LAYER));
        }
        Ok(())
    }

    /// The battles and dice of the games: the positions' own choice of battles, under the standard rules.
    fn battles(&self) -> PositionsConfig {
        PositionsConfig {
            seed: self.seed,
            held_out: Vec::new(),
            generated: self.generated,
            variants: 0.0,
            ..Default::default()
        }
    }
}

/// The most games a round may play (a round's games are held in memory until it is fitted).
pub const MAX_GAMES_PER_ROUND: u64 = 100_000;

/// The most games on each battle at a point of the learning curve.
pub const MAX_CURVE_GAMES: u64 = 10_000;

/// The most self-play games a checkpoint may say were played (far beyond any run; a larger count is damage).
pub const MAX_GAMES: u64 = 1 << 48;

/// Adam's running moments, kept in the checkpoint so that a resumed run steps as an unbroken one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Adam {
    /// Steps taken.
    pub steps: u64,
    /// The first moment of each weight.
    pub mean: Vec<f32>,
    /// The second moment of each weight.
    pub square: Vec<f32>,
}

impl Adam {
    fn new(weights: usize) -> Adam {
        Adam { steps: 0, mean: vec![0.0; weights], square: vec![0.0; weights] }
    }

    fn step(&mut self, weights: &mut [f32], gradient: &[f32], rate: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.steps = self.steps.saturating_add(1);
        let t = self.steps.min(1_000_000) as i32;
        let (c1, c2) = (1.0 - B1.powi(t), 1.0 - B2.powi(t));
        for (((w, &g), m), v) in weights.iter_mut().zip(gradient).zip(&mut self.mean).zip(&mut self.square) {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        }
    }
}

/// One point of the learning curve: the network player against greedy on the shipped battles.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CurvePoint {
    /// Self-play games played before it.
    pub games: u64,
    /// Games against greedy.
    pub played: u64,
    /// The network player's mean score (a win 1, a draw ½).
    pub score: f64,
    /// Its mean luck-adjusted score.
    pub luck_adjusted: f64,
    /// The standard error of the luck-adjusted mean.
    pub standard_error: f64,
}

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
            config,
            rounds: 0,
            curve: Vec::new(),
            seconds: 0.0,
        })
    }

    /// Self-play games played so far.
    pub fn games(&self) -> u64 {
        self.rounds * self.config.games_per_round
    }

    /// The network as it stands.
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network.
    pub fn network(&self) -> Result<Network, LearnError> {
        Network::from_file(&self.network).map_err(|e| LearnError::Config(e.to_string()))
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
        let network = checkpoint.network()?;
        if checkpoint.adam.mean.len() != network.parameters().len()
            || checkpoint.adam.square.len() != network.parameters().len()
        {
            return Err(LearnError::Config(format!(
                "{}: the optimiser's state does not fit the network",
                path.display()
            )));
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
        let mut network = self.network()?;
        let first = self.games();
        let shared = Arc::new(network.clone());
        let games: Vec<Trajectory> = (first..first + self.config.games_per_round)
            .into_par_iter()
            .map(|index| play(&self.config, &shared, index))
            .collect();
        let samples: Vec<(&Encoding, f32)> = games.iter().flat_map(|g| g.targets(self.config.lambda)).collect();
        let seed = self.fit_seed();
        let loss = fit(&mut network, &mut self.adam, &samples, self.config.learning_rate, seed);
        self.rounds += 1;
        let version = format!("network-{}", self.games());
        self.network = network.to_file(&version, &format!("{trained}; {} self-play games", self.games()));
        self.seconds += started.elapsed().as_secs_f64();
        let decisions = games.iter().map(|g| g.positions.len()).sum();
        Ok(RoundReport { games: self.games(), positions: decisions, loss })
    }

    /// Whether the learning curve is due a point now.
    pub fn curve_due(&self) -> bool {
        self.rounds.is_multiple_of(self.config.curve_every) && self.curve.last().is_none_or(|p| p.games < self.games())
    }

    /// Adds a point to the learning curve: the network as it stands against greedy.
    ///
    /// # Errors
    /// When the checkpoint's weights do not fit this build's network.
    pub fn add_curve_point(&mut self) -> Result<CurvePoint, LearnError> {
        let started = std::time::Instant::now();
        let network = Arc::new(self.network()?);
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

/// One self-play game: every position the network player's judge estimates (a side to act, a card to be drawn:
/// [`estimates`]), the network's value of each (for the first side), and the result.
struct Trajectory {
    positions: Vec<Encoding>,
    values: Vec<f32>,
    result: f32,
}

impl Trajectory {
    /// Each position with its λ-return: the result for the last, and for each other (1 − λ) times the next
    /// position's value plus λ times the next position's λ-return.
    fn targets(&self, lambda: f32) -> Vec<(&Encoding, f32)> {
        let mut targets = vec![0.0; self.positions.len()];
        let mut ahead = self.result;
        for t in (0..self.positions.len()).rev() {
            targets[t] = ahead;
            ahead = (1.0 - lambda) * self.values[t] + lambda * ahead;
        }
        self.positions.iter().zip(targets).collect()
    }
}

/// Plays self-play game `index` with `network` on both sides.
fn play(config: &SelfPlayConfig, network: &Arc<Network>, index: u64) -> Trajectory {
    let game = config.battles().game(index);
    let mut dice = ChaCha8Rng::seed_from_u64(game.seed);
    let mut players =
        [0, 1].map(|slot| TdPlayer::new(network.clone(), player_seed(game.seed, slot)).exploring(config.exploration));
    let mut b = Battle::new(game.scenario.clone(), game.options);
    let (mut positions, mut values) = (Vec::new(), Vec::new());
    let mut scratch = Scratch::default();
    let mut events = Vec::new();
    for _ in 0..MAX_DECISIONS {
        if estimates(&b) {
            let mut x = Encoding::default();
            encode(&b, &mut x);
            values.push(sigmoid(network.logit(&x, &mut scratch)));
            positions.push(x);
        }
        match b.to_act() {
            ToAct::Side(side) => {
                let action = players[side.index()].choose(&b);
                b.apply_unchecked(action, &mut events);
            }
            ToAct::Chance(_) => match b.sample_chance(&mut dice) {
                Some(outcome) => {
                    if b.apply_chance_into(outcome, &mut events).is_err() {
                        break;
                    }
                }
                None => break,
            },
            ToAct::Over(_) => break,
        }
    }
    let result = b.result().map_or(0.5, result_value);
    Trajectory { positions, values, result }
}

/// Fits the network to the targets: one pass of Adam in an order drawn from `seed`, in batches of 32. Returns the
/// mean cross-entropy of the targets as the pass met them.
fn fit(network: &mut Network, adam: &mut Adam, samples: &[(&Encoding, f32)], rate: f32, seed: u64) -> f64 {
    const BATCH: usize = 32;
    let mut order: Vec<usize> = (0..samples.len()).collect();
    order.shuffle(&mut ChaCha8Rng::seed_from_u64(seed));
    let mut gradient = vec![0.0; network.parameters().len()];
    let mut scratch = Scratch::default();
    let mut loss = 0.0f64;
    for batch in order.chunks(BATCH) {
        gradient.iter_mut().for_each(|g| *g = 0.0);
        for &i in batch {
            let (x, target) = samples[i];
            let p = sigmoid(network.logit(x, &mut scratch)).clamp(1e-6, 1.0 - 1e-6);
            loss -= f64::from(target * p.ln() + (1.0 - target) * (1.0 - p).ln());
            network.add_gradient(x, &scratch, (p - target) / batch.len() as f32, &mut gradient);
        }
        let mut weights = network.parameters().to_vec();
        adam.step(&mut weights, &gradient, rate);
        network.set_parameters(&weights);
    }
    loss / samples.len().max(1) as f64
}

/// The network player against greedy: `per_battle` games on each shipped battle, sides swapping, the same seeds
/// every time; each game's luck judged by the reference evaluator.
///
/// # Panics
/// If a shipped battle is refused by the engine, which the engine's tests rule out.
pub fn against_greedy(network: &Arc<Network>, per_battle: u64, seed: u64) -> CurvePoint {
    let evaluator = Evaluator::embedded();
    let games: Vec<(u64, u64)> =
        (0..SHIPPED_SCENARIOS.len() as u64).flat_map(|s| (0..per_battle).map(move |k| (s, k))).collect();
    let results: Vec<(f64, f64)> = games
        .par_iter()
        .map(|&(s, k)| {
            let shipped = &SHIPPED_SCENARIOS[s as usize];
            let scenario = Arc::new(Scenario::parse(shipped.text, shipped.file).expect("shipped battles are valid"));
            let game_seed = game_seed(seed ^ 0x6375_7276, s * 1_000_003 + k);
            let td_side = if k % 2 == 0 { Side::A } else { Side::B };
            let mut td = TdPlayer::new(network.clone(), player_seed(game_seed, 0));
            let mut greedy = GreedyPlayer::new(player_seed(game_seed, 1));
            let mut game = Game::with_scenario(scenario, shipped.text, shipped.file, None, game_seed);
            let mut decisions = 0;
            while let ToAct::Side(side) = game.battle().to_act() {
                let action = if side == td_side { td.choose(game.battle()) } else { greedy.choose(game.battle()) };
                game.act_unchecked(action);
                decisions += 1;
                if decisions >= MAX_DECISIONS {
                    break;
                }
            }
            let first = game.battle().result().map_or(0.5, result_value) as f64;
            let luck = pacw_sim::run::luck_of(&game, &evaluator) as f64 / 1e6;
            let of_td = |first: f64| if td_side == Side::A { first } else { 1.0 - first };
            (of_td(first), of_td(first - luck))
        })
        .collect();
    let n = results.len().max(1) as f64;
    let score = results.iter().map(|r| r.0).sum::<f64>() / n;
    let adjusted = results.iter().map(|r| r.1).sum::<f64>() / n;
    let variance = results.iter().map(|r| (r.1 - adjusted).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    CurvePoint {
        games: 0,
        played: results.len() as u64,
        score,
        luck_adjusted: adjusted,
        standard_error: (variance / n).sqrt(),
    }
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
        let game = Trajectory { positions: vec![x.clone(), x.clone(), x], values: vec![0.5, 0.6, 0.8], result: 1.0 };
        let t: Vec<f32> = game.targets(0.5).into_iter().map(|(_, t)| t).collect();
        assert_eq!(t[2], 1.0);
        assert!((t[1] - (0.5 * 0.8 + 0.5 * 1.0)).abs() < 1e-6);
        assert!((t[0] - (0.5 * 0.6 + 0.5 * t[1])).abs() < 1e-6);
        let td0: Vec<f32> = game.targets(0.0).into_iter().map(|(_, t)| t).collect();
        assert_eq!(td0, vec![0.6, 0.8, 1.0]);
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
