//! SVG charts of a simulation, drawn with plotters' SVG backend. Text is written as SVG `<text>` elements and laid
//! out with plotters' built-in size estimate, so no font file is needed: the browser renders the text.

use crate::error::SimError;
use crate::report::Report;
use crate::run::Simulation;
use crate::stats::Summary;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// One chart: its file name, its title and the SVG text.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// The file name, as written by [`crate::report::write_dir`].
    pub file: &'static str,
    /// A title, for captions.
    pub title: String,
    /// The SVG document.
    pub svg: String,
}

/// The win rates chart's file name.
pub const WIN_RATES: &str = "win_rates.svg";
/// The game length chart's file name.
pub const GAME_LENGTH: &str = "game_length.svg";
/// The outcome mix chart's file name.
pub const OUTCOMES: &str = "outcomes.svg";

const FONT: &str = "sans-serif";
const SIDE_A: RGBColor = RGBColor(52, 101, 164);
const SIDE_B: RGBColor = RGBColor(204, 40, 40);
const DRAW: RGBColor = RGBColor(150, 150, 150);
const PLAYER_1: RGBColor = RGBColor(78, 154, 6);
const PLAYER_2: RGBColor = RGBColor(245, 121, 0);
const SERIES: [RGBColor; 6] = [SIDE_A, SIDE_B, PLAYER_1, PLAYER_2, RGBColor(117, 80, 123), RGBColor(193, 125, 17)];

type Drawn = Result<(), Box<dyn std::error::Error>>;

