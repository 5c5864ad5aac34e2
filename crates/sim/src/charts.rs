//! SVG charts of a report, drawn with plotters' SVG backend. Text is written as SVG `<text>` elements and laid out
//! with plotters' built-in size estimate, so no font file is needed: the browser renders the text.
//!
//! Colours mean one thing throughout: blue and red are the scenario's first and second side, grey a draw, green
//! and orange the two players, and each variant has its own colour from [`VARIANT_COLOURS`], the same in every
//! chart.

use crate::compare::Difference;
use crate::error::SimError;
use crate::report::{Part, Report};
use crate::run::Simulation;
use crate::stats::{Rate, Summary};
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One chart: its file name, its title (drawn in the chart) and a caption that says how to read it.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The scenario whose part of the report it shows, or `None` for the main part.
    pub part: Option<usize>,
    /// The file name, as [`crate::site::write_dir`] writes it.
    pub file: String,
    /// The title drawn in the chart.
    pub title: String,
    /// A sentence under the chart in the HTML report: what to look for, not the title again.
    pub caption: String,
    /// The SVG document.
    pub svg: String,
}

const FONT: &str = "sans-serif";
const SIDE_A: RGBColor = RGBColor(52, 101, 164);
const SIDE_B: RGBColor = RGBColor(204, 40, 40);
const DRAW: RGBColor = RGBColor(150, 150, 150);
const PLAYER_1: RGBColor = RGBColor(78, 154, 6);
const PLAYER_2: RGBColor = RGBColor(245, 121, 0);
/// Each variant's colour, by its index (repeating after eight): none is a side's, a draw's or a player's colour.
pub const VARIANT_COLOURS: [RGBColor; 8] = [
    RGBColor(117, 112, 179),
    RGBColor(231, 41, 138),
    RGBColor(230, 171, 2),
    RGBColor(166, 118, 29),
    RGBColor(23, 190, 207),
    RGBColor(188, 189, 34),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

fn variant_colour(v: usize) -> RGBColor {
    VARIANT_COLOURS[v % VARIANT_COLOURS.len()]
}

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Draws into an SVG string of the given size.
fn svg(
    file: &str,
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, Shift>) -> Drawn,
) -> Result<String, SimError> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, size).into_drawing_area();
        let fail = |e: Box<dyn std::error::Error>| SimError::Chart { name: file.to_string(), message: e.to_string() };
        root.fill(&WHITE).map_err(|e| fail(e.into()))?;
        draw(&root).map_err(fail)?;
        root.present().map_err(|e| fail(e.into()))?;
    }
    Ok(text)
}

/// Height of the legend strip under a chart.
const LEGEND: u32 = 34;

/// Draws a legend, items side by side and centred, in `area` (a strip under the chart, so it never hides data).
fn legend(area: &DrawingArea<SVGBackend, Shift>, items: &[(String, RGBColor)]) -> Drawn {
    let (w, h) = area.dim_in_pixel();
    let style = TextStyle::from((FONT, 13).into_font()).pos(Pos::new(HPos::Left, VPos::Center));
    // Plotters' size estimate for text without a font file is about 0.45 em a character; allow a little more.
    let widths: Vec<i32> = items.iter().map(|(l, _)| 20 + 7 * l.chars().count() as i32 + 22).collect();
    let mut x = ((w as i32 - widths.iter().sum::<i32>()) / 2).max(4);
    let y = h as i32 / 2;
    for ((label, colour), width) in items.iter().zip(widths) {
        area.draw(&Rectangle::new([(x, y - 6), (x + 14, y + 6)], colour.filled()))?;
        area.draw(&Text::new(label.clone(), (x + 20, y), style.clone()))?;
        x += width;
    }
    Ok(())
}

/// The label of the integer `x` among `labels`, or nothing between them.
fn category(labels: &[String], x: f64) -> String {
    let i = x.round();
    if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
        labels[i as usize].clone()
    } else {
        String::new()
    }
}

/// A value with its 95% interval: (value, low, high).
type Point = (f64, f64, f64);

fn rate_point(r: &Rate) -> Option<Point> {
    (r.of > 0).then_some((r.rate, r.ci_low, r.ci_high))
}

/// A series of grouped bars: its legend label, colour and one value (or none) per category.
struct Series {
    label: String,
    colour: RGBColor,
    values: Vec<Option<Point>>,
}

