//! Watch two computer players fight, narrated: `cargo run --release -p pacw-ai --example watch -- A B [SEED] [SCENARIO]`.
//! (The quickest way to see what a player does badly.)

use pacw_engine::{Game, SHIPPED_SCENARIOS, ToAct, narrate};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seed: u64 = args.get(3).map_or(1, |s| s.parse().unwrap());
    let scenario: usize = args.get(4).map_or(0, |s| s.parse().unwrap());
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[scenario];
    let mut game = Game::new(text, file, None, seed).unwrap();
    let mut players = [pacw_ai::player(&args[1], seed).unwrap(), pacw_ai::player(&args[2], seed + 1).unwrap()];
    let s = game.battle().scenario().clone();
    while let ToAct::Side(side) = game.battle().to_act() {
        let action = players[side.index()].choose(game.battle());
        println!("{} ({}): {}", s.side(side).name, args[1 + side.index()], narrate::action(game.battle(), &action));
        for e in game.act(action).unwrap() {
            println!("    {}", narrate::event(&s, &e));
        }
    }
}
