//! Random battles, so that the evaluator learns positions of battles nobody has written yet (any board from 6 to
//! 16 squares a side, 3 to 16 units a side of any arms and qualities, woods, towns, rivers with fords, hills,
//! fences, objectives held or not). Each is written as a scenario file and checked by the engine like any other.

use pacw_engine::Scenario;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random battle from `seed`: its scenario file's text. The same seed always gives the same battle.
///
/// ```
/// let text = pacw_learn::generate::battle(7);
/// assert!(pacw_engine::Scenario::parse(&text, "generated.toml").is_ok());
/// assert_eq!(text, pacw_learn::generate::battle(7));
/// ```
pub fn battle(seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // A draw that breaks a rule of the format (never expected, but the checker has the last word) is drawn again.
    loop {
        let text = draw(&mut rng, seed);
        if Scenario::parse(&text, "generated.toml").is_ok() {
            return text;
        }
    }
}

fn draw(rng: &mut ChaCha8Rng, seed: u64) -> String {
    let (w, h) = (rng.random_range(6..=16u8), rng.random_range(6..=16u8));
    // The two sides come from opposite edges, north-south or east-west.
    let north_south = rng.random_bool(0.7);
    let mut terrain = vec![vec!['.'; w as usize]; h as usize];
    let mut elevation = vec![vec![0u8; w as usize]; h as usize];
    // Patches of woods and towns.
    for _ in 0..rng.random_range(0..=(w as usize * h as usize / 12)) {
        let (x, y) = (rng.random_range(0..w) as usize, rng.random_range(0..h) as usize);
        let kind = if rng.random_bool(0.7) { 'W' } else { 'T' };
        for (dx, dy) in [(0, 0), (1, 0), (0, 1)].into_iter().take(rng.random_range(1..=3)) {
            if let Some(c) = terrain.get_mut(y + dy).and_then(|row| row.get_mut(x + dx)) {
                *c = kind;
            }
        }
    }
    // Hills: a raised rectangle or two.
    for _ in 0..rng.random_range(0..=3) {
        let (x, y) = (rng.random_range(0..w) as usize, rng.random_range(0..h) as usize);
        let (rw, rh, up) = (rng.random_range(1..=4), rng.random_range(1..=3), rng.random_range(1..=2u8));
        for row in elevation.iter_mut().skip(y).take(rh) {
            for e in row.iter_mut().skip(x).take(rw) {
                *e = (*e + up).min(3);
            }
        }
    }
    // Sometimes a river across the middle with fords, or a sunken road.
    let mid = if north_south { h / 2 } else { w / 2 } as usize;
    let across = if north_south { w } else { h } as usize;
    let set_line = |i: usize, c: char, terrain: &mut Vec<Vec<char>>| {
        let (x, y) = if north_south { (i, mid) } else { (mid, i) };
        terrain[y][x] = c;
    };
    match rng.random_range(0..10) {
        0..=1 => {
            for i in 0..across {
                let c = if rng.random_bool(0.3) { 'F' } else { '~' };
                set_line(i, c, &mut terrain);
            }
        }
        2 => {
            for i in 0..across {
                if rng.random_bool(0.6) {
                    set_line(i, 'S', &mut terrain);
                }
            }
        }
        _ => {}
    }
    let mut fences = Vec::new();
    for _ in 0..rng.random_range(0..=4) {
        let (x, y) = (rng.random_range(0..w), rng.random_range(0..h - 1));
        fences.push(format!("\"{}-{}\"", square(x, y), square(x, y + 1)));
    }

    // The sides' home edges and units: each side's units start in the bands nearest its edge.
    let (home_a, home_b) = if north_south { ("south", "north") } else { ("west", "east") };
    let per_side = [rng.random_range(3..=16usize), 0];
    let per_side = [per_side[0], (per_side[0] as i64 + rng.random_range(-2..=2)).clamp(3, 16) as usize];
    let depth = if north_south { h } else { w } as usize;
    let mut taken = vec![vec![false; w as usize]; h as usize];
    let mut units = String::new();
    for (side, &n) in per_side.iter().enumerate() {
        let id = ["blue", "grey"][side];
        let facing = match (north_south, side) {
            (true, 0) => "N",
            (true, _) => "S",
            (false, 0) => "E",
            (false, _) => "W",
        };
        let mut placed = 0;
        let mut tries = 0;
        while placed < n && tries < 2000 {
            tries += 1;
            let band = rng.random_range(0..(depth / 3).max(1));
            let along = rng.random_range(0..across);
            let row_from_home = if side == 0 { band } else { depth - 1 - band };
            let (x, y) = if north_south { (along, row_from_home) } else { (row_from_home, along) };
            // Rows are written north first: row y from the south is line h-1-y.
            let line = h as usize - 1 - y;
            if taken[y][x] || matches!(terrain[line][x], '~') {
                continue;
            }
            taken[y][x] = true;
            placed += 1;
            let arm = match rng.random_range(0..10) {
                0..=5 => "infantry",
                6..=7 => "cavalry",
                _ => "artillery",
            };
            let quality = ["green", "regular", "regular", "veteran"][rng.random_range(0..4)];
            units += &format!(
                "\n[[units]]\nside = \"{id}\"\narm = \"{arm}\"\nquality = \"{quality}\"\nat = \"{}\"\nfacing = \"{facing}\"\n",
                square(x as u8, y as u8)
            );
        }
    }

    let mut objectives = String::new();
    let mut used = Vec::new();
    for _ in 0..rng.random_range(0..=4) {
        let band = rng.random_range(depth / 3..=(depth - 1 - depth / 3).max(depth / 3));
        let along = rng.random_range(0..across);
        let (x, y) = if north_south { (along, band) } else { (band, along) };
        let line = h as usize - 1 - y;
        if used.contains(&(x, y)) || terrain[line][x] == '~' {
            continue;
        }
        used.push((x, y));
        let holder = match rng.random_range(0..6) {
            0 => "\nholder = \"blue\"",
            1 => "\nholder = \"grey\"",
            _ => "",
        };
        objectives += &format!(
            "\n[[objectives]]\nat = \"{}\"\npoints = {}{holder}\n",
            square(x as u8, y as u8),
            rng.random_range(1..=3)
        );
    }

    let rows = |f: &dyn Fn(usize) -> String| (0..h as usize).map(f).collect::<Vec<_>>().join("\n");
    let terrain_text = rows(&|line| terrain[line].iter().collect());
    // Elevation was drawn by rows from the south; written north first like the terrain.
    let elevation_text = rows(&|line| elevation[h as usize - 1 - line].iter().map(|e| e.to_string()).collect());
    format!(
        "name = \"Generated battle {seed}\"\nturns = {turns}\npoints_per_destroyed = 1\n\n[map]\nterrain = \"\"\"\n\
         {terrain_text}\n\"\"\"\nelevation = \"\"\"\n{elevation_text}\n\"\"\"\nfences = [{fences}]\n\n\
         [[sides]]\nid = \"blue\"\nname = \"Blue\"\nhome = \"{home_a}\"\ncolour = \"red\"\n\n\
         [[sides]]\nid = \"grey\"\nname = \"Grey\"\nhome = \"{home_b}\"\ncolour = \"black\"\n{units}{objectives}",
        turns = rng.random_range(4..=12),
        fences = fences.join(", "),
    )
}

/// A square's name: column letter, row number from 1.
fn square(x: u8, y: u8) -> String {
    format!("{}{}", (b'a' + x) as char, y + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_generated_battle_passes_the_checker_and_they_differ() {
        let mut sizes = std::collections::BTreeSet::new();
        for seed in 0..200 {
            let text = battle(seed);
            let s = Scenario::parse(&text, "g.toml").unwrap_or_else(|e| panic!("seed {seed}: {e}\n{text}"));
            assert!(s.units.len() >= 6 && s.units.len() <= 32);
            sizes.insert((s.map.width(), s.map.height(), s.units.len()));
        }
        assert!(sizes.len() > 100, "varied battles: {}", sizes.len());
    }
}
