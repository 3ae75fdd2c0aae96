//! The link prompt (`ctrl-k`): a line that links the marked items (or the selected one) to what
//! was made from them outside, `URL [title]`, or removes a link, `-URL`. The line is read once,
//! here, into the change it asks for; with a team the change is the team's, else the store's.

use feedback_core::link::{Link, normal_url};
use feedback_core::text::Clean;
use feedback_team::Change;

/// The most the prompt takes.
pub const INPUT_MAX_BYTES: usize = 2400;

/// The open link prompt.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkPrompt {
    /// The items it links.
    pub ids: Vec<String>,
    pub input: String,
    /// Why the line was not taken, shown under it.
    pub error: Option<Clean>,
}

impl LinkPrompt {
    #[must_use]
    pub fn new(ids: Vec<String>) -> Self {
        Self {
            ids,
            input: String::new(),
            error: None,
        }
    }
}

/// The change the prompt's line asks for: `URL [title]` links, `-URL` unlinks.
///
/// # Errors
/// The line is empty, or its address or title is not one a link takes.
pub fn parse(input: &str) -> Result<Change, String> {
    let input = input.trim();
    if input.is_empty() {
        return Err("type a ticket's address (and a title), or -address to remove it".to_owned());
    }
    if let Some(url) = input.strip_prefix('-') {
        return normal_url(url)
            .map(|url| Change::Unlink { url })
            .map_err(|e| e.to_string());
    }
    let (url, title) = match input.split_once(char::is_whitespace) {
        Some((url, title)) => (url, Some(title)),
        None => (input, None),
    };
    Link::new(url, title)
        .map(Change::Link)
        .map_err(|e| e.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_link_with_its_title_or_the_removal_of_one() {
        assert_eq!(
            parse(" https://t.example/T-1  Crash on start "),
            Ok(Change::Link(
                Link::new("https://t.example/T-1", Some("Crash on start")).unwrap()
            ))
        );
        assert_eq!(
            parse("https://t.example/T-1"),
            Ok(Change::Link(
                Link::new("https://t.example/T-1", None).unwrap()
            ))
        );
        assert_eq!(
            parse("-HTTPS://T.example/T-1"),
            Ok(Change::Unlink {
                url: "https://t.example/T-1".to_owned()
            })
        );
        for refused in [
            "",
            "  ",
            "javascript:alert(1)",
            "-ftp://x.example",
            "crash report",
        ] {
            assert!(parse(refused).is_err(), "{refused:?}");
        }
    }
}
