//! Fitting the evaluator's model to labelled positions with candle: a logistic regression (first), or the small odd
//! network of [`pacw_ai::evaluator::Model::Mlp`], both by full-batch AdamW on the log-loss of the play-outs' mean
//! result (a soft label: a position won in 12 of 16 play-outs is labelled 0.75).
//!
//! The features are scaled to unit spread for the fit (never shifted: the model stays odd) and the scale is folded
//! back into the weights, so the file's weights take the features as [`pacw_ai::evaluator::features`] gives them.
//! One game in ten (index 9 modulo 10) is kept out of the fit to measure it.

use crate::LearnError;
use crate::positions::Row;
use candle_core::{DType, Device, Tensor, Var};
use candle_nn::{AdamW, Optimizer, ParamsAdamW};
use pacw_ai::evaluator::{FEATURE_NAMES, FEATURES, MODEL_FORMAT, Model, ModelFile};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

/// Which model to fit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Logistic regression on the features.
    Logistic,
    /// The odd network with this many hidden units.
    Mlp(usize),
}

/// How to fit.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The model.
    pub kind: Kind,
    /// Full-batch steps of the optimiser.
    pub steps: usize,
    /// Its learning rate.
    pub learning_rate: f64,
    /// The features the model may use (by index); the others get weight 0. All of them by default.
    pub columns: Vec<usize>,
    /// The seed of the network's first weights.
    pub seed: u64,
}

impl FitConfig {
    /// The default fit of a model of `kind`.
    pub fn new(kind: Kind) -> FitConfig {
        let (steps, learning_rate) = match kind {
            Kind::Logistic => (1500, 0.05),
            Kind::Mlp(_) => (1000, 0.03),
        };
        FitConfig { kind, steps, learning_rate, columns: (0..FEATURES).collect(), seed: 1 }
    }
}

/// How well a model fits a set of positions.
#[derive(Copy, Clone, Debug, Default, PartialEq, Serialize)]
pub struct Metrics {
    /// Positions.
    pub positions: usize,
    /// Mean log-loss against the play-outs' mean result.
    pub log_loss: f64,
    /// Mean squared error against the play-outs' mean result.
    pub brier_rollouts: f64,
    /// Brier score against the games' own results.
    pub brier_results: f64,
}

/// A fitted model and how well it fits.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The model as a weights file.
    pub file: ModelFile,
    /// On the positions it was fitted to.
    pub train: Metrics,
    /// On the games kept out.
    pub validation: Metrics,
}

/// Whether a row's game is kept out of the fit to measure it.
pub fn is_validation(row: &Row) -> bool {
    row.game % 10 == 9
}

/// Fits a model to `rows` (those of validation games kept out) and names it `version`, made by `trained`.
///
/// # Errors
/// When there is nothing to fit, or the fit fails (a number that is not finite).
pub fn fit(rows: &[Row], config: &FitConfig, version: &str, trained: &str) -> Result<Fitted, LearnError> {
    fit_with_progress(rows, config, version, trained, &|_| {})
}

