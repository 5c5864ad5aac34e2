//! The summary tables, as rows of text cells with one column per variant: shared by the text and HTML reports.

use super::Part;
use crate::compare::Difference;
use crate::stats::{Advantage, AttackMix, LuckAdjusted, PerGame, Rate, Summary, TerrainSummary};

/// One table: a title, a note, and rows of a label and one cell per column.
#[derive(Clone, Debug, PartialEq)]
pub struct Section {
    /// The title.
    pub title: String,
    /// A sentence explaining it (may be empty).
    pub note: String,
    /// (label, cells).
    pub rows: Vec<(String, Vec<String>)>,
}

/// A percentage with one decimal.
pub fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

/// A rate with its 95% interval: `41.2% [39.0–43.4]`.
pub fn rate_ci(r: &Rate) -> String {
    share_ci(r.rate, r.ci_low, r.ci_high)
}

/// A share with its interval, as percentages: `41.2% [39.0–43.4]`.
fn share_ci(x: f64, low: f64, high: f64) -> String {
    format!("{:.1}% [{:.1}–{:.1}]", 100.0 * x, 100.0 * low, 100.0 * high)
}

/// A rate with its interval, or `empty` (as `no attacks`) when there was nothing to count.
fn rate_or(r: &Rate, empty: &str) -> String {
    if r.of == 0 { empty.to_string() } else { rate_ci(r) }
}

/// A p-value: `p=0.012` or `p<0.001`.
pub(crate) fn p_value(p: f64) -> String {
    if p < 0.001 { "p<0.001".to_string() } else { format!("p={p:.3}") }
}

/// A luck-adjusted score with its interval, and the score by the results alone with theirs; `—` when the games were
/// not reviewed for their luck.
fn adjusted(l: Option<&LuckAdjusted>) -> String {
    l.map_or("—".to_string(), |l| {
        format!(
            "{}; by results {}",
            share_ci(l.adjusted, l.adjusted_ci.low, l.adjusted_ci.high),
            share_ci(l.score, l.score_ci.low, l.score_ci.high)
        )
    })
}

fn mix(m: &AttackMix) -> String {
    if m.attacks == 0 {
        return "no attacks".to_string();
    }
    let n = m.attacks as f64;
    let p = |x: u64| format!("{:.1}", 100.0 * x as f64 / n);
    format!("{} / {} / {} / {} %", p(m.miss), p(m.shaken), p(m.retreat), p(m.destroyed))
}

fn advantage(a: &Advantage) -> String {
    let r = a.results.win();
    format!("{} of {}", rate_ci(&r), a.results.games)
}

fn share(a: &Advantage) -> String {
    if a.results.wins + a.results.losses == 0 {
        return "—".to_string();
    }
    format!("{} ({})", pct(a.decisive_share), p_value(a.test.p_value))
}

/// One side's win rate with the advantage against without it, and the z-test's p-value.
fn split(a: &Advantage, side: usize) -> String {
    let x = &a.by_side[side];
    format!("{} vs {} ({})", pct(x.with.rate), pct(x.without.rate), p_value(x.test.p_value))
}