/// Draws an error bar from `low` to `high` at `x`, capped `cap` wide each way.
fn whisker(x: f64, low: f64, high: f64, cap: f64) -> [PathElement<(f64, f64)>; 3] {
    let style = BLACK.stroke_width(1);
    [
        PathElement::new(vec![(x, low), (x, high)], style),
        PathElement::new(vec![(x - cap, low), (x + cap, low)], style),
        PathElement::new(vec![(x - cap, high), (x + cap, high)], style),
    ]
}

/// Grouped vertical bars with 95% intervals: one group per category, one bar per series, shares on the y axis.
fn grouped_bars(
    file: &str,
    title: &str,
    y_desc: &str,
    categories: &[String],
    series: &[Series],
) -> Result<String, SimError> {
    let top = series.iter().flat_map(|s| s.values.iter().flatten().map(|p| p.2)).fold(0.0f64, f64::max);
    let top = ((top * 10.0).ceil() / 10.0 + 0.1).min(1.0);
    let n = categories.len();
    let label_chars = categories.iter().map(|c| c.chars().count()).max().unwrap_or(0) as u32;
    let width = (160 + (40 + 30 * series.len() as u32).max(label_chars * 7 + 10) * n as u32).clamp(640, 1400);
    let height = 440;
    svg(file, (width, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &series.iter().map(|s| (s.label.clone(), s.colour)).collect::<Vec<_>>())?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)?;
        let label = |x: &f64| category(categories, *x);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels(n)
            .x_label_formatter(&label)
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .y_desc(y_desc)
            .label_style((FONT, 13))
            .draw()?;
        let w = 0.8 / series.len().max(1) as f64;
        for (b, s) in series.iter().enumerate() {
            let x0 = |c: usize| c as f64 - 0.4 + b as f64 * w;
            chart.draw_series(s.values.iter().enumerate().filter_map(|(c, p)| {
                p.map(|(v, _, _)| Rectangle::new([(x0(c) + 0.01, 0.0), (x0(c) + w - 0.01, v)], s.colour.filled()))
            }))?;
            for (c, p) in s.values.iter().enumerate() {
                if let Some((_, low, high)) = p {
                    chart.draw_series(whisker(x0(c) + w / 2.0, *low, *high, w / 4.0))?;
                }
            }
        }
        Ok(())
    })
}

/// A chart of [`grouped_bars`], its file named `name` after the prefix.
fn bar_chart(
    prefix: &str,
    name: &str,
    title: &str,
    y_label: &str,
    categories: &[String],
    series: &[Series],
    caption: &str,
) -> Result<Chart, SimError> {
    let file = file_name(prefix, name);
    let svg = grouped_bars(&file, title, y_label, categories, series)?;
    Ok(Chart { part: None, file, title: title.into(), caption: caption.into(), svg })
}

/// A file name for chart `name` of a part: plain for the main part, prefixed with the scenario for the others.
fn file_name(prefix: &str, name: &str) -> String {
    if prefix.is_empty() { format!("{name}.svg") } else { format!("{prefix}-{name}.svg") }
}

/// Every chart of the report: for the main part, then for each scenario (files prefixed by its file's stem).
///
/// # Errors
/// When a chart cannot be drawn.
pub fn all(report: &Report, sim: &Simulation) -> Result<Vec<Chart>, SimError> {
    let mut charts = part_charts(&report.main, sim, None, "", report)?;
    for (s, part) in report.scenarios.iter().enumerate() {
        let stem = std::path::Path::new(&sim.config.scenarios[s].file)
            .file_stem()
            .map_or(format!("scenario{s}"), |x| x.to_string_lossy().to_string());
        charts.extend(part_charts(part, sim, Some(s), &stem, report)?);
    }
    Ok(charts)
}

/// The charts of one part.
fn part_charts(
    part: &Part,
    sim: &Simulation,
    s: Option<usize>,
    prefix: &str,
    report: &Report,
) -> Result<Vec<Chart>, SimError> {
    let mut charts = vec![
        win_rates(part, prefix)?,
        outcomes(part, prefix)?,
        game_length(part, sim, s, prefix)?,
        attack_outcomes(part, prefix)?,
        shaken_again(part, prefix)?,
        kill_rates(part, prefix)?,
        doubles(part, prefix)?,
    ];
    charts.extend(sweep(part, report, prefix)?);
    for chart in &mut charts {
        chart.part = s;
    }
    Ok(charts)
}

