//! A search query given on the command line (`search`, `stats`): the context it is read in
//! (now, in the system's zone; `--since`/`--until` are read in it too), and a query error shown
//! where it is, the query with a caret under the span.

use jiff::Timestamp;
use jiff::tz::TimeZone;

use super::CliError;
use feedback_core::query::{Query, QueryError};
use feedback_core::text::sanitize_line;
use feedback_core::width::width;
use feedback_store::NamedView;
use feedback_store::search::Context;

/// The context of a search run now, in the system's zone, without views.
#[must_use]
pub(crate) fn context_now() -> Context {
    Context {
        now: Timestamp::now(),
        tz: TimeZone::system(),
        views: std::sync::Arc::default(),
    }
}

/// The context `query` is run in now: in the system's zone, and when it names a view
/// (`view:NAME`), with the views the inbox has (built in, the config file's `[[views]]`, the
/// team's when a team is configured). The config file is read only for such a query.
pub(crate) fn context_for(
    global: &crate::context::Context,
    query: &Query,
) -> Result<Context, CliError> {
    let mut cx = context_now();
    if query.names_view() {
        cx.views = views(global)?.into();
    }
    Ok(cx)
}

/// The views of this command line's config file, as the inbox lists them.
fn views(global: &crate::context::Context) -> Result<Vec<NamedView>, CliError> {
    let defs = match global.config()? {
        Some(loaded) => {
            feedback_config::views::parse(&loaded.text, &loaded.path.display().to_string())
                .map_err(|e| CliError::Usage(format!("config: {e}")))?
        }
        None => Vec::new(),
    };
    let team = crate::context::team::configured(global)?.is_some();
    Ok(feedback_store::saved_views::every(&defs, team))
}

/// A usage error (exit 2) that shows the query, sanitized, with a caret under the span:
///
/// ```text
/// unknown qualifier "colour:" …
///   tag:bug colour:red
///           ^^^^^^^
/// ```
#[must_use]
pub(crate) fn query_error(text: &str, error: &QueryError) -> CliError {
    CliError::Usage(format!(
        "{}\n{}",
        error.message,
        caret_lines(text, &error.span)
    ))
}

/// The query and a caret line under `span` (an empty span, such as the end of the input, gets
/// one caret after the last character). Widths are those of the sanitized text, as shown.
#[must_use]
pub(crate) fn caret_lines(text: &str, span: &std::ops::Range<usize>) -> String {
    let start = floor_char_boundary(text, span.start);
    let end = floor_char_boundary(text, span.end.max(start));
    let before = width(&sanitize_line(&text[..start]));
    let under = width(&sanitize_line(&text[start..end])).max(1);
    format!(
        "  {}\n  {}{}",
        sanitize_line(text),
        " ".repeat(before),
        "^".repeat(under)
    )
}

fn floor_char_boundary(text: &str, index: usize) -> usize {
    let mut index = index.min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

#[cfg(test)]
mod tests {
    use super::caret_lines;

    #[test]
    fn the_caret_sits_under_the_span_in_display_cells() {
        assert_eq!(
            caret_lines("tag:bug x:1", &(8..10)),
            "  tag:bug x:1\n          ^^"
        );
        // An empty span at the end: one caret after the last character.
        assert_eq!(caret_lines("\"open", &(5..5)), "  \"open\n       ^");
        // Wide characters count two cells; a span inside a character is moved to its start.
        assert_eq!(
            caret_lines("同期 app:x", &(7..12)),
            "  同期 app:x\n       ^^^^^"
        );
        assert_eq!(caret_lines("同期", &(1..4)), "  同期\n  ^^");
        // A span past the end is clamped, never a panic.
        assert_eq!(caret_lines("ab", &(5..9)), "  ab\n    ^");
    }
}
