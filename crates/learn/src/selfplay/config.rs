//! What decides a self-play run, from its first round to its last: the settings a checkpoint keeps.

use crate::LearnError;
use crate::positions::PositionsConfig;
use pacw_engine::Side;
use pacw_sim::seed::{game_seed, splitmix64};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

/// What decides a training run: the same from its first round to its last.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfPlayConfig {
    /// The seed of every game, choice and shuffle.
    pub seed: u64,
    /// Games a round.
    pub games_per_round: u64,
    /// λ of TD(λ): 0 learns from the next position alone, 1 from the result alone.
    pub lambda: f32,
    /// Adam's step size from the first game (until the first of `rate_steps`).
    pub learning_rate: f32,
    /// Later step sizes, each from a number of games played on, in order: the run's schedule. Steps may be added
    /// to a run as it goes, but only ahead of the games already played ([`SelfPlayConfig::rescheduled`]), so the
    /// schedule a checkpoint holds reproduces the run from its start.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub rate_steps: Vec<RateStep>,
    /// The share of decisions made at random.
    pub exploration: f64,
    /// Hidden units of the unit layer at the start.
    pub unit_hidden: usize,
    /// Hidden units of the side layer at the start.
    pub side_hidden: usize,
    /// Later sizes of the network, each from a number of games played on, in order ([`Network::widened`]): added
    /// as the learning rate's steps are, only ahead of the games already played.
    ///
    /// [`Network::widened`]: pacw_ai::network::Network::widened
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub widenings: Vec<Widening>,
    /// The share of games on random battles (the rest on the twelve shipped ones: the grand battle, Antietam, is not
    /// among them).
    pub generated: f64,
    /// Later shares of the games on the grand battle, Antietam, each from a number of games played on (taken from
    /// the shipped battles' share): added as the learning rate's steps are, only ahead of the games already played.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grand: Vec<ShareFrom>,
    /// Later values of λ for the games on the grand battle, each from a number of games played on: added as the
    /// learning rate's steps are. A grand battle lasts ten times the decisions of a shipped one, and TD(λ) carries
    /// the result back only about 1 / (1 − λ) decisions before it leans on the network's own estimates: with the
    /// run's λ its result barely reaches the middle of the game, so the network stays timid about it
    /// (docs/findings.md §10, "Judging Antietam by its results").
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub grand_lambda: Vec<LambdaFrom>,
    /// Later shares of the games the network plays against greedy (its side alternating with the game's place)
    /// rather than against itself, each from a number of games on: added as the learning rate's steps are, only
    /// ahead of the games already played. Its positions are learnt from as a self-play game's are, so the network
    /// learns the value of positions against the opponent it is measured against.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sparring: Vec<ShareFrom>,
    /// Later shares of the games greedy plays on both sides while the network only watches, each from a number of
    /// games on (drawn before the sparring share): added as the learning rate's steps are. The network learns from
    /// their positions as from its own, so it learns the chances of greedy play, the play the laboratory, the
    /// review's continuations and the calibration measure by. While a share is in force every game on the grand
    /// battle is watched, since a game there by the network player costs some 800 times one of a shipped battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub watching: Vec<ShareFrom>,
    /// Running averages of the weights, each from a number of games played on: after every round the average moves
    /// towards the weights by 1 − its decay. The average is what the run ships and measures ([`Checkpoint`]): it
    /// smooths the round-to-round wander of weights fitted at a constant step size. Added as the learning rate's
    /// steps are, only ahead of the games already played; a decay of 0 stops averaging.
    ///
    /// [`Checkpoint`]: super::Checkpoint
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub averaging: Vec<Averaging>,
    /// Rounds between two points of the learning curve.
    pub curve_every: u64,
    /// Games a shipped battle for each point of the learning curve (sides swapping).
    pub curve_games: u64,
}

impl Default for SelfPlayConfig {
    fn default() -> Self {
        SelfPlayConfig {
            seed: 1,
            games_per_round: 200,
            lambda: 0.7,
            learning_rate: 1e-3,
            rate_steps: Vec::new(),
            exploration: 0.02,
            unit_hidden: 32,
            side_hidden: 32,
            widenings: Vec::new(),
            generated: 0.5,
            grand: Vec::new(),
            grand_lambda: Vec::new(),
            sparring: Vec::new(),
            watching: Vec::new(),
            averaging: Vec::new(),
            curve_every: 10,
            curve_games: 8,
        }
    }
}