fn side_series(part: &Part) -> [(String, RGBColor); 5] {
    let s0 = part.legend_columns()[0].1;
    [
        (format!("{} wins", s0.sides[0].name), SIDE_A),
        (format!("{} wins", s0.sides[1].name), SIDE_B),
        ("draws".to_string(), DRAW),
        (format!("{} wins", part.player_name(0)), PLAYER_1),
        (format!("{} wins", part.player_name(1)), PLAYER_2),
    ]
}

/// Grouped bars with 95% intervals: per variant, each side's win rate, the draw rate and each player's win rate.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn win_rates(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let columns = part.legend_columns();
    let labels: Vec<String> = columns.iter().map(|(l, _)| l.clone()).collect();
    let picks: [fn(&Summary) -> Rate; 5] = [
        |s| s.sides[0].results.win(),
        |s| s.sides[1].results.win(),
        |s| s.draw_rate,
        |s| s.players[0].results.win(),
        |s| s.players[1].results.win(),
    ];
    let series: Vec<Series> = side_series(part)
        .into_iter()
        .zip(picks)
        .map(|((label, colour), pick)| Series {
            label,
            colour,
            values: columns.iter().map(|(_, s)| rate_point(&pick(s))).collect(),
        })
        .collect();
    let caption = "Bars that share a colour compare one side (or player) across the variants; a whisker is the 95% \
                  interval, so bars whose whiskers do not overlap differ beyond chance.";
    bar_chart(prefix, "win_rates", "Win rates with 95% Wilson intervals", "share of games", &labels, &series, caption)
}

/// Stacked horizontal bars per variant, the first at the top: first side wins, draws, second side wins.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn outcomes(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let columns = part.legend_columns();
    let n = columns.len();
    // Drawn bottom-up, so the first variant is the top bar.
    let labels: Vec<String> = columns.iter().rev().map(|(l, _)| l.clone()).collect();
    let s0 = columns[0].1;
    let parts = [
        (format!("{} wins", s0.sides[0].name), SIDE_A),
        ("draws".to_string(), DRAW),
        (format!("{} wins", s0.sides[1].name), SIDE_B),
    ];
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32 * 8 + 20;
    let height = 110 + 60 * n as u32 + LEGEND;
    let file = file_name(prefix, "outcomes");
    let title = "Outcome mix";
    let svg = svg(&file, (760 + label_width / 2, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &parts)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, (FONT, 20))
            .margin(12)
            .x_label_area_size(30)
            .y_label_area_size(label_width)
            .build_cartesian_2d(0f64..1f64, -0.5f64..(n as f64 - 0.5))?;
        let label = |y: &f64| category(&labels, *y);
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|x| format!("{:.0}%", x * 100.0))
            .label_style((FONT, 13))
            .draw()?;
        let centre = TextStyle::from((FONT, 12).into_font()).pos(Pos::new(HPos::Center, VPos::Center));
        for (piece, (_, colour)) in parts.iter().enumerate() {
            let span = |s: &Summary| {
                let g = s.games.max(1) as f64;
                let shares =
                    [s.sides[0].results.wins as f64 / g, s.draws as f64 / g, s.sides[1].results.wins as f64 / g];
                let start: f64 = shares[..piece].iter().sum();
                (start, start + shares[piece])
            };
            let y = |v: usize| (n - 1 - v) as f64;
            chart.draw_series(columns.iter().enumerate().map(|(v, (_, s))| {
                let (a, b) = span(s);
                Rectangle::new([(a, y(v) - 0.3), (b, y(v) + 0.3)], colour.filled())
            }))?;
            chart.draw_series(columns.iter().enumerate().filter_map(|(v, (_, s))| {
                let (a, b) = span(s);
                (b - a >= 0.06)
                    .then(|| Text::new(format!("{:.1}%", 100.0 * (b - a)), ((a + b) / 2.0, y(v)), centre.clone()))
            }))?;
        }
        Ok(())
    })?;
    Ok(Chart {
        part: None,
        file,
        title: title.into(),
        caption: "How each variant's games ended, all games adding up to 100%: the wider the grey, the more draws."
            .into(),
        svg,
    })
}

