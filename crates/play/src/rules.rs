//! The rules a game is played by, as a page: the rules of play (docs/rules.md) under a variant's combat system,
//! generated from its data in its own words (docs/variants.md). The server serves it (`/game/{token}/rules`,
//! `/rules/{variant}`); the browser build's desk gives it to the offline app.

use pacw_engine::HitResult;
use pacw_engine::system::condition::Over;
use pacw_engine::system::{AttackerEffect, CombatSystem, Part, RallyNeed};
use pulldown_cmark::{Options, Parser, html};
use std::fmt::Write;

/// The Markdown of the rules of play, as shipped.
pub const RULES_MARKDOWN: &str = include_str!("../../../docs/rules.md");

/// Markdown to HTML, with tables and `{#id}` heading anchors. The text is the project's own, not a user's.
pub fn markdown_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

/// Text of a variant's (its author's, perhaps uploaded) as Markdown that shows it as written: every character
/// that HTML or Markdown would read as markup is written as its entity.
pub fn literal(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' | '<' | '>' | '"' | '\'' | '|' | '*' | '_' | '`' | '[' | ']' | '\\' | '#' | '~' | '!' => {
                out.push_str(&format!("&#{};", c as u32));
            }
            '\n' | '\r' | '\t' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

/// Which file wrote each rule, for the tables of [`rules_markdown`]: a last column, `from`, when variant files are
/// laid together (docs/variants.md, "Variants that combine"); nothing for one variant, whose every rule is its own
/// or the standard's.
struct Provenance<'a> {
    system: &'a CombatSystem,
    layered: bool,
}

impl Provenance<'_> {
    /// The column's header and its line under it, after a table's own.
    fn head(&self) -> &'static str {
        if self.layered { " from |\n" } else { "\n" }
    }

    /// The column's part of the line under a table's header.
    fn line(&self) -> &'static str {
        if self.layered { "---|" } else { "" }
    }

    /// The file that wrote the rule `id` of `part` last, or `standard`, when files are laid together.
    fn file(&self, part: Part, id: &str) -> Option<String> {
        self.layered.then(|| literal(self.system.written_by(part, id).map_or("standard", |l| l.file.as_str())))
    }

    /// The column's cell for the rule `id` of `part`.
    fn cell(&self, part: Part, id: &str) -> String {
        self.file(part, id).map_or_else(String::new, |file| format!(" {file} |"))
    }
}

