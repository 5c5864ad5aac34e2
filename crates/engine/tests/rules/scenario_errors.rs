//! docs/scenario-format.md: every error a scenario must be checked for gives a clear message naming the line and column
//! (where TOML gives one) and the square or unit concerned; all problems are reported together.

use pacw_engine::Problem;
use pacw_engine::Scenario;
use std::ops::RangeInclusive;

/// A valid scenario; every test breaks it in one place. Lines are numbered from 1 at `name`.
const BASE: &str = r#"name = "Errors"
turns = 3

[map]
terrain = """
.....
.....
..~..
.....
"""
elevation = """
00000
00110
00000
00000
"""
roads = """
..#..
..#..
..#..
..#..
"""
fences = ["a1-a2"]

[[sides]]
id = "blue"
name = "Blue"
home = "south"
colour = "red"

[[sides]]
id = "grey"
name = "Grey"
home = "north"
colour = "black"

[[units]]
side = "blue"
name = "Iron Brigade"
arm = "infantry"
quality = "veteran"
at = "b1"
facing = "N"

[[units]]
side = "grey"
name = "Stonewall"
arm = "cavalry"
at = "d4"
facing = "S"

[[objectives]]
at = "c4"
points = 2

[options]
to_hit = 5
"#;

/// The lines of the second `[[sides]]` table.
const GREY_SIDE: RangeInclusive<usize> = 31..=35;

/// The base text with the `n`-th (from 1) occurrence of `from` replaced by `to`.
fn with(text: &str, from: &str, to: &str, n: usize) -> String {
    let (i, _) = text.match_indices(from).nth(n - 1).unwrap_or_else(|| panic!("'{from}' #{n} not in the scenario"));
    format!("{}{}{}", &text[..i], to, &text[i + from.len()..])
}

fn edit(from: &str, to: &str) -> String {
    with(BASE, from, to, 1)
}

/// The 1-based line of the `n`-th line containing `needle`.
fn line_of(text: &str, needle: &str, n: usize) -> usize {
    text.lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .nth(n - 1)
        .map(|(i, _)| i + 1)
        .unwrap_or_else(|| panic!("'{needle}' #{n} not in the text"))
}

fn problems(text: &str) -> Vec<Problem> {
    match Scenario::parse(text, "bad.toml") {
        Ok(_) => panic!("the scenario was accepted:\n{text}"),
        Err(e) => {
            assert_eq!(e.file, "bad.toml");
            // The text form names the file, line and column of each problem.
            let shown = e.to_string();
            for p in &e.problems {
                if let (Some(l), Some(c)) = (p.line, p.column) {
                    assert!(shown.contains(&format!("bad.toml:{l}:{c}: {}", p.message)), "{shown}");
                }
            }
            e.problems
        }
    }
}

/// Asserts that some problem lies on one of `lines` (with a column), at `column` if given, and that its message
/// names every word of `words`. Returns it.
fn expect_at(text: &str, lines: RangeInclusive<usize>, column: Option<usize>, words: &[&str]) -> Problem {
    let all = problems(text);
    let found = all.iter().find(|p| {
        p.line.is_some_and(|l| lines.contains(&l))
            && p.column.is_some()
            && column.is_none_or(|c| p.column == Some(c))
            && words.iter().all(|w| p.message.contains(w))
    });
    match found {
        Some(p) => p.clone(),
        None => panic!("no problem at lines {lines:?} column {column:?} naming {words:?}; got:\n{all:#?}"),
    }
}

fn expect_line(text: &str, line: usize, words: &[&str]) -> Problem {
    expect_at(text, line..=line, None, words)
}

#[test]
fn the_base_scenario_is_valid() {
    let s = Scenario::parse(BASE, "base.toml").unwrap();
    assert_eq!(s.units.len(), 2);
}

// ------------------------------------------------------------------ map layers

#[test]
fn unknown_terrain_character() {
    // Line 7 is the second row from the north of a four-row map: row 3. Its third character is c3.
    let text = with(BASE, ".....", "..X..", 2);
    expect_at(&text, 7..=7, Some(3), &["'X'", "c3"]);
}

