//! The value network: the first side's expected score of a position, learnt by playing itself (`pacw train
//! selfplay`, as TD-Gammon learnt backgammon).
//!
//! Each unit's row of the [`encoding`] goes through one small layer of its own (the same weights for every unit);
//! each side's units are summed and scaled by the battle's size, so that any battle from six units to 128 goes
//! through the same weights. A second layer reads, for each side, its own units, the enemy's and the game's numbers
//! from its point of view, and gives that side's score `z_s`; the first side's expected score is σ(z_A − z_B).
//! Swapping the sides swaps the two terms, so the network says exactly 1 − p of the mirror position.
//!
//! The forward pass is written by hand (no allocation once warmed up); the same code gives the gradient that
//! training follows.

pub mod encoding;
pub mod judge;

use encoding::{Encoding, GLOBAL_INPUT_NAMES, GLOBAL_INPUTS, UNIT_INPUT_NAMES, UNIT_INPUTS, encode};
use pacw_engine::{Battle, ScenarioRef};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// The `format` field of a network's weights file.
pub const NETWORK_FORMAT: &str = "pacw-network";

/// The network this build plays by (written by `pacw train selfplay`): `td` and the general's leaves. Positions are
/// judged by [`crate::evaluator::JUDGE_WEIGHTS`].
pub const EMBEDDED_NETWORK: &str = include_str!("../../weights/network.json");

/// The network the computer players of this process play by (`td`, and the search's `:e4` leaves) with its name:
/// this build's embedded one ([`EMBEDDED_NETWORK`]), unless [`play_by`] chose another before any of them judged.
#[derive(Debug)]
pub struct InPlay {
    /// The network.
    pub network: std::sync::Arc<Network>,
    /// Its version, as its weights file names it.
    pub version: String,
    /// How it was made, as its weights file says.
    pub trained: String,
}

static IN_PLAY: std::sync::OnceLock<InPlay> = std::sync::OnceLock::new();

/// The network in play ([`InPlay`]), read once and shared.
///
/// # Panics
/// If the embedded weights are not a valid network file, which a test rules out.
pub fn in_play() -> &'static InPlay {
    IN_PLAY.get_or_init(|| {
        let file: NetworkFile = serde_json::from_str(EMBEDDED_NETWORK).expect("checked by a test");
        InPlay::of(&file).expect("checked by a test")
    })
}

/// The network in play, shared.
pub fn shared() -> std::sync::Arc<Network> {
    in_play().network.clone()
}

/// Plays this process's `td` and `:e4` by the network of `text` (a weights file written by `pacw train selfplay
/// --export`) instead of the embedded one: the laboratory's way to measure a network before it ships.
///
/// # Errors
/// When the text is not a network of this build's inputs, or a player has already judged by the network in play
/// (the choice is made once, before play).
pub fn play_by(text: &str) -> Result<&'static InPlay, NetworkError> {
    let chosen = InPlay::of(&serde_json::from_str(text)?)?;
    IN_PLAY.set(chosen).map_err(|_| NetworkError::InPlay)?;
    Ok(in_play())
}

impl InPlay {
    fn of(file: &NetworkFile) -> Result<InPlay, NetworkError> {
        Ok(InPlay {
            network: std::sync::Arc::new(Network::from_file(file)?),
            version: file.version.clone(),
            trained: file.trained.clone(),
        })
    }
}

/// The most hidden units a layer may have (a bound on what a file makes the network do).
pub const MAX_LAYER: usize = 256;

/// A network's weights file as written to disk (JSON).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NetworkFile {
    /// Always [`NETWORK_FORMAT`].
    pub format: String,
    /// Its name and version, recorded by every review that judges by it (`network-1`, …).
    pub version: String,
    /// How it was made: the training command (relative paths only) and how many games it has played.
    pub trained: String,
    /// A unit's inputs, in order: they must be this build's ([`UNIT_INPUT_NAMES`]).
    pub unit_inputs: Vec<String>,
    /// A side's game inputs, in order: they must be this build's ([`GLOBAL_INPUT_NAMES`]).
    pub global_inputs: Vec<String>,
    /// Hidden units of the unit layer.
    pub unit_hidden: usize,
    /// Hidden units of the side layer.
    pub side_hidden: usize,
    /// Every weight, layer after layer (see [`Network::parameters`]).
    pub weights: Vec<f32>,
}

