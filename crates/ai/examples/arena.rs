//! Quick strength check between two players: `cargo run --release -p pacw-ai --example arena -- A B GAMES [SCENARIO]`.
//! (`pacw simulate` is the full laboratory; this is the smallest loop for tuning a player.)

use pacw_engine::{Game, SHIPPED_SCENARIOS, Side, ToAct};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (a, b) = (&args[1], &args[2]);
    let games: u64 = args[3].parse().unwrap();
    let scenario = args.get(4).map(|s| s.parse::<usize>().unwrap());
    let mut wins = [0u32; 3];
    let mut think = [0f64; 2];
    for g in 0..games {
        let sc = scenario.unwrap_or((g / 2) as usize % SHIPPED_SCENARIOS.len());
        let (_, file, text) = SHIPPED_SCENARIOS[sc];
        let mut game = Game::new(text, file, None, g * 7919).unwrap();
        // Swap sides every other game: player a is side A on even games.
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
        match r.winner {
            Some(w) if w == a_side => wins[0] += 1,
            Some(_) => wins[1] += 1,
            None => wins[2] += 1,
        }
        eprintln!("game {g} scenario {sc}: {a} as {a_side:?} -> {:?} {:?}", r.winner, r.reason);
    }
    println!(
        "{a} {} - {b} {} - draws {} | thinking per game: {a} {:.2}s, {b} {:.2}s",
        wins[0],
        wins[1],
        wins[2],
        think[0] / games as f64,
        think[1] / games as f64
    );
}