#[test]
fn unknown_elevation_character() {
    let text = edit("00110", "00910");
    expect_at(&text, 13..=13, Some(3), &["'9'", "c3", "elevation"]);
    let text = edit("00110", "00a10");
    expect_at(&text, 13..=13, Some(3), &["'a'", "c3", "elevation"]);
}

#[test]
fn unknown_road_character() {
    let text = edit("..#..", "..=..");
    expect_at(&text, 18..=18, Some(3), &["'='", "c4", "road"]);
}

#[test]
fn rows_of_different_lengths() {
    let text = edit("..~..", "..~...");
    let p = expect_line(&text, 8, &["row"]);
    assert!(p.message.contains('6') && p.message.contains('5'), "{}", p.message);
}

#[test]
fn a_layer_whose_shape_differs_from_the_terrain() {
    // The elevation layer has three rows for a four-row terrain.
    let text = with(BASE, "00000\n", "", 3);
    expect_line(&text, 11, &["elevation"]);
    // The road layer has rows one square too short.
    let text = BASE.replace("..#..", "..#.");
    expect_line(&text, 17, &["road"]);
}

#[test]
fn size_outside_4_to_26() {
    let narrow = BASE.replace(".....\n", "...\n").replace("..~..\n", "..~\n");
    let narrow = narrow.replace("00000\n", "000\n").replace("00110\n", "001\n").replace("..#..\n", "..#\n");
    let narrow = narrow.replace("\"d4\"", "\"c4\"").replace("\"c4\"\npoints", "\"a4\"\npoints");
    expect_line(&narrow, 5, &["width", "3", "4 to 26"]);
    let row = ".".repeat(27);
    let wide = BASE.replace(".....\n", &format!("{row}\n")).replace("..~..\n", &format!("..~{}\n", &row[3..]));
    let wide = wide.replace("elevation = \"\"\"\n00000\n00110\n00000\n00000\n\"\"\"\n", "");
    let wide = wide.replace("roads = \"\"\"\n..#..\n..#..\n..#..\n..#..\n\"\"\"\n", "");
    expect_line(&wide, 5, &["width", "27", "4 to 26"]);
    let short = with(BASE, ".....\n", "", 1);
    let short = short.replace("elevation = \"\"\"\n00000\n00110\n00000\n00000\n\"\"\"\n", "");
    let short = short.replace("roads = \"\"\"\n..#..\n..#..\n..#..\n..#..\n\"\"\"\n", "");
    expect_line(&short, 5, &["height", "3", "4 to 26"]);
}

// ------------------------------------------------------------------ squares and fences

#[test]
fn a_square_off_the_board() {
    let text = edit("at = \"b1\"", "at = \"h9\"");
    let line = line_of(&text, "\"h9\"", 1);
    expect_at(&text, line..=line, Some(6), &["h9", "off the board", "Iron Brigade"]);
    let text = edit("at = \"c4\"", "at = \"e5\"");
    let line = line_of(&text, "\"e5\"", 1);
    expect_line(&text, line, &["e5", "off the board", "objective"]);
    let text = edit("\"a1-a2\"", "\"e4-f4\"");
    expect_line(&text, 23, &["f4", "off the board"]);
}

#[test]
fn a_malformed_square_name() {
    let text = edit("at = \"b1\"", "at = \"1b\"");
    let line = line_of(&text, "\"1b\"", 1);
    expect_line(&text, line, &["'1b'", "Iron Brigade"]);
    let text = edit("at = \"c4\"", "at = \"c0\"");
    let line = line_of(&text, "\"c0\"", 1);
    expect_line(&text, line, &["'c0'", "objective"]);
    let text = edit("\"a1-a2\"", "\"a1a2\"");
    expect_line(&text, 23, &["a1a2"]);
    let text = edit("\"a1-a2\"", "\"a1-??\"");
    expect_line(&text, 23, &["??"]);
}

