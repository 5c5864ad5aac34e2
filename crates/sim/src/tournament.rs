//! A round robin between computer players: every two of them play the same games (the same seeds, sides swapping
//! every other game) on every battle, and the results give each an Elo rating with its interval ([`crate::elo`]).

use crate::elo::{Played, Rating, ratings};
use crate::{ScenarioSource, SimConfig, SimError, run};
use serde::Serialize;

/// Bootstrap resamplings for the ratings' intervals.
const RESAMPLES: usize = 1000;

/// What a round robin is told.
#[derive(Clone, Debug)]
pub struct TournamentConfig {
    /// The battles every pairing plays.
    pub scenarios: Vec<ScenarioSource>,
    /// The players, as [`pacw_ai::player`] knows them (at least two, all different).
    pub players: Vec<String>,
    /// Games of each pairing on each battle.
    pub games: usize,
    /// The seed of the games: every pairing plays the same ones.
    pub seed: u64,
    /// The player rated 0.
    pub anchor: usize,
    /// Threads (`None`: all cores).
    pub threads: Option<usize>,
    /// Whether each game counts by its luck-adjusted score rather than its result (`--luck`:
    /// [`crate::GameRecord::luck_adjusted`]): the same ratings in expectation, with narrower intervals.
    pub luck: bool,
}

/// The results of one pairing, from the first player's side.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Pairing {
    /// The first player.
    pub first: String,
    /// The second player.
    pub second: String,
    /// The first player's wins.
    pub wins: usize,
    /// Draws.
    pub draws: usize,
    /// The first player's losses.
    pub losses: usize,
    /// The first player's luck-adjusted score, a game (a share), when the games were reviewed for their luck.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck_adjusted: Option<f64>,
}

/// A round robin's results: every pairing, and the ratings (best first).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Tournament {
    /// Every pairing's results.
    pub pairings: Vec<Pairing>,
    /// Every player's rating, best first.
    pub ratings: Vec<Rating>,
    /// The player rated 0.
    pub anchor: String,
    /// Whether the games counted by their luck-adjusted scores.
    pub luck_adjusted: bool,
}

/// The games a round robin plays.
pub fn game_count(config: &TournamentConfig) -> usize {
    let n = config.players.len();
    n * (n - 1) / 2 * config.games * config.scenarios.len()
}

/// Plays the round robin; `progress` is called after each game.
///
/// # Errors
/// When a player is unknown, or a pairing's games fail as [`run()`] does.
pub fn play(config: &TournamentConfig, progress: &(dyn Fn() + Sync)) -> Result<Tournament, SimError> {
    for name in &config.players {
        crate::config::check_player(name)?;
    }
    let n = config.players.len();
    let mut played = Vec::new();
    let mut pairings = Vec::new();
    for first in 0..n {
        for second in first + 1..n {
            let mut sim = SimConfig::of(config.scenarios.clone());
            sim.players = [config.players[first].clone(), config.players[second].clone()];
            sim.games = config.games;
            sim.seed = config.seed;
            sim.threads = config.threads;
            sim.luck = config.luck;
            let results = run(&sim, progress)?;
            let mut pairing = Pairing {
                first: sim.players[0].clone(),
                second: sim.players[1].clone(),
                wins: 0,
                draws: 0,
                losses: 0,
                luck_adjusted: None,
            };
            let mut adjusted = Vec::new();
            for record in &results.records {
                let result = match record.winning_player() {
                    Some(0) => {
                        pairing.wins += 1;
                        1.0
                    }
                    Some(_) => {
                        pairing.losses += 1;
                        0.0
                    }
                    None => {
                        pairing.draws += 1;
                        0.5
                    }
                };
                let luck_adjusted = record.luck_adjusted_of(0);
                adjusted.extend(luck_adjusted);
                played.push(Played { first, second, score: luck_adjusted.unwrap_or(result) });
            }
            if config.luck && !adjusted.is_empty() {
                let mean = adjusted.iter().sum::<f64>() / adjusted.len() as f64;
                pairing.luck_adjusted = Some(mean.clamp(0.0, 1.0));
            }
            pairings.push(pairing);
        }
    }
    let mut ratings = ratings(&config.players, &played, config.anchor, RESAMPLES, config.seed);
    ratings.sort_by(|a, b| b.elo.total_cmp(&a.elo));
    Ok(Tournament { pairings, ratings, anchor: config.players[config.anchor].clone(), luck_adjusted: config.luck })
}