/// Two histograms side by side: games by the turn they ended in, and by unit activations (share of each variant's
/// games).
///
/// # Errors
/// When the chart cannot be drawn.
pub fn game_length(part: &Part, sim: &Simulation, s: Option<usize>, prefix: &str) -> Result<Chart, SimError> {
    let columns = part.legend_columns();
    let n = columns.len();
    let records = sim.records_in(s);
    let max_turn = columns.iter().map(|(_, s)| s.length.turns_histogram.len()).max().unwrap_or(1).max(1);
    let lo = records.iter().map(|r| r.stats.activations).min().unwrap_or(0);
    let hi = records.iter().map(|r| r.stats.activations).max().unwrap_or(0);
    let bin = ((hi - lo + 1) as f64 / 24.0).ceil().max(1.0) as u32;
    let bins = ((hi - lo) / bin + 1) as usize;
    let activation_hist: Vec<Vec<f64>> = (0..n)
        .map(|v| {
            let records = if part.variants.is_empty() { records.clone() } else { sim.records_of(s, v) };
            let mut h = vec![0.0; bins];
            for r in &records {
                h[((r.stats.activations - lo) / bin) as usize] += 1.0 / records.len() as f64;
            }
            h
        })
        .collect();
    let items: Vec<(String, RGBColor)> =
        columns.iter().enumerate().map(|(v, (l, _))| (l.clone(), variant_colour(v))).collect();
    let height = 440;
    let file = file_name(prefix, "game_length");
    let title = "Game length";
    let svg = svg(&file, (1000, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &items)?;
        let root = root.titled(title, (FONT, 20))?;
        let (left, right) = root.split_horizontally(480);
        let turn_top = columns
            .iter()
            .flat_map(|(_, s)| s.length.turns_histogram.iter().map(move |&c| c as f64 / s.games.max(1) as f64))
            .fold(0.0, f64::max);
        let mut chart = ChartBuilder::on(&left)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(0.5f64..(max_turn as f64 + 0.5), 0f64..(turn_top * 1.1).max(0.05))?;
        let turn_labels: Vec<String> = (0..=max_turn).map(|t| t.to_string()).collect();
        let turn_label = |x: &f64| category(&turn_labels, *x);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels(max_turn)
            .x_label_formatter(&turn_label)
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .x_desc("turn in which the game ended")
            .y_desc("share of games")
            .label_style((FONT, 12))
            .draw()?;
        let w = 0.8 / n as f64;
        for (v, (_, s)) in columns.iter().enumerate() {
            let colour = variant_colour(v);
            let g = s.games.max(1) as f64;
            chart.draw_series(s.length.turns_histogram.iter().enumerate().map(|(t, &c)| {
                let x0 = t as f64 + 1.0 - 0.4 + v as f64 * w;
                Rectangle::new([(x0, 0.0), (x0 + w, c as f64 / g)], colour.filled())
            }))?;
        }

        let act_top = activation_hist.iter().flatten().copied().fold(0.0, f64::max);
        let x_hi = lo + bin * bins as u32;
        let mut chart = ChartBuilder::on(&right)
            .margin(12)
            .x_label_area_size(40)
            .y_label_area_size(56)
            .build_cartesian_2d(lo as f64..x_hi as f64, 0f64..(act_top * 1.1).max(0.05))?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .x_desc(format!("unit activations in the game (bins of {bin})"))
            .y_desc("share of games")
            .label_style((FONT, 12))
            .draw()?;
        for (v, hist) in activation_hist.iter().enumerate() {
            let colour = variant_colour(v);
            let mut points = vec![(lo as f64, 0.0)];
            for (i, &h) in hist.iter().enumerate() {
                let x0 = (lo + bin * i as u32) as f64;
                points.push((x0, h));
                points.push((x0 + bin as f64, h));
            }
            points.push((x_hi as f64, 0.0));
            chart.draw_series(LineSeries::new(points, colour.stroke_width(2)))?;
        }
        Ok(())
    })?;
    Ok(Chart {
        part: None,
        file,
        title: title.into(),
        caption: "Left, the turn each game ended in (a tall last bar: most games ran to the turn limit); right, how \
                  many units were activated in a game."
            .into(),
        svg,
    })
}

/// The variants' series: one per column, in the variant's colour.
fn variant_series(part: &Part, pick: impl Fn(&Summary) -> Vec<Option<Point>>) -> Vec<Series> {
    part.legend_columns()
        .into_iter()
        .enumerate()
        .map(|(v, (label, s))| Series { label, colour: variant_colour(v), values: pick(s) })
        .collect()
}

