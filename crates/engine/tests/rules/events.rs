//! A scenario's events (docs/scenario-format.md#events): reinforcements that arrive at the start of their turn or
//! wait while their entry square is held, timed changes of an objective's points and of an exhaustion point, the
//! option `events = off`, saves across an arrival, and the reader's problems at their lines and columns.

use crate::common::{joker, sq, u};
use pacw_engine::{Action, Battle, Event, Events, Game, Options, Scenario, Side, ToAct};
use rand::{RngExt, SeedableRng};
use std::sync::Arc;

/// The example of docs/scenario-format.md#events: Miller's Ford with Pender's two brigades (units 9 and 10, both
/// entering at d1) due on turn 3, a Union cavalry regiment (unit 11, a8) on turn 4, the Confederate exhaustion point
/// 4 from turn 4 and the hamlet d5 worth 3 points from turn 5.
const EXAMPLE: &str = include_str!("../../../../docs/examples/reinforcements.toml");

fn example() -> Battle {
    Battle::from_scenario(Arc::new(Scenario::parse(EXAMPLE, "reinforcements.toml").unwrap()))
}

/// Ends the activations under way and draws the Joker until the battle stands at the start of `turn` (or is over),
/// returning the events of the last turn's start.
fn to_turn(b: &mut Battle, turn: u8) -> Vec<Event> {
    let mut last = Vec::new();
    while b.turn() < turn && b.result().is_none() {
        match b.to_act() {
            ToAct::Side(_) => last = crate::common::act(b, Action::EndActivations),
            _ => last = joker(b),
        }
    }
    last
}

#[test]
fn the_example_reads_its_groups_and_changes() {
    let s = Scenario::parse(EXAMPLE, "reinforcements.toml").unwrap();
    assert_eq!(s.units.len(), 11, "eight at the start, three reinforcements");
    assert_eq!(s.reinforcements.len(), 2);
    let pender = &s.reinforcements[0];
    assert_eq!((pender.id.as_str(), pender.side, pender.turn), ("pender", Side::B, 3));
    assert_eq!(pender.units().collect::<Vec<_>>(), [u(8), u(9)]);
    assert_eq!(s.reinforcements[1].id, "E2", "a group without an id is numbered");
    assert_eq!(s.units[10].name, "6th Michigan Cavalry");
    assert_eq!(s.changes.len(), 2);
    assert_eq!(s.changes[1].id, "C2");
    // The default exhaustion point counts the reinforcements (R8.1): 5 Union units, 6 Confederate.
    assert_eq!((s.sides[0].exhaustion, s.sides[1].exhaustion), (3, 3));
    assert_eq!((s.units_at_start(Side::A), s.units_at_start(Side::B)), (4, 4));
    assert!(Scenario::ignored_keys(EXAMPLE).is_empty(), "{:?}", Scenario::ignored_keys(EXAMPLE));
}

