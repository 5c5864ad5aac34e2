//! The tactics suite (crates/ai/tactics/): every position loads, its best order is legal there, and the computer
//! players are put to it. How many each finds is printed, not asserted: the suite measures the players, and a
//! player missing a position is no failure. Only a malformed position or an illegal best order fails.

use pacw_ai::review::Label;
use pacw_ai::review::search::{after, plans};
use pacw_ai::tactics::{self, Position, plan_text};
use std::path::Path;
use std::time::Instant;

/// The players put to the suite: the strongest level, the tuned greedy, the plain greedy and the network.
const PLAYERS: [&str; 4] = ["general", "veteran", "greedy", "td"];

fn suite() -> Vec<Position> {
    let (positions, errors) = tactics::load_dir(Path::new(tactics::SUITE_DIR));
    let errors: Vec<String> = errors.iter().map(ToString::to_string).collect();
    assert!(errors.is_empty(), "bad positions:\n{}", errors.join("\n"));
    positions
}

#[test]
fn every_position_loads_with_a_legal_best_order_and_the_players_are_counted() {
    let positions = suite();
    assert!(positions.len() >= 20, "the suite has {} positions, at least 20 are wanted", positions.len());
    let mut found = [0usize; PLAYERS.len()];
    let mut flagged = Vec::new();
    for p in &positions {
        let b = p.battle();
        assert!(after(b, &p.best).is_some(), "{}: the best order is not legal", p.id);
        assert!(plans(b).contains(&p.best), "{}: the best order is not one whole order", p.id);
        assert!(p.margin.margin() > 0.0, "{}: the best order must beat the runner-up", p.id);
        let mut line = format!("{:<36}", p.id);
        for (i, name) in PLAYERS.iter().enumerate() {
            let started = Instant::now();
            let plan = tactics::player_choice(p, name, 1).expect("a known player");
            assert!(after(b, &plan).is_some(), "{}: {name} chose an illegal plan {plan:?}", p.id);
            let hit = p.is_best(&plan);
            found[i] += usize::from(hit);
            let mark = if hit { "yes".to_string() } else { format!("no ({})", plan_text(b, &plan)) };
            line += &format!(" {name}: {mark} [{:.1} s]", started.elapsed().as_secs_f32());
        }
        let judged = tactics::review(p).expect("the review judges a position with a side to move");
        if let Some(label) = Label::of(judged.loss) {
            flagged.push(format!("{} ({}, loss {:.3})", p.id, label.name(), judged.loss));
        }
        println!("{line}");
    }
    for (name, n) in PLAYERS.iter().zip(found) {
        println!("{name:<8} finds {n} of {}", positions.len());
    }
    println!("the review flags {} of the best orders: {}", flagged.len(), flagged.join(", "));
}

/// A position of the suite with `edit` made to its text, parsed as a file of the suite's folder.
fn edited(edit: impl Fn(&str) -> String) -> Result<Position, tactics::TacticsError> {
    let dir = Path::new(tactics::SUITE_DIR);
    let first = suite().into_iter().next().expect("the suite has positions");
    let text = std::fs::read_to_string(dir.join(format!("{}.toml", first.id))).expect("readable");
    let beside = |name: &str| std::fs::read_to_string(dir.join(name)).ok();
    Position::parse(&edit(&text), "edited.toml", &beside)
}

#[test]
fn a_malformed_position_is_refused_with_its_reason() {
    let ok = edited(|t| t.to_string());
    assert!(ok.is_ok(), "{ok:?}");
    // (what the message must say, the text replaced, its replacement)
    let cases = [
        ("best order", "\nbest = [", "\nbest = [\"hold\", "),
        ("not a rule", "\nrules = [", "\nrules = [\"R99.9\", "),
        ("is illegal", "decisions = [", "decisions = [\"hold\", "),
        ("no shipped battle", "battle = \"", "battle = \"x"),
        ("seed", "seed = ", "seed = \""),
        ("best above the runner-up", "\nbest = 0.", "\nbest = 0.0001 # "),
    ];
    for (what, from, to) in cases {
        let err = edited(|t| t.replacen(from, to, 1)).expect_err(what);
        assert_eq!(err.file, "edited.toml");
        assert!(err.to_string().contains(what), "expected '{what}' in: {err}");
    }
}

#[test]
fn a_position_cut_short_anywhere_gives_an_error_never_a_panic() {
    let dir = Path::new(tactics::SUITE_DIR);
    let first = suite().into_iter().next().expect("the suite has positions");
    let text = std::fs::read_to_string(dir.join(format!("{}.toml", first.id))).expect("readable");
    let none = |_: &str| None;
    // A cut near the end may leave a good file (a shorter number, a trailing comment gone): only no panic counts.
    let mut refused = 0;
    for cut in (0..text.len()).step_by(13).filter(|&c| text.is_char_boundary(c)) {
        refused += usize::from(Position::parse(&text[..cut], "cut.toml", &none).is_err());
    }
    assert!(refused > text.len() / 13 / 2, "most cuts are refused ({refused})");
}
