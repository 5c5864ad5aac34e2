//! The fitted model: its file (JSON, written by `pacw train`, embedded in the binary) and its forward pass.
//!
//! Two kinds, both odd functions of the features (the features of the position with the sides swapped are the
//! negated features, and the model then says 1 − p):
//! - `logistic`: p = σ(w · x);
//! - `mlp`: one hidden layer of rectified units, z(x) = v · relu(W x + c) − v · relu(−W x + c), p = σ(z).

use super::features::{FEATURE_NAMES, FEATURES, Features};
use serde::{Deserialize, Serialize};

/// The `format` field of a weights file.
pub const MODEL_FORMAT: &str = "pacw-evaluator";

/// The most hidden units a file may have (a bound on what a file makes the evaluator do).
pub const MAX_HIDDEN: usize = 256;

/// A weights file as written to disk.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModelFile {
    /// Always [`MODEL_FORMAT`].
    pub format: String,
    /// The model's name and version, recorded by every review that uses it (`evaluator-1`, …).
    pub version: String,
    /// How it was made: the training command, its seed and what it was trained on.
    pub trained: String,
    /// The features, in order: they must be this build's ([`FEATURE_NAMES`]).
    pub features: Vec<String>,
    /// The model.
    pub model: Model,
}

/// A model of the first side's expected score from the features.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "kind", deny_unknown_fields)]
pub enum Model {
    /// Logistic regression without a constant term: p = σ(w · x).
    Logistic {
        /// One weight a feature.
        weights: Vec<f32>,
    },
    /// A small network, odd by construction: z(x) = v · relu(W x + c) − v · relu(−W x + c), p = σ(z).
    Mlp {
        /// W: one row of feature weights a hidden unit.
        hidden: Vec<Vec<f32>>,
        /// c: one bias a hidden unit.
        bias: Vec<f32>,
        /// v: one weight a hidden unit.
        output: Vec<f32>,
    },
}

/// Why a weights file was refused.
#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    /// Not JSON of the file's shape.
    #[error("the evaluator's weights file is not valid: {0}")]
    Json(#[from] serde_json::Error),
    /// Another format.
    #[error("not an evaluator weights file (format '{0}', expected '{MODEL_FORMAT}')")]
    Format(String),
    /// Made for other features.
    #[error("the weights were fitted on other features ({found}); this build's are {expected}")]
    Features {
        /// The file's list.
        found: String,
        /// This build's list.
        expected: String,
    },
    /// The numbers do not fit the features or one another, or one is not finite or beyond [`MAX_WEIGHT`].
    #[error("the weights do not fit the model: {0}")]
    Shape(String),
}

/// A checked model, ready to judge.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Net {
    Logistic([f32; FEATURES]),
    Mlp { hidden: Vec<[f32; FEATURES]>, bias: Vec<f32>, output: Vec<f32> },
}

impl ModelFile {
    /// Reads and checks a weights file.
    ///
    /// # Errors
    /// When the text is not JSON of a weights file's shape, its format is not [`MODEL_FORMAT`], its features are not
    /// this build's, or its numbers do not fit its model.
    pub fn parse(text: &str) -> Result<ModelFile, ModelError> {
        let file: ModelFile = serde_json::from_str(text)?;
        if file.format != MODEL_FORMAT {
            return Err(ModelError::Format(file.format));
        }
        if file.features.iter().map(String::as_str).ne(FEATURE_NAMES) {
            return Err(ModelError::Features { found: file.features.join(", "), expected: FEATURE_NAMES.join(", ") });
        }
        file.net()?;
        Ok(file)
    }

    /// The model's judgement of a position's features (the forward pass alone), for fitting and benchmarks.
    ///
    /// # Errors
    /// When its numbers do not fit its model.
    pub fn judge(&self) -> Result<impl Fn(&Features) -> f32 + use<>, ModelError> {
        let net = self.net()?;
        Ok(move |x: &Features| net.value(x))
    }

    /// The checked model.
    pub(crate) fn net(&self) -> Result<Net, ModelError> {
        let row = |r: &[f32], what: &str| -> Result<[f32; FEATURES], ModelError> {
            let row: [f32; FEATURES] = r
                .try_into()
                .map_err(|_| ModelError::Shape(format!("{what} has {} numbers, not {FEATURES}", r.len())))?;
            finite(&row, what)?;
            Ok(row)
        };
        match &self.model {
            Model::Logistic { weights } => Ok(Net::Logistic(row(weights, "the weights")?)),
            Model::Mlp { hidden, bias, output } => {
                let units = hidden.len();
                if units == 0 || units > MAX_HIDDEN || bias.len() != units || output.len() != units {
                    return Err(ModelError::Shape(format!(
                        "{units} hidden units (1 to {MAX_HIDDEN}) with {} biases and {} output weights",
                        bias.len(),
                        output.len()
                    )));
                }
                finite(bias, "the biases")?;
                finite(output, "the output weights")?;
                let hidden = hidden.iter().map(|r| row(r, "a hidden unit's weights")).collect::<Result<_, _>>()?;
                Ok(Net::Mlp { hidden, bias: bias.clone(), output: output.clone() })
            }
        }
    }
}

/// The largest weight a weights file may hold, either sign: trained weights are a few units (the largest shipped is
/// about 13), and bounded weights keep every sum of a forward pass finite, so a damaged file is refused rather than
/// judging every position "not a number".
pub const MAX_WEIGHT: f32 = 1e4;

/// Whether every number is finite and within [`MAX_WEIGHT`].
pub(crate) fn bounded(numbers: &[f32]) -> bool {
    numbers.iter().all(|x| x.is_finite() && x.abs() <= MAX_WEIGHT)
}

fn finite(numbers: &[f32], what: &str) -> Result<(), ModelError> {
    match bounded(numbers) {
        true => Ok(()),
        false => Err(ModelError::Shape(format!("{what} hold a number that is not finite or beyond ±{MAX_WEIGHT}"))),
    }
}

impl Net {
    /// The first side's expected score for these features.
    #[inline]
    pub(crate) fn value(&self, x: &Features) -> f32 {
        sigmoid(self.logit(x))
    }

    /// The model's log-odds for these features (before σ).
    pub(crate) fn logit(&self, x: &Features) -> f32 {
        match self {
            Net::Logistic(w) => dot(w, x),
            Net::Mlp { hidden, bias, output } => {
                let mut z = 0.0;
                for ((w, &c), &v) in hidden.iter().zip(bias).zip(output) {
                    let a = dot(w, x);
                    z += v * ((a + c).max(0.0) - (c - a).max(0.0));
                }
                z
            }
        }
    }
}

#[inline]
fn dot(w: &[f32; FEATURES], x: &Features) -> f32 {
    w.iter().zip(x).map(|(w, x)| w * x).sum()
}

/// The logistic function, kept off exact 0 and 1 by the range of `f32`.
#[inline]
pub fn sigmoid(z: f32) -> f32 {
    1.0 / (1.0 + (-z).exp())
}
