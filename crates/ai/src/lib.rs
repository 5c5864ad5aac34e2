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
//! - `td`: the value network's choice at one ply ([`TdPlayer`], trained by self-play: [`network`]); `td:cards`
//!   averages over the card to be drawn after a plan instead of estimating before it;
//! - `mcts`: Monte Carlo search over the engine's chance nodes with greedy rollouts: by default the eight best
//!   candidates of the greedy ranking compared on common random worlds, on every core, the greedy choice kept unless
//!   another is confidently better; or (`mcts:tree`) a UCB tree with progressive widening.

#![deny(missing_docs)]
#![warn(clippy::missing_errors_doc, clippy::missing_panics_doc)]

pub mod choices;
mod clock;
pub mod evaluator;
pub mod greedy;
mod levels;
mod mcts;
pub mod network;
mod random;
mod recruit;
pub mod review;
pub mod tactics;
mod td;

pub use choices::Choice;
pub use evaluator::Evaluator;
pub use greedy::GreedyPlayer;
pub use levels::{DEFAULT_LEVEL, OFFERED, Offered, offered, plays_as};
pub use mcts::{
    Allocation, Budget, DEFAULT_ITERATIONS, DEFAULT_STOP_EARLY, Leaf, MIN_SCALED_ITERATIONS, MctsConfig, MctsPlayer,
    Measured, Ranking, WorldChance,
};
pub use random::RandomPlayer;
pub use recruit::{RECRUIT_TEMPERATURE, RecruitPlayer};
pub use td::TdPlayer;

use greedy::judgement::Weights;
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
/// [`greedy::judgement::Weights::TUNED`] instead of greedy's own weights. `recruit` takes a temperature
/// (`recruit:0.5`, [`RecruitPlayer`]); a level takes the settings of the player it plays as ([`plays_as`]). `mcts`
/// also takes settings: `mcts:ITERATIONS`, `mcts:MSms`, `mcts:gN` (N
/// iterations on a battle of Meeting Engagement's size, scaled down for larger ones: [`Budget::Scaled`], never below
/// `:fFLOOR`, 800 by default), and
/// `:tTHREADS` (threads; default every core), `:kCHILDREN` (candidates), `:rDECISIONS` (rollout length, or `:rend`),
/// `:zZ` (standard errors a candidate must beat the greedy choice by; `:z0` plays the best mean), `:tree` (a UCB tree
/// instead of common random worlds), `:oN` (the opponent in one play-out of every N + 1 judged by the tuned weights:
/// [`MctsConfig::opponent_mix`]), `:e1` (positional leaf evaluation), `:e2` (the fitted leaf value,
/// [`evaluator::leaf::fitted_value`]), `:e3` (the fitted evaluator's winning chances, [`evaluator::shared_reference`])
/// or `:e4` (the value network's; each whatever the judge in force), `:w1` (its own side judged by
/// [`greedy::judgement::Weights::TUNED`] instead of greedy's weights), `:cevent` (each world decides
/// chance by event, not in sequence: [`WorldChance`]), `:pN` (a unit to activate compared together with each of its
/// N best orders), `:sZ` (stop early once the choice is settled, Z standard
/// errors optimistic: [`MctsConfig::stop_early`]) or `:soff` (always the whole budget), `:vB` (the share of the
/// play-outs' dice luck taken out of their values: [`MctsConfig::luck`]), `:lMS` (a bound on the thinking time whatever
/// the budget: [`MctsConfig::time_limit`]), `:race` (the play-outs of candidates that can no longer win go to those
/// that can: [`Allocation::Racing`]), `:bN` (a decision may spend up to N times its budget from what earlier decisions
/// saved: [`MctsConfig::bank`]), `:n1` (its candidates ranked and its default choice made by the value network at
/// one ply, as `td` plays: [`Ranking::Network`]; `:n0` by greedy's judgement), `:check` (a choice to leave the
/// greedy choice measured again on fresh worlds: [`MctsConfig::second_opinion`]), `:pgsN` (its side played by
/// scripts assigned to its units by Portfolio Greedy Search, each unit's scripts compared on N worlds:
/// [`MctsConfig::portfolio_worlds`]; with `:k1` the scripts alone choose; `:uN`, the units whose scripts are compared
/// at a decision: [`MctsConfig::portfolio_units`]), as in `mcts:2000:t2` or `mcts:500ms:k4:r20:z1.5`.
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
        "td" => {
            let player = TdPlayer::new(network::shared(), seed);
            Some(Box::new(if td_averages_cards(parts)? { player.averaging_cards() } else { player }))
        }
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
                apply_setting(&mut config, part)?;
            }
            Some(Box::new(MctsPlayer::new(config, seed)))
        }
        _ => None,
    }
}