#[test]
fn reinforcements_are_off_the_board_until_their_turn_then_arrive_at_its_start() {
    let mut b = example();
    let late = [u(8), u(9), u(10)];
    for unit in late {
        assert!(b.is_waiting(unit) && !b.unit(unit).alive, "{unit:?}");
    }
    assert_eq!(b.alive_units().count(), 8);
    assert_eq!(b.initiative_values(), [2, 2], "R3.1 counts the units on the board");
    assert_eq!(b.unit_at(sq("d1")), None);
    assert_eq!(b.destroyed(Side::B), 0, "not arrived is not lost");
    assert_eq!(b.points(), [0, 1], "only d3's holder scores: nobody has lost a unit");
    // Turn 2: nothing yet.
    let events = to_turn(&mut b, 2);
    assert!(!events.iter().any(|e| matches!(e, Event::Arrived { .. })), "{events:?}");
    // Turn 3: Scales's brigade enters d1; Lane's, behind it on the same square, waits.
    let events = to_turn(&mut b, 3);
    let started = events.iter().position(|e| matches!(e, Event::TurnStarted { turn: 3, .. })).unwrap();
    assert_eq!(events[started + 1], Event::Arrived { unit: u(8), at: sq("d1"), group: 0 });
    assert_eq!(events[started + 2], Event::ArrivalDelayed { unit: u(9), at: sq("d1"), by: u(8), group: 0 });
    assert!(matches!(events[started], Event::TurnStarted { iv: [2, 3], .. }), "the arrival counts: {events:?}");
    assert_eq!(b.unit_at(sq("d1")), Some(u(8)));
    assert!(b.unit(u(8)).alive && !b.is_waiting(u(8)) && b.is_waiting(u(9)));
    assert!(b.legal_actions().iter().all(|a| a.target() != Some(u(9))), "a waiting unit cannot be attacked");
    let text = pacw_engine::narrate::event(b.scenario(), &events[started + 1]);
    assert!(text.contains("Reinforcements pender (Pender's Brigades)") && text.contains("arrives at d1"), "{text}");
    let text = pacw_engine::narrate::event(b.scenario(), &events[started + 2]);
    assert!(text.contains("cannot enter at d1, held by") && text.contains("next turn"), "{text}");
    // Turn 4: d1 still held by Scales's brigade, which has not moved: Lane waits again; the cavalry enters a8.
    let events = to_turn(&mut b, 4);
    assert!(events.contains(&Event::ArrivalDelayed { unit: u(9), at: sq("d1"), by: u(8), group: 0 }), "{events:?}");
    assert!(events.contains(&Event::Arrived { unit: u(10), at: sq("a8"), group: 1 }), "{events:?}");
    // Scales's brigade moves off the pike: Lane's enters d1 at the next turn's start.
    while b.to_act() != ToAct::Side(Side::B) || !b.is_legal(Action::Activate(u(8))) {
        match b.to_act() {
            ToAct::Chance(_) => {
                let card = pacw_engine::Card::Side { side: Side::B, value: b.initiative_values()[1] };
                b.apply_chance(pacw_engine::Outcome::Card(card)).unwrap();
            }
            _ => {
                b.apply(Action::EndActivations).unwrap();
            }
        }
    }
    b.apply(Action::Activate(u(8))).unwrap();
    b.apply(Action::Move { to: sq("c1"), facing: pacw_engine::Dir::N }).unwrap();
    let events = to_turn(&mut b, 5);
    assert!(events.contains(&Event::Arrived { unit: u(9), at: sq("d1"), group: 0 }), "{events:?}");
    assert!(b.alive_units().count() == 11);
}

#[test]
fn an_entry_square_held_by_the_enemy_delays_the_arrival_until_it_is_free() {
    // A Union unit stands on the Confederate entry square d1 from the start.
    let text = EXAMPLE.replacen("at = \"d7\"", "at = \"d1\"", 1);
    let mut b = Battle::from_scenario(Arc::new(Scenario::parse(&text, "held.toml").unwrap()));
    let battery = b.unit_at(sq("d1")).unwrap();
    assert_eq!(b.info(battery).side, Side::A);
    let events = to_turn(&mut b, 3);
    assert!(events.contains(&Event::ArrivalDelayed { unit: u(8), at: sq("d1"), by: battery, group: 0 }));
    assert!(events.contains(&Event::ArrivalDelayed { unit: u(9), at: sq("d1"), by: battery, group: 0 }));
    let events = to_turn(&mut b, 4);
    assert!(events.contains(&Event::ArrivalDelayed { unit: u(8), at: sq("d1"), by: battery, group: 0 }));
    assert!(b.is_waiting(u(8)) && b.destroyed(Side::B) == 0);
}

