//! The reading pages: the rules of play (`/rules`), the first-game guide (`/guide`), the scenario format
//! (`/format`) and how to read a game's review (`/review`), rendered once from the project's Markdown in `docs/` into
//! the site's page. Every heading keeps its `{#id}` anchor, so `/rules#R6.4` opens rule R6.4.
//!
//! A game played by a variant has its own rules page (`/game/{token}/rules`, and `/rules/{variant}` for a shipped
//! one): the variant's combat system generated from its data in the game's words, above the rules of play.

use crate::api::AppState;
use crate::error::ApiResult;
use axum::extract::{Path, State};
use axum::http::header;
use axum::response::{IntoResponse, Response};
use pacw_engine::system::CombatSystem;
use pacw_engine::system::{AttackerEffect, Effect};
use pulldown_cmark::{Options, Parser, html};
use std::sync::OnceLock;

/// A reading page: its path, title and Markdown.
struct Page {
    path: &'static str,
    title: &'static str,
    markdown: &'static str,
}

const PAGES: [Page; 4] = [
    Page { path: "rules", title: "The rules of play", markdown: include_str!("../../../docs/rules.md") },
    Page { path: "guide", title: "Your first game", markdown: include_str!("../../../docs/guide.md") },
    Page { path: "format", title: "Writing a scenario", markdown: include_str!("../../../docs/scenario-format.md") },
    Page { path: "review", title: "Reading a review", markdown: include_str!("../../../docs/review.md") },
];

/// The Markdown of the rules of play, as shipped.
pub const RULES_MARKDOWN: &str = PAGES[0].markdown;

/// Markdown to HTML, with tables and `{#id}` heading anchors. The text is the project's own, not a user's.
pub fn markdown_html(markdown: &str) -> String {
    let options = Options::ENABLE_TABLES | Options::ENABLE_HEADING_ATTRIBUTES;
    let mut out = String::with_capacity(markdown.len() * 2);
    html::push_html(&mut out, Parser::new_ext(markdown, options));
    out
}

fn render(page: &Page) -> String {
    render_html(page.path, page.title, &markdown_html(page.markdown))
}

/// The site's icon, as the app's page has it (else the browser asks for a /favicon.ico there is not).
const ICON: &str = "<link rel=\"icon\" href=\"data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' \
                    viewBox='0 0 16 16'%3E%3Crect width='16' height='16' rx='3' fill='%232b4c7e'/%3E%3Cpath d='M3 \
                    3l10 10M13 3L3 13' stroke='white' stroke-width='2'/%3E%3C/svg%3E\">";

/// The site's reading page around `body` (HTML), with the reading pages' links, `current` marked.
fn render_html(current: &str, title: &str, body: &str) -> String {
    let nav: String = PAGES
        .iter()
        .map(|p| {
            let current = if p.path == current { " aria-current=\"page\"" } else { "" };
            // reading.js leads the page's rule ids where this link leads.
            let class = if p.path == "rules" { " class=\"rules-link\"" } else { "" };
            format!("<a href=\"/{}\"{class}{current}>{}</a>", p.path, p.title)
        })
        .collect::<Vec<_>>()
        .join(" · ");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title} — pacw</title>\n\
         <link rel=\"stylesheet\" href=\"/css/style.css\">\n<script src=\"/js/theme.js\"></script>\n{ICON}\n</head>\n<body>\n\
         <header class=\"top\"><a class=\"brand\" href=\"/\">pacw</a><nav class=\"reading-nav\">{nav} · <a href=\"/\">Lobby</a></nav></header>\n\
         <main class=\"reading\" id=\"reading\">\n{body}</main>\n<script type=\"module\" src=\"/js/reading.js\"></script>\n</body>\n</html>\n",
        title = text(title),
    )
}

/// The page at `path` (`rules`, `guide`, `format` or `review`, rendered once; `rules/{variant}` for a shipped
/// variant's rules).
pub fn page(path: &str) -> Option<Response> {
    page_html(path).map(html_reply)
}

/// The HTML of the page at `path`, as [`page`] serves it.
pub fn page_html(path: &str) -> Option<String> {
    if let Some(name) = path.strip_prefix("rules/") {
        let pacw_engine::Shipped { file, text: source, .. } =
            pacw_engine::shipped_named(pacw_engine::SHIPPED_VARIANTS.iter().copied(), name)?;
        let system = CombatSystem::with_variant(source, file).ok()?;
        return Some(rules_under(&system));
    }
    let i = PAGES.iter().position(|p| p.path == path)?;
    Some(rendered(i).to_string())
}

/// The paths of every reading page (the shipped variants' rules too): what the static build writes.
pub fn page_paths() -> Vec<String> {
    let variants = pacw_engine::SHIPPED_VARIANTS.iter().map(|v| format!("rules/{}", v.name));
    PAGES.iter().map(|p| p.path.to_string()).chain(variants).collect()
}

/// The reading page `PAGES[i]`, rendered the first time it is asked for.
fn rendered(i: usize) -> &'static str {
    static RENDERED: OnceLock<Vec<String>> = OnceLock::new();
    &RENDERED.get_or_init(|| PAGES.iter().map(render).collect())[i]
}