/// Shots against charges: each outcome's share of the attacks of each kind, per variant, with 95% intervals.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn attack_outcomes(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let kinds = ["shooting", "charges"];
    let outcomes = ["miss", "shaken", "retreat", "destroyed"];
    let categories: Vec<String> =
        kinds.iter().flat_map(|k| outcomes.iter().map(move |o| format!("{k}: {o}"))).collect();
    let series = variant_series(part, |s| {
        [&s.attacks.shooting, &s.attacks.charges]
            .iter()
            .flat_map(|m| [m.miss, m.shaken, m.retreat, m.destroyed].map(|c| rate_point(&Rate::new(c, m.attacks))))
            .collect()
    });
    let caption = "The left four groups add up to 100% of the shooting, the right four to 100% of the charges; a \
                  variant with no attack of a kind has no bars there.";
    bar_chart(
        prefix,
        "attack_outcomes",
        "Shooting against charges: what each attack did",
        "share of that kind of attack",
        &categories,
        &series,
        caption,
    )
}

/// Shaken units attacked again, hit again and recovered, per variant.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn shaken_again(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let categories = ["attacked again", "hit again", "recovered by activation"].map(String::from).to_vec();
    let series = variant_series(part, |s| {
        [&s.shaken.attacked_again, &s.shaken.hit_again, &s.shaken.recovered].map(rate_point).to_vec()
    });
    let caption = "Of the times a unit became shaken: how often the enemy attacked it, and hit it, again before its \
                  next activation rallied it (the seed's \"hit it twice\" question).";
    bar_chart(
        prefix,
        "shaken_again",
        "Shaken units before they recover",
        "share of shaken spells",
        &categories,
        &series,
        caption,
    )
}

/// Kills per attack by the attacker's arm and quality, per variant.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn kill_rates(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let columns = part.legend_columns();
    let kinds: Vec<usize> = (0..columns[0].1.effectiveness.len())
        .filter(|&k| columns.iter().any(|(_, s)| s.effectiveness[k].attacks > 0))
        .collect();
    let categories: Vec<String> = kinds
        .iter()
        .map(|&k| {
            let e = &columns[0].1.effectiveness[k];
            format!("{} {}", e.quality, e.arm)
        })
        .collect();
    let series = variant_series(part, |s| kinds.iter().map(|&k| rate_point(&s.effectiveness[k].kills)).collect());
    let caption = "Only kinds of unit that attacked are shown; the table \"Effectiveness by arm and quality\" adds \
                  hits and losses.";
    bar_chart(
        prefix,
        "kill_rates",
        "Attacks that destroyed the target, by attacker",
        "share of its attacks",
        &categories,
        &series,
        caption,
    )
}

/// The double activation's weight: the win rate of the side with more double activations (and side doubles), and
/// the share of kills made on a second activation.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn doubles(part: &Part, prefix: &str) -> Result<Chart, SimError> {
    let categories = [
        "side with more double activations wins",
        "side with more side doubles wins",
        "kills made on a second activation",
    ]
    .map(String::from)
    .to_vec();
    let series = variant_series(part, |s| {
        vec![
            rate_point(&s.doubles.more_double_activations.results.win()),
            rate_point(&s.doubles.more_side_doubles.results.win()),
            rate_point(&s.doubles.second_activation_kill_share),
        ]
    });
    let caption = "Left two groups: of the games where one side had more, the share that side won (draws count as not \
                  won). Right: of all units destroyed, those destroyed by a unit acting for the second time in a turn.";
    bar_chart(prefix, "doubles", "What double activations are worth", "share", &categories, &series, caption)
}

/// The statistics a sweep charts against the value: (title, y axis, value with interval).
type SweepStat = (&'static str, &'static str, fn(&Summary) -> Option<Point>);

const SWEEP_STATS: [SweepStat; 6] = [
    ("first side wins", "share of games", |s| rate_point(&s.sides[0].results.win())),
    ("draws", "share of games", |s| rate_point(&s.draw_rate)),
    ("turns", "mean turns", |s| Some((s.length.turns_mean, s.length.turns_ci.low, s.length.turns_ci.high))),
    ("losses to shooting", "share of units destroyed", |s| rate_point(&s.attacks.losses_to_shooting)),
    ("share of charges", "share of attacks", |s| rate_point(&s.attacks.charge_share)),
    ("shaken units hit again", "share of shaken spells", |s| rate_point(&s.shaken.hit_again)),
];

