//! The reading pages: the rules of play (`/rules`), the first-game guide (`/guide`), the scenario format
//! (`/format`) and how to read a game's review (`/review`), rendered once from the project's Markdown in `docs/` into the site's page. Every heading keeps
//! its `{#id}` anchor, so `/rules#R6.4` opens rule R6.4.

use axum::http::header;
use axum::response::{IntoResponse, Response};
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
    let nav: String = PAGES
        .iter()
        .map(|p| {
            let current = if p.path == page.path { " aria-current=\"page\"" } else { "" };
            format!("<a href=\"/{}\"{current}>{}</a>", p.path, p.title)
        })
        .collect::<Vec<_>>()
        .join(" · ");
    format!(
        "<!doctype html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>{title} — pacw</title>\n\
         <link rel=\"stylesheet\" href=\"/css/style.css\">\n</head>\n<body>\n\
         <header class=\"top\"><a class=\"brand\" href=\"/\">pacw</a><nav class=\"reading-nav\">{nav} · <a href=\"/\">Lobby</a></nav></header>\n\
         <main class=\"reading\" id=\"reading\">\n{body}</main>\n<script type=\"module\" src=\"/js/reading.js\"></script>\n</body>\n</html>\n",
        title = page.title,
        body = markdown_html(page.markdown),
    )
}

/// The page at `path` (`rules`, `guide`, `format` or `review`), rendered once.
pub fn page(path: &str) -> Option<Response> {
    static RENDERED: OnceLock<Vec<String>> = OnceLock::new();
    let rendered = RENDERED.get_or_init(|| PAGES.iter().map(render).collect());
    let i = PAGES.iter().position(|p| p.path == path)?;
    let headers = [(header::CONTENT_TYPE, "text/html; charset=utf-8"), (header::CACHE_CONTROL, "no-cache")];
    Some((headers, rendered[i].clone()).into_response())
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
