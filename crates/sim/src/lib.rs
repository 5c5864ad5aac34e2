//! # pacw-sim
//!
//! The simulation laboratory (docs/laboratory.md): thousands of games between computer players,
//! under rule variants (docs/rules.md R11), with statistics, 95% confidence intervals, significance tests, charts and
//! reports. Every statistic is read from the games' event streams.
//!
//! The parts, one job each, each depending only on those above it:
//! - [`config`]: what to simulate (scenarios, a variant file, `--set`, `--compare` axes, players, games, seed,
//!   shard);
//! - [`seed`]: a seed per game index and per player, independent of threads and variants (games are paired);
//! - [`mod@run`]: the parallel runner (rayon), results in order, games saved on request;
//! - [`record`]: one game's record, from its events;
//! - [`wilson`] and [`significance`]: intervals and tests; [`stats`]: aggregation over games;
//!   [`compare`]: paired differences between variants, Holm-adjusted;
//! - [`report`]: the report, its tables, text and CSV; [`charts`]: SVG charts of a report;
//!   [`site`]: the report folder and its HTML page;
//! - [`shard`]: a shard's results on disk and `pacw merge`; [`sensitivity`]: which rules matter;
//!   [`advice`]: whether the review's better orders do better when both are played on; [`balance`]: tuning a scenario's numbers toward an even game; [`shipped_balance`]: the shipped battles'
//!   measured balance, as the lobby shows it; [`tournament`]: a round robin between players, rated by [`elo`].
//!
//! ```
//! use pacw_sim::{Report, SimConfig, run};
//! use std::sync::Arc;
//! let scenario = Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
//! let mut config = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
//! config.games = 4;
//! let sim = run(&config, &|| {}).unwrap();
//! let report = Report::new(&sim, None);
//! assert_eq!(report.main.all.games, 4);
//! ```

#![warn(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod advice;
pub mod balance;
pub mod charts;
pub mod compare;
pub mod config;
pub mod elo;
pub mod error;
pub mod outcome;
pub mod record;
pub mod report;
pub mod run;
pub mod seed;
pub mod sensitivity;
pub mod shard;
pub mod shipped_balance;
pub mod significance;
pub mod site;
pub mod stats;
pub mod tournament;
pub mod wilson;

pub use config::{
    Axis, RULES_AXIS, STANDARD_RULES, ScenarioSource, Shard, SimConfig, Variant, VariantFile, parse_players,
};
pub use error::SimError;
pub use record::{GameRecord, GameStats};
pub use report::{Report, render_text};
pub use run::{SaveGames, Simulation, run, run_saving, run_until};
pub use site::write_dir;
pub use stats::Summary;
