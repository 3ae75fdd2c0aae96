//! Privacy mode (`P`, or `privacy = true` in config), for screen sharing: reporter emails and
//! custom metadata values are replaced by a fixed mask wherever they leave the store — on
//! screen (list, detail, preview), in copies, in the Markdown block and in what `|` pipes.
//! The mask is the same whatever the value: no letter, domain or length shows through. Every
//! sink that shows an email or a custom value calls these functions.

use std::borrow::Cow;

use feedback_api::FeedbackDetail;

/// What stands in for a masked value.
pub const MASK: &str = "•••";
/// What stands in for a masked email: still reads as an email, says nothing about it.
pub const MASKED_EMAIL: &str = "•••@•••";

/// The email as shown: masked when privacy mode is on.
#[must_use]
pub fn email(raw: &str, on: bool) -> Cow<'_, str> {
    if on {
        Cow::Borrowed(MASKED_EMAIL)
    } else {
        Cow::Borrowed(raw)
    }
}

/// A custom metadata value as shown: masked when privacy mode is on.
#[must_use]
pub fn value(raw: &str, on: bool) -> Cow<'_, str> {
    if on {
        Cow::Borrowed(MASK)
    } else {
        Cow::Borrowed(raw)
    }
}

/// A custom metadata value already sanitized, as shown: masked when privacy mode is on.
#[must_use]
pub(crate) fn clean_value(
    clean: &feedback_core::text::Clean,
    on: bool,
) -> feedback_core::text::Clean {
    if on {
        feedback_core::text::Clean::fixed(MASK)
    } else {
        clean.clone()
    }
}

/// The detail with its email and custom metadata values masked (when `on`); built-in metadata
/// (version, OS, locale) and everything else kept.
#[must_use]
pub fn detail(detail: &FeedbackDetail, on: bool) -> Cow<'_, FeedbackDetail> {
    if !on {
        return Cow::Borrowed(detail);
    }
    let mut masked = detail.clone();
    if let Some(email) = &mut masked.feedback.reporter_email {
        MASKED_EMAIL.clone_into(email);
    }
    for value in masked.metadata.custom.values_mut() {
        MASK.clone_into(value);
    }
    Cow::Owned(masked)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    fn sample() -> FeedbackDetail {
        serde_json::from_value(serde_json::json!({
            "id": "fb_1", "message": "m", "reporter_email": "jane.doe@example.com",
            "status": "new", "received_at": "2026-11-01T10:00:00Z", "tags": [],
            "app": null, "project": {"id": "p", "name": "P"},
            "metadata": {"built_in": {"os": "iOS 18"}, "custom": {"plan": "enterprise-acme"}},
            "delivery": []
        }))
        .unwrap()
    }

    #[test]
    fn nothing_of_a_masked_value_shows() {
        assert_eq!(email("jane.doe@example.com", true), MASKED_EMAIL);
        assert_eq!(
            email("a@b.c", true),
            email("someone.long@corp.example", true)
        );
        assert_eq!(value("secret", true), MASK);
        assert_eq!(email("jane@example.com", false), "jane@example.com");
        assert_eq!(value("secret", false), "secret");
    }

    #[test]
    fn a_masked_detail_keeps_built_in_metadata_only() {
        let raw = sample();
        let masked = detail(&raw, true);
        let text = serde_json::to_string(&*masked).unwrap();
        assert!(
            !text.contains("jane") && !text.contains("example.com"),
            "{text}"
        );
        assert!(!text.contains("acme"), "{text}");
        assert!(text.contains("iOS 18"), "{text}");
        assert_eq!(masked.metadata.custom["plan"], MASK);
        assert!(matches!(detail(&raw, false), Cow::Borrowed(_)));
    }
}
