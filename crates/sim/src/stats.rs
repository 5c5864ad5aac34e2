//! Aggregation: from the records of many games to the statistics the reports show, with 95% Wilson intervals.

use crate::record::{GameRecord, OutcomeCounts, ShakenSpells, TargetOutcome, first_side_score};
use crate::significance::{Interval, ZTest, mean_interval, one_proportion, two_proportion};
use crate::wilson;
use pacw_engine::AttackKind;
use pacw_engine::terrain::MAX_TERRAINS;
use pacw_engine::{Arm, EndReason, Quality, Side};
use serde::Serialize;

/// A proportion with its 95% Wilson score interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct Rate {
    /// Successes.
    pub count: u64,
    /// Trials.
    pub of: u64,
    /// count / of (0 when there are no trials).
    pub rate: f64,
    /// Lower end of the 95% Wilson interval.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
}

impl Rate {
    /// `count` of `of`, with its interval.
    pub fn new(count: u64, of: u64) -> Rate {
        let (ci_low, ci_high) = wilson::interval(count, of);
        Rate { count, of, rate: if of == 0 { 0.0 } else { count as f64 / of as f64 }, ci_low, ci_high }
    }
}

/// A total and its mean per game.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct PerGame {
    /// The total over all games.
    pub total: u64,
    /// The mean per game.
    pub per_game: f64,
}

/// Whether no rule counted by its place ever applied (an after-attack rule, a result modifier: the standard rules
/// have none).
fn never_applied(counts: &[PerGame]) -> bool {
    counts.iter().all(|c| c.total == 0)
}

/// Whether no reinforcement arrived or waited in any game (a battle without them).
fn no_arrivals(counts: &[PerGame; 2]) -> bool {
    counts.iter().all(|c| c.total == 0)
}

impl PerGame {
    /// Whether nothing was counted.
    fn is_zero(&self) -> bool {
        self.total == 0
    }

    fn new(total: u64, games: u64) -> PerGame {
        PerGame { total, per_game: if games == 0 { 0.0 } else { total as f64 / games as f64 } }
    }
}

/// Games won, drawn and lost, with the win rate and its 95% Wilson interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Results {
    /// Games counted.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// wins / games.
    pub win_rate: f64,
    /// Lower end of the 95% Wilson interval of the win rate.
    pub ci_low: f64,
    /// Upper end.
    pub ci_high: f64,
}

impl Results {
    /// `wins` and `draws` out of `games`.
    pub fn new(wins: u64, draws: u64, games: u64) -> Results {
        let rate = Rate::new(wins, games);
        Results {
            games,
            wins,
            draws,
            losses: games - wins - draws,
            win_rate: rate.rate,
            ci_low: rate.ci_low,
            ci_high: rate.ci_high,
        }
    }

    /// The win rate as a [`Rate`].
    pub fn win(&self) -> Rate {
        Rate { count: self.wins, of: self.games, rate: self.win_rate, ci_low: self.ci_low, ci_high: self.ci_high }
    }
}

/// A score with the luck of the dice and cards taken out (`simulate --luck`): each game's result less its luck, whose
/// expectation is nought, so the mean has the score's expectation with a narrower interval.
#[derive(Copy, Clone, Debug, PartialEq, Serialize)]
pub struct LuckAdjusted {
    /// The score (a win 1, a draw ½), a game.
    pub score: f64,
    /// Its 95% interval, from the results alone (within 0 and 1).
    pub score_ci: Interval,
    /// The luck-adjusted score, a game (within 0 and 1).
    pub adjusted: f64,
    /// Its 95% interval (within 0 and 1).
    pub adjusted_ci: Interval,
}

impl LuckAdjusted {
    /// Of the games `records`, each for whoever `first_side` says played the first side in it; `None` unless every
    /// game was reviewed for its luck.
    fn new(records: &[&GameRecord], first_side: impl Fn(&GameRecord) -> bool) -> Option<LuckAdjusted> {
        if records.is_empty() {
            return None;
        }
        let mut scores = Vec::with_capacity(records.len());
        let mut adjusted = Vec::with_capacity(records.len());
        for r in records {
            let (score, luck_adjusted) = (first_side_score(r.stats.winner), r.luck_adjusted()?);
            let flip = |x: f64| if first_side(r) { x } else { 1.0 - x };
            scores.push(flip(score));
            adjusted.push(flip(luck_adjusted));
        }
        // A score lies between 0 and 1, and so does its estimate (a game's adjusted result may not).
        let within = |(mean, i): (f64, Interval)| {
            (mean.clamp(0.0, 1.0), Interval { low: i.low.max(0.0), high: i.high.min(1.0) })
        };
        let ((score, score_ci), (adjusted, adjusted_ci)) =
            (within(mean_interval(&scores)), within(mean_interval(&adjusted)));
        Some(LuckAdjusted { score, score_ci, adjusted, adjusted_ci })
    }
}