/// The summary tables of a part of a report, one column per variant (or one for a plain simulation).
pub fn sections(part: &Part) -> Vec<Section> {
    let columns = part.columns();
    let row = |label: String, f: &dyn Fn(&Summary) -> String| (label, columns.iter().map(|(_, s)| f(s)).collect());
    let s0 = columns[0].1;
    let (a, b) = (&s0.sides[0].name, &s0.sides[1].name);
    let pair = |x: f64, y: f64| format!("{x:.2} / {y:.2}");

    // A scenario's sides are named with their place in the file; pooled sides are named by it already.
    let pooled = [super::pooled_sides(true), super::pooled_sides(false)].iter().flatten().any(|(_, n)| n == a);
    let (first, second) =
        if pooled { (String::new(), String::new()) } else { (" (first side)".into(), " (second side)".into()) };
    let mut results = vec![
        row(format!("{a}{first} wins"), &|s| rate_ci(&side_rate(s, 0))),
        row(format!("{b}{second} wins"), &|s| rate_ci(&side_rate(s, 1))),
        row("draws".into(), &|s| rate_ci(&s.draw_rate)),
    ];
    for i in 0..2 {
        results.push(row(format!("{} wins", part.player_name(i)), &|s| rate_ci(&s.players[i].results.win())));
    }
    // Scores less the luck of the dice and cards, when the games were reviewed for it (`simulate --luck`).
    if s0.sides[0].luck_adjusted.is_some() {
        for (i, side) in [a, b].into_iter().enumerate() {
            let place = [&first, &second][i];
            results.push(row(format!("{side}{place} score, luck-adjusted"), &|s| {
                adjusted(s.sides[i].luck_adjusted.as_ref())
            }));
        }
        for i in 0..2 {
            results.push(row(format!("{} score, luck-adjusted", part.player_name(i)), &|s| {
                adjusted(s.players[i].luck_adjusted.as_ref())
            }));
        }
    }
    results.push(row(format!("ended by exhaustion of {a} / {b}"), &|s| {
        let g = s.games.max(1) as f64;
        format!("{} / {}", pct(s.sides[0].exhausted as f64 / g), pct(s.sides[1].exhausted as f64 / g))
    }));
    results.push(row("ended at the turn limit".into(), &|s| pct(s.length.turn_limit.rate)));

    let length = vec![
        row("turns (mean [95%]; min–max)".into(), &|s| {
            let l = &s.length;
            format!(
                "{:.2} [{:.2}–{:.2}]; {}–{}",
                l.turns_mean, l.turns_ci.low, l.turns_ci.high, l.turns_min, l.turns_max
            )
        }),
        row("activations (mean ± sd; median)".into(), &|s| {
            format!(
                "{:.1} ± {:.1}; {}",
                s.length.activations_mean, s.length.activations_sd, s.length.activations_median
            )
        }),
    ];

    let losses = vec![
        row("unit activations".into(), &|s| pair(s.sides[0].activations.per_game, s.sides[1].activations.per_game)),
        row("units destroyed".into(), &|s| pair(s.sides[0].destroyed.per_game, s.sides[1].destroyed.per_game)),
        row("times shaken".into(), &|s| pair(s.sides[0].shaken.per_game, s.sides[1].shaken.per_game)),
        row("retreats".into(), &|s| pair(s.sides[0].retreats.per_game, s.sides[1].retreats.per_game)),
    ];

    let mut attacks = Vec::new();
    for (name, pick) in [
        ("shooting (distance ≥ 2)", (|s: &Summary| &s.attacks.shooting) as fn(&Summary) -> &AttackMix),
        ("charges (distance 1)", |s| &s.attacks.charges),
        ("  infantry shooting", |s| &s.attacks.infantry_shooting),
        ("  artillery shooting", |s| &s.attacks.artillery_shooting),
    ] {
        attacks.push(row(format!("{name}: attacks a game"), &|s| format!("{:.2}", pick(s).per_game)));
        attacks.push(row(format!("{name}: miss / shaken / retreat / destroyed"), &|s| mix(pick(s))));
        attacks.push(row(format!("{name}: retreat or destroyed"), &|s| rate_ci(&pick(s).decisive_rate)));
    }
    attacks
        .push(row("losses to shooting (share of units destroyed)".into(), &|s| rate_ci(&s.attacks.losses_to_shooting)));
    attacks.push(row("destroyed per attack: shooting vs charges".into(), &|s| {
        if s.attacks.shooting.attacks == 0 || s.attacks.charges.attacks == 0 {
            return "no attacks of one kind".to_string();
        }
        format!(
            "{} vs {} ({})",
            pct(s.attacks.shooting.destroyed_rate.rate),
            pct(s.attacks.charges.destroyed_rate.rate),
            p_value(s.attacks.destroyed_rate_test.p_value)
        )
    }));

    let shaken = vec![
        row("shaken spells a game".into(), &|s| format!("{:.2}", s.shaken.per_game)),
        row("attacked again before recovering".into(), &|s| rate_or(&s.shaken.attacked_again, "no shaken units")),
        row("hit again before recovering".into(), &|s| rate_or(&s.shaken.hit_again, "no shaken units")),
        row("  then retreated / destroyed (count)".into(), &|s| {
            format!("{} / {}", s.shaken.retreated_again, s.shaken.destroyed_again)
        }),
        row("recovered by activation".into(), &|s| rate_or(&s.shaken.recovered, "no shaken units")),
    ];

    let mut initiative = vec![
        row("side that acted first in turn 1 wins".into(), &|s| advantage(&s.first_mover)),
        row("  its share of decisive games (z-test vs 50%)".into(), &|s| share(&s.first_mover)),
    ];
    for i in 0..2 {
        let side = &s0.sides[i].name;
        initiative.push(row(format!("  {side} wins: acting first vs second"), &|s| split(&s.first_mover, i)));
    }

    let mut doubles = vec![
        row("double activations a game: in a turn / across turns".into(), &|s| {
            pair(s.doubles.in_turn_per_game, s.doubles.across_turns_per_game)
        }),
        row("games with a double activation".into(), &|s| rate_ci(&s.doubles.games_with_double)),
        row("side doubles a game".into(), &|s| format!("{:.2}", s.doubles.side_doubles_per_game)),
        row(format!("double activations a game: {a} / {b}"), &|s| {
            let per = |i: usize| s.sides[i].double_activations.per_game + s.sides[i].doubles_across_turns.per_game;
            pair(per(0), per(1))
        }),
        row("side with more double activations wins".into(), &|s| advantage(&s.doubles.more_double_activations)),
        row("  its share of decisive games (z-test vs 50%)".into(), &|s| share(&s.doubles.more_double_activations)),
        row("side with more side doubles wins".into(), &|s| advantage(&s.doubles.more_side_doubles)),
        row("  its share of decisive games (z-test vs 50%)".into(), &|s| share(&s.doubles.more_side_doubles)),
    ];
    for i in 0..2 {
        let side = &s0.sides[i].name;
        doubles.push(row(format!("  {side} wins: more vs fewer double activations"), &|s| {
            split(&s.doubles.more_double_activations, i)
        }));
    }
    doubles.push(row("units destroyed on a unit's second activation in a turn, a game".into(), &|s| {
        format!("{:.2}", s.doubles.second_activation_kills.per_game)
    }));
    doubles.push(row("  share of all units destroyed".into(), &|s| {
        rate_or(&s.doubles.second_activation_kill_share, "no losses")
    }));
    doubles.push(row("shoot, then charge on the next activation, a game".into(), &|s| {
        format!("{:.2}", s.doubles.shoot_then_charge.per_game)
    }));

    let mut all = vec![
        Section { title: "Results".into(), note: "Rates with 95% Wilson score intervals.".into(), rows: results },
        Section { title: "Game length".into(), note: String::new(), rows: length },
        Section { title: format!("Per side, a game ({a} / {b})"), note: String::new(), rows: losses },
        Section {
            title: "Shooting versus charges".into(),
            note: "Outcome of each attack as it befell the target; a blocked retreat (R7.4) counts as destroyed \
                   (or shaken, with blocked_retreat=stand)."
                .into(),
            rows: attacks,
        },
        Section {
            title: "Shaken units hit again".into(),
            note: "A spell runs from a unit becoming shaken until its next activation (R4.1), its destruction or the \
                   game's end."
                .into(),
            rows: shaken,
        },
        Section {
            title: "First mover".into(),
            note: "Acting first: under cards, drawing the first side card of turn 1; under igougo and alternate, \
                   winning the first initiative roll. Games where the Joker came first have no first mover. Within a side, \
                   its win rate when it acted first is compared with its win rate when the enemy did."
                .into(),
            rows: initiative,
        },
        Section {
            title: "Double activations".into(),
            note: "A double activation: a unit activated again before any enemy unit is (under cards, on two \
                   consecutive cards of its side). A side double: under cards, a side drawing two cards in a row \
                   in a turn; under igougo and alternate, the side that acted last in a turn winning the next roll. \
                   Within a side, its win rate when it had more double activations than the enemy is compared with \
                   its win rate when it had fewer (two-proportion z-test), so that an imbalance of the scenario does \
                   not pass for an effect."
                .into(),
            rows: doubles,
        },
    ];
    let after_attack = "The variant's after-attack rules ([[after_attack]], docs/variants.md): times each befell an \
                        attacker, a game; — where a column's rules have no such rule.";
    if let Some(rows) = rule_counts(&part.after_attack_rules, &part.columns(), |s| &s.after_attack[..]) {
        all.push(Section { title: "What attacks did to their attackers".into(), note: after_attack.into(), rows });
    }
    let result_modified = "The variant's modifiers to the hit-result roll ([[result_modifiers]], docs/variants.md): \
                           times each changed the strength a hit target was tested against, a game; — where a \
                           column's rules have no such modifier.";
    if let Some(rows) = rule_counts(&part.result_modifier_rules, &part.columns(), |s| &s.result_modified[..]) {
        all.push(Section { title: "The hit-result roll modified".into(), note: result_modified.into(), rows });
    }
    if let Some(section) = restrictions_table(part) {
        all.push(section);
    }
    if let Some(section) = rally_table(part) {
        all.push(section);
    }
    if let Some(section) = arrivals_table(part) {
        all.push(section);
    }
    if let Some(section) = terrain_table(part) {
        all.push(section);
    }
    all.push(effectiveness_table(part));
    if let Some(words) = &part.terms {
        for section in &mut all {
            section.title = words.say(&section.title);
            section.note = words.say(&section.note);
            for (label, _) in &mut section.rows {
                *label = words.say(label);
            }
        }
    }
    all
}

