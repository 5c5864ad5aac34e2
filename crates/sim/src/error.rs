//! What can go wrong in a simulation: bad settings (the user's to fix) or a failure while running or writing.

use pacw_engine::OptionError;
use std::path::PathBuf;

/// Why a simulation could not be set up, run or reported.
#[derive(Debug, thiserror::Error)]
pub enum SimError {
    /// A player name that [`pacw_ai::player`] does not know.
    #[error("unknown player '{name}' (known players: {known})")]
    UnknownPlayer {
        /// The name given.
        name: String,
        /// The names known.
        known: String,
    },
    /// `--players` is not one or two names separated by a comma.
    #[error("--players takes two player names separated by a comma, as random,random; not '{0}'")]
    BadPlayers(String),
    /// `--set` is not `OPTION=VALUE`.
    #[error("--set takes OPTION=VALUE (docs/rules.md R11), as initiative=igougo; not '{0}'")]
    BadSet(String),
    /// `--compare` is not `OPTION=V1,V2,...`.
    #[error("--compare takes OPTION=V1,V2,... with at least one value, as initiative=cards,igougo; not '{0}'")]
    BadCompare(String),
    /// A value given twice in one `--compare`.
    #[error("--compare {option}: the value {value} is given twice")]
    RepeatedValue {
        /// The option.
        option: String,
        /// The value.
        value: String,
    },
    /// More `--compare` axes than a grid takes.
    #[error("--compare may be given at most twice (a grid), not {0} times")]
    TooManyAxes(usize),
    /// The same option on both axes of a grid.
    #[error("--compare {0} is given twice: a grid needs two different options")]
    SameAxisTwice(String),
    /// A variant file that cannot be read (the message names the file, and the line and column of each problem).
    #[error("{message}")]
    BadVariant {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A scenario that is not a good one under the rules it is played by (the message names its file and places).
    #[error("{0}")]
    BadScenario(String),
    /// `--shard` is not `K/N`.
    #[error("--shard takes K/N with 1 ≤ K ≤ N, as 2/8; not '{0}'")]
    BadShard(String),
    /// `--save-only` is not a list of game numbers.
    #[error("--save-only takes game numbers and ranges from 0, as 0-9,42; not '{0}'")]
    BadSaveOnly(String),
    /// `--tune` names something the scenario cannot tune, or the tuned scenario does not check.
    #[error("--tune {0}")]
    BadTune(String),
    /// No scenario given.
    #[error("no scenario to simulate")]
    NoScenario,
    /// Shard results that do not belong to one simulation.
    #[error("cannot merge {}: {message}", path.display())]
    Merge {
        /// The shard's folder or file.
        path: PathBuf,
        /// Why.
        message: String,
    },
    /// An option name or value the engine refuses.
    #[error("{flag} {given}: {source}")]
    Option {
        /// The flag it came from (`--set`, `--compare`, `--variant`).
        flag: &'static str,
        /// What was given.
        given: String,
        /// The engine's reason.
        #[source]
        source: OptionError,
    },
    /// No games to play.
    #[error("--games must be at least 1")]
    NoGames,
    /// The thread pool could not be built.
    #[error("cannot start a pool of {threads} threads: {message}")]
    Threads {
        /// Threads asked for.
        threads: usize,
        /// Why it failed.
        message: String,
    },
    /// A game that did not end within a generous number of decisions.
    #[error("game {index} (seed {seed}) did not end after {decisions} decisions")]
    Runaway {
        /// The game's index.
        index: usize,
        /// The game's seed.
        seed: u64,
        /// Decisions made.
        decisions: usize,
    },
    /// A chart could not be drawn.
    #[error("cannot draw chart {name}: {message}")]
    Chart {
        /// The chart's file name.
        name: String,
        /// Why.
        message: String,
    },
    /// The HTML template failed (a bug: the template ships with pacw).
    #[error("cannot render the HTML report: {0}")]
    Template(String),
    /// The CSV of the games could not be made.
    #[error("cannot write games.csv: {0}")]
    Csv(String),
    /// A report file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
    /// Stopped before the end because its caller asked ([`crate::run_until`]).
    #[error("the simulation was stopped before its end")]
    Stopped,
}

impl SimError {
    /// Whether the error is bad usage (exit code 2) rather than a failure while running (exit code 1).
    pub fn is_usage(&self) -> bool {
        matches!(
            self,
            SimError::UnknownPlayer { .. }
                | SimError::BadPlayers(_)
                | SimError::BadSet(_)
                | SimError::BadCompare(_)
                | SimError::RepeatedValue { .. }
                | SimError::TooManyAxes(_)
                | SimError::SameAxisTwice(_)
                | SimError::BadShard(_)
                | SimError::BadTune(_)
                | SimError::BadSaveOnly(_)
                | SimError::NoScenario
                | SimError::Option { .. }
                | SimError::NoGames
                | SimError::Threads { .. }
        )
    }
}
