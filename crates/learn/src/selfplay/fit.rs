//! Fitting the network to a round's targets: Adam, with its moments kept in the checkpoint.

use pacw_ai::network::encoding::Encoding;
use pacw_ai::network::{Network, Scratch, sigmoid};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

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
    pub(super) fn new(weights: usize) -> Adam {
        Adam { steps: 0, mean: vec![0.0; weights], square: vec![0.0; weights] }
    }

    pub(super) fn step(&mut self, weights: &mut [f32], gradient: &[f32], rate: f32) {
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

/// Fits the network to the targets: one pass of Adam in an order drawn from `seed`, in batches of 32. Returns the
/// mean cross-entropy of the targets as the pass met them.
pub(super) fn fit(network: &mut Network, adam: &mut Adam, samples: &[(&Encoding, f32)], rate: f32, seed: u64) -> f64 {
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
