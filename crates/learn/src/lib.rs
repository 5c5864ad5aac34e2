//! # pacw-learn
//!
//! Training the evaluator ([`pacw_ai::Evaluator`]), the judgement of a position that the review and the computer
//! players build on. The parts, one job each:
//! - [`generate`]: random battles, so that training sees more than the shipped ones;
//! - [`explore`]: the training games' players, greedy with a share of random choices;
//! - [`positions`]: labelled positions (the slow part, split into shards by game), each with the mean result of
//!   greedy play-outs from it;
//! - [`fit`]: the model fitted to the merged positions with candle, written as a weights file;
//! - [`calibrate`]: how well a model's chances match what happens, on games it never saw.

#![warn(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod calibrate;
pub mod explore;
pub mod fit;
pub mod generate;
pub mod positions;
pub mod selfplay;

use std::path::PathBuf;

/// Why training failed.
#[derive(Debug, thiserror::Error)]
pub enum LearnError {
    /// Settings that cannot work.
    #[error("{0}")]
    Config(String),
    /// A file could not be read or written.
    #[error("{0}: {1}")]
    Io(PathBuf, std::io::Error),
    /// A CSV file could not be read or written.
    #[error("{0}: {1}")]
    Csv(PathBuf, csv::Error),
    /// A file that is not a positions file of this build.
    #[error("{0} is not a positions file of this pacw: {1}")]
    NotPositions(PathBuf, String),
    /// Positions files of different runs.
    #[error("{0} belongs to another run (other settings or shard count) than the first file")]
    Mismatch(PathBuf),
    /// The fit failed.
    #[error("the fit failed: {0}")]
    Fit(String),
}