/// One computer player's results, whichever side it played.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayerSummary {
    /// Its label (`random (1)` when both players have the same name).
    pub name: String,
    /// Its games.
    #[serde(flatten)]
    pub results: Results,
    /// Its score with the luck taken out, when every game was reviewed for it (`simulate --luck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck_adjusted: Option<LuckAdjusted>,
}

/// One side's results and losses, whichever player played it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSummary {
    /// `A` (the scenario's first side) or `B`.
    pub side: String,
    /// The scenario's id for it.
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its games.
    #[serde(flatten)]
    pub results: Results,
    /// Its score with the luck taken out, when every game was reviewed for it (`simulate --luck`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub luck_adjusted: Option<LuckAdjusted>,
    /// Games it lost by reaching its exhaustion point (R8.1).
    pub exhausted: u64,
    /// Its unit activations.
    pub activations: PerGame,
    /// Its units destroyed.
    pub destroyed: PerGame,
    /// Times its units became shaken.
    pub shaken: PerGame,
    /// Its units' retreats.
    pub retreats: PerGame,
    /// Its double activations within a turn.
    pub double_activations: PerGame,
    /// Its double activations across a turn's end.
    pub doubles_across_turns: PerGame,
    /// Its side doubles (two cards in a row; or acting last in a turn and first in the next).
    pub side_doubles: PerGame,
}

/// How long the games lasted.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LengthSummary {
    /// Mean turns (the turn in which each game ended).
    pub turns_mean: f64,
    /// The 95% t interval of the mean turns.
    pub turns_ci: Interval,
    /// Fewest turns.
    pub turns_min: u8,
    /// Most turns.
    pub turns_max: u8,
    /// Games by the turn they ended in: entry `i` counts games that ended in turn `i + 1`.
    pub turns_histogram: Vec<u64>,
    /// Mean unit activations a game, both sides.
    pub activations_mean: f64,
    /// Their standard deviation.
    pub activations_sd: f64,
    /// Fewest.
    pub activations_min: u32,
    /// Median.
    pub activations_median: u32,
    /// Most.
    pub activations_max: u32,
    /// Games that ended at the turn limit (R8.2) rather than by exhaustion (R8.1).
    pub turn_limit: Rate,
}

/// The outcomes of one kind of attack.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackMix {
    /// Attacks made.
    pub attacks: u64,
    /// Attacks a game.
    pub per_game: f64,
    /// Missed.
    pub miss: u64,
    /// Target shaken (including a blocked retreat that stood, R7.4).
    pub shaken: u64,
    /// Target retreated.
    pub retreat: u64,
    /// Target destroyed (including a blocked retreat, R7.4).
    pub destroyed: u64,
    /// Hits / attacks.
    pub hit_rate: Rate,
    /// (Retreat + destroyed) / attacks: attacks that moved or removed the target.
    pub decisive_rate: Rate,
    /// Destroyed / attacks.
    pub destroyed_rate: Rate,
}

impl AttackMix {
    fn new(c: &OutcomeCounts<u64>, games: u64) -> AttackMix {
        let attacks = c.total();
        let [miss, shaken, retreat, destroyed] = TargetOutcome::ALL.map(|o| c[o]);
        AttackMix {
            attacks,
            per_game: PerGame::new(attacks, games).per_game,
            miss,
            shaken,
            retreat,
            destroyed,
            hit_rate: Rate::new(c.effective(), attacks),
            decisive_rate: Rate::new(retreat + destroyed, attacks),
            destroyed_rate: Rate::new(destroyed, attacks),
        }
    }
}