fn side_rate(s: &Summary, i: usize) -> Rate {
    let x = &s.sides[i];
    x.results.win()
}

/// A difference's value: points of percentage for a rate, else two decimals.
fn signed(d: &Difference, x: f64) -> String {
    if d.is_rate { format!("{:+.1}", 100.0 * x) } else { format!("{x:+.2}") }
}

/// A difference's interval.
fn interval(d: &Difference, i: &crate::significance::Interval) -> String {
    format!("[{} … {}]", signed(d, i.low), signed(d, i.high))
}

/// The differences table of a part: (header, rows). A rate's differences are in points of percentage.
pub fn differences_table(part: &Part) -> (Vec<String>, Vec<Vec<String>>) {
    let header = [
        "statistic",
        "from → to",
        "values",
        "change",
        "95% paired",
        "95% unpaired",
        "test",
        "p",
        "p (Holm)",
        "significant",
    ]
    .map(String::from)
    .to_vec();
    let rows = part
        .differences
        .iter()
        .map(|d| {
            let value = |x: f64| if d.is_rate { pct(x) } else { format!("{x:.2}") };
            vec![
                d.metric.clone(),
                format!("{} → {}", d.a, d.b),
                format!("{} → {}", value(d.value_a), value(d.value_b)),
                signed(d, d.difference),
                d.paired.as_ref().map_or("—".to_string(), |i| interval(d, i)),
                interval(d, &d.unpaired),
                d.test.clone(),
                p_value(d.p_value),
                p_value(d.p_holm),
                if d.significant { "yes".into() } else { "no".into() },
            ]
        })
        .collect();
    (header, rows)
}

