//! # pacw-sim
//!
//! The simulation laboratory (DESIGN.md, job 3: test the rules): thousands of games between computer players,
//! under rule variants (RULES.md R11), with statistics, 95% confidence intervals, significance tests, charts and
//! reports. Every statistic is read from the games' event streams.
//!
//! The parts, one job each:
//! - [`config`]: what to simulate (scenario, options, `--compare` variants, players, games, seed);
//! - [`seed`]: a seed per game and per player, independent of threads;
//! - [`mod@run`]: the parallel runner (rayon), results in game order;
//! - [`record`]: one game's record, from its events;
//! - [`stats`]: aggregation over games; [`wilson`]: intervals; [`significance`]: z-tests;
//!   [`compare`]: differences between variants;
//! - [`report`]: JSON, text, CSV and HTML; [`charts`]: SVG charts.
//!
//! ```
//! use pacw_sim::{Report, SimConfig, run};
//! use std::sync::Arc;
//! let scenario = Arc::new(pacw_engine::Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
//! let mut config = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
//! config.games = 4;
//! let sim = run(&config, &|| {}).unwrap();
//! let report = Report::new(&sim, None);
//! assert_eq!(report.all.games, 4);
//! ```

#![warn(missing_docs)]

pub mod charts;
pub mod compare;
pub mod config;
pub mod error;
pub mod record;
pub mod report;
pub mod run;
pub mod seed;
pub mod significance;
pub mod stats;
pub mod wilson;

pub use config::{Compare, SimConfig, Variant, apply_set, parse_players};
pub use error::SimError;
pub use record::{GameRecord, GameStats};
pub use report::{Report, render_text, write_dir};
pub use run::{Simulation, run};
pub use stats::Summary;