/// Why a network's weights file was refused.
#[derive(Debug, thiserror::Error)]
pub enum NetworkError {
    /// Not JSON of the file's shape.
    #[error("the network's weights file is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format.
    #[error("not a network weights file (format '{0}', expected '{NETWORK_FORMAT}')")]
    Format(String),
    /// Made for other inputs.
    #[error("the network was trained on other inputs ({0}); this build's differ")]
    Inputs(String),
    /// Another network is already in play in this process ([`play_by`]).
    #[error("the network in play was chosen already")]
    InPlay,
    /// The numbers do not fit the layers, or one is not finite.
    #[error("the weights do not fit the network: {0}")]
    Shape(String),
}

/// A checked network, ready to judge.
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    unit_hidden: usize,
    side_hidden: usize,
    params: Vec<f32>,
    /// The two layers' weights again, input by input (one input's weight for every hidden unit together), so that
    /// the forward pass adds whole rows of hidden units at once (which the compiler turns into vector instructions)
    /// and skips the inputs that are 0, most of a unit's row.
    by_input: [Vec<f32>; 2],
}

/// Where each layer's weights lie in [`Network::parameters`].
#[derive(Copy, Clone, Debug)]
struct Layout {
    /// The unit layer: `unit_hidden` rows of [`UNIT_INPUTS`] weights, then `unit_hidden` biases.
    w1: usize,
    b1: usize,
    /// The side layer: `side_hidden` rows of `side_inputs` weights, then `side_hidden` biases.
    w2: usize,
    b2: usize,
    /// The output: one weight a side hidden unit.
    v: usize,
    end: usize,
    side_inputs: usize,
}

impl Layout {
    fn of(unit_hidden: usize, side_hidden: usize) -> Layout {
        let side_inputs = 2 * unit_hidden + GLOBAL_INPUTS;
        let w1 = 0;
        let b1 = w1 + unit_hidden * UNIT_INPUTS;
        let w2 = b1 + unit_hidden;
        let b2 = w2 + side_hidden * side_inputs;
        let v = b2 + side_hidden;
        Layout { w1, b1, w2, b2, v, end: v + side_hidden, side_inputs }
    }
}

/// What a forward pass keeps to find the gradient after it: each unit's hidden sums and each side's inputs and
/// hidden sums. Reused from position to position.
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    pooled: [Vec<f32>; 2],
    unit_sums: [Vec<f32>; 2],
    side_inputs: [Vec<f32>; 2],
    side_sums: [Vec<f32>; 2],
}

impl Network {
    /// A network of these sizes with small random weights from `seed` (the start of training).
    ///
    /// # Panics
    /// If a size is 0 or above [`MAX_LAYER`].
    pub fn random(unit_hidden: usize, side_hidden: usize, seed: u64) -> Network {
        assert!((1..=MAX_LAYER).contains(&unit_hidden) && (1..=MAX_LAYER).contains(&side_hidden));
        let layout = Layout::of(unit_hidden, side_hidden);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut params = vec![0.0; layout.end];
        uniform(&mut rng, &mut params[layout.w1..layout.b1], UNIT_INPUTS);
        uniform(&mut rng, &mut params[layout.w2..layout.b2], layout.side_inputs);
        // The output starts small: an untrained network's chances stay near even.
        uniform(&mut rng, &mut params[layout.v..layout.end], side_hidden * 16);
        Network::of(unit_hidden, side_hidden, params)
    }

    /// Hidden units of the unit layer and of the side layer.
    pub fn hidden(&self) -> (usize, usize) {
        (self.unit_hidden, self.side_hidden)
    }

    /// This network with more hidden units, judging every position exactly as it did: each new unit's own weights
    /// are random (from `seed`), and every weight reading a new unit starts at 0, so training grows the new units
    /// from where the network stands (a run goes on bigger without starting again).
    ///
    /// # Errors
    /// When a layer would shrink or pass [`MAX_LAYER`].
    pub fn widened(&self, unit_hidden: usize, side_hidden: usize, seed: u64) -> Result<Network, NetworkError> {
        if unit_hidden < self.unit_hidden
            || side_hidden < self.side_hidden
            || unit_hidden > MAX_LAYER
            || side_hidden > MAX_LAYER
        {
            return Err(NetworkError::Shape(format!(
                "layers of {} and {} hidden units cannot become {unit_hidden} and {side_hidden} (they may only \
                 grow, up to {MAX_LAYER})",
                self.unit_hidden, self.side_hidden
            )));
        }
        let wide = Layout::of(unit_hidden, side_hidden);
        let mut params = self.carried(&self.params, unit_hidden, side_hidden);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for j in self.unit_hidden..unit_hidden {
            uniform(&mut rng, &mut params[wide.w1 + j * UNIT_INPUTS..][..UNIT_INPUTS], UNIT_INPUTS);
        }
        for j in self.side_hidden..side_hidden {
            uniform(&mut rng, &mut params[wide.w2 + j * wide.side_inputs..][..wide.side_inputs], wide.side_inputs);
        }
        Ok(Network::of(unit_hidden, side_hidden, params))
    }