/// One setting of `mcts` (see [`PLAYERS`]): a bare number of iterations, a number of milliseconds (`500ms`), a
/// flag (`check`, `race`, `even`, `crn`, `tree`, `cseq`, `cevent`, `rend`, `soff`), or a key of letters followed
/// by its value (`k8`, `pgs200`, `z1.5`). The key is every letter before the value, so no key is read as the start
/// of a longer one (`p3` and `pgs3` are told apart by their whole key). `None` for an unknown setting or a value out
/// of its range.
fn apply_setting(config: &mut MctsConfig, part: &str) -> Option<()> {
    if let Some(ms) = part.strip_suffix("ms") {
        config.budget = Budget::Millis(ms.parse().ok().filter(|&m| m > 0)?);
        return Some(());
    }
    let number_at = part.find(|c: char| c.is_ascii_digit() || c == '.').unwrap_or(part.len());
    let (key, value) = part.split_at(number_at);
    let real = |range: std::ops::RangeInclusive<f32>| value.parse::<f32>().ok().filter(|v| range.contains(v));
    match (key, value) {
        ("", _) => config.budget = Budget::Iterations(value.parse().ok().filter(|&n| n > 0)?),
        (_, "") => match key {
            "check" => config.second_opinion = true,
            "race" => config.allocation = Allocation::Racing,
            "even" => config.allocation = Allocation::Even,
            "crn" => config.common_worlds = true,
            "tree" => config.common_worlds = false,
            "cseq" => config.chance = WorldChance::Sequential,
            "cevent" => config.chance = WorldChance::ByEvent,
            "rend" => config.rollout_decisions = u16::MAX,
            "soff" => config.stop_early = None,
            _ => return None,
        },
        ("u", _) => config.portfolio_units = value.parse().ok().filter(|n| (1..=128).contains(n))?,
        ("pgs", _) => config.portfolio_worlds = value.parse().ok().filter(|n| (1..=100_000).contains(n))?,
        ("p", _) => config.orders_per_unit = value.parse().ok()?,
        ("k", _) => config.max_children = value.parse().ok().filter(|&k| k > 0)?,
        ("r", _) => config.rollout_decisions = value.parse().ok()?,
        ("z", _) => config.confidence = real(0.0..=10.0)?,
        ("s", _) => config.stop_early = Some(real(0.0..=10.0)?),
        ("n", "0") => config.ranking = Ranking::Greedy,
        ("n", "1") => config.ranking = Ranking::Network,
        ("w", "0") => config.weights = Weights::GREEDY,
        ("w", "1") => config.weights = Weights::TUNED,
        ("e", "0") => config.leaf = Leaf::Material,
        ("e", "1") => config.leaf = Leaf::Positional,
        ("e", "2") => config.leaf = Leaf::Fitted,
        ("e", "3") => config.leaf = Leaf::Evaluator,
        ("e", "4") => config.leaf = Leaf::Network,
        ("o", _) => config.opponent_mix = value.parse().ok().filter(|&n| n <= 64)?,
        ("b", _) => config.bank = value.parse().ok().filter(|n| (1..=16).contains(n))?,
        ("f", _) => config.scaled_floor = value.parse().ok()?,
        ("g", _) => config.budget = Budget::Scaled(value.parse().ok().filter(|&n| n > 0)?),
        ("v", _) => config.luck = real(0.0..=2.0)?,
        ("l", _) => {
            config.time_limit = Some(std::time::Duration::from_millis(value.parse().ok().filter(|&m: &u64| m > 0)?))
        }
        ("t", _) => config.threads = value.parse().ok().filter(|&t| (1..=64).contains(&t))?,
        _ => return None,
    }
    Some(())
}

/// `td`'s settings: whether it averages over the card drawn after a plan (`td:cards`); `None` for another setting.
fn td_averages_cards<'a>(mut settings: impl Iterator<Item = &'a str>) -> Option<bool> {
    match (settings.next(), settings.next()) {
        (None, _) => Some(false),
        (Some("cards"), None) => Some(true),
        _ => None,
    }
}

/// Whether [`player`] accepts this name. `td` is checked without being made, so that checking a command's players
/// does not fix the network in play before the command chooses one ([`network::play_by`]).
pub fn is_player(name: &str) -> bool {
    match name.split_once(':') {
        _ if name == "td" => true,
        Some(("td", settings)) => td_averages_cards(settings.split(':')).is_some(),
        _ => player(name, 0).is_some(),
    }
}

#[cfg(test)]
mod settings_tests {
    use super::*;

    fn config(settings: &[&str]) -> Option<MctsConfig> {
        let mut config = MctsConfig::default();
        for s in settings {
            apply_setting(&mut config, s)?;
        }
        Some(config)
    }

    #[test]
    fn a_setting_is_read_by_its_whole_key_in_any_order() {
        let a = config(&["pgs3", "p2", "k4", "z1.5", "500ms", "rend", "soff", "e3", "t1"]).unwrap();
        let b = config(&["t1", "e3", "soff", "rend", "500ms", "z1.5", "k4", "p2", "pgs3"]).unwrap();
        assert_eq!(a, b);
        assert_eq!((a.portfolio_worlds, a.orders_per_unit, a.max_children), (3, 2, 4));
        assert_eq!(a.budget, Budget::Millis(500));
        assert_eq!((a.rollout_decisions, a.stop_early, a.leaf), (u16::MAX, None, Leaf::Evaluator));
        assert_eq!(config(&["2000"]).unwrap().budget, Budget::Iterations(2000));
        assert_eq!(config(&["g3200", "f0"]).unwrap().budget, Budget::Scaled(3200));
        assert_eq!(config(&["n1"]).unwrap().ranking, Ranking::Network);
        assert_eq!(config(&["n1", "n0"]).unwrap().ranking, Ranking::Greedy, "a later setting overrides");
    }

    #[test]
    fn td_is_checked_as_it_is_made() {
        for name in ["td", "td:cards", "td:", "td:cards:cards", "td:x", "tdx"] {
            assert_eq!(is_player(name), player(name, 1).is_some(), "{name}");
        }
        assert!(is_player("td:cards") && !is_player("td:x"));
    }

    #[test]
    fn an_unknown_setting_or_a_value_out_of_range_is_refused() {
        for bad in
            ["q5", "w2", "e9", "n2", "0", "0ms", "ms", "z11", "t0", "u0", "pgs", "checks", "s-1", "", "k0", "b17"]
        {
            assert!(config(&[bad]).is_none(), "{bad}");
            assert!(player(&format!("mcts:{bad}"), 1).is_none(), "{bad}");
        }
    }
}