fn html_reply(html: String) -> Response {
    let headers = [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")];
    (headers, html).into_response()
}

/// `GET /game/{token}/rules`: the rules this game is played by (the rules of play, under a variant's tables when
/// it has one).
///
/// # Errors
/// When the token opens no game (404, or 410 for a game put away), or the game cannot be loaded from the database
/// (500).
pub async fn game_rules(State(games): State<AppState>, Path(token): Path<String>) -> ApiResult<Response> {
    let (entry, _) = games.by_token(&token)?;
    let system = games.combat_system(&entry)?;
    Ok(html_reply(if *system == CombatSystem::standard() { rendered(0).to_string() } else { rules_under(&system) }))
}

/// Text of a variant's (its author's, perhaps uploaded) as Markdown that shows it as written: every character
/// that HTML or Markdown would read as markup is written as its entity.
fn text(s: &str) -> String {
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

/// The rules of play under `system`: its modifiers, arms, hit results and words, generated from its data in its
/// own terms, above the rules of play (whose sections they replace where they differ).
pub fn rules_under(system: &CombatSystem) -> String {
    use std::fmt::Write;
    let terms = system.terms();
    let effect = |e: Effect| match e {
        Effect::NoEffect => "no effect".to_string(),
        Effect::Shaken => text(&terms.shaken),
        Effect::Retreat => text(&terms.retreat),
        Effect::Destroyed => text(&terms.destroyed),
    };
    let mut md = String::new();
    let _ = writeln!(md, "# The rules of this game {{#this-game}}\n");
    let _ = writeln!(md, "Played by the variant **{}**: {}\n", text(&system.name), text(&system.description));
    let _ = writeln!(
        md,
        "The tables below are this game's combat system, generated from the variant. Where they differ from the rules \
         of play further down, they are what the game plays. [The standard rules alone](/rules).\n"
    );
    let _ = writeln!(md, "## To-hit modifiers (R6.4) {{#this-game-modifiers}}\n");
    let _ = writeln!(md, "Each adds its value to the to-hit roll when its condition holds.\n");
    let _ = writeln!(md, "| id | rule | modifier | value | when |\n|---|---|---|---|---|");
    for m in system.modifiers() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {:+} | <code>{}</code> |",
            text(&m.id),
            text(&m.rule),
            text(&m.name),
            m.value,
            text(&m.when_text)
        );
    }
    let _ = writeln!(md, "\n## Arms (R2.2, R2.6) {{#this-game-arms}}\n");
    let _ =
        writeln!(md, "| arm | name | moves and is fired at as | strength | move | range |\n|---|---|---|---|---|---|");
    for a in system.arms() {
        let _ = writeln!(
            md,
            "| {} | {} | {} | {} | {} | {} |",
            text(&a.id),
            text(&a.name),
            a.like.name(),
            a.strength,
            a.movement,
            a.range
        );
    }
    let _ = writeln!(md, "\n## Hit results (R7.1) {{#this-game-results}}\n");
    let _ = writeln!(
        md,
        "After a hit, the hit-result roll against the target's strength decides.\n\n\
         | the target is | hit by | roll at most its strength | roll above its strength |\n|---|---|---|---|"
    );
    let t = system.results();
    for (steady, by, [held, broke]) in [
        (true, &terms.fire, t.steady_fire),
        (true, &terms.charge, t.steady_charge),
        (false, &terms.fire, t.shaken_fire),
        (false, &terms.charge, t.shaken_charge),
    ] {
        let state = if steady { "steady".to_string() } else { text(&terms.shaken) };
        let _ = writeln!(md, "| {state} | {} | {} | {} |", text(by), effect(held), effect(broke));
    }
    if !system.after_attack().is_empty() {
        let _ = writeln!(md, "\n## What an attack does to the attacker {{#this-game-after-attack}}\n");
        let _ = writeln!(
            md,
            "After the dice, each rule whose condition holds (over the attack and its result) befalls the attacker, \
             in this order; an advance is into the square a charged target left.\n\n\
             | id | rule | when | the attacker |\n|---|---|---|---|"
        );
        for r in system.after_attack() {
            let what = match r.effect {
                AttackerEffect::Shaken => format!("is {}", text(&terms.shaken)),
                AttackerEffect::Destroyed => format!("is {}", text(&terms.destroyed)),
                AttackerEffect::Advance => "advances into the target's square".to_string(),
            };
            let _ =
                writeln!(md, "| {} | {} | <code>{}</code> | {what} |", text(&r.id), text(&r.name), text(&r.when_text));
        }
    }
    if !system.result_modifiers().is_empty() {
        let _ = writeln!(md, "\n## Hit-result modifiers (R7.1) {{#this-game-result-modifiers}}\n");
        let _ = writeln!(
            md,
            "Each adds its value to the strength a hit target's roll is tested against when its condition holds.\n\n\
             | id | modifier | value | when |\n|---|---|---|---|"
        );
        for m in system.result_modifiers() {
            let (id, name, when) = (text(&m.id), text(&m.name), text(&m.when_text));
            let _ = writeln!(md, "| {id} | {name} | {:+} | <code>{when}</code> |", m.value);
        }
    }
    if !system.restrictions().is_empty() {
        let _ = writeln!(md, "\n## Orders forbidden {{#this-game-restrictions}}\n");
        let _ = writeln!(
            md,
            "An attack whose condition holds (over the attack, before its dice) may not be ordered.\n\n\
             | id | restriction | when |\n|---|---|---|"
        );
        for r in system.restrictions() {
            let _ = writeln!(md, "| {} | {} | <code>{}</code> |", text(&r.id), text(&r.name), text(&r.when_text));
        }
    }
    let standard = CombatSystem::standard();
    let renamed: Vec<String> = terms
        .entries()
        .iter()
        .zip(standard.terms().entries())
        .filter(|((_, now), (_, was))| now != was)
        .map(|((_, now), (_, was))| format!("“{}” is called “{}”", text(was), text(now)))
        .collect();
    if !renamed.is_empty() {
        let _ = writeln!(md, "\n## Words {{#this-game-words}}\n\nIn this game {}.", renamed.join("; "));
    }
    let _ = writeln!(md, "\n---\n");
    md.push_str(RULES_MARKDOWN);
    render_html("rules", &format!("The rules of this game: {}", system.name), &markdown_html(&md))
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
}