    /// Numbers kept for each of this network's weights (an optimiser's moments, say), placed where the same weights
    /// lie in the network [`Network::widened`] to these sizes; a new weight's place holds 0.
    ///
    /// # Panics
    /// If `values` is not as long as [`Network::parameters`], or a layer would shrink.
    pub fn carried(&self, values: &[f32], unit_hidden: usize, side_hidden: usize) -> Vec<f32> {
        assert!(
            values.len() == self.params.len() && unit_hidden >= self.unit_hidden && side_hidden >= self.side_hidden
        );
        let (narrow, wide) = (self.layout(), Layout::of(unit_hidden, side_hidden));
        let h1 = self.unit_hidden;
        let mut out = vec![0.0; wide.end];
        for j in 0..h1 {
            out[wide.w1 + j * UNIT_INPUTS..][..UNIT_INPUTS]
                .copy_from_slice(&values[narrow.w1 + j * UNIT_INPUTS..][..UNIT_INPUTS]);
            out[wide.b1 + j] = values[narrow.b1 + j];
        }
        // A side's inputs are its own pooled units, the enemy's, then the game's numbers: each block keeps its
        // place at the start of the wider block.
        let column = |k: usize| if k < 2 * h1 { k / h1 * unit_hidden + k % h1 } else { k - 2 * h1 + 2 * unit_hidden };
        for j in 0..self.side_hidden {
            for k in 0..narrow.side_inputs {
                out[wide.w2 + j * wide.side_inputs + column(k)] = values[narrow.w2 + j * narrow.side_inputs + k];
            }
            out[wide.b2 + j] = values[narrow.b2 + j];
            out[wide.v + j] = values[narrow.v + j];
        }
        out
    }

    fn of(unit_hidden: usize, side_hidden: usize, params: Vec<f32>) -> Network {
        let mut network = Network { unit_hidden, side_hidden, params, by_input: Default::default() };
        network.transpose();
        network
    }

    /// Renews [`Network::by_input`] from the weights.
    fn transpose(&mut self) {
        let l = self.layout();
        let (h1, h2) = (self.unit_hidden, self.side_hidden);
        let p = &self.params;
        self.by_input[0] = (0..UNIT_INPUTS * h1).map(|i| p[l.w1 + (i % h1) * UNIT_INPUTS + i / h1]).collect();
        self.by_input[1] = (0..l.side_inputs * h2).map(|i| p[l.w2 + (i % h2) * l.side_inputs + i / h2]).collect();
    }

    /// The network of a weights file's text.
    ///
    /// # Errors
    /// When the text is not a network weights file of this build's inputs, or its numbers do not fit.
    pub fn parse(text: &str) -> Result<Network, NetworkError> {
        Network::from_file(&serde_json::from_str(text)?)
    }

    /// The network of a weights file.
    ///
    /// # Errors
    /// When the file is of another format or other inputs, or its numbers do not fit its layers.
    pub fn from_file(file: &NetworkFile) -> Result<Network, NetworkError> {
        if file.format != NETWORK_FORMAT {
            return Err(NetworkError::Format(file.format.clone()));
        }
        if file.unit_inputs.iter().map(String::as_str).ne(UNIT_INPUT_NAMES)
            || file.global_inputs.iter().map(String::as_str).ne(GLOBAL_INPUT_NAMES)
        {
            return Err(NetworkError::Inputs(format!(
                "{}; {}",
                file.unit_inputs.join(", "),
                file.global_inputs.join(", ")
            )));
        }
        let sizes = 1..=MAX_LAYER;
        if !sizes.contains(&file.unit_hidden) || !sizes.contains(&file.side_hidden) {
            return Err(NetworkError::Shape(format!(
                "layers of {} and {} hidden units (1 to {MAX_LAYER} each)",
                file.unit_hidden, file.side_hidden
            )));
        }
        let layout = Layout::of(file.unit_hidden, file.side_hidden);
        if file.weights.len() != layout.end {
            return Err(NetworkError::Shape(format!("{} weights, not {}", file.weights.len(), layout.end)));
        }
        if !crate::evaluator::bounded(&file.weights) {
            return Err(NetworkError::Shape(format!(
                "a weight is not a finite number within ±{}",
                crate::evaluator::MAX_WEIGHT
            )));
        }
        Ok(Network::of(file.unit_hidden, file.side_hidden, file.weights.clone()))
    }