/// The rules of play under `system`, as Markdown: its modifiers, arms, hit results and words, generated from its data
/// in its own terms, above the rules of play (whose sections they replace where they differ). Variant files laid
/// together are listed in order, and each rule says which of them wrote it last.
pub fn rules_markdown(system: &CombatSystem) -> String {
    let terms = system.terms();
    let from = Provenance { system, layered: system.layers().len() > 1 };
    let effect = |e: HitResult| match e {
        HitResult::NoEffect => "no effect".to_string(),
        HitResult::Shaken => literal(&terms.shaken),
        HitResult::Retreat => literal(&terms.retreat),
        HitResult::Destroyed => literal(&terms.destroyed),
    };
    let mut md = String::new();
    let _ = writeln!(md, "# The rules of this game {{#this-game}}\n");
    let _ = writeln!(md, "Played by the variant **{}**: {}\n", literal(&system.name), literal(&system.description));
    let _ = writeln!(
        md,
        "The tables below are this game's combat system, generated from the variant. Where they differ from the rules \
         of play further down, they are what the game plays. [The standard rules alone](/rules).\n"
    );
    if from.layered {
        let files: Vec<String> =
            system.layers().iter().map(|l| format!("**{}** ({})", literal(&l.file), literal(&l.name))).collect();
        let _ = writeln!(
            md,
            "Its variant files, each laid over the ones before it: {}. The last column of each table says which \
             file wrote the rule last (`standard`: as the standard rules have it).\n",
            files.join(", then ")
        );
    }
    let _ = writeln!(md, "## To-hit modifiers (R6.4) {{#this-game-modifiers}}\n");
    let _ = writeln!(md, "Each adds its value to the to-hit roll when its condition holds.\n");
    let _ = writeln!(md, "| id | rule | modifier | value | when |{}|---|---|---|---|---|{}", from.head(), from.line());
    for m in system.modifiers() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:+} | <code>{}</code> |{}",
            literal(&m.id),
            literal(&m.rule),
            literal(&m.name),
            m.value,
            literal(&m.when_text),
            from.cell(Part::Modifier, &m.id)
        );
    }
    let _ = writeln!(md, "\n## Arms (R2.2, R2.6) {{#this-game-arms}}\n");
    let _ = writeln!(
        md,
        "| arm | name | moves and is fired at as | strength | move | range |{}|---|---|---|---|---|---|{}",
        from.head(),
        from.line()
    );
    for a in system.arms() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |{}",
            literal(&a.id),
            literal(&a.name),
            a.like.name(),
            a.strength,
            a.movement,
            a.range,
            from.cell(Part::Arm, &a.id)
        );
    }
    let _ = writeln!(md, "\n## Hit results (R7.1) {{#this-game-results}}\n");
    let _ = writeln!(
        md,
        "After a hit, the hit-result roll against the target's strength decides.\n\n\
         | the target is | hit by | roll at most its strength | roll above its strength |{}|---|---|---|---|{}",
        from.head(),
        from.line()
    );
    let t = system.results();
    for (steady, by, (row, [held, broke])) in [
        (true, &terms.fire, ("steady_fire", t.steady_fire)),
        (true, &terms.charge, ("steady_charge", t.steady_charge)),
        (false, &terms.fire, ("shaken_fire", t.shaken_fire)),
        (false, &terms.charge, ("shaken_charge", t.shaken_charge)),
    ] {
        let state = if steady { "steady".to_string() } else { literal(&terms.shaken) };
        let by = literal(by);
        let _ =
            writeln!(md, "| {state} | {by} | {} | {} |{}", effect(held), effect(broke), from.cell(Part::Result, row));
    }
    if !system.after_attack().is_empty() {
        let _ = writeln!(md, "\n## What an attack does to the attacker {{#this-game-after-attack}}\n");
        let _ = writeln!(
            md,
            "After the dice, each rule whose condition holds (over the attack and its result) befalls the attacker, \
             in this order; an advance is into the square a charged target left.\n\n\
             | id | rule | when | the attacker |{}|---|---|---|---|{}",
            from.head(),
            from.line()
        );
        for r in system.after_attack() {
            let what = match r.effect {
                AttackerEffect::Shaken => format!("is {}", literal(&terms.shaken)),
                AttackerEffect::Destroyed => format!("is {}", literal(&terms.destroyed)),
                AttackerEffect::Advance => "advances into the target's square".to_string(),
            };
            let _ = writeln!(
                md,
                "| {} | {} | <code>{}</code> | {what} |{}",
                literal(&r.id),
                literal(&r.name),
                literal(&r.when_text),
                from.cell(Part::AfterAttack, &r.id)
            );
        }
    }
    if !system.result_modifiers().is_empty() {
        let _ = writeln!(md, "\n## Hit-result modifiers (R7.1) {{#this-game-result-modifiers}}\n");
        let _ = writeln!(
            md,
            "Each adds its value to the strength a hit target's roll is tested against when its condition holds.\n\n\
             | id | modifier | value | when |{}|---|---|---|---|{}",
            from.head(),
            from.line()
        );
        for m in system.result_modifiers() {
            let (id, name, when) = (literal(&m.id), literal(&m.name), literal(&m.when_text));
            let file = from.cell(Part::ResultModifier, &m.id);
            let _ = writeln!(md, "| {id} | {name} | {:+} | <code>{when}</code> |{file}", m.value);
        }
    }
    if !system.restrictions().is_empty() {
        let _ = writeln!(md, "\n## Orders forbidden {{#this-game-restrictions}}\n");
        let over_orders: Vec<&str> =
            system.restrictions().iter().filter(|r| r.over == Over::Order).map(|r| r.id.as_str()).collect();
        let orders = if over_orders.is_empty() {
            String::new()
        } else {
            format!(
                " An order whose condition holds (over the order and the unit given it: `order`, `closer`, \
                 `squares` …) may not be given either: {} of these forbid orders.",
                literal(&over_orders.join(", "))
            )
        };
        let _ = writeln!(
            md,
            "An attack whose condition holds (over the attack, before its dice) may not be ordered.{orders}\n\n\
             | id | restriction | when |{}|---|---|---|{}",
            from.head(),
            from.line()
        );
        for r in system.restrictions() {
            let (id, name, when) = (literal(&r.id), literal(&r.name), literal(&r.when_text));
            let _ = writeln!(md, "| {id} | {name} | <code>{when}</code> |{}", from.cell(Part::Restriction, &r.id));
        }
    }
    if let Some(rally) = system.rally() {
        let shaken = literal(&terms.shaken);
        let needed = match rally.needed {
            RallyNeed::AtLeast(n) => format!("a D6 of {n} or more, each modifier added to the roll"),
            RallyNeed::Strength => "a D6 at most its strength, each modifier added to the strength".to_string(),
        };
        let _ = writeln!(
            md,
            "
## Rally (R4.1) {{#this-game-rally}}
"
        );
        let _ = writeln!(
            md,
            "**{} {}**{}: a {shaken} unit does not rally as it is activated. It rolls to rally at once, needing \
             {needed}; it rallies if the roll passes, else it stays {shaken}. Either way it is then given its order.
",
            literal(&rally.id),
            literal(&rally.name),
            from.file(Part::Rally, &rally.id).map_or_else(String::new, |file| format!(" (from {file})"))
        );
        if !system.rally_modifiers().is_empty() {
            let _ = writeln!(md, "| id | modifier | value | when |{}|---|---|---|---|{}", from.head(), from.line());
            for m in system.rally_modifiers() {
                let (id, name, when) = (literal(&m.id), literal(&m.name), literal(&m.when_text));
                let file = from.cell(Part::RallyModifier, &m.id);
                let _ = writeln!(md, "| {id} | {name} | {:+} | <code>{when}</code> |{file}", m.value);
            }
        }
    }
    let standard = CombatSystem::standard();
    let terrain = system.terrain_rules();
    if terrain != standard.terrain_rules() {
        let _ = writeln!(md, "\n## Terrain and movement (R1.5, R1.6) {{#this-game-terrain}}\n");
        let _ = writeln!(
            md,
            "Each terrain's letter in maps, what entering it costs a move, and whether it gives cover and blocks \
             line of sight through it. A Move order entirely along a road goes {} square{} further.\n\n\
             | terrain | letter | movement | cover | blocks sight |{}|---|---|---|---|---|{}",
            terrain.road_bonus(),
            if terrain.road_bonus() == 1 { "" } else { "s" },
            from.head(),
            from.line()
        );
        let yes = |b: bool| if b { "yes" } else { "no" };
        for k in terrain.kinds() {
            let mut movement = k.entry.describe();
            for (arm, entry) in &k.by_arm {
                movement += &format!("; {}: {}", literal(arm), entry.describe());
            }
            let _ = writeln!(
                md,
                "| {} | <code>{}</code> | {movement} | {} | {} |{}",
                literal(&k.name),
                literal(&k.letter.to_string()),
                yes(k.cover),
                yes(k.blocks_sight),
                from.cell(Part::Terrain, &k.id)
            );
        }
    }
    let renamed: Vec<String> = terms
        .entries()
        .iter()
        .zip(standard.terms().entries())
        .filter(|((_, now), (_, was))| now != was)
        .map(|((_, now), (_, was))| format!("“{}” is called “{}”", literal(was), literal(now)))
        .collect();
    if !renamed.is_empty() {
        let _ = writeln!(md, "\n## Words {{#this-game-words}}\n\nIn this game {}.", renamed.join("; "));
    }
    let _ = writeln!(md, "\n---\n");
    md.push_str(RULES_MARKDOWN);
    md
}

