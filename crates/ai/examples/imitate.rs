//! Greedy's judgement fitted to a stronger player's choices (one step of policy iteration by imitation):
//!
//! - `cargo run --release -p pacw-ai --example imitate -- record TEACHER FROM..TO FILE.csv`: plays games
//!   `FROM..TO` on the shipped battles in turn, asks TEACHER (as `pacw_ai::player` names it) one side decision in
//!   three and plays its choice (greedy plays the others), and writes greedy's eight best candidates of each asked
//!   decision, each with its value and the value's change per unit of each of greedy's twenty weights
//!   (`greedy::judgement::Weights::to_list`), and whether the teacher chose it.
//! - `cargo run --release -p pacw-ai --example imitate -- fit GAMES FILE.csv...`: a coordinate search over the
//!   weights (each multiplied by 1 ± 0.5, 0.25, 0.1 in turn) for the judgement whose best candidate is the
//!   teacher's choice most often, on the decisions of four games in five; prints that agreement and on the fifth
//!   game kept out, the weights, and their score against `greedy` over GAMES games (docs/findings.md).

mod shared;

use pacw_ai::greedy::judgement::Weights;
use pacw_ai::{GreedyPlayer, Player};
use pacw_engine::{Action, Battle, Game, SHIPPED_SCENARIOS, ToAct};
use shared::score;

const CANDIDATES: usize = 8;
const WEIGHTS: usize = 20;
/// The step of the finite differences that measure a value's change per unit of a weight (values are linear in the
/// weights wherever the best order of a unit does not change).
const STEP: f32 = 1e-3;

fn game(g: u64) -> Game {
    let pacw_engine::Shipped { file, text, .. } = SHIPPED_SCENARIOS[(g / 2) as usize % SHIPPED_SCENARIOS.len()];
    Game::new(text, file, None, g * 7919 + 17).expect("shipped battles are valid")
}

/// Each legal action's value by a fresh greedy judging by `weights`.
fn values(b: &Battle, weights: &Weights) -> Vec<(Action, f32)> {
    GreedyPlayer::with_weights(0, [*weights; 2]).scored(b)
}

fn record(teacher: &str, games: std::ops::Range<u64>, out: &str) {
    let mut file = csv::Writer::from_path(out).expect("the file can be written");
    let base = Weights::GREEDY.to_list();
    for g in games {
        let mut game = game(g);
        let mut teacher_player = pacw_ai::player(teacher, g).expect("the teacher is a player");
        let mut greedy = GreedyPlayer::new(g + 1_000_000);
        let mut asked = 0u64;
        while let ToAct::Side(_) = game.battle().to_act() {
            let b = game.battle().clone();
            let legal = b.legal_actions().len();
            asked += 1;
            let action = if legal > 1 && asked.is_multiple_of(3) {
                let choice = teacher_player.choose(&b);
                let scored: Vec<(Action, f32)> = values(&b, &Weights::GREEDY).into_iter().take(CANDIDATES).collect();
                if scored.iter().any(|(a, _)| *a == choice) {
                    let nudged: Vec<Vec<(Action, f32)>> = (0..WEIGHTS)
                        .map(|k| {
                            let mut w = base;
                            w[k] += STEP;
                            values(&b, &Weights::from_list(w))
                        })
                        .collect();
                    for (a, v) in &scored {
                        let slopes = nudged.iter().map(|n| {
                            let moved = n.iter().find(|(x, _)| x == a).map_or(*v, |(_, x)| *x);
                            (moved - v) / STEP
                        });
                        let row = [g.to_string(), asked.to_string(), u8::from(*a == choice).to_string(), v.to_string()];
                        let row = row.into_iter().chain(slopes.map(|d| d.to_string()));
                        file.write_record(row).expect("the file can be written");
                    }
                }
                choice
            } else {
                greedy.choose(&b)
            };
            game.act(action).expect("players choose legal actions");
        }
        eprintln!("game {g} done");
    }
    file.flush().expect("the file can be written");
}

/// One asked decision: its game, each candidate's value at greedy's weights and slopes, and the teacher's choice.
struct Decision {
    game: u64,
    values: Vec<f32>,
    slopes: Vec<[f32; WEIGHTS]>,
    chosen: usize,
}