    /// The weights file of this network.
    pub fn to_file(&self, version: &str, trained: &str) -> NetworkFile {
        NetworkFile {
            format: NETWORK_FORMAT.into(),
            version: version.into(),
            trained: trained.into(),
            unit_inputs: UNIT_INPUT_NAMES.map(String::from).to_vec(),
            global_inputs: GLOBAL_INPUT_NAMES.map(String::from).to_vec(),
            unit_hidden: self.unit_hidden,
            side_hidden: self.side_hidden,
            weights: self.params.clone(),
        }
    }

    /// Every weight, in the order of the file: the unit layer's rows and biases, the side layer's rows and biases,
    /// the output's weights.
    pub fn parameters(&self) -> &[f32] {
        &self.params
    }

    /// Sets every weight (training), in the order of [`Network::parameters`].
    ///
    /// # Panics
    /// If `weights` is not as long as [`Network::parameters`].
    pub fn set_parameters(&mut self, weights: &[f32]) {
        self.params.copy_from_slice(weights);
        self.transpose();
    }

    fn layout(&self) -> Layout {
        Layout::of(self.unit_hidden, self.side_hidden)
    }

    /// The first side's expected score of a position where a side is to act (or the battle is over: the network
    /// judges it as it stands; callers wanting the result use it).
    pub fn value<S: ScenarioRef>(&self, b: &Battle<S>, encoding: &mut Encoding, scratch: &mut Scratch) -> f32 {
        encode(b, encoding);
        sigmoid(self.logit(encoding, scratch))
    }

    /// The network's log-odds of an encoded position for the first side (before σ), keeping in `scratch` what its
    /// gradient needs.
    pub fn logit(&self, x: &Encoding, scratch: &mut Scratch) -> f32 {
        #[cfg(target_arch = "x86_64")]
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the processor has AVX2, as just checked.
            return unsafe { self.logit_avx2(x, scratch) };
        }
        self.logit_portable(x, scratch)
    }

    /// [`Network::logit`] compiled for AVX2, eight hidden units an instruction rather than SSE2's four. Each sum is
    /// still taken in the same order, and without fused multiply-adds, so the result is the same to the bit on any
    /// processor (self-play shards played on different machines merge into the same weights).
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    fn logit_avx2(&self, x: &Encoding, scratch: &mut Scratch) -> f32 {
        self.logit_portable(x, scratch)
    }

    /// [`Network::logit`] for any processor.
    #[inline(always)]
    fn logit_portable(&self, x: &Encoding, scratch: &mut Scratch) -> f32 {
        let l = self.layout();
        let (h1, h2) = (self.unit_hidden, self.side_hidden);
        let p = &self.params;
        let scale = 1.0 / x.scale.max(1.0);
        for ((pooled, sums), units) in scratch.pooled.iter_mut().zip(&mut scratch.unit_sums).zip(&x.units) {
            pooled.clear();
            pooled.resize(h1, 0.0);
            sums.clear();
            for row in units.chunks_exact(UNIT_INPUTS) {
                let start = sums.len();
                sums.extend_from_slice(&p[l.b1..l.b1 + h1]);
                layer(&self.by_input[0], row, &mut sums[start..]);
                for (a, sum) in pooled.iter_mut().zip(&sums[start..]) {
                    *a += sum.max(0.0);
                }
            }
            for a in pooled.iter_mut() {
                *a *= scale;
            }
        }
        let pooled = &scratch.pooled;
        let mut z = [0.0f32; 2];
        for side in 0..2 {
            let inputs = &mut scratch.side_inputs[side];
            inputs.clear();
            inputs.extend_from_slice(&pooled[side]);
            inputs.extend_from_slice(&pooled[1 - side]);
            inputs.extend_from_slice(&x.global[side]);
            let sums = &mut scratch.side_sums[side];
            sums.clear();
            sums.extend_from_slice(&p[l.b2..l.b2 + h2]);
            layer(&self.by_input[1], inputs, sums);
            z[side] = sums.iter().zip(&p[l.v..l.v + h2]).map(|(sum, v)| v * sum.max(0.0)).sum();
        }
        z[0] - z[1]
    }

    /// Adds `scale` times the gradient of the log-odds of the position last passed through [`Network::logit`] with
    /// `scratch` (and encoded as `x`) to `gradient`, one number a weight.
    pub fn add_gradient(&self, x: &Encoding, scratch: &Scratch, scale: f32, gradient: &mut [f32]) {
        let l = self.layout();
        let (h1, h2) = (self.unit_hidden, self.side_hidden);
        let p = &self.params;
        // The pooled units' gradient, for each side, from both sides' layers.
        let mut pooled_grad = [vec![0.0f32; h1], vec![0.0f32; h1]];
        for side in 0..2 {
            let sign = if side == 0 { scale } else { -scale };
            let inputs = &scratch.side_inputs[side];
            for j in 0..h2 {
                let sum = scratch.side_sums[side][j];
                gradient[l.v + j] += sign * sum.max(0.0);
                if sum <= 0.0 {
                    continue;
                }
                let delta = sign * p[l.v + j];
                gradient[l.b2 + j] += delta;
                let row = l.w2 + j * l.side_inputs;
                for (k, &input) in inputs.iter().enumerate() {
                    gradient[row + k] += delta * input;
                }
                for k in 0..h1 {
                    pooled_grad[side][k] += delta * p[row + k];
                    pooled_grad[1 - side][k] += delta * p[row + h1 + k];
                }
            }
        }
        let unit_scale = 1.0 / x.scale.max(1.0);
        for ((units, sums), pooled_grad) in x.units.iter().zip(&scratch.unit_sums).zip(&pooled_grad) {
            for (u, row) in units.chunks_exact(UNIT_INPUTS).enumerate() {
                for (j, &grad) in pooled_grad.iter().enumerate() {
                    if sums[u * h1 + j] <= 0.0 {
                        continue;
                    }
                    let delta = grad * unit_scale;
                    gradient[l.b1 + j] += delta;
                    let w = l.w1 + j * UNIT_INPUTS;
                    for (k, &input) in row.iter().enumerate() {
                        gradient[w + k] += delta * input;
                    }
                }
            }
        }
    }
}