/// The results as text: the ratings, then every pairing.
pub fn render_text(t: &Tournament) -> String {
    let by = if t.luck_adjusted { "; each game by its luck-adjusted score" } else { "" };
    let mut out = format!("Elo ratings ({} = 0; 95% bootstrap intervals{by})\n", t.anchor);
    let width = t.ratings.iter().map(|r| r.player.len()).max().unwrap_or(6).max(6);
    out += &format!("  {:<width$}  {:>6}  {:>15}  {:>6}  {:>6}\n", "player", "elo", "interval", "games", "score");
    for r in &t.ratings {
        out += &format!(
            "  {:<width$}  {:>6.0}  {:>15}  {:>6}  {:>5.1}%\n",
            r.player,
            r.elo,
            format!("[{:.0}, {:.0}]", r.low, r.high),
            r.games,
            100.0 * r.score
        );
    }
    out += "\nPairings (wins–draws–losses of the first)\n";
    for p in &t.pairings {
        out += &format!("  {} against {}: {}–{}–{}", p.first, p.second, p.wins, p.draws, p.losses);
        if let Some(a) = p.luck_adjusted {
            out += &format!(" (luck-adjusted score {:.1}%)", 100.0 * a);
        }
        out += "\n";
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use pacw_engine::SHIPPED_SCENARIOS;

    #[test]
    fn a_round_robin_rates_greedy_above_random() {
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[0];
        let config = TournamentConfig {
            scenarios: vec![ScenarioSource::parse(text, file).unwrap()],
            players: vec!["random".into(), "recruit".into(), "greedy".into()],
            games: 16,
            seed: 3,
            anchor: 0,
            threads: Some(1),
            luck: false,
        };
        assert_eq!(game_count(&config), 48);
        let t = play(&config, &|| {}).unwrap();
        assert_eq!(t.pairings.len(), 3);
        assert!(t.pairings.iter().all(|p| p.wins + p.draws + p.losses == 16));
        let elo = |name: &str| t.ratings.iter().find(|r| r.player == name).unwrap().elo;
        assert_eq!(elo("random"), 0.0);
        assert!(elo("greedy") > elo("random") + 200.0, "{t:?}");
        assert!(render_text(&t).contains("recruit against greedy: "), "{}", render_text(&t));
    }

    #[test]
    fn an_unknown_player_is_refused_with_the_names() {
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[0];
        let config = TournamentConfig {
            scenarios: vec![ScenarioSource::parse(text, file).unwrap()],
            players: vec!["greedy".into(), "colonel".into()],
            games: 1,
            seed: 0,
            anchor: 0,
            threads: Some(1),
            luck: false,
        };
        let e = play(&config, &|| {}).unwrap_err().to_string();
        assert!(e.contains("colonel") && e.contains("recruit, veteran, general"), "{e}");
    }

    #[test]
    fn with_luck_each_game_counts_by_its_luck_adjusted_score() {
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[0];
        let config = |players: [&str; 3], luck| TournamentConfig {
            scenarios: vec![ScenarioSource::parse(text, file).unwrap()],
            players: players.map(String::from).to_vec(),
            games: 12,
            seed: 5,
            anchor: 0,
            threads: Some(1),
            luck,
        };
        let elo = |t: &Tournament, name: &str| t.ratings.iter().find(|r| r.player == name).unwrap().elo;
        let t = play(&config(["recruit", "greedy", "veteran"], true), &|| {}).unwrap();
        assert!(t.luck_adjusted && render_text(&t).contains("luck-adjusted"));
        // A player's score is the mean of its pairings' luck-adjusted scores (each pairing the same number of games).
        let greedy = t.ratings.iter().find(|r| r.player == "greedy").unwrap();
        let of_pairings = t
            .pairings
            .iter()
            .filter_map(|p| match (p.first.as_str(), p.second.as_str()) {
                ("greedy", _) => p.luck_adjusted,
                (_, "greedy") => p.luck_adjusted.map(|a| 1.0 - a),
                _ => None,
            })
            .sum::<f64>()
            / 2.0;
        assert!((greedy.score - of_pairings).abs() < 1e-9, "{greedy:?} {of_pairings}");
        // The same games counted by their results give other ratings.
        let plain = play(&config(["recruit", "greedy", "veteran"], false), &|| {}).unwrap();
        assert!(plain.pairings.iter().all(|p| p.luck_adjusted.is_none()));
        let wins = |t: &Tournament| t.pairings.iter().map(|p| p.wins).collect::<Vec<_>>();
        assert_eq!(wins(&plain), wins(&t));
        assert_ne!(elo(&plain, "veteran"), elo(&t, "veteran"));
        // A player who loses every game, some by bad luck, scores below nothing game by game; it is still rated.
        let t = play(&config(["random", "greedy", "veteran"], true), &|| {}).unwrap();
        assert!(t.ratings.iter().all(|r| r.elo.is_finite() && r.low.is_finite() && r.high.is_finite()), "{t:?}");
        assert!(elo(&t, "greedy") > elo(&t, "random") + 200.0, "{t:?}");
        assert!(t.pairings.iter().all(|p| p.luck_adjusted.is_some_and(|a| (0.0..=1.0).contains(&a))));
    }
}
