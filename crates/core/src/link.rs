//! A link on an item to what was made from it outside (an issue, a ticket, a doc): an http or
//! https URL, kept in its normal form (so the same ticket typed twice is one link), and an
//! optional title. Made only by [`Link::new`], which refuses anything else: another scheme
//! (`javascript:`, `file:`), a URL holding spaces or controls, one too long, a title on more
//! than one line. Its text is shown through `Clean` like every other text.

use serde::{Deserialize, Serialize};

use crate::text::Clean;

/// The longest URL kept, in characters.
pub const URL_MAX: usize = 2048;
/// The longest title kept, in characters.
pub const TITLE_MAX: usize = 200;

/// A link as an item keeps it (read back from JSON through [`Link::new`]'s checks).
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "Unchecked")]
pub struct Link {
    url: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    title: Option<String>,
}

/// A link's JSON before it is checked.
#[derive(Deserialize)]
struct Unchecked {
    url: String,
    #[serde(default)]
    title: Option<String>,
}

impl TryFrom<Unchecked> for Link {
    type Error = LinkError;

    fn try_from(unchecked: Unchecked) -> Result<Self, LinkError> {
        Self::new(&unchecked.url, unchecked.title.as_deref())
    }
}

/// Why a link was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LinkError {
    #[error("a link is an http:// or https:// address: {0}")]
    NotHttp(Clean),
    #[error("a link's address holds a space or a control character: {0}")]
    Spaces(Clean),
    #[error("a link's address is at most {URL_MAX} characters ({0} given)")]
    TooLong(usize),
    #[error("not an address: {0}")]
    Unreadable(Clean),
    #[error("a link's title is at most {TITLE_MAX} characters on one line")]
    Title,
}

impl Link {
    /// The link to `url` (trimmed), titled `title` (trimmed; empty is none).
    ///
    /// # Errors
    /// The URL is not http(s), holds a space or a control, is over [`URL_MAX`] characters or
    /// does not read; the title is over [`TITLE_MAX`] characters or holds a control.
    pub fn new(url: &str, title: Option<&str>) -> Result<Self, LinkError> {
        let url = normal_url(url)?;
        let title = match title.map(str::trim) {
            None | Some("") => None,
            Some(title)
                if title.chars().count() > TITLE_MAX || title.chars().any(char::is_control) =>
            {
                return Err(LinkError::Title);
            }
            Some(title) => Some(title.to_owned()),
        };
        Ok(Self { url, title })
    }

    /// The URL, in its normal form.
    #[must_use]
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The title, when one was given.
    #[must_use]
    pub fn title(&self) -> Option<&str> {
        self.title.as_deref()
    }

    /// The ticket's short name, for a list's narrow column: a key such as `TICKET-26944` or
    /// `APP-42` in the path, else `repo#42` for a path ending in a number after `issues`,
    /// `pull` or the like, else the path's last part, else the host.
    #[must_use]
    pub fn short_name(&self) -> Clean {
        short_name(&self.url)
    }
}

/// `url` in the normal form a link keeps (for comparing: `unlink` takes what `link` took).
///
/// # Errors
/// As [`Link::new`]'s for the URL.
pub fn normal_url(url: &str) -> Result<String, LinkError> {
    let url = url.trim();
    let length = url.chars().count();
    if length > URL_MAX {
        return Err(LinkError::TooLong(length));
    }
    // The URL parser drops tabs and line breaks silently: a URL holding one is refused first.
    if url.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err(LinkError::Spaces(Clean::line(url)));
    }
    let parsed = url::Url::parse(url).map_err(|_| LinkError::Unreadable(Clean::line(url)))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(LinkError::NotHttp(Clean::line(url)));
    }
    if parsed.host_str().is_none_or(str::is_empty) {
        return Err(LinkError::Unreadable(Clean::line(url)));
    }
    let normal = parsed.as_str();
    if normal.chars().count() > URL_MAX {
        return Err(LinkError::TooLong(normal.chars().count()));
    }
    Ok(normal.to_owned())
}

/// The first http(s) link in `text` (a command's output), as a [`Link`] without a title;
/// `None` when it holds none that [`Link::new`] takes. The text is made inert first, and the
/// markers of what it held (a terminal's colours around an address) end an address.
#[must_use]
pub fn first_in(text: &str) -> Option<Link> {
    let mut finder = linkify::LinkFinder::new();
    finder.kinds(&[linkify::LinkKind::Url]);
    let clean = crate::text::sanitize(text);
    clean
        .split([crate::text::ESCAPE_MARKER, crate::text::CONTROL_MARKER])
        .flat_map(|part| finder.links(part).collect::<Vec<_>>())
        .find_map(|found| Link::new(found.as_str(), None).ok())
}

/// A path part that names a ticket by its key: letters and digits, a dash, digits.
fn is_ticket_key(part: &str) -> bool {
    let Some((project, number)) = part.rsplit_once('-') else {
        return false;
    };
    project.starts_with(|c: char| c.is_ascii_alphabetic())
        && project.chars().all(|c| c.is_ascii_alphanumeric())
        && !number.is_empty()
        && number.chars().all(|c| c.is_ascii_digit())
}

