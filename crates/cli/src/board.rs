//! The board as text: terrain, elevation, roads, objectives, fences and units (`pacw show`, `pacw play`).

use pacw_engine::{Battle, Dir, Quality, Side, Square, UnitId};
use std::fmt::Write;

/// One unit as four characters: arm (upper case first side, lower case second), quality, facing, shaken.
fn unit_token(b: &Battle, u: UnitId) -> String {
    let info = b.info(u);
    let state = b.unit(u);
    let arm = info.arm.short().chars().next().unwrap_or('?');
    let arm = if info.side == Side::A { arm.to_ascii_uppercase() } else { arm };
    let quality = match info.quality {
        Quality::Green => '-',
        Quality::Regular => ' ',
        Quality::Veteran => '+',
    };
    let facing = match state.facing {
        Dir::N => '^',
        Dir::E => '>',
        Dir::S => 'v',
        Dir::W => '<',
    };
    let shaken = if state.shaken { '*' } else { ' ' };
    format!("{arm}{quality}{facing}{shaken}")
}

/// Draws the board, north at the top, with a legend and the list of units.
pub fn render(b: &Battle) -> String {
    let s = b.scenario();
    let map = &s.map;
    let (w, h) = (map.width(), map.height());
    let mut out = String::new();
    // Each square takes 9 characters: fence, terrain, elevation, road, objective, and the unit's four.
    let header: String = (0..w).map(|x| format!("{:<9}", (b'a' + x) as char)).collect();
    let _ = writeln!(out, "    {}", header.trim_end());
    for y in (0..h).rev() {
        let mut line = format!("{:>2} ", y + 1);
        for x in 0..w {
            let sq = Square::new(x, y);
            let cell = map.cell(sq);
            let west_fence = x > 0 && map.fence(sq, Dir::W);
            line.push(if west_fence { '|' } else { ' ' });
            let road = if cell.road { '#' } else { ' ' };
            let objective = if s.objectives.iter().any(|o| o.at == sq) { '@' } else { ' ' };
            let unit = b.unit_at(sq).map_or("    ".to_string(), |u| unit_token(b, u));
            let _ = write!(line, "{}{}{road}{objective}{unit}", map.letter(sq), cell.elevation);
        }
        let _ = writeln!(out, "{}", line.trim_end());
        if y > 0 {
            let fences: String =
                (0..w).map(|x| if map.fence(Square::new(x, y), Dir::S) { " ========" } else { "         " }).collect();
            if fences.trim().is_empty() {
                continue;
            }
            let _ = writeln!(out, "   {}", fences.trim_end());
        }
    }
    // The terrain kinds of the rules in force: a variant's own among them (docs/variants.md).
    let kinds: Vec<String> = map.terrain_rules().kinds().iter().map(|k| format!("{} {}", k.letter, k.name)).collect();
    let _ = writeln!(out, "Terrain {}; digit = elevation; # road; @ objective; | and === fences.", kinds.join(", "));
    let _ = writeln!(
        out,
        "Units: I/C/A {} (upper case), i/c/a {} (lower case); + veteran, - green; ^>v< facing; * shaken.",
        s.side(Side::A).name,
        s.side(Side::B).name
    );
    out
}

/// The units of both sides, one a line.
pub fn unit_list(b: &Battle) -> String {
    let mut out = String::new();
    for side in Side::BOTH {
        let info = b.scenario().side(side);
        let _ = writeln!(
            out,
            "{} ({} cards, home {}, lost {} of exhaustion {}):",
            info.name,
            info.colour.name(),
            info.home,
            b.destroyed(side),
            b.exhaustion_point(side)
        );
        for u in b.unit_ids().filter(|&u| b.info(u).side == side) {
            let i = b.info(u);
            let st = b.unit(u);
            let status = if b.is_waiting(u) {
                match b.arrival_due(u) {
                    Some(turn) => format!("arrives at {} on turn {turn} (reinforcement)", st.at),
                    None => format!("not arrived (reinforcement at {})", st.at),
                }
            } else if !st.alive {
                "destroyed".to_string()
            } else {
                format!("{} facing {}{}", st.at, st.facing, if st.shaken { ", shaken" } else { "" })
            };
            let _ = writeln!(
                out,
                "  [{}] {:<28} {} {}, strength {}: {status}",
                unit_token(b, u),
                i.name,
                i.quality,
                b.scenario().arm_name(i),
                b.strength(u)
            );
        }
    }
    for (i, (o, holder)) in b.scenario().objectives.iter().zip(b.objective_holders()).enumerate() {
        let holder = holder.map_or("nobody".to_string(), |s| b.scenario().side(s).name.clone());
        let _ = writeln!(out, "Objective {} ({} points): held by {holder}", o.at, b.objective_points(i));
    }
    let s = b.scenario();
    if s.has_events() {
        let off = if b.options().events.is_on() { "" } else { " (off: none of them happens, events=off)" };
        let _ = writeln!(out, "Events{off}, at the start of their turn (docs/scenario-format.md#events):");
        for line in s.event_summary() {
            let _ = writeln!(out, "  {line}");
        }
    }
    out
}