/// The fighting and movement in one terrain kind of the rules' own (a variant's `[[terrain]]`, docs/variants.md;
/// [`crate::record::own_terrains`]).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TerrainSummary {
    /// The kind's place in the terrain table of the rules played (the standard six first, then the variant's new
    /// kinds): the report names it by the rules' name for it.
    pub place: usize,
    /// Attacks on a unit standing in it, and what befell the target.
    pub attacks: AttackMix,
    /// Moves that ended in it.
    pub moves_ended: PerGame,
}

/// Shooting (distance ≥ 2) against charges (distance 1), R6.1.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttackSummary {
    /// Attacks at distance 2 or more.
    pub shooting: AttackMix,
    /// Attacks at distance 1.
    pub charges: AttackMix,
    /// Shooting by infantry.
    pub infantry_shooting: AttackMix,
    /// Shooting by cavalry.
    pub cavalry_shooting: AttackMix,
    /// Shooting by artillery (including distance 2–4).
    pub artillery_shooting: AttackMix,
    /// Of the units destroyed by attacks, the share destroyed by shooting.
    pub losses_to_shooting: Rate,
    /// Of all attacks, the share that were charges.
    pub charge_share: Rate,
    /// Whether shooting and charges destroy at different rates per attack (two-proportion z-test).
    pub destroyed_rate_test: ZTest,
}

/// How well one kind of unit (arm and quality) fought and how often it was lost.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Effectiveness {
    /// `infantry`, `cavalry` or `artillery`.
    pub arm: String,
    /// `green`, `regular` or `veteran`.
    pub quality: String,
    /// Its attacks (shooting and charges).
    pub attacks: u64,
    /// Attacks that hit.
    pub hits: Rate,
    /// Attacks that destroyed the target.
    pub kills: Rate,
    /// Units of this kind destroyed, a game.
    pub losses: PerGame,
    /// Units of this kind fielded over all the games (the scenarios'), what the losses are a share of.
    pub fielded: u64,
    /// Units of this kind destroyed, as a share of those fielded.
    pub lost_share: Rate,
}

/// What happened to shaken units before they recovered (the seed's "hit it twice" question).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ShakenSummary {
    /// Spells of shakenness, from becoming shaken to recovery by activation (R4.1), destruction or the game's end.
    pub spells: u64,
    /// Spells a game.
    pub per_game: f64,
    /// Spells in which the unit was attacked again.
    pub attacked_again: Rate,
    /// Spells in which the unit was hit again before it recovered.
    pub hit_again: Rate,
    /// Retreats of units hit again while shaken.
    pub retreated_again: u64,
    /// Units destroyed while shaken.
    pub destroyed_again: u64,
    /// Spells that ended with the unit's activation.
    pub recovered: Rate,
}

/// One side's win rate when it had an advantage against when the other side had it: the advantage measured
/// within a side, so that a scenario's imbalance between the sides does not pass for an effect of the advantage.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SideSplit {
    /// The side's name.
    pub side: String,
    /// Its wins in the games where it had the advantage.
    pub with: Rate,
    /// Its wins in the games where the other side had it.
    pub without: Rate,
    /// Two-proportion z-test of `with` against `without`.
    pub test: ZTest,
}

/// The results of the side that had some advantage in a game (acted first; had more double activations).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Advantage {
    /// What the advantage is.
    pub rule: String,
    /// The games in which one side had it, from that side's point of view.
    #[serde(flatten)]
    pub results: Results,
    /// Of the decisive games, the share it won.
    pub decisive_share: f64,
    /// One-proportion z-test of that share against 50%.
    pub test: ZTest,
    /// The same advantage within each side, first side first.
    pub by_side: Vec<SideSplit>,
}

impl Advantage {
    /// The results of the side `who` says had the advantage in each game (`None`: neither).
    fn new(rule: &str, records: &[&GameRecord], names: &Names, who: impl Fn(&GameRecord) -> Option<Side>) -> Advantage {
        let (mut games, mut wins, mut draws) = (0u64, 0u64, 0u64);
        // Per side: [games with, wins with, games without, wins without].
        let mut split = [[0u64; 4]; 2];
        for r in records {
            let Some(side) = who(r) else { continue };
            games += 1;
            match r.stats.winner {
                None => draws += 1,
                Some(w) if w == side => wins += 1,
                Some(_) => {}
            }
            let (me, other) = (side.index(), side.other().index());
            split[me][0] += 1;
            split[me][1] += (r.stats.winner == Some(side)) as u64;
            split[other][2] += 1;
            split[other][3] += (r.stats.winner == Some(side.other())) as u64;
        }
        let results = Results::new(wins, draws, games);
        let decisive = wins + results.losses;
        let by_side = Side::BOTH
            .iter()
            .map(|s| {
                let [gw, ww, go, wo] = split[s.index()];
                SideSplit {
                    side: names.sides[s.index()].1.clone(),
                    with: Rate::new(ww, gw),
                    without: Rate::new(wo, go),
                    test: two_proportion(ww, gw, wo, go),
                }
            })
            .collect();
        Advantage {
            rule: rule.to_string(),
            results,
            decisive_share: if decisive == 0 { 0.0 } else { wins as f64 / decisive as f64 },
            test: one_proportion(wins, decisive, 0.5),
            by_side,
        }
    }
}