/// For a numeric `--compare` axis: each statistic against the value, with 95% error bars; with a second axis, one
/// line per value of it. `None` when no axis is numeric.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn sweep(part: &Part, report: &Report, prefix: &str) -> Result<Option<Chart>, SimError> {
    let Some(x_axis) = report.compare.iter().position(|a| a.is_numeric()) else { return Ok(None) };
    if part.variants.is_empty() {
        return Ok(None);
    }
    let x_name = report.compare[x_axis].option.clone();
    let line_axis = report.compare.iter().enumerate().find(|(i, _)| *i != x_axis).map(|(_, a)| a);
    let lines: Vec<String> = line_axis.map_or(vec![String::new()], |a| a.values.clone());
    let xs: Vec<f64> = report.compare[x_axis].values.iter().filter_map(|v| v.parse().ok()).collect();
    let (x_lo, x_hi) = (xs.iter().copied().fold(f64::MAX, f64::min), xs.iter().copied().fold(f64::MIN, f64::max));
    let pad = ((x_hi - x_lo) * 0.08).max(0.3);
    // Per line, the points (x, value, low, high) of each statistic.
    let points = |stat: &SweepStat, line: &str| -> Vec<(f64, Point)> {
        part.variants
            .iter()
            .filter(|v| line_axis.is_none_or(|a| v.settings.get(&a.option).is_some_and(|x| x == line)))
            .filter_map(|v| {
                let x: f64 = v.settings.get(&x_name)?.parse().ok()?;
                Some((x, stat.2(&v.summary)?))
            })
            .collect()
    };
    let (panel_w, panel_h) = (420u32, 300u32);
    let width = panel_w * 3;
    let height = panel_h * 2 + LEGEND + 40;
    let title = format!("The statistics against {x_name}");
    let file = file_name(prefix, "sweep");
    let items: Vec<(String, RGBColor)> = match line_axis {
        None => vec![(format!("95% intervals; {x_name} on the x axis"), variant_colour(0))],
        Some(a) => lines
            .iter()
            .enumerate()
            .map(|(i, l)| {
                // A rule set by its variant's name, as the other legends name it.
                let named = part
                    .variants
                    .iter()
                    .find(|v| v.settings.get(&a.option) == Some(l))
                    .and_then(|v| v.rules.as_ref())
                    .filter(|_| a.option == crate::config::RULES_AXIS);
                (format!("{}={}", a.option, named.unwrap_or(l)), variant_colour(i))
            })
            .collect(),
    };
    let svg = svg(&file, (width, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &items)?;
        let root = root.titled(&title, (FONT, 20))?;
        let panels = root.split_evenly((2, 3));
        for (stat, panel) in SWEEP_STATS.iter().zip(&panels) {
            let all: Vec<(f64, Point)> = lines.iter().flat_map(|l| points(stat, l)).collect();
            let hi = all.iter().map(|(_, p)| p.2).fold(0.0f64, f64::max);
            let lo = all.iter().map(|(_, p)| p.1).fold(f64::MAX, f64::min).min(hi);
            let is_share = stat.1.starts_with("share");
            let (y_lo, y_hi) =
                if is_share { (0.0, (hi * 1.15).clamp(0.05, 1.0)) } else { ((lo * 0.9).max(0.0), hi * 1.1 + 0.1) };
            let mut chart = ChartBuilder::on(panel)
                .caption(stat.0, (FONT, 15))
                .margin(10)
                .x_label_area_size(34)
                .y_label_area_size(52)
                .build_cartesian_2d((x_lo - pad)..(x_hi + pad), y_lo..y_hi)?;
            let y_format = |y: &f64| if is_share { format!("{:.0}%", y * 100.0) } else { format!("{y:.1}") };
            chart
                .configure_mesh()
                .light_line_style(TRANSPARENT)
                .x_labels(xs.len().min(12))
                .x_label_formatter(&|x| format!("{x:.0}"))
                .y_label_formatter(&y_format)
                .x_desc(x_name.as_str())
                .y_desc(stat.1)
                .label_style((FONT, 11))
                .draw()?;
            for (i, line) in lines.iter().enumerate() {
                let colour = variant_colour(i);
                // Lines side by side a little, so their error bars do not hide each other.
                let shift = (i as f64 - (lines.len() as f64 - 1.0) / 2.0) * pad * 0.15;
                let pts = points(stat, line);
                chart
                    .draw_series(LineSeries::new(pts.iter().map(|(x, p)| (x + shift, p.0)), colour.stroke_width(2)))?;
                chart.draw_series(pts.iter().map(|(x, p)| Circle::new((x + shift, p.0), 3, colour.filled())))?;
                for (x, p) in &pts {
                    chart.draw_series(whisker(x + shift, p.1, p.2, pad * 0.08))?;
                }
            }
        }
        Ok(())
    })?;
    Ok(Some(Chart {
        part: None,
        file,
        title,
        caption: "Each point is one variant; its bar is the 95% interval. A flat line means the number barely \
                  matters for that statistic."
            .into(),
        svg,
    }))
}