/// Adds the weighted inputs to `sums` (which start as the biases): `by_input` holds, input after input, that
/// input's weight for every hidden unit. The layers' sizes that training makes (`--hidden`, `--widen-from`) are
/// compiled for their size, so that the sums stay in registers (two to three times fewer instructions); every size
/// takes the same sums in the same order, so the result is the same to the bit.
#[inline(always)]
fn layer(by_input: &[f32], inputs: &[f32], sums: &mut [f32]) {
    if let Ok(sums) = <&mut [f32; 64]>::try_from(&mut *sums) {
        layer_of_size(by_input, inputs, sums);
    } else if let Ok(sums) = <&mut [f32; 32]>::try_from(&mut *sums) {
        layer_of_size(by_input, inputs, sums);
    } else {
        layer_of_any_size(by_input, inputs, sums);
    }
}

/// [`layer`] of any size, the sums in memory.
#[inline(always)]
fn layer_of_any_size(by_input: &[f32], inputs: &[f32], sums: &mut [f32]) {
    let hidden = sums.len();
    for (&x, weights) in inputs.iter().zip(by_input.chunks_exact(hidden)) {
        if x != 0.0 {
            for (sum, w) in sums.iter_mut().zip(weights) {
                *sum += w * x;
            }
        }
    }
}

/// [`layer`] of `H` hidden units, known when compiled: the sums are kept in registers while the inputs are added.
#[inline(always)]
fn layer_of_size<const H: usize>(by_input: &[f32], inputs: &[f32], sums: &mut [f32; H]) {
    let mut kept = *sums;
    let (by_input, _) = by_input.as_chunks::<H>();
    for (&x, weights) in inputs.iter().zip(by_input) {
        if x != 0.0 {
            for (sum, w) in kept.iter_mut().zip(weights) {
                *sum += w * x;
            }
        }
    }
    *sums = kept;
}

/// Fills `weights` uniformly within ±√(6 / fan_in) (Glorot's bound).
fn uniform(rng: &mut ChaCha8Rng, weights: &mut [f32], fan_in: usize) {
    let bound = (6.0 / fan_in as f32).sqrt();
    for w in weights {
        *w = rng.random_range(-bound..bound);
    }
}

/// The logistic function.
#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}

#[cfg(test)]
mod tests;