#[test]
fn timed_changes_set_an_objectives_points_and_an_exhaustion_point_from_their_turn() {
    let mut b = example();
    assert_eq!(b.objective_points(0), 2);
    assert_eq!(b.objective_points_at_end(0), 3, "the change of turn 5 counts at the turn limit");
    assert_eq!(b.exhaustion_point(Side::B), 3);
    let events = to_turn(&mut b, 4);
    assert!(events.contains(&Event::Changed { change: 0 }), "{events:?}");
    assert_eq!(b.exhaustion_point(Side::B), 4);
    let line = pacw_engine::narrate::event(b.scenario(), &Event::Changed { change: 0 });
    assert!(line.contains("Event pender-up: Pender is up") && line.contains("exhausted at 4"), "{line}");
    assert_eq!(b.objective_points(0), 2);
    let events = to_turn(&mut b, 5);
    assert!(events.contains(&Event::Changed { change: 1 }), "{events:?}");
    assert_eq!(b.objective_points(0), 3);
    let line = pacw_engine::narrate::event(b.scenario(), &Event::Changed { change: 1 });
    assert!(line.contains("the objective d5 is worth 3 points (C2)"), "{line}");
    to_turn(&mut b, 99);
    let result = b.result().unwrap();
    assert_eq!(result.points, [0, 1], "nobody holds d5, the Confederates d3: {result:?}");
}

/// Blue infantry at b1 facing a grey one at b2, two more grey units behind; grey is exhausted at 2 losses until
/// the change of turn 2 makes it 1.
const CHARGE: &str = r#"
name = "Charge"
turns = 5
[map]
terrain = """
....
....
....
....
"""
[[sides]]
id = "blue"
home = "south"
[[sides]]
id = "grey"
home = "north"
[[units]]
side = "blue"
arm = "infantry"
at = "b1"
[[units]]
side = "grey"
arm = "infantry"
at = "b2"
[[units]]
side = "grey"
arm = "infantry"
at = "d4"
[[units]]
side = "grey"
arm = "infantry"
at = "a4"
[[changes]]
turn = 2
side = "grey"
exhaustion = 1
"#;

#[test]
fn a_change_that_brings_the_exhaustion_point_to_the_losses_ends_the_game_at_the_turns_start() {
    let mut b = Battle::from_scenario(Arc::new(Scenario::parse(CHARGE, "charge.toml").unwrap()));
    assert_eq!(b.exhaustion_point(Side::B), 2);
    crate::common::start(&mut b, u(0));
    crate::common::act(&mut b, Action::Fire { target: u(1), facing: pacw_engine::Dir::N });
    crate::common::roll(&mut b, 6);
    crate::common::roll(&mut b, 6); // a charge's result above the strength: destroyed (R7.1)
    assert_eq!(b.destroyed(Side::B), 1);
    assert!(b.result().is_none(), "one loss of two");
    let events = to_turn(&mut b, 2);
    let result = b.result().expect("exhausted at the turn's start (R8.1)");
    assert_eq!(result.reason, pacw_engine::EndReason::Exhaustion(Side::B));
    assert_eq!(result.winner, Some(Side::A));
    assert!(events.contains(&Event::Changed { change: 0 }), "{events:?}");
}

#[test]
fn with_events_off_nothing_arrives_and_nothing_changes() {
    let s = Arc::new(Scenario::parse(EXAMPLE, "reinforcements.toml").unwrap());
    let mut options = s.options;
    s.set_option(&mut options, "events", "off").unwrap();
    assert_eq!(options.events, Events::Off);
    assert!(s.set_option(&mut options, "events", "sometimes").is_err());
    let mut b = Battle::new(s, options);
    let mut all = Vec::new();
    while b.result().is_none() {
        let next = b.turn() + 1;
        all.extend(to_turn(&mut b, next));
    }
    assert!(
        !all.iter().any(|e| matches!(e, Event::Arrived { .. } | Event::ArrivalDelayed { .. } | Event::Changed { .. }))
    );
    assert!(b.is_waiting(u(8)) && b.destroyed(Side::B) == 0, "never arrived, never lost");
    assert_eq!((b.exhaustion_point(Side::B), b.objective_points(0)), (3, 2));
    // The option is written only when off: a save of a game without events reads as before.
    let json = serde_json::to_string(&Options::default()).unwrap();
    assert!(!json.contains("events"), "{json}");
    assert!(serde_json::to_string(&options).unwrap().contains("\"events\":\"off\""));
}