/// Draws into an SVG string of the given size.
fn svg(
    file: &'static str,
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

/// Every chart of the report: win rates, game length, outcome mix.
pub fn all(report: &Report, sim: &Simulation) -> Result<Vec<Chart>, SimError> {
    Ok(vec![
        Chart { file: WIN_RATES, title: "Win rates with 95% Wilson intervals".into(), svg: win_rates(report)? },
        Chart { file: OUTCOMES, title: "Outcome mix".into(), svg: outcomes(report)? },
        Chart { file: GAME_LENGTH, title: "Game length".into(), svg: game_length(report, sim)? },
    ])
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

/// Grouped bars with 95% intervals: per variant, each side's win rate, the draw rate and each player's win rate.
pub fn win_rates(report: &Report) -> Result<String, SimError> {
    let columns = report.columns();
    let labels: Vec<String> = columns.iter().map(|(l, _)| l.clone()).collect();
    let s0 = columns[0].1;
    type Pick = Box<dyn Fn(&Summary) -> (f64, f64, f64)>;
    let bars: Vec<(String, RGBColor, Pick)> = vec![
        (format!("{} wins", s0.sides[0].name), SIDE_A, Box::new(|s: &Summary| triple(&s.sides[0].results))),
        (format!("{} wins", s0.sides[1].name), SIDE_B, Box::new(|s: &Summary| triple(&s.sides[1].results))),
        (
            "draws".to_string(),
            DRAW,
            Box::new(|s: &Summary| (s.draw_rate.rate, s.draw_rate.ci_low, s.draw_rate.ci_high)),
        ),
        (format!("{} wins", s0.players[0].name), PLAYER_1, Box::new(|s: &Summary| triple(&s.players[0].results))),
        (format!("{} wins", s0.players[1].name), PLAYER_2, Box::new(|s: &Summary| triple(&s.players[1].results))),
    ];
    let top = columns.iter().flat_map(|(_, s)| bars.iter().map(move |(_, _, f)| f(s).2)).fold(0.0f64, f64::max);
    let top = ((top * 10.0).ceil() / 10.0 + 0.1).min(1.0);
    let n = columns.len();
    let width = 220 + 180 * n as u32;
    let height = 440;
    svg(WIN_RATES, (width.max(640), height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &bars.iter().map(|(name, colour, _)| (name.clone(), *colour)).collect::<Vec<_>>())?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Win rates with 95% Wilson intervals", (FONT, 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), 0f64..top)?;
        let label = |x: &f64| category(&labels, *x);
        chart
            .configure_mesh()
            .disable_x_mesh()
            .light_line_style(TRANSPARENT)
            .x_labels(n)
            .x_label_formatter(&label)
            .y_label_formatter(&|y| format!("{:.0}%", y * 100.0))
            .y_desc("share of games")
            .label_style((FONT, 13))
            .draw()?;
        let k = bars.len() as f64;
        let w = 0.8 / k;
        for (b, (_, colour, pick)) in bars.iter().enumerate() {
            let x0 = |v: usize| v as f64 - 0.4 + b as f64 * w;
            let colour = *colour;
            chart.draw_series(columns.iter().enumerate().map(|(v, (_, s))| {
                Rectangle::new([(x0(v) + 0.01, 0.0), (x0(v) + w - 0.01, pick(s).0)], colour.filled())
            }))?;
            for (v, (_, s)) in columns.iter().enumerate() {
                let (_, low, high) = pick(s);
                let mid = x0(v) + w / 2.0;
                let cap = w / 4.0;
                let style = BLACK.stroke_width(1);
                chart.draw_series([
                    PathElement::new(vec![(mid, low), (mid, high)], style),
                    PathElement::new(vec![(mid - cap, low), (mid + cap, low)], style),
                    PathElement::new(vec![(mid - cap, high), (mid + cap, high)], style),
                ])?;
            }
        }
        Ok(())
    })
}

/// Stacked horizontal bars per variant, the first at the top: first side wins, draws, second side wins.
pub fn outcomes(report: &Report) -> Result<String, SimError> {
    let columns = report.columns();
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
    svg(OUTCOMES, (760, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &parts)?;
        let mut chart = ChartBuilder::on(&root)
            .caption("Outcome mix", (FONT, 20))
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
        for (part, (_, colour)) in parts.iter().enumerate() {
            let span = |s: &Summary| {
                let g = s.games.max(1) as f64;
                let shares =
                    [s.sides[0].results.wins as f64 / g, s.draws as f64 / g, s.sides[1].results.wins as f64 / g];
                let start: f64 = shares[..part].iter().sum();
                (start, start + shares[part])
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
    })
}

/// Two histograms side by side: games by the turn they ended in, and by unit activations (share of each variant's
/// games).
pub fn game_length(report: &Report, sim: &Simulation) -> Result<String, SimError> {
    let columns = report.columns();
    let n = columns.len();
    let max_turn = columns.iter().map(|(_, s)| s.length.turns_histogram.len()).max().unwrap_or(1).max(1);
    let lo = sim.records.iter().map(|r| r.stats.activations).min().unwrap_or(0);
    let hi = sim.records.iter().map(|r| r.stats.activations).max().unwrap_or(0);
    let bin = ((hi - lo + 1) as f64 / 24.0).ceil().max(1.0) as u32;
    let bins = ((hi - lo) / bin + 1) as usize;
    let activation_hist: Vec<Vec<f64>> = (0..n)
        .map(|v| {
            let records: &[_] = if report.variants.is_empty() { &sim.records } else { sim.variant_records(v) };
            let mut h = vec![0.0; bins];
            for r in records {
                h[((r.stats.activations - lo) / bin) as usize] += 1.0 / records.len() as f64;
            }
            h
        })
        .collect();
    let items: Vec<(String, RGBColor)> =
        columns.iter().enumerate().map(|(v, (l, _))| (l.clone(), SERIES[v % SERIES.len()])).collect();
    let height = 440;
    svg(GAME_LENGTH, (1000, height), |root| {
        let (root, strip) = root.split_vertically(height - LEGEND);
        legend(&strip, &items)?;
        let root = root.titled("Game length", (FONT, 20))?;
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
            let colour = SERIES[v % SERIES.len()];
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
            let colour = SERIES[v % SERIES.len()];
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
    })
}

/// A win rate and its interval, as the charts plot them.
fn triple(r: &crate::stats::Results) -> (f64, f64, f64) {
    (r.win_rate, r.ci_low, r.ci_high)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::{Compare, SimConfig};
    use crate::run::run;
    use pacw_engine::Scenario;
    use std::sync::Arc;

    #[test]
    fn charts_are_svg_with_text_and_need_no_font_file() {
        let scenario = Arc::new(Scenario::parse(pacw_engine::DEFAULT_SCENARIO, "m.toml").unwrap());
        let mut c = SimConfig::new(scenario, pacw_engine::DEFAULT_SCENARIO, "m.toml");
        c.games = 10;
        c.threads = Some(1);
        c.compare = Some(Compare::parse("initiative=cards,igougo").unwrap());
        let sim = run(&c, &|| {}).unwrap();
        let report = Report::new(&sim, None);
        let charts = all(&report, &sim).unwrap();
        assert_eq!(charts.len(), 3);
        for chart in &charts {
            assert!(chart.svg.starts_with("<svg"), "{}", chart.file);
            assert!(chart.svg.contains("<text"), "{}", chart.file);
        }
        assert!(charts[0].svg.contains("initiative=igougo"));
        assert!(charts[0].svg.contains("draws"));
        assert!(charts[2].svg.contains("Game length"));
    }
}
