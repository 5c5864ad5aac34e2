//! # pacw-ai
//!
//! Computer players. Each sees only the battle as it stands, never the seeded future: chance is the engine's.
//!
//! Three levels are offered to players ([`OFFERED`]): `recruit` (greedy's judgement with a newcomer's mistakes),
//! `veteran` (greedy judging by the tuned weights) and `general` (the search below, judged by the evaluator). The
//! laboratory's players:
//!
//! - `random`: uniform over the legal actions;
//! - `greedy`: the immediate expected value of each order from the exact odds, plus a positional judgement;
//! - `mcts`: Monte Carlo search over the engine's chance nodes with greedy rollouts: by default the eight best
//!   candidates of the greedy ranking compared on common random worlds, on every core, the greedy choice kept unless
//!   another is confidently better; or (`mcts:tree`) a UCB tree with progressive widening.

#![deny(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod evaluate;
pub mod evaluator;
mod greedy;
mod levels;
mod mcts;
pub mod network;
pub mod portfolio;
mod random;
mod recruit;
pub mod review;
mod td;

pub use evaluator::Evaluator;
pub use greedy::GreedyPlayer;
pub use levels::{DEFAULT_LEVEL, OFFERED, Offered, offered, plays_as};
pub use mcts::{
    Allocation, Budget, DEFAULT_ITERATIONS, DEFAULT_STOP_EARLY, Leaf, MIN_SCALED_ITERATIONS, MctsConfig, MctsPlayer,
    Measured, WorldChance,
};
pub use random::RandomPlayer;
pub use recruit::{RECRUIT_TEMPERATURE, RecruitPlayer};
pub use td::{Plan, TdPlayer};

use evaluate::Weights;
use pacw_engine::{Action, Battle};

/// A computer player: given a battle where its side acts, it picks one of the legal actions.
pub trait Player {
    /// Its name, as on the command line (`random`, `greedy`, `mcts`).
    fn name(&self) -> &str;

    /// Picks an action; `battle.to_act()` is this player's side and at least one action is legal. The action is
    /// one of the legal ones: the laboratory applies it without judging it again
    /// ([`pacw_engine::Game::act_unchecked`], which a debug build checks), the server checks it.
    fn choose(&mut self, battle: &Battle) -> Action;
}

/// The names of the players [`player`] knows ([`OFFERED`]'s, levels first). `greedy:tuned` judges by
/// [`evaluate::Weights::TUNED`] instead of greedy's own weights. `recruit` takes a temperature
/// (`recruit:0.5`, [`RecruitPlayer`]); a level takes the settings of the player it plays as ([`plays_as`]). `mcts`
/// also takes settings: `mcts:ITERATIONS`, `mcts:MSms`, `mcts:gN` (N
/// iterations on a battle of Meeting Engagement's size, scaled down for larger ones: [`Budget::Scaled`], never below
/// `:fFLOOR`, 800 by default), and
/// `:tTHREADS` (threads; default every core), `:kCHILDREN` (candidates), `:rDECISIONS` (rollout length, or `:rend`),
/// `:zZ` (standard errors a candidate must beat the greedy choice by; `:z0` plays the best mean), `:tree` (a UCB tree
/// instead of common random worlds), `:oN` (the opponent in one play-out of every N + 1 judged by the tuned weights:
/// [`MctsConfig::opponent_mix`]), `:e1` (positional leaf evaluation), `:e2` (the fitted leaf value,
/// [`evaluate::fitted_value`]) or `:e3` (the evaluator's winning chances, [`evaluator::Evaluator::value`]), `:w1`
/// (its own side judged by [`evaluate::Weights::TUNED`] instead of greedy's weights), `:cevent` (each world decides
/// chance by event, not in sequence: [`WorldChance`]), `:pN` (a unit to activate compared together with each of its
/// N best orders), `:sZ` (stop early once the choice is settled, Z standard
/// errors optimistic: [`MctsConfig::stop_early`]) or `:soff` (always the whole budget), `:vB` (the share of the
/// play-outs' dice luck taken out of their values: [`MctsConfig::luck`]), `:lMS` (a bound on the thinking time whatever
/// the budget: [`MctsConfig::time_limit`]), `:race` (the play-outs of candidates that can no longer win go to those
/// that can: [`Allocation::Racing`]), `:bN` (a decision may spend up to N times its budget from what earlier decisions
/// saved: [`MctsConfig::bank`]), `:check` (a choice to leave the greedy choice measured again on fresh worlds:
/// [`MctsConfig::second_opinion`]), `:pgsN` (its side played by scripts assigned to its units by Portfolio Greedy
/// Search, each unit's scripts compared on N worlds: [`MctsConfig::portfolio_worlds`]; with `:k1` the scripts alone
/// choose; `:uN`, the units whose scripts are compared at a decision: [`MctsConfig::portfolio_units`]), as in
/// `mcts:2000:t2` or `mcts:500ms:k4:r20:z1.5`.
pub const PLAYERS: [&str; OFFERED.len()] = {
    let mut names = [""; OFFERED.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = OFFERED[i].name;
        i += 1;
    }
    names
};