/// A tornado chart of one statistic's changes from the reference variant: one row per compared variant, sorted by
/// the size of the change, a bar from zero to the change and its 95% interval; green where the statistic rose,
/// purple where it fell. `differences` are those of one statistic.
///
/// # Errors
/// When the chart cannot be drawn.
pub fn tornado(file: &str, title: &str, differences: &[&Difference]) -> Result<String, SimError> {
    let mut rows: Vec<&&Difference> = differences.iter().collect();
    rows.sort_by(|a, b| b.difference.abs().total_cmp(&a.difference.abs()));
    // Drawn bottom-up: the largest change at the top.
    rows.reverse();
    let n = rows.len().max(1);
    let scale = if rows.first().is_some_and(|d| d.is_rate) { 100.0 } else { 1.0 };
    let extent = rows
        .iter()
        .map(|d| d.interval().low.abs().max(d.interval().high.abs()) * scale)
        .fold(0.0f64, f64::max)
        .max(1e-3)
        * 1.1;
    let labels: Vec<String> = rows.iter().map(|d| d.b.clone()).collect();
    let label_width = labels.iter().map(|l| l.chars().count()).max().unwrap_or(0) as u32 * 7 + 24;
    let height = 90 + 26 * n as u32;
    let unit = if scale == 100.0 { "points of percentage" } else { "change" };
    svg(file, (640 + label_width, height), |root| {
        let mut chart = ChartBuilder::on(root)
            .caption(title, (FONT, 18))
            .margin(12)
            .x_label_area_size(34)
            .y_label_area_size(label_width)
            .build_cartesian_2d(-extent..extent, -0.5f64..(n as f64 - 0.5))?;
        let label = |y: &f64| category(&labels, *y);
        chart
            .configure_mesh()
            .disable_y_mesh()
            .light_line_style(TRANSPARENT)
            .y_labels(n)
            .y_label_formatter(&label)
            .x_label_formatter(&|x| format!("{x:+.1}"))
            .x_desc(unit)
            .label_style((FONT, 12))
            .draw()?;
        chart.draw_series([PathElement::new(vec![(0.0, -0.5), (0.0, n as f64 - 0.5)], BLACK.stroke_width(1))])?;
        for (y, d) in rows.iter().enumerate() {
            let y = y as f64;
            let colour = if d.difference >= 0.0 { PLAYER_1 } else { VARIANT_COLOURS[0] };
            let v = d.difference * scale;
            chart.draw_series([Rectangle::new(
                [(0.0, y - 0.32), (v, y + 0.32)],
                colour.mix(if d.significant { 1.0 } else { 0.45 }).filled(),
            )])?;
            let i = d.interval();
            let style = BLACK.stroke_width(1);
            chart.draw_series([
                PathElement::new(vec![(i.low * scale, y), (i.high * scale, y)], style),
                PathElement::new(vec![(i.low * scale, y - 0.15), (i.low * scale, y + 0.15)], style),
                PathElement::new(vec![(i.high * scale, y - 0.15), (i.high * scale, y + 0.15)], style),
            ])?;
        }
        Ok(())
    })
}

