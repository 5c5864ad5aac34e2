//! Bad input never panics (docs/architecture.md): the scenario parser on arbitrary text and on mutated shipped scenarios
//! (every problem placed inside the text), and save loading on arbitrary and mutated saves (never a panic, and a
//! save that loads is a legal game whose decisions replay). Bounded case counts, run by `cargo test`.

use pacw_engine::{Game, SHIPPED_SCENARIOS, Scenario, ToAct};
use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The example of a scenario with events (docs/scenario-format.md#events).
const WITH_EVENTS: &str = include_str!("../../../../docs/examples/reinforcements.toml");

/// The example of variants that combine (docs/variants.md): a battle, its own variant, and a file laid over it.
const SKIRMISH: &str = include_str!("../../../../docs/examples/skirmish.toml");
const SKIRMISHERS: &str = include_str!("../../../../docs/examples/skirmishers.toml");
const FENCES: &str = include_str!("../../../../docs/examples/fences.toml");

/// The battle's own variant with the fences laid over it.
fn skirmishers_with_fences() -> pacw_engine::system::CombatSystem {
    let below = pacw_engine::system::CombatSystem::with_variant(SKIRMISHERS, "skirmishers.toml").unwrap();
    below.with_layer(FENCES, "fences.toml").unwrap()
}

/// Asserts that every problem with a position lies inside `text`: its line exists and its column is at most one
/// past the line's last character.
fn positions_inside(text: &str, problems: &[pacw_engine::Problem]) {
    let lines: Vec<&str> = text.split('\n').collect();
    for p in problems {
        if let (Some(line), Some(column)) = (p.line, p.column) {
            assert!(line >= 1 && line <= lines.len(), "line {line} of {}: {}", lines.len(), p.message);
            let width = lines[line - 1].chars().count();
            assert!(column >= 1 && column <= width + 1, "column {column} of a {width}-character line: {}", p.message);
        }
        assert!(!p.message.is_empty());
    }
}

fn check_text(text: &str) {
    if let Err(e) = Scenario::parse(text, "fuzz.toml") {
        positions_inside(text, &e.problems);
        let _ = e.to_string();
    }
    // The keys nothing reads are placed inside the text too, whatever it is.
    positions_inside(text, &Scenario::ignored_keys(text));
}

/// A shipped scenario with a few random edits: characters replaced, inserted or deleted, lines swapped, numbers
/// changed, multibyte characters and escapes planted.
fn mutate(text: &str, seed: u64) -> String {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut chars: Vec<char> = text.chars().collect();
    const PLANTS: [&str; 10] = ["é", "\\n", "\\u00e9", "\"", "\n", "=", "[", "]]", "\u{1F600}", "\\"];
    for _ in 0..rng.random_range(1..6) {
        if chars.is_empty() {
            break;
        }
        let at = rng.random_range(0..chars.len());
        match rng.random_range(0..5) {
            0 => {
                chars.remove(at);
            }
            1 => {
                let plant = PLANTS[rng.random_range(0..PLANTS.len())];
                for (i, c) in plant.chars().enumerate() {
                    chars.insert(at + i, c);
                }
            }
            2 => chars[at] = char::from(rng.random_range(b' '..=b'~')),
            3 => chars[at] = char::from_digit(rng.random_range(0..10), 10).expect("a digit"),
            _ => {
                let lines: Vec<String> = chars.iter().collect::<String>().split('\n').map(String::from).collect();
                let (i, j) = (rng.random_range(0..lines.len()), rng.random_range(0..lines.len()));
                let mut lines = lines;
                lines.swap(i, j);
                chars = lines.join("\n").chars().collect();
            }
        }
    }
    chars.into_iter().collect()
}

#[test]
fn the_escaped_multibyte_map_that_crashed_the_parser_is_a_plain_error() {
    let text = "name = \"P\"\nturns = 3\n[map]\nterrain = \"\\néé\"\n";
    let e = Scenario::parse(text, "p.toml").unwrap_err();
    positions_inside(text, &e.problems);
    assert!(e.to_string().contains("p.toml"), "{e}");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn any_text_gives_a_scenario_or_placed_problems(text in "\\PC{0,400}") {
        check_text(&text);
    }

    #[test]
    fn toml_like_text_gives_a_scenario_or_placed_problems(
        text in "(name = \"[a-zé]{0,5}\"\n|turns = [0-9]{1,3}\n|\\[map\\]\nterrain = \"\"\"\n[.WTS~F é\\\\n]{0,12}\n\"\"\"\n|\\[map\\]\nterrain = \"(\\\\n|\\\\u00e9|[.é~])*\"\n|\\[\\[sides\\]\\]\nid = \"[ab]\"\nhome = \"(north|south)\"\n|\\[\\[units\\]\\]\nside = \"[ab]\"\narm = \"inf\"\nat = \"[a-e][1-5]\"\n){0,12}"
    ) {
        check_text(&text);
    }

    #[test]
    fn mutated_scenarios_with_events_give_a_scenario_or_placed_problems(seed in any::<u64>()) {
        check_text(&mutate(WITH_EVENTS, seed));
    }

    #[test]
    fn event_tables_of_any_shape_give_a_scenario_or_placed_problems(
        tail in "(\\[\\[reinforcements\\]\\]\n|\\[\\[reinforcements\\.units\\]\\]\n|\\[\\[changes\\]\\]\n|(id|side|name|objective|at|arm) = \"[a-z0-9é -]{0,6}\"\n|(turn|points|exhaustion) = -?[0-9]{1,4}\n|units = \\[\\]\n){0,14}"
    ) {
        check_text(&format!("{WITH_EVENTS}\n{tail}"));
    }

    #[test]
    fn mutated_shipped_scenarios_give_a_scenario_or_placed_problems(which in 0..SHIPPED_SCENARIOS.len(), seed in any::<u64>()) {
        check_text(&mutate(SHIPPED_SCENARIOS[which].text, seed));
    }

    /// A variant file laid over another (docs/variants.md, "Variants that combine"), mutated: read, or refused in
    /// its own file with every problem placed inside it; never a panic, and the rules below unchanged.
    #[test]
    fn mutated_layers_over_a_battle_s_own_variant_are_read_or_refused_in_their_own_file(seed in any::<u64>()) {
        let below = pacw_engine::system::CombatSystem::with_variant(SKIRMISHERS, "skirmishers.toml").unwrap();
        let text = mutate(FENCES, seed);
        match below.with_layer(&text, "fences.toml") {
            Ok(system) => {
                prop_assert_eq!(system.layers().len(), 2);
                let _ = Scenario::parse_with(SKIRMISH, "skirmish.toml", std::sync::Arc::new(system));
            }
            Err(e) => {
                prop_assert_eq!(e.file.as_str(), "fences.toml");
                positions_inside(&text, &e.problems);
            }
        }
        prop_assert!(below.layers().len() == 1 && below.modifier("F1").is_none());
    }
}

/// A short game's save, as JSON: of a shipped battle, or one in four of the battle with events (long enough for its
/// reinforcements to arrive), or one in five of a battle under variants laid together.
fn a_save(seed: u64) -> String {
    let pacw_engine::Shipped { file, text, .. } = match seed % 4 {
        0 => pacw_engine::Shipped { name: "reinforcements", file: "reinforcements.toml", text: WITH_EVENTS },
        _ => SHIPPED_SCENARIOS[(seed % SHIPPED_SCENARIOS.len() as u64) as usize],
    };
    let mut game = match seed % 5 {
        // One in five under variants laid together: the save keeps them as one file.
        1 => {
            let system = std::sync::Arc::new(skirmishers_with_fences());
            let scenario = Scenario::parse_with(SKIRMISH, "skirmish.toml", system).unwrap();
            Game::with_scenario(std::sync::Arc::new(scenario), SKIRMISH, "skirmish.toml", None, seed)
        }
        _ => Game::new(text, file, None, seed).unwrap(),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..rng.random_range(0..120) {
        let ToAct::Side(_) = game.battle().to_act() else { break };
        let legal = game.battle().legal_actions();
        game.act(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    game.save_json()
}

/// Loading must not panic; a loaded game must be legal: its decisions replay from the start to the same events.
fn check_save(json: &str) {
    if let Ok(game) = Game::load(json) {
        let again = Game::load(&game.save_json()).expect("a loaded game saves and loads again");
        assert_eq!(again.log(), game.log());
        let mut fresh = game.undo(game.actions().len());
        for &a in game.actions() {
            fresh.act(a).expect("every decision of a loaded save is legal");
        }
        assert_eq!(fresh.battle(), game.battle());
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    #[test]
    fn any_text_as_a_save_is_refused_or_a_legal_game(text in "\\PC{0,300}") {
        check_save(&text);
    }

    #[test]
    fn mutated_saves_are_refused_or_legal_games(seed in 0..u64::MAX, cut in 0..2000usize, byte in any::<u8>()) {
        let mut json = a_save(seed % 50).into_bytes();
        let at = cut % json.len();
        match seed % 3 {
            0 => json[at] = byte,
            1 => json.truncate(at),
            _ => json.insert(at, byte),
        }
        check_save(&String::from_utf8_lossy(&json));
    }
}