/// Rules of a variant counted by their place (after-attack rules, result modifiers): how often each applied, a
/// game, one row per rule (by its id and name, `rules` for each column) of any column's rules; `None` when no
/// column's rules have any.
fn rule_counts(
    rules: &[Vec<String>],
    columns: &[(String, &Summary)],
    counted: fn(&Summary) -> &[PerGame],
) -> Option<Vec<(String, Vec<String>)>> {
    if rules.is_empty() {
        return None;
    }
    let mut labels: Vec<&String> = Vec::new();
    for label in rules.iter().flatten() {
        if !labels.contains(&label) {
            labels.push(label);
        }
    }
    let rows = labels
        .into_iter()
        .map(|label| {
            let cells = columns
                .iter()
                .enumerate()
                .map(|(i, (_, s))| {
                    let place = rules.get(i).and_then(|rules| rules.iter().position(|r| r == label));
                    place.and_then(|p| counted(s).get(p)).map_or("—".to_string(), |c| format!("{:.2}", c.per_game))
                })
                .collect();
            (label.clone(), cells)
        })
        .collect();
    Some(rows)
}

/// What the restrictions on orders of each column's rules (`[[restrictions]]`) took away: for each, by its id and
/// name, the orders given a game at which it left out at least one attack, and beneath it the attacking orders it
/// left out a game; `None` when no column's rules have any.
fn restrictions_table(part: &Part) -> Option<Section> {
    let columns = part.columns();
    let decisions = rule_counts(&part.restriction_rules, &columns, |s| &s.restricted_decisions[..])?;
    let orders = rule_counts(&part.restriction_rules, &columns, |s| &s.restricted_orders[..])?;
    let rows = decisions
        .into_iter()
        .zip(orders)
        .flat_map(|(rule, (_, orders))| {
            let on_orders = part.order_restriction_rules.contains(&rule.0);
            let what = if on_orders {
                "  orders it left out (Holds, Moves, attacks)"
            } else {
                "  attacking orders it left out"
            };
            [rule, (what.to_string(), orders)]
        })
        .collect();
    Some(Section {
        title: "Orders the restrictions took away".into(),
        note:
            "The variant's restrictions on orders ([[restrictions]], docs/variants.md): for each, the orders given a \
               game at which it left out of the legal orders at least one attack the rules without it would list \
               (or, for a restriction over orders, a Hold or a Move too), and beneath it the orders it left out a \
               game (an order several forbid is counted under the first, the one a refusal cites); — where a \
               column's rules have no such restriction."
                .into(),
        rows,
    })
}