impl Decision {
    /// The candidates' values under `w` (linear from greedy's weights).
    fn values_at(&self, w: &[f32; WEIGHTS], base: &[f32; WEIGHTS]) -> Vec<f32> {
        self.values
            .iter()
            .zip(&self.slopes)
            .map(|(v, s)| v + (0..WEIGHTS).map(|k| s[k] * (w[k] - base[k])).sum::<f32>())
            .collect()
    }

    /// Whether the teacher's choice is the best candidate under `w` (or as good, within a thousandth: greedy breaks
    /// near ties at random).
    fn agrees(&self, w: &[f32; WEIGHTS], base: &[f32; WEIGHTS]) -> bool {
        let v = self.values_at(w, base);
        v.iter().all(|x| *x <= v[self.chosen] + 1e-3)
    }
}

fn read(files: &[String]) -> Vec<Decision> {
    let mut decisions: Vec<Decision> = Vec::new();
    let mut key = None;
    for f in files {
        let mut reader = csv::ReaderBuilder::new().has_headers(false).from_path(f).expect("the file can be read");
        for row in reader.records() {
            let row = row.expect("a whole row");
            let cell = |i: usize| row.get(i).expect("every column");
            let (g, asked): (u64, u64) = (cell(0).parse().unwrap(), cell(1).parse().unwrap());
            let chosen = cell(2) == "1";
            let value: f32 = cell(3).parse().unwrap();
            let slopes: [f32; WEIGHTS] = std::array::from_fn(|k| cell(4 + k).parse().unwrap());
            if key != Some((g, asked)) {
                key = Some((g, asked));
                decisions.push(Decision { game: g, values: Vec::new(), slopes: Vec::new(), chosen: 0 });
            }
            let d = decisions.last_mut().expect("just pushed");
            if chosen {
                d.chosen = d.values.len();
            }
            d.values.push(value);
            d.slopes.push(slopes);
        }
    }
    decisions
}

fn fit(games: u64, files: &[String]) {
    let decisions = read(files);
    let (train, test): (Vec<&Decision>, Vec<&Decision>) = decisions.iter().partition(|d| d.game % 5 != 0);
    let base = Weights::GREEDY.to_list();
    let agreement = |w: &[f32; WEIGHTS], ds: &[&Decision]| {
        ds.iter().filter(|d| d.agrees(w, &base)).count() as f64 / ds.len().max(1) as f64
    };
    println!("{} decisions to fit, {} kept out", train.len(), test.len());
    let (mut w, mut best) = (base, agreement(&base, &train));
    println!("greedy's weights choose as the teacher: {best:.4} (kept out {:.4})", agreement(&base, &test));
    // Coordinate search on the agreement itself: a softmax's likelihood is ruled by the near ties, where the
    // teacher's choice says nothing.
    for step in [0.5f32, 0.25, 0.1] {
        for pass in 0..3 {
            let mut improved = false;
            for k in 0..WEIGHTS {
                for factor in [1.0 - step, 1.0 + step] {
                    let mut trial = w;
                    trial[k] *= factor;
                    let a = agreement(&trial, &train);
                    if a > best {
                        (w, best, improved) = (trial, a, true);
                    }
                }
            }
            println!("step {step}, pass {pass}: agreement {best:.4} (kept out {:.4})", agreement(&w, &test));
            if !improved {
                break;
            }
        }
    }
    println!("fitted: {w:?}");
    println!("score against greedy over {games} games: {:.4}", score(&Weights::from_list(w), 900_000, games));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    match args.get(1).map(String::as_str) {
        Some("record") => {
            let (from, to) = args[3].split_once("..").expect("games as FROM..TO");
            record(&args[2], from.parse().unwrap()..to.parse().unwrap(), &args[4]);
        }
        Some("fit") => fit(args[2].parse().expect("GAMES is a number"), &args[3..]),
        _ => eprintln!("usage: imitate record TEACHER FROM..TO FILE.csv | imitate fit GAMES FILE.csv..."),
    }
}