#[test]
fn a_fence_between_squares_that_are_not_adjacent() {
    let text = edit("\"a1-a2\"", "\"a1-b2\"");
    expect_at(&text, 23..=23, None, &["a1", "b2", "adjacent"]);
    let text = edit("\"a1-a2\"", "\"a1-a1\"");
    expect_line(&text, 23, &["a1", "adjacent"]);
}

// ------------------------------------------------------------------ units

#[test]
fn two_units_on_one_square() {
    let text = edit("at = \"d4\"", "at = \"b1\"");
    let line = line_of(&text, "at = \"b1\"", 2);
    expect_line(&text, line, &["b1", "Stonewall"]);
}

#[test]
fn a_unit_on_a_river() {
    let text = edit("at = \"d4\"", "at = \"c2\"");
    let line = line_of(&text, "\"c2\"", 1);
    expect_line(&text, line, &["c2", "river", "Stonewall"]);
}

#[test]
fn a_unit_naming_an_unknown_side() {
    let text = edit("side = \"grey\"", "side = \"gray\"");
    let line = line_of(&text, "\"gray\"", 1);
    expect_line(&text, line, &["gray", "Stonewall"]);
}

#[test]
fn an_objective_naming_an_unknown_side() {
    let text = edit("points = 2", "points = 2\nholder = \"rebels\"");
    let line = line_of(&text, "\"rebels\"", 1);
    expect_line(&text, line, &["rebels", "objective"]);
}

#[test]
fn the_attacker_is_a_side_of_the_scenario() {
    let s = Scenario::parse(&edit("turns = 3", "turns = 3\nattacker = \"grey\""), "a.toml").unwrap();
    assert_eq!(s.attacker, Some(pacw_engine::Side::B));
    assert_eq!(Scenario::parse(BASE, "base.toml").unwrap().attacker, None);
    let text = edit("turns = 3", "turns = 3\nattacker = \"rebels\"");
    expect_line(&text, 3, &["attacker", "rebels", "blue, grey"]);
}

#[test]
fn unknown_arm_quality_or_facing() {
    let text = edit("arm = \"infantry\"", "arm = \"tank\"");
    expect_line(&text, line_of(&text, "\"tank\"", 1), &["tank", "Iron Brigade"]);
    let text = edit("quality = \"veteran\"", "quality = \"elite\"");
    expect_line(&text, line_of(&text, "\"elite\"", 1), &["elite", "Iron Brigade"]);
    let text = edit("facing = \"N\"", "facing = \"NE\"");
    expect_line(&text, line_of(&text, "\"NE\"", 1), &["NE", "Iron Brigade"]);
}

#[test]
fn unknown_option() {
    let text = edit("to_hit = 5", "to_hit = 5\nfog_of_war = true");
    expect_line(&text, line_of(&text, "fog_of_war", 1), &["fog_of_war"]);
}

// ------------------------------------------------------------------ sides

#[test]
fn a_side_with_no_units() {
    let text = edit("side = \"grey\"", "side = \"blue\"").replace("at = \"d4\"", "at = \"d1\"");
    expect_at(&text, GREY_SIDE, None, &["grey", "no units"]);
}

#[test]
fn an_exhaustion_point_below_1_or_above_the_units() {
    for e in [0, 2, -1] {
        let text = edit("colour = \"black\"", &format!("colour = \"black\"\nexhaustion = {e}"));
        let line = line_of(&text, "exhaustion =", 1);
        expect_line(&text, line, &["grey", "exhaustion"]);
    }
}

#[test]
fn not_exactly_two_sides() {
    // Three sides: the third is pointed at.
    let third = "[[sides]]\nid = \"green\"\nname = \"Green\"\nhome = \"east\"\n\n[[units]]";
    let text = edit("[[units]]", third);
    let line = line_of(&text, "id = \"green\"", 1);
    expect_at(&text, line - 1..=line + 2, None, &["two", "3"]);
    // One side: the message says so (there is no line to point at for a side that is missing).
    let one = BASE.replace("[[sides]]\nid = \"grey\"\nname = \"Grey\"\nhome = \"north\"\ncolour = \"black\"\n", "");
    let all = problems(&one);
    assert!(all.iter().any(|p| p.message.contains("two") && p.message.contains('1')), "{all:#?}");
}