/// The rally roll of each column's rules (`[rally]`): rally dice rolled a game, the share that left the unit shaken,
/// and beneath them the dice each of its modifiers (`[[rally_modifiers]]`) applied to, a game; `None` when no
/// column's rules have one.
fn rally_table(part: &Part) -> Option<Section> {
    if part.rally_rules.is_empty() {
        return None;
    }
    let columns = part.columns();
    let cells = |cell: &dyn Fn(&Summary) -> String| -> Vec<String> {
        columns
            .iter()
            .enumerate()
            .map(|(i, (_, s))| match part.rally_rules.get(i) {
                Some(Some(_)) => cell(s),
                _ => "—".to_string(),
            })
            .collect()
    };
    let rule: Vec<String> = (0..columns.len())
        .map(|i| part.rally_rules.get(i).cloned().flatten().unwrap_or_else(|| "—".to_string()))
        .collect();
    let mut rows = vec![
        ("rule".to_string(), rule),
        ("rally dice a game".to_string(), cells(&|s| format!("{:.2}", s.rally_rolls.per_game))),
        (
            "stayed shaken".to_string(),
            cells(&|s| match s.rally_rolls.total {
                0 => "—".to_string(),
                n => format!("{:.0}%", 100.0 * s.rallies_failed.total as f64 / n as f64),
            }),
        ),
    ];
    let modified = rule_counts(&part.rally_modifier_rules, &columns, |s| &s.rally_modified[..]).unwrap_or_default();
    rows.extend(modified.into_iter().map(|(label, cells)| (format!("  {label}: dice it applied to"), cells)));
    Some(Section {
        title: "Rally rolls".into(),
        note: "The variant's rally roll ([rally], docs/variants.md): dice a shaken unit rolled as it was activated, a \
               game, and the share that left it shaken; beneath them each of its modifiers ([[rally_modifiers]]), by \
               its id and name: the dice it applied to, a game; — where a column's rules rally without a die (R4.1) \
               or have no such modifier."
            .into(),
        rows,
    })
}

/// The reinforcements that arrived and those that waited, a game per side (docs/scenario-format.md#events); `None`
/// when no game of any column had one (a battle without them).
fn arrivals_table(part: &Part) -> Option<Section> {
    let columns = part.columns();
    let any = |s: &Summary| s.arrivals.iter().chain(&s.arrivals_delayed).any(|c| c.total > 0);
    if !columns.iter().any(|(_, s)| any(s)) {
        return None;
    }
    let pair = |c: &[PerGame; 2]| format!("{:.2} / {:.2}", c[0].per_game, c[1].per_game);
    let (a, b) = (&columns[0].1.sides[0].name, &columns[0].1.sides[1].name);
    let rows = vec![
        (format!("units arrived ({a} / {b})"), columns.iter().map(|(_, s)| pair(&s.arrivals)).collect()),
        (format!("arrivals delayed ({a} / {b})"), columns.iter().map(|(_, s)| pair(&s.arrivals_delayed)).collect()),
    ];
    Some(Section {
        title: "Reinforcements".into(),
        note: "The scenario's reinforcements, a game: units that entered the board, and the times a unit due found \
               its entry square held and waited a turn (each turn it waited counts). Compare with and without them \
               with --compare events=on,off."
            .into(),
        rows,
    })
}