/// How often double activations happen, and whether the side with more of them wins.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DoublesSummary {
    /// Double activations within a turn, a game (both sides).
    pub in_turn_per_game: f64,
    /// Double activations across a turn's end, a game.
    pub across_turns_per_game: f64,
    /// Games with at least one double activation (within or across turns).
    pub games_with_double: Rate,
    /// Side doubles a game.
    pub side_doubles_per_game: f64,
    /// Games with at least one side double.
    pub games_with_side_double: Rate,
    /// The side with more double activations (within and across turns).
    pub more_double_activations: Advantage,
    /// The side with more side doubles.
    pub more_side_doubles: Advantage,
    /// Units destroyed by a unit on its second or later activation in a turn, a game.
    pub second_activation_kills: PerGame,
    /// Of all units destroyed by attacks, the share destroyed that way.
    pub second_activation_kill_share: Rate,
    /// Charges by a unit that shot on its previous activation in the same turn, a game.
    pub shoot_then_charge: PerGame,
}

/// The statistics of a set of games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Summary {
    /// Games.
    pub games: u64,
    /// Drawn games.
    pub draws: u64,
    /// draws / games.
    pub draw_rate: Rate,
    /// Each player's results, in `--players` order.
    pub players: Vec<PlayerSummary>,
    /// Each side's results, the scenario's first side first.
    pub sides: Vec<SideSummary>,
    /// Game length.
    pub length: LengthSummary,
    /// Shooting against charges.
    pub attacks: AttackSummary,
    /// Shaken units hit again.
    pub shaken: ShakenSummary,
    /// Times each of the variant's after-attack rules befell an attacker, a game, by the rule's place among its
    /// combat system's (`[[after_attack]]`; the report names them); all 0 under the standard rules, and then not
    /// written out.
    #[serde(skip_serializing_if = "never_applied")]
    pub after_attack: Vec<PerGame>,
    /// Times each of the variant's modifiers to the hit-result roll applied, a game, by its place among its combat
    /// system's (`[[result_modifiers]]`); all 0 under the standard rules, and then not written out.
    #[serde(default, skip_serializing_if = "never_applied")]
    pub result_modified: Vec<PerGame>,
    /// Orders given a game at which each of the variant's restrictions left out at least one attack the rules
    /// without it would list, by its place among its combat system's (`[[restrictions]]`); all 0 under the standard
    /// rules, and then not written out.
    #[serde(default, skip_serializing_if = "never_applied")]
    pub restricted_decisions: Vec<PerGame>,
    /// The attacking orders each of the variant's restrictions left out, a game, by its place as above.
    #[serde(default, skip_serializing_if = "never_applied")]
    pub restricted_orders: Vec<PerGame>,
    /// Rally dice rolled a game under a variant's rally roll (`[rally]`): none under the standard rules, and then
    /// not written out.
    #[serde(skip_serializing_if = "PerGame::is_zero")]
    pub rally_rolls: PerGame,
    /// Of those, the ones that left the unit shaken.
    #[serde(skip_serializing_if = "PerGame::is_zero")]
    pub rallies_failed: PerGame,
    /// Rally dice each of the variant's rally modifiers applied to, a game, by its place among its combat system's
    /// (`[[rally_modifiers]]`); all 0 under the standard rules, and then not written out.
    #[serde(default, skip_serializing_if = "never_applied")]
    pub rally_modified: Vec<PerGame>,
    /// Reinforcements' units that arrived a game, per side (docs/scenario-format.md#events): none in a battle
    /// without them, and then not written out.
    #[serde(skip_serializing_if = "no_arrivals")]
    pub arrivals: [PerGame; 2],
    /// Arrivals put off a turn because the entry square was held, a game, per side.
    #[serde(skip_serializing_if = "no_arrivals")]
    pub arrivals_delayed: [PerGame; 2],
    /// The fighting and movement in each terrain kind of the rules' own that saw any, by the kind's place: none
    /// under the standard rules, and then not written out.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub terrain: Vec<TerrainSummary>,
    /// Attacks and losses by arm and quality, every kind (infantry green first, artillery veteran last).
    pub effectiveness: Vec<Effectiveness>,
    /// The side that acted first in turn 1.
    pub first_mover: Advantage,
    /// Double activations.
    pub doubles: DoublesSummary,
}