#[test]
fn duplicate_side_ids() {
    let text = edit("id = \"grey\"", "id = \"blue\"");
    expect_at(&text, GREY_SIDE, None, &["blue"]);
}

#[test]
fn two_sides_with_the_same_colour_or_home_edge() {
    let text = edit("colour = \"black\"", "colour = \"red\"");
    expect_at(&text, GREY_SIDE, None, &["colour"]);
    let text = edit("home = \"north\"", "home = \"south\"");
    expect_at(&text, GREY_SIDE, None, &["home"]);
}

#[test]
fn a_side_counter_colour_is_a_colour_name_or_hex_and_differs_from_the_other_side() {
    let named = edit("colour = \"black\"", "colour = \"black\"\ncounter = \"DarkSlateGray\"");
    let s = Scenario::parse(&named, "ok.toml").unwrap();
    assert_eq!(s.sides[1].counter.as_str(), "darkslategray");
    assert_eq!(s.sides[0].counter.as_str(), "#2b4c7e", "the first side is blue when none is given");
    let text = edit("colour = \"black\"", "colour = \"black\"\ncounter = \"#12g456\"");
    expect_line(&text, 36, &["counter", "#12g456"]);
    let text = edit("colour = \"black\"", "colour = \"black\"\ncounter = \"#2B4C7E\"");
    expect_at(&text, GREY_SIDE, None, &["same counter colour"]);
}

#[test]
fn turns_below_1() {
    let text = edit("turns = 3", "turns = 0");
    expect_at(&text, 2..=2, Some(9), &["turns", "0"]);
}

#[test]
fn an_option_value_out_of_its_range() {
    for (line, words) in [
        ("to_hit = 7", &["to_hit", "7"][..]),
        ("to_hit = 1", &["to_hit", "1"]),
        ("initiative = \"chess\"", &["initiative", "chess"]),
        ("once_per_turn = \"maybe\"", &["once_per_turn", "maybe"]),
        ("blocked_retreat = \"rout\"", &["blocked_retreat", "rout"]),
        ("pivot_is_move = 3", &["pivot_is_move"]),
        ("move = { infantry = 0 }", &["infantry", "0"]),
        ("range = { artillery = 99 }", &["artillery", "99"]),
        ("move = { cavalry = 27 }", &["cavalry", "27", "1 to 26"]),
    ] {
        let text = edit("to_hit = 5", line);
        expect_line(&text, line_of(&text, line, 1), words);
    }
    // An arm that does not exist in a per-arm table.
    let text = edit("to_hit = 5", "move = { dragoons = 2 }");
    expect_line(&text, line_of(&text, "dragoons", 1), &["dragoons"]);
}

// ------------------------------------------------------------------ all at once

#[test]
fn every_problem_is_reported_at_once() {
    let mut text = edit("turns = 3", "turns = 0");
    text = with(&text, "\"a1-a2\"", "\"a1-c1\"", 1);
    text = with(&text, "arm = \"infantry\"", "arm = \"tank\"", 1);
    text = with(&text, "facing = \"S\"", "facing = \"up\"", 1);
    text = with(&text, "at = \"d4\"", "at = \"c2\"", 1);
    text = with(&text, "colour = \"black\"", "colour = \"red\"", 1);
    text = with(&text, "to_hit = 5", "to_hit = 9\nfog_of_war = true", 1);
    let all = problems(&text);
    let expected: [(usize, &str); 8] = [
        (2, "turns"),
        (23, "a1-c1"),
        (*GREY_SIDE.start(), "colour"),
        (line_of(&text, "\"tank\"", 1), "tank"),
        (line_of(&text, "\"up\"", 1), "up"),
        (line_of(&text, "\"c2\"", 1), "river"),
        (line_of(&text, "to_hit = 9", 1), "to_hit"),
        (line_of(&text, "fog_of_war", 1), "fog_of_war"),
    ];
    for (line, word) in expected {
        let near = if word == "colour" { GREY_SIDE } else { line..=line };
        assert!(
            all.iter()
                .any(|p| p.line.is_some_and(|l| near.contains(&l)) && p.column.is_some() && p.message.contains(word)),
            "no problem naming {word} at line {line}; got:\n{all:#?}"
        );
    }
    assert!(all.len() >= expected.len());
    // In file order.
    let lines: Vec<usize> = all.iter().filter_map(|p| p.line).collect();
    assert!(lines.windows(2).all(|w| w[0] <= w[1]), "{lines:?}");
    // Map problems are reported together with the rest.
    let text = with(&with(BASE, ".....", "..X..", 1), "arm = \"infantry\"", "arm = \"tank\"", 1);
    let all = problems(&text);
    assert!(all.iter().any(|p| p.message.contains("'X'")));
    assert!(all.iter().any(|p| p.message.contains("tank")));
}