/// As [`fit`], calling `progress(steps done)` after each step of the optimiser.
///
/// # Errors
/// As [`fit`].
pub fn fit_with_progress(
    rows: &[Row],
    config: &FitConfig,
    version: &str,
    trained: &str,
    progress: &dyn Fn(usize),
) -> Result<Fitted, LearnError> {
    let train: Vec<&Row> = rows.iter().filter(|r| !is_validation(r)).collect();
    let held: Vec<&Row> = rows.iter().filter(|r| is_validation(r)).collect();
    if train.is_empty() {
        return Err(LearnError::Config("no positions to fit (every game was kept out for validation)".into()));
    }
    let fail = |e: candle_core::Error| LearnError::Fit(e.to_string());
    let device = Device::Cpu;
    // Each feature's spread (root mean square: the features are odd, so they are not centred).
    let mut scale = [1.0f32; FEATURES];
    for (i, s) in scale.iter_mut().enumerate() {
        let ms = train.iter().map(|r| (r.features[i] as f64).powi(2)).sum::<f64>() / train.len() as f64;
        *s = if ms > 1e-12 && config.columns.contains(&i) { (1.0 / ms.sqrt()) as f32 } else { 0.0 };
    }
    let x: Vec<f32> = train.iter().flat_map(|r| r.features.iter().zip(&scale).map(|(x, s)| x * s)).collect();
    let x = Tensor::from_vec(x, (train.len(), FEATURES), &device).map_err(fail)?;
    let y: Vec<f32> = train.iter().map(|r| r.mean).collect();
    let y = Tensor::from_vec(y, (train.len(), 1), &device).map_err(fail)?;

    let mut rng = ChaCha8Rng::seed_from_u64(config.seed);
    let model = match config.kind {
        Kind::Logistic => {
            let w =
                Var::from_tensor(&Tensor::zeros((FEATURES, 1), DType::F32, &device).map_err(fail)?).map_err(fail)?;
            let mut opt = adam(vec![w.clone()], config.learning_rate).map_err(fail)?;
            for step in 0..config.steps {
                let z = x.matmul(w.as_tensor()).map_err(fail)?;
                opt.backward_step(&log_loss(&z, &y).map_err(fail)?).map_err(fail)?;
                progress(step + 1);
            }
            let w: Vec<f32> = w.as_tensor().flatten_all().and_then(|t| t.to_vec1()).map_err(fail)?;
            Model::Logistic { weights: w.iter().zip(&scale).map(|(w, s)| w * s).collect() }
        }
        Kind::Mlp(units) => {
            let init: Vec<f32> =
                (0..FEATURES * units).map(|_| rng.random_range(-1.0..1.0f32) / (FEATURES as f32).sqrt()).collect();
            let w =
                Var::from_tensor(&Tensor::from_vec(init, (FEATURES, units), &device).map_err(fail)?).map_err(fail)?;
            let c: Vec<f32> = (0..units).map(|_| rng.random_range(-1.0..1.0f32)).collect();
            let c = Var::from_tensor(&Tensor::from_vec(c, (1, units), &device).map_err(fail)?).map_err(fail)?;
            let v: Vec<f32> = (0..units).map(|_| rng.random_range(-0.1..0.1f32)).collect();
            let v = Var::from_tensor(&Tensor::from_vec(v, (units, 1), &device).map_err(fail)?).map_err(fail)?;
            let mut opt = adam(vec![w.clone(), c.clone(), v.clone()], config.learning_rate).map_err(fail)?;
            for step in 0..config.steps {
                let z = odd_net(&x, w.as_tensor(), c.as_tensor(), v.as_tensor()).map_err(fail)?;
                opt.backward_step(&log_loss(&z, &y).map_err(fail)?).map_err(fail)?;
                progress(step + 1);
            }
            let w = w.as_tensor().t().and_then(|t| t.to_vec2::<f32>()).map_err(fail)?;
            Model::Mlp {
                hidden: w.into_iter().map(|row| row.iter().zip(&scale).map(|(w, s)| w * s).collect()).collect(),
                bias: c.as_tensor().flatten_all().and_then(|t| t.to_vec1()).map_err(fail)?,
                output: v.as_tensor().flatten_all().and_then(|t| t.to_vec1()).map_err(fail)?,
            }
        }
    };
    let file = ModelFile {
        format: MODEL_FORMAT.into(),
        version: version.into(),
        trained: trained.into(),
        features: FEATURE_NAMES.iter().map(|s| s.to_string()).collect(),
        model,
    };
    let judge = file.judge().map_err(|e| LearnError::Fit(e.to_string()))?;
    let measure = |rows: &[&Row]| metrics(rows, |r| judge(&r.features));
    Ok(Fitted { train: measure(&train), validation: measure(&held), file })
}