/// What a summary needs besides the records: names.
#[derive(Clone, Debug)]
pub struct Names {
    /// The players' labels, in `--players` order.
    pub players: [String; 2],
    /// Each side's (id, name), first side first.
    pub sides: [(String, String); 2],
    /// What "acting first" means (see [`crate::config::first_mover_rule`]).
    pub first_mover_rule: String,
}

/// The side that had more of something, if either did.
fn more(counts: [u32; 2]) -> Option<Side> {
    match counts[0].cmp(&counts[1]) {
        std::cmp::Ordering::Greater => Some(Side::A),
        std::cmp::Ordering::Less => Some(Side::B),
        std::cmp::Ordering::Equal => None,
    }
}

fn sum_outcomes(records: &[&GameRecord], pick: impl Fn(&GameRecord) -> OutcomeCounts) -> OutcomeCounts<u64> {
    let mut total = OutcomeCounts([0u64; 4]);
    for r in records {
        for (t, c) in total.0.iter_mut().zip(pick(r).0) {
            *t += c as u64;
        }
    }
    total
}

impl Summary {
    /// The fighting and movement in the terrain kind at `place` of the rules played; `None` when none was counted
    /// there (no attack into it and no move ending in it, or not a kind of the rules' own).
    pub fn terrain_at(&self, place: usize) -> Option<&TerrainSummary> {
        self.terrain.iter().find(|t| t.place == place)
    }

