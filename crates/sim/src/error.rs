//! What can go wrong in a simulation: bad settings (the user's to fix) or a failure while running or writing.

use pacw_engine::options::OptionError;
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
    #[error("--set takes OPTION=VALUE (RULES.md R11), as initiative=igougo; not '{0}'")]
    BadSet(String),
    /// `--compare` is not `OPTION=V1,V2,...`.
    #[error("--compare takes OPTION=V1,V2,... with at least one value, as initiative=cards,igougo; not '{0}'")]
    BadCompare(String),
    /// An option name or value the engine refuses.
    #[error("{flag} {given}: {source}")]
    Option {
        /// The flag it came from (`--set`, `--compare`).
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
    /// A player chose an action the engine refused: a bug in that player.
    #[error("game {index} (seed {seed}): player '{player}' chose an illegal action: {reason}")]
    IllegalChoice {
        /// The game's index.
        index: usize,
        /// The game's seed.
        seed: u64,
        /// The player.
        player: String,
        /// The engine's refusal.
        reason: String,
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
    /// A report file could not be written.
    #[error("cannot write {}: {source}", path.display())]
    Write {
        /// The file or folder.
        path: PathBuf,
        /// Why.
        #[source]
        source: std::io::Error,
    },
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
                | SimError::Option { .. }
                | SimError::NoGames
                | SimError::Threads { .. }
        )
    }
}