/// A logistic regression with an intercept, fitted to soft labels (a draw is ½): the log-odds are
/// `weights[0] + Σ weights[1 + i] · x[i]`. The columns are scaled to unit spread for the optimiser and the weights
/// returned in the columns' own units. A baseline's fit: a few numbers, so a few hundred full-batch steps suffice.
///
/// # Errors
/// When there are no rows, or the rows differ in length.
pub fn fit_logistic(x: &[Vec<f32>], y: &[f32]) -> Result<Vec<f32>, LearnError> {
    let columns = x.first().map_or(0, Vec::len);
    if x.is_empty() || x.len() != y.len() || x.iter().any(|row| row.len() != columns) {
        return Err(LearnError::Config("a logistic fit needs rows of one length, each with its label".into()));
    }
    let fail = |e: candle_core::Error| LearnError::Fit(e.to_string());
    let device = Device::Cpu;
    let mut scale = vec![1.0f32; columns + 1];
    for (i, s) in scale.iter_mut().enumerate().skip(1) {
        let ms = x.iter().map(|r| (r[i - 1] as f64).powi(2)).sum::<f64>() / x.len() as f64;
        *s = if ms > 1e-12 { (1.0 / ms.sqrt()) as f32 } else { 0.0 };
    }
    let flat: Vec<f32> =
        x.iter().flat_map(|r| std::iter::once(1.0).chain(r.iter().zip(&scale[1..]).map(|(x, s)| x * s))).collect();
    let x = Tensor::from_vec(flat, (y.len(), columns + 1), &device).map_err(fail)?;
    let y = Tensor::from_vec(y.to_vec(), (y.len(), 1), &device).map_err(fail)?;
    let w = Var::from_tensor(&Tensor::zeros((columns + 1, 1), DType::F32, &device).map_err(fail)?).map_err(fail)?;
    let mut opt = AdamW::new(vec![w.clone()], ParamsAdamW { lr: 0.05, weight_decay: 0.0, ..ParamsAdamW::default() })
        .map_err(fail)?;
    for _ in 0..600 {
        let z = x.matmul(w.as_tensor()).map_err(fail)?;
        opt.backward_step(&log_loss(&z, &y).map_err(fail)?).map_err(fail)?;
    }
    let w: Vec<f32> = w.as_tensor().flatten_all().and_then(|t| t.to_vec1()).map_err(fail)?;
    Ok(w.iter().zip(&scale).map(|(w, s)| w * s).collect())
}

fn adam(vars: Vec<Var>, lr: f64) -> candle_core::Result<AdamW> {
    AdamW::new(vars, ParamsAdamW { lr, weight_decay: 1e-4, ..ParamsAdamW::default() })
}

/// The odd network's log-odds: v · relu(x W + c) − v · relu(c − x W).
fn odd_net(x: &Tensor, w: &Tensor, c: &Tensor, v: &Tensor) -> candle_core::Result<Tensor> {
    let a = x.matmul(w)?;
    let up = a.broadcast_add(c)?.relu()?;
    let down = a.neg()?.broadcast_add(c)?.relu()?;
    (up - down)?.matmul(v)
}

/// The mean log-loss of log-odds `z` against soft labels `y`, computed without overflow: softplus(z) − y·z.
fn log_loss(z: &Tensor, y: &Tensor) -> candle_core::Result<Tensor> {
    let softplus = (z.relu()? + (z.abs()?.neg()?.exp()? + 1.0)?.log()?)?;
    (softplus - (y * z)?)?.mean_all()
}

/// How well `value` fits `rows`.
pub fn metrics(rows: &[&Row], value: impl Fn(&Row) -> f32) -> Metrics {
    if rows.is_empty() {
        return Metrics::default();
    }
    let n = rows.len() as f64;
    let (mut log_loss, mut brier, mut brier_results) = (0.0, 0.0, 0.0);
    for r in rows {
        let p = (value(r) as f64).clamp(1e-6, 1.0 - 1e-6);
        let (y, result) = (r.mean as f64, r.result as f64);
        log_loss -= y * p.ln() + (1.0 - y) * (1.0 - p).ln();
        brier += (p - y).powi(2);
        brier_results += (p - result).powi(2);
    }
    Metrics {
        positions: rows.len(),
        log_loss: log_loss / n,
        brier_rollouts: brier / n,
        brier_results: brier_results / n,
    }
}

