//! The engine's tests, one binary (a module a file, linked once): the rules proved case by case (`rules_*`,
//! each on a small board written for it), the scenario checks, the exact odds against sampled attacks, perft counts,
//! golden games, properties and fuzzing of every input, saves of earlier versions, and the grand battle.

mod common;
mod events;
mod fuzz_inputs;
mod golden;
mod grand;
mod odds;
mod perft;
mod properties;
mod rules_attacks;
mod rules_board;
mod rules_chance;
mod rules_movement;
mod rules_options;
mod rules_queries;
mod rules_results;
mod rules_terrain;
mod rules_turns;
mod scenario_errors;
mod upgrades;