fn short_name(url: &str) -> Clean {
    let Ok(parsed) = url::Url::parse(url) else {
        return Clean::line(url);
    };
    let parts: Vec<&str> = parsed
        .path_segments()
        .map(|segments| segments.filter(|s| !s.is_empty() && *s != "-").collect())
        .unwrap_or_default();
    if let Some(key) = parts.iter().rev().find(|p| is_ticket_key(p)) {
        return Clean::line(key);
    }
    if let [.., repo, kind, number] = parts.as_slice()
        && number.chars().all(|c| c.is_ascii_digit())
        && matches!(
            kind.to_ascii_lowercase().as_str(),
            "issues" | "issue" | "pull" | "pulls" | "merge_requests" | "tickets" | "ticket"
        )
    {
        return Clean::line(&format!("{repo}#{number}"));
    }
    if let Some(last) = parts.last() {
        return Clean::line(last);
    }
    Clean::line(parsed.host_str().unwrap_or(url))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_addresses_are_links_kept_in_their_normal_form() {
        let link = Link::new(
            "  HTTPS://Tracker.Example/TICKET-26944 ",
            Some(" Crash on start "),
        )
        .unwrap();
        assert_eq!(link.url(), "https://tracker.example/TICKET-26944");
        assert_eq!(link.title(), Some("Crash on start"));
        assert_eq!(
            Link::new("http://x.example", Some("  ")).unwrap().title(),
            None
        );
        for refused in [
            "javascript:alert(1)",
            "file:///etc/passwd",
            "ftp://x.example/a",
            "mailto:a@b.example",
            "tracker.example/T-1",
            "https://",
            "https://x.example/a b",
            "https://x.example/a\tb",
            "https://x.example/a\nb",
            "https://x.example/\u{1b}[31m",
            "",
        ] {
            assert!(Link::new(refused, None).is_err(), "{refused:?} was taken");
        }
        let long = format!("https://x.example/{}", "a".repeat(URL_MAX));
        assert!(matches!(Link::new(&long, None), Err(LinkError::TooLong(_))));
        assert_eq!(
            Link::new("https://x.example", Some("two\nlines")),
            Err(LinkError::Title)
        );
        assert!(Link::new("https://x.example", Some(&"t".repeat(TITLE_MAX + 1))).is_err());
        assert!(Link::new("https://x.example", Some(&"t".repeat(TITLE_MAX))).is_ok());
    }

    #[test]
    fn a_link_read_from_json_is_checked_as_one_made() {
        let back: Link =
            serde_json::from_str(r#"{"url":"HTTPS://X.example/a","title":"t"}"#).unwrap();
        assert_eq!(back, Link::new("https://x.example/a", Some("t")).unwrap());
        assert!(serde_json::from_str::<Link>(r#"{"url":"javascript:alert(1)"}"#).is_err());
        let link = Link::new("https://x.example/a", None).unwrap();
        assert_eq!(
            serde_json::to_string(&link).unwrap(),
            r#"{"url":"https://x.example/a"}"#
        );
    }

    #[test]
    fn an_address_and_its_other_spellings_are_one_link() {
        assert_eq!(
            normal_url("https://X.example").unwrap(),
            normal_url("https://x.example/").unwrap()
        );
    }

    #[test]
    fn a_tickets_short_name_is_its_key_or_its_number() {
        let short = |url: &str| {
            Link::new(url, None)
                .unwrap()
                .short_name()
                .as_str()
                .to_owned()
        };
        assert_eq!(
            short("https://tracker.example/TICKET-26944"),
            "TICKET-26944"
        );
        assert_eq!(
            short("https://acme.atlassian.net/browse/APP-42?x=1"),
            "APP-42"
        );
        assert_eq!(
            short("https://linear.app/acme/issue/ENG-123/crash-on-start"),
            "ENG-123"
        );
        assert_eq!(short("https://github.com/acme/app/issues/42"), "app#42");
        assert_eq!(
            short("https://gitlab.example/g/app/-/merge_requests/7"),
            "app#7"
        );
        assert_eq!(short("https://docs.example/guides/crash/"), "crash");
        assert_eq!(short("https://docs.example/"), "docs.example");
    }

    #[test]
    fn the_first_http_link_of_a_commands_output_is_found() {
        let out = "Filed: see https://tracker.example/TICKET-26944. Also http://other.example";
        assert_eq!(
            first_in(out).unwrap().url(),
            "https://tracker.example/TICKET-26944"
        );
        assert_eq!(
            first_in("(https://x.example/T-1), done").unwrap().url(),
            "https://x.example/T-1"
        );
        assert_eq!(
            first_in("ftp://x.example/a then https://y.example/b")
                .unwrap()
                .url(),
            "https://y.example/b"
        );
        assert_eq!(first_in("no link here; mailto:a@b.example"), None);
        // A terminal's colours around the address are not part of it.
        assert_eq!(
            first_in("\u{1b}[4mhttps://t.example/T-1\u{1b}[0m\n")
                .unwrap()
                .url(),
            "https://t.example/T-1"
        );
    }
}