#[test]
fn a_game_saved_after_an_arrival_replays_and_undoes_across_it() {
    let mut game = Game::new(EXAMPLE, "reinforcements.toml", None, 7).unwrap();
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
    while game.battle().turn() < 5 && game.battle().result().is_none() {
        let legal = game.battle().legal_actions();
        game.act(legal[rng.random_range(0..legal.len())]).unwrap();
    }
    assert!(game.log().iter().any(|e| matches!(e, Event::Arrived { .. })), "an arrival was played");
    let loaded = Game::load(&game.save_json()).unwrap();
    assert_eq!(loaded.log(), game.log());
    assert!(loaded.battle().same_position(game.battle()));
    // Taken back to before the arrival and played again, the same game.
    let arrival = game.log().iter().position(|e| matches!(e, Event::Arrived { .. })).unwrap();
    let before: usize =
        (0..=game.actions().len()).rev().find(|&n| game.undo(game.actions().len() - n).log().len() <= arrival).unwrap();
    let mut again = game.undo(game.actions().len() - before);
    assert!(again.battle().is_waiting(u(8)));
    for &a in &game.actions()[before..] {
        again.act(a).unwrap();
    }
    assert_eq!(again.log(), game.log());
}

/// The example with `find` replaced by `with` (once): its problems, each as (line, column, message).
fn problems_with(find: &str, with: &str) -> Vec<(usize, usize, String)> {
    assert!(EXAMPLE.contains(find), "{find}");
    let text = EXAMPLE.replacen(find, with, 1);
    let e = Scenario::parse(&text, "r.toml").expect_err(with);
    e.problems.into_iter().map(|p| (p.line.unwrap_or(0), p.column.unwrap_or(0), p.message)).collect()
}

/// The line (from 1) and column of `what` in the example with `find` replaced by `with`: its first occurrence from
/// where `with` begins.
fn place_of(find: &str, with: &str, what: &str) -> (usize, usize) {
    let text = EXAMPLE.replacen(find, with, 1);
    let from = text.find(with).unwrap();
    let at = from + text[from..].find(what).unwrap_or_else(|| panic!("{what}"));
    let line = text[..at].matches('\n').count() + 1;
    (line, at - text[..at].rfind('\n').map_or(0, |n| n + 1) + 1)
}

#[test]
fn an_events_problems_are_placed_on_their_key_with_the_event_named() {
    let cases: [(&str, &str, &str, &str); 12] = [
        ("turn = 3", "turn = 1", "1", "reinforcement pender (Pender's Brigades): turn = 1 is the start"),
        ("turn = 3", "turn = 7", "7", "turn = 7 is not a turn of the battle (2 to its 6 turns"),
        (
            "side = \"confederate\"\nturn = 3",
            "side = \"rebels\"\nturn = 3",
            "\"rebels\"",
            "names unknown side 'rebels'",
        ),
        ("at = \"d1\"", "at = \"d9\"", "\"d9\"", "unit 1 (Scales's Brigade): square d9 is off the board (8×8)"),
        ("at = \"a8\"", "at = \"g5\"", "\"g5\"", "6th Michigan Cavalry) at g5: a unit cannot stand on a river"),
        (
            "name = \"Union cavalry\"",
            "id = \"pender\"\nname = \"Union cavalry\"",
            "\"pender\"\nname = \"Union",
            "another event has the id 'pender'",
        ),
        ("id = \"pender-up\"", "id = \"pender up\"", "\"pender up\"", "id 'pender up' must be 1 to 16 letters"),
        ("objective = \"d5\"", "objective = \"e5\"", "\"e5\"", "change C2: no objective at e5 (objectives: d5, d3)"),
        ("points = 3\n\n[options]", "points = 300\n\n[options]", "300", "change C2: points = 300 is out of range"),
        ("exhaustion = 4", "exhaustion = 7", "7", "exhaustion = 7 must be from 1 to the side's number of units, 6"),
        ("side = \"confederate\"\nexhaustion = 4", "exhaustion = 4", "4", "an exhaustion change needs its `side`"),
        (
            "quality = \"veteran\"\nat = \"d1\"",
            "quality = \"veteran\"\nat = \"d1\"\nside = \"union\"",
            "\"union\"",
            "is not its group's side",
        ),
    ];
    for (find, with, at, message) in cases {
        let found = problems_with(find, with);
        let expected = place_of(find, with, at);
        assert!(
            found.iter().any(|(l, c, m)| (*l, *c) == expected && m.contains(message)),
            "{with}: expected '{message}' at {expected:?}, found {found:?}"
        );
    }
}