impl SelfPlayConfig {
    /// Checks the settings.
    ///
    /// # Errors
    /// A count of 0 or beyond its bound, a share or λ outside 0..=1, a step size that is not a small positive number, or a layer size
    /// out of range.
    pub fn check(&self) -> Result<(), LearnError> {
        let bad = |what: String| Err(LearnError::Config(what));
        if self.games_per_round == 0 || self.curve_every == 0 {
            return bad("games a round and rounds between curve points must each be at least 1".into());
        }
        if self.games_per_round > MAX_GAMES_PER_ROUND || self.curve_games > MAX_CURVE_GAMES {
            return bad(format!(
                "at most {MAX_GAMES_PER_ROUND} games a round and {MAX_CURVE_GAMES} games a battle at each curve point"
            ));
        }
        for (name, share) in [("generated", self.generated), ("exploration", self.exploration)] {
            if !(0.0..=1.0).contains(&share) {
                return bad(format!("the share of {name} must be from 0 to 1, not {share}"));
            }
        }
        if !(0.0..=1.0).contains(&self.lambda) {
            return bad(format!("λ must be from 0 to 1, not {}", self.lambda));
        }
        if !(self.learning_rate > 0.0 && self.learning_rate <= 1.0) {
            return bad(format!("the learning rate must be above 0 and at most 1, not {}", self.learning_rate));
        }
        if self.rate_steps.len() > MAX_RATE_STEPS {
            return bad(format!("at most {MAX_RATE_STEPS} changes of the learning rate"));
        }
        for step in &self.rate_steps {
            if !(step.rate > 0.0 && step.rate <= 1.0) {
                return bad(format!("the learning rate must be above 0 and at most 1, not {}", step.rate));
            }
        }
        if self.rate_steps.windows(2).any(|w| w[0].games >= w[1].games) {
            return bad("the learning rate's changes must come in order of games, each at a different count".into());
        }
        let sizes = 1..=pacw_ai::network::MAX_LAYER;
        if !sizes.contains(&self.unit_hidden) || !sizes.contains(&self.side_hidden) {
            return bad(format!("hidden layers must have 1 to {} units", pacw_ai::network::MAX_LAYER));
        }
        if self.widenings.len() > MAX_WIDENINGS {
            return bad(format!("at most {MAX_WIDENINGS} widenings of the network"));
        }
        let (mut games, mut before) = (None, (self.unit_hidden, self.side_hidden));
        for w in &self.widenings {
            let after = (w.unit_hidden, w.side_hidden);
            if games.is_some_and(|g| w.games <= g) || after.0 < before.0 || after.1 < before.1 {
                return bad("the network's widenings must come in order of games, each at a different count, and \
                            its layers may only grow"
                    .into());
            }
            if !sizes.contains(&after.0) || !sizes.contains(&after.1) {
                return bad(format!("hidden layers must have 1 to {} units", pacw_ai::network::MAX_LAYER));
            }
            (games, before) = (Some(w.games), after);
        }
        let changes =
            [self.grand.len(), self.grand_lambda.len(), self.sparring.len(), self.watching.len(), self.averaging.len()];
        if changes.iter().any(|&n| n > MAX_RATE_STEPS) {
            return bad(format!(
                "at most {MAX_RATE_STEPS} changes of the grand battle's share or λ, of the sparring or watching share \
                 or of the averaging"
            ));
        }
        let shares = [
            ("the grand battle", &self.grand),
            ("games against greedy", &self.sparring),
            ("games watched", &self.watching),
        ];
        for (what, shares) in shares {
            if let Some(g) = shares.iter().find(|g| !(0.0..=1.0).contains(&g.share)) {
                return bad(format!("the share of {what} must be from 0 to 1, not {}", g.share));
            }
        }
        if let Some(l) = self.grand_lambda.iter().find(|l| !(0.0..=1.0).contains(&l.lambda)) {
            return bad(format!("λ must be from 0 to 1, not {}", l.lambda));
        }
        if let Some(a) = self.averaging.iter().find(|a| !(0.0..1.0).contains(&a.decay)) {
            return bad(format!("an average's decay must be at least 0 and below 1, not {}", a.decay));
        }
        let in_order = |games: &mut dyn Iterator<Item = u64>| {
            let games: Vec<u64> = games.collect();
            games.windows(2).all(|w| w[0] < w[1])
        };
        if !in_order(&mut self.grand.iter().map(|g| g.games))
            || !in_order(&mut self.sparring.iter().map(|g| g.games))
            || !in_order(&mut self.watching.iter().map(|g| g.games))
            || !in_order(&mut self.averaging.iter().map(|a| a.games))
            || !in_order(&mut self.grand_lambda.iter().map(|l| l.games))
        {
            return bad(
                "changes of the grand battle's share and λ, of the sparring and watching shares and of the averaging \
                 must come in order of games, each at a different count"
                    .into(),
            );
        }
        Ok(())
    }

