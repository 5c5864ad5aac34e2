//! Each side's summary of a review: what its decisions lost, how they are labelled, its accuracy, its luck, and the
//! result with the luck taken out (luck and skill add up to the result).

use super::{Label, ReviewStep, StepKind, of};
use pacw_engine::Side;
use serde::Serialize;

/// One side's review in figures.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// Which side.
    pub side: Side,
    /// Its decisions.
    pub decisions: usize,
    /// The total its decisions lost against the best found (not with a quick review).
    pub loss: Option<f32>,
    /// Its inaccuracies, mistakes and blunders.
    pub inaccuracies: usize,
    /// Mistakes.
    pub mistakes: usize,
    /// Blunders.
    pub blunders: usize,
    /// Its accuracy from 0 to 100, as lichess computes it from winning chances (not with a quick review).
    pub accuracy: Option<f32>,
    /// Its luck, in its own terms: the luck of its attacks' dice and its initiative dice, and half of the cards'.
    pub luck: f32,
    /// Its net luck: its own luck less the opponent's, so that the two sides' are opposite and the luckier side's
    /// is positive. The luck-adjusted result is the result less it.
    pub net_luck: f32,
    /// Its score: a win 1, a draw ½, a loss 0 (none while the game goes on).
    pub result: Option<f32>,
    /// The result less its own luck plus the opponent's: what the decisions earned with average luck.
    pub luck_adjusted: Option<f32>,
}

/// The share of a chance step's luck (in the first side's terms) that counts as `side`'s, in `side`'s terms.
fn luck_share(step: &ReviewStep, side: Side) -> f32 {
    let luck = of_luck(side, step.luck.unwrap_or(0.0));
    match step.luck_of {
        Some(owner) if owner == side => luck,
        Some(_) => 0.0,
        None => luck / 2.0,
    }
}

/// Luck in the first side's terms, seen by `side`.
fn of_luck(side: Side, luck: f32) -> f32 {
    if side == Side::A { luck } else { -luck }
}

/// The accuracy of one move from its loss of winning chances (lichess: 103.1668·e^(−0.043544·d) − 3.1669 + 1, d in
/// points of winning chances, within 0..100).
pub fn accuracy_of_move(loss: f32) -> f32 {
    let d = 100.0 * loss.max(0.0);
    (103.1668 * (-0.043544 * d).exp() - 3.1669 + 1.0).clamp(0.0, 100.0)
}

/// Lichess's game accuracy: the mean of the moves' accuracies weighted by how much the winning chances swing around
/// each (the spread of a window of the chances before it, within 0.5..12 points), and their harmonic mean.
fn accuracy(steps: &[&ReviewStep]) -> Option<f32> {
    let moves: Vec<(f32, f32)> = steps
        .iter()
        .filter_map(|s| Some((accuracy_of_move(s.judged.as_ref()?.loss).max(1.0), 100.0 * of(s.side?, s.before))))
        .collect();
    if moves.is_empty() {
        return None;
    }
    let window = (moves.len() / 10).clamp(2, 8);
    let weights: Vec<f32> = (0..moves.len())
        .map(|i| {
            let from = i.saturating_sub(window / 2).min(moves.len().saturating_sub(window));
            let w: Vec<f32> = moves[from..(from + window).min(moves.len())].iter().map(|m| m.1).collect();
            let mean = w.iter().sum::<f32>() / w.len() as f32;
            let spread = (w.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / w.len() as f32).sqrt();
            spread.clamp(0.5, 12.0)
        })
        .collect();
    let weighted = moves.iter().zip(&weights).map(|(m, w)| m.0 * w).sum::<f32>() / weights.iter().sum::<f32>();
    let harmonic = moves.len() as f32 / moves.iter().map(|m| 1.0 / m.0).sum::<f32>();
    Some((weighted + harmonic) / 2.0)
}

/// Both sides' summaries.
pub(super) fn summarise(steps: &[ReviewStep], result: Option<f32>, quick: bool) -> [SideSummary; 2] {
    let luck: [f32; 2] =
        Side::BOTH.map(|side| steps.iter().filter(|s| s.kind == StepKind::Chance).map(|s| luck_share(s, side)).sum());
    Side::BOTH.map(|side| {
        let mine: Vec<&ReviewStep> =
            steps.iter().filter(|s| s.kind == StepKind::Decision && s.side == Some(side)).collect();
        let count =
            |label: Label| mine.iter().filter(|s| s.judged.as_ref().is_some_and(|j| j.label == Some(label))).count();
        let judged: Vec<&ReviewStep> =
            mine.iter().copied().filter(|s| s.judged.as_ref().is_some_and(|j| j.choices > 1)).collect();
        let score = result.map(|r| of(side, r));
        SideSummary {
            side,
            decisions: mine.len(),
            loss: (!quick).then(|| mine.iter().filter_map(|s| s.judged.as_ref().map(|j| j.loss)).sum()),
            inaccuracies: count(Label::Inaccuracy),
            mistakes: count(Label::Mistake),
            blunders: count(Label::Blunder),
            accuracy: if quick { None } else { accuracy(&judged) },
            luck: luck[side.index()],
            net_luck: luck[side.index()] - luck[side.other().index()],
            result: score,
            luck_adjusted: score.map(|s| s - luck[side.index()] + luck[side.other().index()]),
        }
    })
}