/// A player by name, seeded for determinism; `None` for an unknown name or bad settings.
///
/// ```
/// assert!(pacw_ai::player("greedy", 1).is_some());
/// assert!(pacw_ai::player("mcts:500:t2", 1).is_some());
/// assert_eq!(pacw_ai::player("general:t1", 1).unwrap().name(), "general");
/// assert!(pacw_ai::player("chess", 1).is_none());
/// ```
pub fn player(name: &str, seed: u64) -> Option<Box<dyn Player + Send>> {
    let level = name.split(':').next().and_then(offered).filter(|o| o.plays_as != o.name);
    if let Some(level) = level {
        let inner = player(&plays_as(name), seed)?;
        return Some(Box::new(levels::Named { name: level.name, inner }));
    }
    let mut parts = name.split(':');
    match parts.next()? {
        "random" if parts.next().is_none() => Some(Box::new(RandomPlayer::new(seed))),
        "td" if parts.next().is_none() => Some(Box::new(TdPlayer::new(network::shared(), seed))),
        "greedy" => match (parts.next(), parts.next()) {
            (None, _) => Some(Box::new(GreedyPlayer::new(seed))),
            (Some("tuned"), None) => Some(Box::new(GreedyPlayer::with_weights(seed, [Weights::TUNED; 2]))),
            _ => None,
        },
        "recruit" => {
            let temperature = match (parts.next(), parts.next()) {
                (None, _) => RECRUIT_TEMPERATURE,
                (Some(t), None) => t.parse().ok().filter(|t: &f32| (0.0..=100.0).contains(t) && *t > 0.0)?,
                _ => return None,
            };
            Some(Box::new(RecruitPlayer::new(temperature, seed)))
        }
        "mcts" => {
            let mut config = MctsConfig::default();
            for part in parts {
                if part == "check" {
                    config.second_opinion = true;
                } else if part == "race" {
                    config.allocation = Allocation::Racing;
                } else if part == "even" {
                    config.allocation = Allocation::Even;
                } else if let Some(ms) = part.strip_suffix("ms") {
                    config.budget = Budget::Millis(ms.parse().ok().filter(|&m| m > 0)?);
                } else if let Some(n) = part.strip_prefix('u') {
                    config.portfolio_units = n.parse().ok().filter(|&n| (1..=128).contains(&n))?;
                } else if let Some(n) = part.strip_prefix("pgs") {
                    config.portfolio_worlds = n.parse().ok().filter(|&n| (1..=100_000).contains(&n))?;
                } else if let Some(n) = part.strip_prefix('p') {
                    config.orders_per_unit = n.parse().ok()?;
                } else if let Some(k) = part.strip_prefix('k') {
                    config.max_children = k.parse().ok().filter(|&k| k > 0)?;
                } else if let Some(r) = part.strip_prefix('r') {
                    config.rollout_decisions = if r == "end" { u16::MAX } else { r.parse().ok()? };
                } else if part == "crn" {
                    config.common_worlds = true;
                } else if part == "tree" {
                    config.common_worlds = false;
                } else if let Some(z) = part.strip_prefix('z') {
                    config.confidence = z.parse().ok().filter(|z: &f32| (0.0..=10.0).contains(z))?;
                } else if let Some(z) = part.strip_prefix('s') {
                    config.stop_early = match z {
                        "off" => None,
                        _ => Some(z.parse().ok().filter(|z: &f32| (0.0..=10.0).contains(z))?),
                    };
                } else if part == "cseq" {
                    config.chance = WorldChance::Sequential;
                } else if part == "cevent" {
                    config.chance = WorldChance::ByEvent;
                } else if let Some(w) = part.strip_prefix('w') {
                    config.weights = match w {
                        "0" => Weights::GREEDY,
                        "1" => Weights::TUNED,
                        _ => return None,
                    };
                } else if let Some(e) = part.strip_prefix('e') {
                    config.leaf = match e {
                        "0" => Leaf::Material,
                        "1" => Leaf::Positional,
                        "2" => Leaf::Fitted,
                        "3" => Leaf::Evaluator,
                        _ => return None,
                    };
                } else if let Some(n) = part.strip_prefix('o') {
                    config.opponent_mix = n.parse().ok().filter(|&n| n <= 64)?;
                } else if let Some(n) = part.strip_prefix('b') {
                    config.bank = n.parse().ok().filter(|n| (1..=16).contains(n))?;
                } else if let Some(f) = part.strip_prefix('f') {
                    config.scaled_floor = f.parse().ok()?;
                } else if let Some(g) = part.strip_prefix('g') {
                    config.budget = Budget::Scaled(g.parse().ok().filter(|&n| n > 0)?);
                } else if let Some(v) = part.strip_prefix('v') {
                    config.luck = v.parse().ok().filter(|v: &f32| (0.0..=2.0).contains(v))?;
                } else if let Some(ms) = part.strip_prefix('l') {
                    config.time_limit =
                        Some(std::time::Duration::from_millis(ms.parse().ok().filter(|&m: &u64| m > 0)?));
                } else if let Some(t) = part.strip_prefix('t') {
                    config.threads = t.parse().ok().filter(|&t| (1..=64).contains(&t))?;
                } else {
                    config.budget = Budget::Iterations(part.parse().ok().filter(|&n| n > 0)?);
                }
            }
            Some(Box::new(MctsPlayer::new(config, seed)))
        }
        _ => None,
    }
}

/// Whether [`player`] accepts this name.
pub fn is_player(name: &str) -> bool {
    player(name, 0).is_some()
}