/// The learning curve of a self-play run (`pacw train selfplay`): the network player's score against greedy after
/// each number of self-play games, luck-adjusted with its 95% interval, and by results; the even line at 50%.
/// `points` are (games, luck-adjusted score, its standard error, score by results).
///
/// # Errors
/// When plotters cannot draw it.
pub fn learning_curve(points: &[(u64, f64, f64, f64)]) -> Result<String, SimError> {
    let file = "learning-curve.svg";
    let x_hi = points.iter().map(|p| p.0).max().unwrap_or(1).max(1) as f64;
    let pad = x_hi * 0.03;
    svg(file, (760, 420 + LEGEND), |root| {
        let (root, strip) = root.split_vertically(420);
        legend(
            &strip,
            &[("luck-adjusted, 95% interval".into(), PLAYER_1), ("by results".into(), DRAW), ("even".into(), SIDE_B)],
        )?;
        let mut chart = ChartBuilder::on(&root)
            .caption("The network player against greedy, as it learns", (FONT, 18))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(52)
            .build_cartesian_2d(-pad..(x_hi + pad), 0.0..1.0)?;
        chart
            .configure_mesh()
            .light_line_style(TRANSPARENT)
            .x_desc("self-play games")
            .y_desc("score against greedy")
            .x_label_formatter(&|x| format!("{x:.0}"))
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .label_style((FONT, 11))
            .draw()?;
        chart.draw_series(LineSeries::new([(-pad, 0.5), (x_hi + pad, 0.5)], SIDE_B.stroke_width(1)))?;
        chart.draw_series(LineSeries::new(points.iter().map(|p| (p.0 as f64, p.3)), DRAW.stroke_width(1)))?;
        chart.draw_series(LineSeries::new(points.iter().map(|p| (p.0 as f64, p.1)), PLAYER_1.stroke_width(2)))?;
        chart.draw_series(points.iter().map(|p| Circle::new((p.0 as f64, p.1), 3, PLAYER_1.filled())))?;
        for p in points {
            let (low, high) = ((p.1 - 1.96 * p.2).max(0.0), (p.1 + 1.96 * p.2).min(1.0));
            chart.draw_series(whisker(p.0 as f64, low, high, pad * 0.4))?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Axis, SimConfig};
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    fn report(axes: &[&str], games: usize) -> (Report, Simulation) {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = games;
        c.threads = Some(1);
        c.compare(axes.iter().map(|a| Axis::parse(a).unwrap()).collect()).unwrap();
        let sim = run(&c, &|| {}).unwrap();
        (Report::new(&sim, None), sim)
    }

    #[test]
    fn charts_are_svg_with_text_and_need_no_font_file() {
        let (report, sim) = report(&["initiative=cards,igougo"], 10);
        let charts = all(&report, &sim).unwrap();
        assert_eq!(charts.len(), 7, "no sweep without a numeric axis");
        for chart in &charts {
            assert!(chart.svg.starts_with("<svg"), "{}", chart.file);
            assert!(chart.svg.contains("<text"), "{}", chart.file);
            assert_ne!(chart.caption, chart.title, "{}", chart.file);
        }
        assert!(charts[0].svg.contains("initiative=igougo"));
        assert!(charts[0].svg.contains("draws"));
        assert!(charts[2].svg.contains("Game length"));
    }

    #[test]
    fn rule_sets_compared_are_named_in_the_legends_by_their_variants_names_not_their_files() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 4;
        c.threads = Some(1);
        let close = pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), "close-combat").unwrap();
        c.rule_sets.push(crate::config::VariantFile::parse(close.text, "variants/close-combat.toml").unwrap());
        c.compare(vec![
            Axis::parse("to_hit=4,5").unwrap(),
            Axis::parse("rules=standard,variants/close-combat.toml").unwrap(),
        ])
        .unwrap();
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::new(&sim, None);
        let charts = all(&report, &sim).unwrap();
        for chart in &charts {
            assert!(!chart.svg.contains("close-combat.toml"), "{}: the file's name", chart.file);
        }
        assert!(charts[0].svg.contains("rules=Close combat"), "the win rates' columns");
        let sweep = charts.iter().find(|c| c.file == "sweep.svg").expect("a sweep chart");
        assert!(sweep.svg.contains("rules=Close combat") && sweep.svg.contains("rules=standard"), "its lines");
        // The tables keep the files, which say where the rules were read from.
        assert_eq!(report.main.variants[1].label, "to_hit=4 rules=variants/close-combat.toml");
    }

    #[test]
    fn a_numeric_axis_gets_a_sweep_with_one_line_per_value_of_the_other() {
        let (report, sim) = report(&["to_hit=4..6", "initiative=cards,igougo"], 6);
        let charts = all(&report, &sim).unwrap();
        let sweep = charts.iter().find(|c| c.file == "sweep.svg").expect("a sweep chart");
        assert!(sweep.svg.contains("initiative=igougo") && sweep.svg.contains("first side wins"));
        // A variant colour is used in the legend and for its line.
        let colour = format!("#{:02X}{:02X}{:02X}", VARIANT_COLOURS[1].0, VARIANT_COLOURS[1].1, VARIANT_COLOURS[1].2);
        assert!(sweep.svg.to_uppercase().contains(&colour), "{colour}");
    }

    #[test]
    fn the_learning_curve_is_drawn_with_a_point_for_each_measure() {
        let svg =
            super::learning_curve(&[(0, 0.1, 0.02, 0.05), (2000, 0.3, 0.03, 0.25), (4000, 0.45, 0.03, 0.4)]).unwrap();
        assert!(svg.starts_with("<svg") && svg.contains("self-play games"));
        assert_eq!(svg.matches("<circle").count(), 3);
    }
}