// ------------------------------------------------------------------ places, for an editor to mark

#[test]
fn a_problem_names_its_square_and_unit_where_it_has_them() {
    use pacw_engine::Square;
    let square = |s: &str| Some(s.parse::<Square>().unwrap());
    // The second unit on the river at c2: both its index and the square.
    let p = expect_line(&edit("d4", "c2"), line_of(BASE, "d4", 1), &["river"]);
    assert_eq!((p.unit, p.square), (Some(1), square("c2")));
    // A unit whose square is off the board: the unit, and no square to mark.
    let p = expect_line(&edit("d4", "q9"), line_of(BASE, "d4", 1), &["off the board"]);
    assert_eq!((p.unit, p.square), (Some(1), None));
    // A unit with a bad arm still has its square.
    let p = expect_line(&edit("cavalry", "dragoons"), line_of(BASE, "cavalry", 1), &["dragoons"]);
    assert_eq!((p.unit, p.square), (Some(1), square("d4")));
    // A bad map character: its square, no unit.
    let p = expect_at(&with(BASE, ".....", "..X..", 2), 7..=7, Some(3), &["'X'"]);
    assert_eq!((p.unit, p.square), (None, square("c3")));
    // An objective on a square that already has one: the square.
    let text = BASE.replace("points = 2\n", "points = 2\n\n[[objectives]]\nat = \"c4\"\n");
    let p = expect_line(&text, line_of(&text, "at = \"c4\"", 2), &["already has an objective"]);
    assert_eq!((p.unit, p.square), (None, square("c4")));
    // A problem of the whole scenario has neither.
    let p = expect_line(&edit("turns = 3", "turns = 0"), 2, &["turns"]);
    assert_eq!((p.unit, p.square), (None, None));
}

#[test]
fn a_short_map_row_does_not_hide_the_fence_problems_and_missing_things_point_at_a_line() {
    // A terrain row one square short: the map is refused, and its fences are still checked, each in this run.
    let mut text = edit("..~..\n", "..~.\n");
    text = with(&text, "[\"a1-a2\"]", "[\"c3-e4\", \"z9-z10\", \"b1-b2\"]", 1);
    let fences = line_of(&text, "c3-e4", 1);
    expect_line(&text, line_of(&text, "..~.", 1), &["row", "4 squares"]);
    expect_line(&text, fences, &["c3-e4", "not adjacent"]);
    expect_line(&text, fences, &["z9", "off the board"]);
    assert!(!problems(&text).iter().any(|p| p.message.contains("b1-b2")), "a sound fence is no problem");
    // Missing `turns` points at the file's start; one side too few points at the side there is.
    expect_at(&edit("turns = 3\n", ""), 1..=1, Some(1), &["missing `turns`"]);
    let start = line_of(BASE, "[[sides]]", 2);
    let one_side = with(BASE, "[[sides]]\nid = \"grey\"", "[[units_x]]\nid = \"grey\"", 1);
    let p = expect_at(&one_side, 1..=start, None, &["exactly two [[sides]]", "has 1"]);
    assert!(p.line.is_some());
}