    /// The statistics of `records` (which must not be empty for the means to mean anything).
    pub fn new(records: &[&GameRecord], names: &Names) -> Summary {
        let games = records.len() as u64;
        let count = |f: &dyn Fn(&GameRecord) -> bool| records.iter().filter(|r| f(r)).count() as u64;
        let sum = |f: &dyn Fn(&GameRecord) -> u32| records.iter().map(|r| f(r) as u64).sum::<u64>();
        let draws = count(&|r| r.stats.winner.is_none());

        let players = (0..2)
            .map(|slot| {
                let wins = count(&|r| r.winning_player() == Some(slot));
                PlayerSummary {
                    name: names.players[slot].clone(),
                    results: Results::new(wins, draws, games),
                    luck_adjusted: LuckAdjusted::new(records, |r| r.player_of(Side::A) == slot),
                }
            })
            .collect();

        let sides = Side::BOTH
            .iter()
            .map(|&side| {
                let i = side.index();
                let wins = count(&|r| r.stats.winner == Some(side));
                SideSummary {
                    side: if side == Side::A { "A" } else { "B" }.to_string(),
                    id: names.sides[i].0.clone(),
                    name: names.sides[i].1.clone(),
                    results: Results::new(wins, draws, games),
                    luck_adjusted: LuckAdjusted::new(records, |_| side == Side::A),
                    exhausted: count(&|r| r.stats.reason == EndReason::Exhaustion(side)),
                    activations: PerGame::new(sum(&|r| r.stats.side_activations[i]), games),
                    destroyed: PerGame::new(sum(&|r| r.stats.destroyed[i]), games),
                    shaken: PerGame::new(sum(&|r| r.stats.shaken[i]), games),
                    retreats: PerGame::new(sum(&|r| r.stats.retreats[i]), games),
                    double_activations: PerGame::new(sum(&|r| r.stats.double_activations[i]), games),
                    doubles_across_turns: PerGame::new(sum(&|r| r.stats.doubles_across_turns[i]), games),
                    side_doubles: PerGame::new(sum(&|r| r.stats.side_doubles[i]), games),
                }
            })
            .collect();

        let length = length(records);

        let shooting = sum_outcomes(records, |r| r.stats.attacks[AttackKind::Fire]);
        let charges = sum_outcomes(records, |r| r.stats.attacks[AttackKind::Charge]);
        let by_arm = |arm: usize| AttackMix::new(&sum_outcomes(records, |r| r.stats.shooting_by_arm[arm]), games);
        let destroyed = (shooting[TargetOutcome::Destroyed], charges[TargetOutcome::Destroyed]);
        let attacks = AttackSummary {
            shooting: AttackMix::new(&shooting, games),
            charges: AttackMix::new(&charges, games),
            infantry_shooting: by_arm(0),
            cavalry_shooting: by_arm(1),
            artillery_shooting: by_arm(2),
            losses_to_shooting: Rate::new(destroyed.0, destroyed.0 + destroyed.1),
            charge_share: Rate::new(charges.total(), charges.total() + shooting.total()),
            destroyed_rate_test: crate::significance::two_proportion(
                destroyed.0,
                shooting.total(),
                destroyed.1,
                charges.total(),
            ),
        };

        let mut spells = ShakenSpells::default();
        for r in records {
            spells.add(&r.stats.spells);
        }
        let n = spells.spells as u64;
        let shaken = ShakenSummary {
            spells: n,
            per_game: PerGame::new(n, games).per_game,
            attacked_again: Rate::new(spells.attacked_again as u64, n),
            hit_again: Rate::new(spells.hit_again as u64, n),
            retreated_again: spells.retreated_again as u64,
            destroyed_again: spells.destroyed_again as u64,
            recovered: Rate::new(spells.recovered as u64, n),
        };

        let first_mover = Advantage::new(&names.first_mover_rule, records, names, |r| r.stats.first_mover);
        let doubles = DoublesSummary {
            in_turn_per_game: PerGame::new(sum(&|r| r.stats.double_activations.iter().sum()), games).per_game,
            across_turns_per_game: PerGame::new(sum(&|r| r.stats.doubles_across_turns.iter().sum()), games).per_game,
            games_with_double: Rate::new(
                count(&|r| r.stats.all_doubles(Side::A) + r.stats.all_doubles(Side::B) > 0),
                games,
            ),
            side_doubles_per_game: PerGame::new(sum(&|r| r.stats.side_doubles.iter().sum()), games).per_game,
            games_with_side_double: Rate::new(count(&|r| r.stats.side_doubles.iter().sum::<u32>() > 0), games),
            more_double_activations: Advantage::new("the side with more double activations", records, names, |r| {
                more([r.stats.all_doubles(Side::A), r.stats.all_doubles(Side::B)])
            }),
            more_side_doubles: Advantage::new("the side with more side doubles", records, names, |r| {
                more(r.stats.side_doubles)
            }),
            second_activation_kills: PerGame::new(sum(&|r| r.stats.second_activation_kills.iter().sum()), games),
            second_activation_kill_share: Rate::new(
                sum(&|r| r.stats.second_activation_kills.iter().sum()),
                destroyed.0 + destroyed.1,
            ),
            shoot_then_charge: PerGame::new(sum(&|r| r.stats.shoot_then_charge.iter().sum()), games),
        };
        let effectiveness = effectiveness(records);

        Summary {
            games,
            draws,
            draw_rate: Rate::new(draws, games),
            players,
            sides,
            length,
            attacks,
            shaken,
            effectiveness,
            first_mover,
            doubles,
            after_attack: (0..pacw_engine::system::MAX_AFTER_ATTACK)
                .map(|i| PerGame::new(sum(&|r| r.stats.after_attack[i]), games))
                .collect(),
            result_modified: (0..pacw_engine::system::MAX_RESULT_MODIFIERS)
                .map(|i| PerGame::new(sum(&|r| r.stats.result_modified[i]), games))
                .collect(),
            restricted_decisions: (0..pacw_engine::system::MAX_RESTRICTIONS)
                .map(|i| PerGame::new(sum(&|r| r.stats.restricted.get(i).map_or(0, |c| c.decisions)), games))
                .collect(),
            restricted_orders: (0..pacw_engine::system::MAX_RESTRICTIONS)
                .map(|i| PerGame::new(sum(&|r| r.stats.restricted.get(i).map_or(0, |c| c.orders)), games))
                .collect(),
            rally_rolls: PerGame::new(sum(&|r| r.stats.rally_rolls), games),
            rallies_failed: PerGame::new(sum(&|r| r.stats.rallies_failed), games),
            rally_modified: (0..pacw_engine::system::MAX_RALLY_MODIFIERS)
                .map(|i| PerGame::new(sum(&|r| r.stats.rally_modified[i]), games))
                .collect(),
            arrivals: [0, 1].map(|i| PerGame::new(sum(&|r| r.stats.arrivals[i]), games)),
            arrivals_delayed: [0, 1].map(|i| PerGame::new(sum(&|r| r.stats.arrivals_delayed[i]), games)),
            terrain: terrain(records),
        }
    }
}