    /// The network's hidden units (unit layer, side layer) for a round that starts after `played` games.
    pub fn sizes_at(&self, played: u64) -> (usize, usize) {
        self.widenings
            .iter()
            .rev()
            .find(|w| w.games <= played)
            .map_or((self.unit_hidden, self.side_hidden), |w| (w.unit_hidden, w.side_hidden))
    }

    /// These settings with the network's widenings from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// When a widening of `ahead` falls before `played` games and is not the run's own, or the widenings that
    /// result are refused ([`SelfPlayConfig::check`]).
    pub fn rewidened(&self, played: u64, ahead: &[Widening]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.widenings = ahead_of(&self.widenings, played, ahead, |w| w.games, "a widening")?;
        config.check()?;
        Ok(config)
    }

    /// These settings with the grand battle's shares from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// As [`SelfPlayConfig::rescheduled`].
    pub fn regranded(&self, played: u64, ahead: &[ShareFrom]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.grand = ahead_of(&self.grand, played, ahead, |g| g.games, "a share of the grand battle")?;
        config.check()?;
        Ok(config)
    }

    /// These settings with the grand battle's values of λ from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// As [`SelfPlayConfig::rescheduled`].
    pub fn relambdaed(&self, played: u64, ahead: &[LambdaFrom]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.grand_lambda = ahead_of(&self.grand_lambda, played, ahead, |l| l.games, "a λ of the grand battle")?;
        config.check()?;
        Ok(config)
    }

    /// λ for the positions of game `index`: the grand battle's in force then on the grand battle, else the run's.
    pub(super) fn lambda_for(&self, index: u64) -> f32 {
        let grand = self.grand_lambda.iter().rev().find(|l| l.games <= index);
        match grand {
            Some(l) if self.battles(index).on_grand_battle(index) => l.lambda,
            _ => self.lambda,
        }
    }

    /// These settings with the shares of games against greedy from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// As [`SelfPlayConfig::rescheduled`].
    pub fn resparred(&self, played: u64, ahead: &[ShareFrom]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.sparring = ahead_of(&self.sparring, played, ahead, |g| g.games, "a share of games against greedy")?;
        config.check()?;
        Ok(config)
    }

    /// These settings with the shares of games watched from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// As [`SelfPlayConfig::rescheduled`].
    pub fn rewatched(&self, played: u64, ahead: &[ShareFrom]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.watching = ahead_of(&self.watching, played, ahead, |g| g.games, "a share of games watched")?;
        config.check()?;
        Ok(config)
    }

    /// Whether greedy plays both sides of game `index` ([`SelfPlayConfig::watching`]): every game on the grand
    /// battle while a share is in force, and the others drawn from the game's own seed, only under a share.
    pub(super) fn watched(&self, index: u64) -> bool {
        let share = share_at(&self.watching, index);
        share > 0.0
            && (self.battles(index).on_grand_battle(index)
                || ChaCha8Rng::seed_from_u64(splitmix64(game_seed(self.seed, index) ^ 0x7761_7463)).random_bool(share))
    }

