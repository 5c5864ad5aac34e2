//! Quick strength check between two players:
//! `cargo run --release -p pacw-ai --example arena -- A B GAMES [SCENARIO]`, where GAMES is a count or a range
//! `FROM..TO` (so that two processes can share the games of one match). Sides swap every game; the scenario turns
//! every two games unless one is given. (`pacw simulate` is the full laboratory; this is the smallest loop for
//! tuning a player.)

use pacw_engine::{Game, SHIPPED_SCENARIOS, Side, ToAct};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (a, b) = (&args[1], &args[2]);
    let games = match args[3].split_once("..") {
        Some((from, to)) => from.parse::<u64>().unwrap()..to.parse().unwrap(),
        None => 0..args[3].parse().unwrap(),
    };
    let count = games.end - games.start;
    let scenario = args.get(4).map(|s| s.parse::<usize>().unwrap());
    let mut wins = [0u32; 3];
    let mut think = [0f64; 2];
    let mut worst = 0f64;
    for g in games {
        let sc = scenario.unwrap_or((g / 2) as usize % SHIPPED_SCENARIOS.len());
        let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[sc];
        let mut game = Game::new(text, file, None, g * 7919).unwrap();
        // Swap sides every other game: player a is side A on even games.
        let before = think[0];
        let a_side = if g % 2 == 0 { Side::A } else { Side::B };
        let mut pa = pacw_ai::player(a, g).unwrap();
        let mut pb = pacw_ai::player(b, g + 1_000_000).unwrap();
        while let ToAct::Side(side) = game.battle().to_act() {
            let t = Instant::now();
            let (p, i) = if side == a_side { (&mut pa, 0) } else { (&mut pb, 1) };
            let action = p.choose(game.battle());
            think[i] += t.elapsed().as_secs_f64();
            game.act(action).unwrap();
        }
        let r = game.battle().result().unwrap();
        let this_game = think[0] - before;
        worst = worst.max(this_game);
        match r.winner {
            Some(w) if w == a_side => wins[0] += 1,
            Some(_) => wins[1] += 1,
            None => wins[2] += 1,
        }
        eprintln!("game {g} scenario {sc}: {a} as {a_side:?} -> {:?} {:?} ({this_game:.1}s)", r.winner, r.reason);
    }
    println!(
        "{a} {} - {b} {} - draws {} | thinking per game: {a} {:.2}s (at most {worst:.1}s), {b} {:.2}s",
        wins[0],
        wins[1],
        wins[2],
        think[0] / count as f64,
        think[1] / count as f64
    );
}