/// The fighting and movement in each terrain kind counted ([`GameStats::terrain`]) that saw any.
///
/// [`GameStats::terrain`]: crate::record::GameStats::terrain
fn terrain(records: &[&GameRecord]) -> Vec<TerrainSummary> {
    let games = records.len() as u64;
    (0..MAX_TERRAINS)
        .filter_map(|place| {
            let at = |r: &GameRecord| r.stats.terrain.get(place).copied().unwrap_or_default();
            let attacks = sum_outcomes(records, |r| at(r).attacks);
            let moves: u64 = records.iter().map(|r| at(r).moves_ended as u64).sum();
            (attacks.total() > 0 || moves > 0).then(|| TerrainSummary {
                place,
                attacks: AttackMix::new(&attacks, games),
                moves_ended: PerGame::new(moves, games),
            })
        })
        .collect()
}

fn effectiveness(records: &[&GameRecord]) -> Vec<Effectiveness> {
    let games = records.len() as u64;
    let mut out = Vec::new();
    for (a, arm) in Arm::ALL.iter().enumerate() {
        for (q, quality) in Quality::ALL.iter().enumerate() {
            let c = sum_outcomes(records, |r| r.stats.attacks_by[a][q]);
            let attacks: u64 = c.total();
            let losses: u64 = records.iter().map(|r| r.stats.losses_by[a][q] as u64).sum();
            let fielded: u64 = records.iter().map(|r| r.stats.fielded_by[a][q] as u64).sum();
            out.push(Effectiveness {
                arm: arm.name().to_string(),
                quality: quality.name().to_string(),
                attacks,
                hits: Rate::new(c.effective(), attacks),
                kills: Rate::new(c[TargetOutcome::Destroyed], attacks),
                losses: PerGame::new(losses, games),
                fielded,
                lost_share: Rate::new(losses.min(fielded), fielded),
            });
        }
    }
    out
}