    /// The side greedy plays in game `index`, when the sparring share in force then draws it as a game against
    /// greedy: drawn from the game's own seed, and only under a share, so that the games of a run without one stay
    /// what they were.
    pub(super) fn greedy_side(&self, index: u64) -> Option<Side> {
        let share = share_at(&self.sparring, index);
        let drawn = share > 0.0
            && ChaCha8Rng::seed_from_u64(splitmix64(game_seed(self.seed, index) ^ 0x7370_6172)).random_bool(share);
        drawn.then_some(if index.is_multiple_of(2) { Side::B } else { Side::A })
    }

    /// These settings with the averages from `played` games on replaced by `ahead`, as
    /// [`SelfPlayConfig::rescheduled`] does for the learning rate.
    ///
    /// # Errors
    /// As [`SelfPlayConfig::rescheduled`].
    pub fn reaveraged(&self, played: u64, ahead: &[Averaging]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.averaging = ahead_of(&self.averaging, played, ahead, |a| a.games, "an average")?;
        config.check()?;
        Ok(config)
    }

    /// The decay of the running average of the weights after a round that starts after `played` games: `None`
    /// when the run keeps no average then.
    pub fn decay_at(&self, played: u64) -> Option<f32> {
        self.averaging.iter().rev().find(|a| a.games <= played).map(|a| a.decay).filter(|&d| d > 0.0)
    }

    /// Adam's step size for a round that starts after `played` games.
    pub fn rate_at(&self, played: u64) -> f32 {
        self.rate_steps.iter().rev().find(|s| s.games <= played).map_or(self.learning_rate, |s| s.rate)
    }

    /// These settings with the learning rate's steps from `played` games on replaced by `ahead`: the steps that
    /// governed the rounds already played are kept, so the run stays what it was.
    ///
    /// # Errors
    /// When a step of `ahead` falls before `played` games (it would change rounds already played) and is not the
    /// run's own, or the schedule that results is refused ([`SelfPlayConfig::check`]).
    pub fn rescheduled(&self, played: u64, ahead: &[RateStep]) -> Result<SelfPlayConfig, LearnError> {
        let mut config = self.clone();
        config.rate_steps = ahead_of(&self.rate_steps, played, ahead, |s| s.games, "a learning rate")?;
        config.check()?;
        Ok(config)
    }

    /// The battles and dice of game `index` and its neighbours: the positions' own choice of battles, under the
    /// standard rules, with the grand battle's share in force at that game.
    pub(super) fn battles(&self, index: u64) -> PositionsConfig {
        let grand = share_at(&self.grand, index);
        PositionsConfig {
            seed: self.seed,
            held_out: Vec::new(),
            generated: self.generated,
            grand,
            variants: 0.0,
            ..Default::default()
        }
    }
}

/// The share of `shares` in force at game `index`: 0 before the first.
fn share_at(shares: &[ShareFrom], index: u64) -> f64 {
    shares.iter().rev().find(|g| g.games <= index).map_or(0.0, |g| g.share)
}

/// A run's changes (`steps`) with those from `played` games on replaced by `ahead`: the changes that governed the
/// rounds already played are kept, so the run stays what it was, and a change of `ahead` before `played` games is
/// refused unless it is one of them.
fn ahead_of<T: Copy + PartialEq>(
    steps: &[T],
    played: u64,
    ahead: &[T],
    games: impl Fn(&T) -> u64,
    what: &str,
) -> Result<Vec<T>, LearnError> {
    let mut kept: Vec<T> = steps.iter().copied().filter(|s| games(s) < played).collect();
    if let Some(step) = ahead.iter().find(|s| games(s) < played && !kept.contains(s)) {
        return Err(LearnError::Config(format!(
            "{what} from {} games would change the rounds already played ({played} games); give changes from \
             {played} games on",
            games(step)
        )));
    }
    kept.extend(ahead.iter().copied().filter(|s| games(s) >= played));
    Ok(kept)
}

/// A change of the learning rate in a run's schedule.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RateStep {
    /// Games played before the first round at the new rate.
    pub games: u64,
    /// Adam's step size from then on.
    pub rate: f32,
}

impl std::str::FromStr for RateStep {
    type Err = String;

    /// Reads `GAMES=RATE`, as `80000=0.0003`.
    fn from_str(text: &str) -> Result<RateStep, String> {
        let (games, rate) = games_and(text, "GAMES=RATE", "a learning rate, as 80000=0.0003")?;
        Ok(RateStep { games, rate })
    }
}