#[test]
fn a_change_setting_two_things_or_nothing_and_a_group_without_units_are_refused() {
    let found = problems_with("turn = 5\nobjective", "turn = 5\nside = \"union\"\nobjective");
    assert!(found.iter().any(|(_, _, m)| m.contains("sets one thing")), "{found:?}");
    let found = problems_with("turn = 5\nobjective = \"d5\"\npoints = 3", "turn = 5");
    assert!(found.iter().any(|(_, _, m)| m.contains("change C2 sets nothing")), "{found:?}");
    let found =
        problems_with("turn = 5\nobjective = \"d5\"\npoints = 3", "turn = 4\nside = \"confederate\"\nexhaustion = 2");
    assert!(found.iter().any(|(_, _, m)| m.contains("change pender-up already sets the same on turn 4")), "{found:?}");
    let text = format!("{EXAMPLE}\n[[reinforcements]]\nside = \"union\"\nturn = 2\n");
    let e = Scenario::parse(&text, "r.toml").unwrap_err().to_string();
    assert!(e.contains("reinforcement E3 has no units"), "{e}");
}

#[test]
fn the_units_limit_counts_the_reinforcements_and_a_side_needs_units_at_the_start() {
    let mut text = crate::common::ScenarioBuilder::open(26, 26).unit("A inf a1 N").unit("B inf a26 S").toml();
    text += "\n[[reinforcements]]\nside = \"blue\"\nturn = 2\n";
    for i in 0..127 {
        let at = format!("{}{}", (b'a' + (i % 26) as u8) as char, 2 + i / 26);
        text += &format!("[[reinforcements.units]]\narm = \"inf\"\nat = \"{at}\"\n");
    }
    let e = Scenario::parse(&text, "big.toml").unwrap_err();
    let too_many = e.problems.iter().find(|p| p.message.contains("too many units: 129 with the reinforcements'"));
    assert!(too_many.is_some(), "{e}");
    // Only the reinforcements: a side must have a unit at the start.
    let text = EXAMPLE.replace("[[units]]\nside = \"union\"", "[[units]]\nside = \"confederate\"");
    let text = text.replace("at = \"c6\"", "at = \"c7\"").replace("at = \"e6\"", "at = \"e7\"");
    let e = Scenario::parse(&text, "r.toml").unwrap_err().to_string();
    assert!(e.contains("side 'union' has no units on the board at the start"), "{e}");
}

#[test]
fn the_latest_change_up_to_a_turn_holds_whatever_the_files_order() {
    // Points back to 1 from turn 6, written before the change of turn 5.
    let text = EXAMPLE.replace(
        "[[changes]]\nturn = 5",
        "[[changes]]\nturn = 6\nobjective = \"d5\"\npoints = 1\n\n[[changes]]\nturn = 5",
    );
    let s = Scenario::parse(&text, "r.toml").unwrap();
    let points: Vec<u8> = (1..=6).map(|turn| s.objective_points_on(0, turn)).collect();
    assert_eq!(points, [2, 2, 2, 2, 3, 1]);
}