/// The title of the rules a game played by `system` is played by.
pub fn rules_title(system: &CombatSystem) -> String {
    format!("The rules of this game: {}", system.name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headings_keep_their_rule_anchors_and_tables_render() {
        let html = markdown_html(&format!("{}\n\n| a | b |\n|---|---|\n| 1 | 2 |\n", "### R6.4 To hit {#R6.4}"));
        assert!(html.contains("<h3 id=\"R6.4\">R6.4 To hit</h3>"), "{html}");
        assert!(html.contains("<table>"), "{html}");
    }

    #[test]
    fn a_variants_own_words_are_shown_as_written() {
        assert_eq!(literal("<b>|*x*"), "&#60;b&#62;&#124;&#42;x&#42;");
        let md = rules_markdown(&CombatSystem::standard());
        assert!(md.starts_with("# The rules of this game") && md.ends_with(RULES_MARKDOWN));
        assert!(!md.contains("this-game-rally"), "the standard rules rally on activation");
    }

    #[test]
    fn a_rally_roll_is_shown_with_its_id_and_its_modifiers() {
        let text = "name = \"Four\"\n[rally]\nid = \"MR1\"\nname = \"rally test\"\nneeded = 4\n\
                    [[rally_modifiers]]\nid = \"R1\"\nname = \"veterans\"\nvalue = 1\nwhen = \"unit.quality == 'veteran'\"\n";
        let md = rules_markdown(&CombatSystem::with_variant(text, "four.toml").unwrap());
        assert!(md.contains("**MR1 rally test**") && md.contains("a D6 of 4 or more"), "{md}");
        assert!(md.contains("| R1 | veterans | +1 | <code>unit.quality == &#39;veteran&#39;</code> |"), "{md}");
        // The paragraph reads as one: single spaces where its literal goes on to the next line.
        let own = md.strip_suffix(RULES_MARKDOWN).expect("the rules follow");
        assert!(own.contains("each modifier added to the roll; it rallies if the roll passes"), "{own}");
        assert!(!own.contains("  "), "{own}");
    }

    #[test]
    fn a_variants_terrain_is_a_table_of_the_page_and_the_views_list_it() {
        let text = "name = \"Swamps\"\n[[terrain]]\nid = \"swamp\"\nletter = \"M\"\nmove = \"stop\"\n\
                    [[terrain]]\nid = \"woods\"\nmove = 2\nmove_by_arm = { cavalry = \"stop\" }\n";
        let system = CombatSystem::with_variant(text, "swamps.toml").unwrap();
        let md = rules_markdown(&system);
        assert!(md.contains("## Terrain and movement (R1.5, R1.6)"), "{md}");
        assert!(md.contains("| swamp | <code>M</code> | entering ends the move | no | no |"), "{md}");
        assert!(md.contains(
            "| woods | <code>W</code> | costs 2 squares of a move; cavalry: entering ends the move | yes | yes |"
        ));
        assert!(
            !rules_markdown(&CombatSystem::standard()).contains("{#this-game-terrain}"),
            "the standard says nothing"
        );
        // The scenario's view names a square's terrain by its id and lists the kinds of the rules in force.
        let battle = pacw_engine::DEFAULT_SCENARIO.replacen("\n.", "\nM", 1);
        let s = pacw_engine::Scenario::parse_with(&battle, "m.toml", std::sync::Arc::new(system)).unwrap();
        let view = crate::view::scenario_view("m", &s);
        assert!(view.map.squares.iter().any(|q| q.terrain == "swamp"));
        let swamp = view.map.terrains.iter().find(|k| k.id == "swamp").unwrap();
        assert_eq!((swamp.letter, swamp.movement.as_str(), swamp.cover), ('M', "entering ends the move", false));
    }

    #[test]
    fn after_attack_rules_and_hit_result_modifiers_are_tables_of_the_page() {
        let text = "name = \"Bloody\"\n[[after_attack]]\nid = \"A1\"\nname = \"failed charge\"\n\
                    when = \"charge and result == 'miss'\"\nattacker = \"shaken\"\n[[after_attack]]\nid = \"A2\"\n\
                    name = \"charge home\"\nwhen = \"charge and result == 'destroyed'\"\nattacker = \"advance\"\n\
                    [[result_modifiers]]\nid = \"H1\"\nname = \"veterans in cover stand firm\"\nvalue = 1\n\
                    when = \"target.quality == 'veteran' and target.cover\"\n";
        let md = rules_markdown(&CombatSystem::with_variant(text, "bloody.toml").unwrap());
        assert!(md.contains("## What an attack does to the attacker {#this-game-after-attack}"), "{md}");
        let failed = "| A1 | failed charge | <code>charge and result == &#39;miss&#39;</code> | is shaken |";
        assert!(md.contains(failed), "{md}");
        assert!(md.contains("| A2 | charge home |") && md.contains("| advances into the target's square |"), "{md}");
        assert!(md.contains("## Hit-result modifiers (R7.1) {#this-game-result-modifiers}"), "{md}");
        assert!(
            md.contains("| H1 | veterans in cover stand firm | +1 | <code>target.quality == &#39;veteran&#39; and")
        );
        let standard = rules_markdown(&CombatSystem::standard());
        assert!(!standard.contains("this-game-after-attack") && !standard.contains("this-game-result-modifiers"));
    }

    #[test]
    fn restrictions_on_orders_are_listed_with_those_on_attacks_and_said_to_forbid_orders() {
        let text = "name = \"Shaken\"\n[[restrictions]]\nid = \"M1\"\nname = \"no charge\"\nwhen = \"charge\"\n\
                    [[restrictions]]\nid = \"M3\"\nname = \"shaken troops will not advance\"\n\
                    when = \"unit.shaken and closer\"\n";
        let md = rules_markdown(&CombatSystem::with_variant(text, "shaken.toml").unwrap());
        for said in [
            "| M1 | no charge | <code>charge</code> |",
            "| M3 | shaken troops will not advance | <code>unit.shaken and closer</code> |",
            "may not be given either: M3 of these forbid orders.",
        ] {
            assert!(md.contains(said), "{said}\n{md}");
        }
        let attacks_only = rules_markdown(&CombatSystem::with_variant(MINE, "mine.toml").unwrap());
        assert!(!attacks_only.contains("forbid orders"), "{attacks_only}");
    }

    /// A layer of the player's own over close combat: a to-hit modifier and a restriction.
    const MINE: &str = "name = \"Smoke\"\n[[modifiers]]\nid = \"S1\"\nname = \"smoke\"\nvalue = -1\nwhen = \"not charge\"\n\
                        [[restrictions]]\nid = \"M1\"\nname = \"no charge\"\nwhen = \"charge\"\n";

    fn close_combat() -> CombatSystem {
        let shipped = pacw_engine::SHIPPED_VARIANTS.iter().find(|v| v.name == "close-combat").unwrap();
        CombatSystem::with_variant(shipped.text, shipped.file).unwrap()
    }

    #[test]
    fn variant_files_laid_together_are_listed_and_each_rule_says_which_wrote_it() {
        let both = close_combat().with_layer(MINE, "mine.toml").unwrap();
        let md = rules_markdown(&both);
        assert!(md.contains("**close-combat.toml** (Close combat), then **mine.toml** (Smoke)"), "{md}");
        for row in [
            "| S1 | S1 | smoke | -1 | <code>not charge</code> | mine.toml |",
            "| V1 | V1 | veteran élan | +1 |",
            "| M1 | no charge | <code>charge</code> | mine.toml |",
            "| steady | fire | no effect | shaken | close-combat.toml |",
            "| steady | close combat | retreat | destroyed | standard |",
            "| infantry | Infantry | infantry | 4 | 1 | 2 | standard |",
        ] {
            assert!(md.contains(row), "{row}\n{md}");
        }
        assert!(md.lines().any(|l| l.starts_with("| V1 |") && l.ends_with("| close-combat.toml |")), "{md}");
        let html = markdown_html(&md);
        assert_eq!(html.matches("<th>from</th>").count(), 4, "to-hit, arms, hit results, restrictions: {html}");
        // One variant alone: its rules are its own or the standard's, and nothing says so.
        let one = rules_markdown(&close_combat());
        assert!(
            !one.contains("| from |") && !one.contains("Its variant files") && !one.contains("| standard |"),
            "{one}"
        );
    }

    #[test]
    fn the_views_rules_name_their_files_in_order_and_the_file_of_each_rule() {
        let both = std::sync::Arc::new(close_combat().with_layer(MINE, "mine.toml").unwrap());
        let s = pacw_engine::Scenario::parse_with(pacw_engine::DEFAULT_SCENARIO, "m.toml", both).unwrap();
        let rules = crate::view::scenario_view("m", &s).rules.unwrap();
        let files: Vec<&str> = rules.layers.iter().map(|l| l["file"].as_str().unwrap()).collect();
        assert_eq!(files, ["close-combat.toml", "mine.toml"]);
        assert_eq!(rules.layers[1]["name"], "Smoke");
        let from = |list: &[serde_json::Value], id: &str| list.iter().find(|r| r["id"] == id).unwrap()["from"].clone();
        assert_eq!(from(&rules.modifiers, "S1"), "mine.toml");
        assert_eq!(from(&rules.modifiers, "V1"), "close-combat.toml");
        assert_eq!(from(&rules.modifiers, "cover"), "standard");
        assert_eq!(from(&rules.restrictions, "M1"), "mine.toml");
        assert_eq!(rules.from["results"]["steady_fire"], "close-combat.toml");
        assert_eq!(rules.from["results"]["steady_charge"], "standard");
        assert_eq!(rules.from["terms"]["charge"], "close-combat.toml");
        let json = serde_json::to_value(&rules).unwrap();
        assert_eq!(json["layers"][0]["file"], "close-combat.toml", "{json}");
        // One variant: one file.
        let one = pacw_engine::Scenario::parse_with(
            pacw_engine::DEFAULT_SCENARIO,
            "m.toml",
            std::sync::Arc::new(close_combat()),
        )
        .unwrap();
        assert_eq!(crate::view::scenario_view("m", &one).rules.unwrap().layers.len(), 1);
    }
}