/// A change of the network's size in a run: from a number of games on, the network [`Network::widened`] to these
/// sizes.
///
/// [`Network::widened`]: pacw_ai::network::Network::widened
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Widening {
    /// Games played before the first round of the wider network.
    pub games: u64,
    /// Hidden units of the unit layer from then on.
    pub unit_hidden: usize,
    /// Hidden units of the side layer from then on.
    pub side_hidden: usize,
}

impl std::str::FromStr for Widening {
    type Err = String;

    /// Reads `GAMES=U,S`, as `113400=64,64`.
    fn from_str(text: &str) -> Result<Widening, String> {
        let bad = || format!("'{text}' is not GAMES=U,S (a number of games and two layer sizes, as 113400=64,64)");
        let (games, sizes) = text.split_once('=').ok_or_else(bad)?;
        let (u, s) = sizes.split_once(',').ok_or_else(bad)?;
        let number = |t: &str| t.trim().parse().map_err(|_| bad());
        Ok(Widening { games: number(games)?, unit_hidden: number(u)? as usize, side_hidden: number(s)? as usize })
    }
}

/// A share of the games in a run's schedule: of those on the grand battle ([`SelfPlayConfig::grand`]), or of those
/// against greedy ([`SelfPlayConfig::sparring`]).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShareFrom {
    /// Games played before the first game with this share.
    pub games: u64,
    /// The share of games from then on.
    pub share: f64,
}

impl std::str::FromStr for ShareFrom {
    type Err = String;

    /// Reads `GAMES=SHARE`, as `263000=0.05`.
    fn from_str(text: &str) -> Result<ShareFrom, String> {
        let (games, share) = games_and(text, "GAMES=SHARE", "a share from 0 to 1, as 263000=0.05")?;
        Ok(ShareFrom { games, share })
    }
}

/// A value of λ in a run's schedule ([`SelfPlayConfig::grand_lambda`]).
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LambdaFrom {
    /// Games played before the first game with this λ.
    pub games: u64,
    /// λ from then on, from 0 to 1.
    pub lambda: f32,
}

impl std::str::FromStr for LambdaFrom {
    type Err = String;

    /// Reads `GAMES=LAMBDA`, as `240200=1`.
    fn from_str(text: &str) -> Result<LambdaFrom, String> {
        let (games, lambda) = games_and(text, "GAMES=LAMBDA", "a λ from 0 to 1, as 240200=1")?;
        Ok(LambdaFrom { games, lambda })
    }
}

/// A running average of the weights in a run's schedule.
#[derive(Copy, Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Averaging {
    /// Games played before the first round averaged with this decay.
    pub games: u64,
    /// How much of the average each round keeps, from 0 (no average) to below 1: 0.98 averages over about the last
    /// 50 rounds.
    pub decay: f32,
}

impl std::str::FromStr for Averaging {
    type Err = String;

    /// Reads `GAMES=DECAY`, as `263000=0.98`.
    fn from_str(text: &str) -> Result<Averaging, String> {
        let (games, decay) = games_and(text, "GAMES=DECAY", "a decay from 0 to below 1, as 263000=0.98")?;
        Ok(Averaging { games, decay })
    }
}

/// Reads `GAMES=VALUE`; `form` and `what` name the form and describe the value for the message.
fn games_and<T: std::str::FromStr>(text: &str, form: &str, what: &str) -> Result<(u64, T), String> {
    let bad = || format!("'{text}' is not {form} (a number of games and {what})");
    let (games, value) = text.split_once('=').ok_or_else(bad)?;
    Ok((games.trim().parse().map_err(|_| bad())?, value.trim().parse().map_err(|_| bad())?))
}

/// The most widenings a run may hold.
pub const MAX_WIDENINGS: usize = 16;

/// The most changes of the learning rate a schedule may hold.
pub const MAX_RATE_STEPS: usize = 64;

/// The most games a round may play (a round's games are held in memory until it is fitted).
pub const MAX_GAMES_PER_ROUND: u64 = 100_000;

/// The most games on each battle at a point of the learning curve.
pub const MAX_CURVE_GAMES: u64 = 10_000;

/// The most self-play games a checkpoint may say were played (far beyond any run; a larger count is damage).
pub const MAX_GAMES: u64 = 1 << 48;
