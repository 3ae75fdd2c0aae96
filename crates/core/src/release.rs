//! This program's version and where its releases are, for errors that ask for a newer one.

/// The version of this build (`0.2.0`).
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// Where released versions are downloaded.
pub const RELEASES: &str = concat!(env!("CARGO_PKG_REPOSITORY"), "/releases");

/// What to install to read what `by` wrote (`None`: a version newer than this one, unknown
/// which): "install feedback-inbox 0.3.0 or newer from https://…/releases".
#[must_use]
pub fn install(by: Option<&str>) -> String {
    // A development build of this very version may have written it: then only "the latest"
    // means anything.
    match by.filter(|by| *by != VERSION) {
        Some(by) => format!(
            "install feedback-inbox {} or newer from {RELEASES}",
            crate::text::Clean::line(by)
        ),
        None => format!("install the latest feedback-inbox from {RELEASES}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_way_to_upgrade_names_the_version_needed_and_where_it_is() {
        assert!(RELEASES.starts_with("https://") && RELEASES.ends_with("/releases"));
        assert_eq!(
            install(Some("0.3.0")),
            format!("install feedback-inbox 0.3.0 or newer from {RELEASES}")
        );
        assert!(install(None).contains("the latest"));
        assert!(install(Some(VERSION)).contains("the latest"));
        assert!(!install(Some("0.3\u{1b}[2J")).contains('\u{1b}'));
    }
}