/// The terrain kinds of the rules' own (`[[terrain]]`): per kind, by its name, the attacks on a unit standing in it a
/// game, what they did to it, and the moves that ended in it a game; `None` when no column's rules have any.
fn terrain_table(part: &Part) -> Option<Section> {
    if part.own_terrains.is_empty() {
        return None;
    }
    let columns = part.columns();
    let mut names: Vec<&String> = Vec::new();
    for kind in part.own_terrains.iter().flatten() {
        if !names.contains(&&kind.name) {
            names.push(&kind.name);
        }
    }
    let mut rows = Vec::new();
    for name in names {
        // Each column's counts of the kind of this name: `None` where its rules have no such kind of their own;
        // `Some(None)` where they have it and nothing was counted in it.
        let counts: Vec<Option<Option<&TerrainSummary>>> = (0..columns.len())
            .map(|i| {
                let kind = part.own_terrains.get(i).and_then(|kinds| kinds.iter().find(|k| &k.name == name));
                kind.map(|k| columns[i].1.terrain_at(k.place))
            })
            .collect();
        let row = |label: &str, cell: &dyn Fn(Option<&TerrainSummary>) -> String| {
            let cells = counts.iter().map(|c| c.map_or("—".to_string(), cell)).collect();
            (format!("{name}: {label}"), cells)
        };
        rows.push(row("attacks on units in it, a game", &|t| format!("{:.2}", t.map_or(0.0, |t| t.attacks.per_game))));
        rows.push(row("miss / shaken / retreat / destroyed", &|t| {
            t.map_or("no attacks".to_string(), |t| mix(&t.attacks))
        }));
        rows.push(row("moves ending in it, a game", &|t| format!("{:.2}", t.map_or(0.0, |t| t.moves_ended.per_game))));
    }
    Some(Section {
        title: "Fighting in the variant's terrain".into(),
        note: "The variant's own terrain kinds ([[terrain]], docs/variants.md: its new kinds and the standard kinds \
               it changes), each by its name: attacks on a unit standing in it, a game, and what they did to the \
               target, as in Shooting versus charges; moves that ended in it, a game; — where a column's rules do \
               not have the kind of their own."
            .into(),
        rows,
    })
}

/// Effectiveness by arm and quality: one row per kind of unit that attacked or was lost in any variant, one
/// column per variant: attacks a game, hits and kills per attack, units of the kind lost a game.
pub fn effectiveness_table(part: &Part) -> Section {
    let columns = part.columns();
    let kinds = columns[0].1.effectiveness.len();
    let rows = (0..kinds)
        .filter(|&k| columns.iter().any(|(_, s)| s.effectiveness[k].attacks > 0 || s.effectiveness[k].losses.total > 0))
        .map(|k| {
            let e0 = &columns[0].1.effectiveness[k];
            let label = format!("{} {}", e0.quality, e0.arm);
            let cells = columns
                .iter()
                .map(|(_, s)| {
                    let e = &s.effectiveness[k];
                    let lost = match e.fielded {
                        0 => format!("lost {:.2} a game", e.losses.per_game),
                        _ => format!(
                            "lost {:.2} a game ({} of those fielded)",
                            e.losses.per_game,
                            pct(e.lost_share.rate)
                        ),
                    };
                    if e.attacks == 0 {
                        return format!("no attacks; {lost}");
                    }
                    format!(
                        "{:.2} attacks a game; hit {}; kill {}; {lost}",
                        e.attacks as f64 / s.games.max(1) as f64,
                        pct(e.hits.rate),
                        pct(e.kills.rate)
                    )
                })
                .collect();
            (label, cells)
        })
        .collect();
    Section {
        title: "Effectiveness by arm and quality".into(),
        note: "Each kind of unit's attacks (shooting and charges) a game, the share that hit and that destroyed the \
                target, and how many units of the kind were lost a game and what share of those fielded."
            .into(),
        rows,
    }
}