fn length(records: &[&GameRecord]) -> LengthSummary {
    let games = records.len().max(1) as f64;
    let turns: Vec<u8> = records.iter().map(|r| r.stats.turns).collect();
    let turns_max = turns.iter().copied().max().unwrap_or(0);
    let mut turns_histogram = vec![0u64; turns_max as usize];
    for &t in &turns {
        turns_histogram[t as usize - 1] += 1;
    }
    let mut activations: Vec<u32> = records.iter().map(|r| r.stats.activations).collect();
    activations.sort_unstable();
    let mean = activations.iter().map(|&a| a as f64).sum::<f64>() / games;
    let var = activations.iter().map(|&a| (a as f64 - mean).powi(2)).sum::<f64>() / (games - 1.0).max(1.0);
    let (turns_mean, turns_ci) = mean_interval(&turns.iter().map(|&t| t as f64).collect::<Vec<_>>());
    LengthSummary {
        turns_mean,
        turns_ci,
        turns_min: turns.iter().copied().min().unwrap_or(0),
        turns_max,
        turns_histogram,
        activations_mean: mean,
        activations_sd: var.sqrt(),
        activations_min: activations.first().copied().unwrap_or(0),
        activations_median: activations.get(activations.len() / 2).copied().unwrap_or(0),
        activations_max: activations.last().copied().unwrap_or(0),
        turn_limit: Rate::new(
            records.iter().filter(|r| r.stats.reason == EndReason::TurnLimit).count() as u64,
            records.len() as u64,
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SimConfig;
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    #[test]
    fn a_summary_adds_up() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 40;
        c.threads = Some(1);
        let sim = run(&c, &|| {}).unwrap();
        let names = Names {
            players: c.player_labels(),
            sides: [("a".into(), "A".into()), ("b".into(), "B".into())],
            first_mover_rule: "first".into(),
        };
        let records: Vec<&GameRecord> = sim.records.iter().collect();
        let s = Summary::new(&records, &names);
        assert_eq!(s.games, 40);
        assert_eq!(s.sides[0].results.wins + s.sides[1].results.wins + s.draws, 40);
        assert_eq!(s.players[0].results.wins + s.players[1].results.wins + s.draws, 40);
        assert_eq!(s.sides[0].results.wins, s.sides[1].results.losses);
        assert_eq!(s.length.turns_histogram.iter().sum::<u64>(), 40);
        let p = &s.players[0].results;
        assert!(p.ci_low <= p.win_rate && p.win_rate <= p.ci_high);
        assert!(s.first_mover.results.games <= 40);
        let destroyed: u64 = s.sides.iter().map(|x| x.destroyed.total).sum();
        assert_eq!(destroyed, s.attacks.shooting.destroyed + s.attacks.charges.destroyed);
        assert!(s.shaken.hit_again.count <= s.shaken.attacked_again.count);
        let attacks: u64 = s.effectiveness.iter().map(|e| e.attacks).sum();
        assert_eq!(attacks, s.attacks.shooting.attacks + s.attacks.charges.attacks);
        let losses: f64 = s.effectiveness.iter().map(|e| e.losses.per_game).sum();
        assert!((losses * 40.0 - destroyed as f64).abs() < 1e-9);
        // Losses per unit fielded: every game fields the scenario's units, and no kind loses more than it fielded.
        let fielded: u64 = s.effectiveness.iter().map(|e| e.fielded).sum();
        assert_eq!(fielded, 40 * sim.config.scenarios[0].scenario.units.len() as u64);
        for e in &s.effectiveness {
            assert_eq!(e.lost_share.count, e.losses.total);
            assert_eq!(e.lost_share.of, e.fielded);
        }
        assert!(s.doubles.second_activation_kills.total <= destroyed);
        assert!(s.length.turns_ci.low <= s.length.turns_mean && s.length.turns_mean <= s.length.turns_ci.high);
    }

    #[test]
    fn luck_adjusted_scores_are_given_only_for_reviewed_games_and_add_up() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 12;
        c.players = ["greedy".into(), "random".into()];
        let names = Names {
            players: c.player_labels(),
            sides: [("a".into(), "A".into()), ("b".into(), "B".into())],
            first_mover_rule: "first".into(),
        };
        let plain = run(&c, &|| {}).unwrap();
        let s = Summary::new(&plain.records.iter().collect::<Vec<_>>(), &names);
        assert!(s.players.iter().all(|p| p.luck_adjusted.is_none()) && s.sides[0].luck_adjusted.is_none());

        c.luck = true;
        let sim = run(&c, &|| {}).unwrap();
        let records: Vec<&GameRecord> = sim.records.iter().collect();
        let s = Summary::new(&records, &names);
        let [p0, p1] = [0, 1].map(|i| s.players[i].luck_adjusted.unwrap());
        let [a, b] = [0, 1].map(|i| s.sides[i].luck_adjusted.unwrap());
        // The score is the results' (a draw half), the two sides' and the two players' adjusted scores add to one.
        let score = (s.players[0].results.wins as f64 + s.draws as f64 / 2.0) / 12.0;
        assert!((p0.score - score).abs() < 1e-12);
        for (x, y) in [(p0, p1), (a, b)] {
            assert!((x.score + y.score - 1.0).abs() < 1e-12 && (x.adjusted + y.adjusted - 1.0).abs() < 1e-12);
        }
        // The first player's adjusted score is each game's, turned to its side, averaged.
        let mine = |r: &GameRecord| {
            let adjusted = r.luck_adjusted().unwrap();
            if r.player_of(Side::A) == 0 { adjusted } else { 1.0 - adjusted }
        };
        let mean = records.iter().map(|r| mine(r)).sum::<f64>() / 12.0;
        assert!((p0.adjusted - mean.clamp(0.0, 1.0)).abs() < 1e-12);
        assert!(p0.adjusted_ci.low <= p0.adjusted && p0.adjusted <= p0.adjusted_ci.high);
        assert!(0.0 <= p1.adjusted_ci.low && p0.adjusted_ci.high <= 1.0, "within what a score can be");
        // Luck is not nothing: the adjusted scores differ from the results somewhere.
        assert!(records.iter().any(|r| r.luck != Some(0)));
    }
}
