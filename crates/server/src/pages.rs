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
use pacw_play::rules::{literal, markdown_html, rules_markdown, rules_title};
use std::sync::OnceLock;

/// A reading page: its path, title and Markdown.
struct Page {
    path: &'static str,
    title: &'static str,
    markdown: &'static str,
}

const PAGES: [Page; 4] = [
    Page { path: "rules", title: "The rules of play", markdown: pacw_play::rules::RULES_MARKDOWN },
    Page { path: "guide", title: "Your first game", markdown: include_str!("../../../docs/guide.md") },
    Page { path: "format", title: "Writing a scenario", markdown: include_str!("../../../docs/scenario-format.md") },
    Page { path: "review", title: "Reading a review", markdown: include_str!("../../../docs/review.md") },
];

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
        title = literal(title),
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

/// The rules of play under `system`: its modifiers, arms, hit results and words, generated from its data in its
/// own terms, above the rules of play (whose sections they replace where they differ).
pub fn rules_under(system: &CombatSystem) -> String {
    render_html("rules", &rules_title(system), &markdown_html(&rules_markdown(system)))
}