/// The model of a weights file computed by candle, for each row of features: what the fit computes, to check the
/// evaluator's own forward pass against.
///
/// # Errors
/// When candle fails.
pub fn candle_values(file: &ModelFile, xs: &[[f32; FEATURES]]) -> Result<Vec<f32>, LearnError> {
    let fail = |e: candle_core::Error| LearnError::Fit(e.to_string());
    let device = Device::Cpu;
    let x = Tensor::from_vec(xs.concat(), (xs.len(), FEATURES), &device).map_err(fail)?;
    let z = match &file.model {
        Model::Logistic { weights } => {
            x.matmul(&Tensor::from_vec(weights.clone(), (FEATURES, 1), &device).map_err(fail)?).map_err(fail)?
        }
        Model::Mlp { hidden, bias, output } => {
            let units = hidden.len();
            let w = Tensor::from_vec(hidden.concat(), (units, FEATURES), &device).and_then(|t| t.t()).map_err(fail)?;
            let c = Tensor::from_vec(bias.clone(), (1, units), &device).map_err(fail)?;
            let v = Tensor::from_vec(output.clone(), (units, 1), &device).map_err(fail)?;
            odd_net(&x, &w, &c, &v).map_err(fail)?
        }
    };
    let p = candle_nn::ops::sigmoid(&z).and_then(|p| p.flatten_all()).and_then(|p| p.to_vec1()).map_err(fail)?;
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows whose label is a known logistic function of the first two features.
    fn synthetic(n: usize) -> Vec<Row> {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        (0..n)
            .map(|i| {
                let features: [f32; FEATURES] = std::array::from_fn(|_| rng.random_range(-1.0..1.0f32));
                let p = pacw_ai::evaluator::sigmoid(2.0 * features[0] - 1.0 * features[1]);
                Row {
                    game: i as u64,
                    battle: "t".into(),
                    variant: "-".into(),
                    decision: 0,
                    turn: 1,
                    features,
                    rollouts: 16,
                    mean: p,
                    result: if p > 0.5 { 1.0 } else { 0.0 },
                }
            })
            .collect()
    }

    #[test]
    fn a_logistic_fit_finds_the_weights_that_made_the_labels() {
        let rows = synthetic(2000);
        let fitted = fit(&rows, &FitConfig::new(Kind::Logistic), "t", "test").unwrap();
        let Model::Logistic { weights } = &fitted.file.model else { panic!("a logistic model") };
        assert!((weights[0] - 2.0).abs() < 0.15 && (weights[1] + 1.0).abs() < 0.15, "{weights:?}");
        assert!(weights[2..].iter().all(|w| w.abs() < 0.15), "{weights:?}");
        assert!(fitted.validation.positions > 0 && fitted.validation.brier_rollouts < 0.002);
    }

    #[test]
    fn the_evaluators_forward_pass_gives_candles_numbers_for_both_kinds_of_model() {
        let rows = synthetic(500);
        let xs: Vec<[f32; FEATURES]> = rows.iter().map(|r| r.features).collect();
        for kind in [Kind::Logistic, Kind::Mlp(8)] {
            let config = FitConfig { steps: 50, ..FitConfig::new(kind) };
            let file = fit(&rows, &config, "t", "test").unwrap().file;
            let judge = file.judge().unwrap();
            for (x, p) in xs.iter().zip(candle_values(&file, &xs).unwrap()) {
                assert!((judge(x) - p).abs() < 1e-5, "{kind:?}");
            }
        }
    }

    #[test]
    fn a_fit_is_the_same_every_time() {
        let rows = synthetic(300);
        let config = FitConfig { steps: 100, ..FitConfig::new(Kind::Mlp(4)) };
        assert_eq!(fit(&rows, &config, "t", "x").unwrap().file, fit(&rows, &config, "t", "x").unwrap().file);
    }
}
