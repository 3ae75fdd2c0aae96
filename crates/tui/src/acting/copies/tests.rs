#![allow(clippy::unwrap_used)]

use super::*;

fn item(id: &str, message: &str, email: Option<&str>, link: Option<&str>) -> Copied {
    Copied::untriaged(detail(id, message, email, link))
}

fn detail(id: &str, message: &str, email: Option<&str>, link: Option<&str>) -> FeedbackDetail {
    let delivery: Vec<serde_json::Value> = link
        .map(|l| {
            vec![
                serde_json::json!({"channel": "email", "status": "delivered", "external_url": null}),
                serde_json::json!({"channel": "issue_tracker", "status": "delivered", "external_url": l}),
            ]
        })
        .unwrap_or_default();
    serde_json::from_value(serde_json::json!({
        "id": id, "message": message, "reporter_email": email,
        "status": "new", "received_at": "2026-11-01T10:02:03Z", "tags": ["bug"],
        "app": {"id": "app_1", "name": "Acme Notes", "platform": "ios"},
        "project": {"id": "p_1", "name": "Acme"},
        "metadata": {
            "built_in": {"appVersion": "2.3.1", "buildNumber": "4411", "iOSVersion": "18.1", "locale": "de-DE"},
            "custom": {"plan": "enterprise"}
        },
        "delivery": delivery
    }))
    .unwrap()
}

const BLOCK: &str = "> The app crashes on \\*save\\* \\@dev.\n\
>\n\
> Steps: open ␛, tap save\n\
\n\
- **App:** Acme Notes\n\
- **Platform:** ios\n\
- **Version:** 2.3.1 (build 4411)\n\
- **OS:** iOS 18.1\n\
- **Locale:** de-DE\n\
- **Tags:** bug\n\
- **Received:** 2026-11-01 10:02:03 UTC\n\
- **Reporter:** jane@example.com\n\
- **Issue tracker:** <https://tracker.example/ACME-12>\n\
- **Feedback:** fb_1 (Acme)\n";

#[test]
fn the_markdown_block_byte_for_byte() {
    let d = item(
        "fb_1",
        "The app crashes on *save* @dev.\r\n\r\nSteps: open \u{1b}[31m, tap save",
        Some("jane@example.com"),
        Some("https://tracker.example/ACME-12"),
    );
    assert_eq!(markdown(&d, false), BLOCK);
    let copy = copy_text(Kind::Markdown, &[d], false);
    assert_eq!(copy.text, BLOCK);
    assert_eq!(copy.what, "the Markdown block");
}

#[test]
fn privacy_leaves_the_reporter_out_and_masks_the_json() {
    let d = item("fb_1", "hi", Some("jane@example.com"), None);
    let block = markdown(&d, true);
    assert!(
        !block.contains("Reporter") && !block.contains("jane"),
        "{block}"
    );
    let json = json(&d, true, false);
    assert!(
        !json.contains("jane") && !json.contains("enterprise"),
        "{json}"
    );
    assert!(json.contains(crate::privacy::MASKED_EMAIL), "{json}");
    assert!(json.contains("18.1"), "built-in metadata stays: {json}");
}

#[test]
fn many_items_make_one_block_each() {
    let a = item("fb_1", "one", None, Some("https://t/1"));
    let b = item("fb_2", "two\nlines", None, None);
    let both = [a, b];
    let ids = copy_text(Kind::Id, &both, false);
    assert_eq!((ids.text.as_str(), ids.what), ("fb_1\nfb_2", "the ids"));
    let links = copy_text(Kind::Link, &both, false);
    assert_eq!((links.text.as_str(), links.missing), ("https://t/1", 1));
    let messages = copy_text(Kind::Message, &both, false);
    assert_eq!(messages.text, "one\n\ntwo\nlines");
    let blocks = copy_text(Kind::Markdown, &both, false);
    assert_eq!(blocks.text.matches("- **Feedback:**").count(), 2);
    assert!(
        blocks.text.contains("(Acme)\n\n---\n\n> two\n> lines\n"),
        "{}",
        blocks.text
    );
    let json = copy_text(Kind::Json, &both, false);
    let objects: Vec<&str> = json.text.lines().collect();
    assert_eq!(objects.len(), 2, "JSON lines: {}", json.text);
    for line in objects {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        assert!(value["id"].as_str().unwrap().starts_with("fb_"));
    }
}

#[test]
fn one_items_json_is_the_service_shape_pretty_and_escape_free() {
    let d = item("fb_1", "evil \u{1b}]52;c;AAAA\u{7} \u{202e}txt", None, None);
    let text = copy_text(Kind::Json, std::slice::from_ref(&d), false).text;
    assert!(text.starts_with("{\n  \"id\": \"fb_1\""), "{text}");
    assert!(feedback_core::text::is_clean(&text), "{text:?}");
    let back: FeedbackDetail = serde_json::from_str(&text).unwrap();
    assert_eq!(back, d.detail, "the JSON reads back as the item");
}

#[test]
fn json_lines_end_each_item_with_a_newline() {
    let a = item("fb_1", "x", Some("a@b.c"), None);
    let lines = json_lines(&[a.clone(), a], false);
    assert_eq!(lines.matches('\n').count(), 2);
    assert!(lines.ends_with("}\n"));
}

#[test]
fn a_link_that_is_not_http_is_left_out_of_the_block() {
    let d = item("fb_1", "x", None, Some("javascript:alert(1)"));
    assert!(!markdown(&d, false).contains("javascript"));
}

#[test]
fn markdown_in_untrusted_text_is_made_inert_and_stays_readable() {
    assert_eq!(
        md_escape("**bold** [x](http://e) @here #12 a_b _c_ <img> `code` a|b ~~s~~ &amp;"),
        "\\*\\*bold\\*\\* \\[x\\](http://e) \\@here \\#12 a_b \\_c\\_ \\<img\\> \\`code\\` \
         a\\|b \\~\\~s\\~\\~ \\&amp;"
    );
    assert_eq!(md_escape("# Heading"), "\\# Heading");
    assert_eq!(md_escape("- item"), "\\- item");
    assert_eq!(md_escape("1. first"), "1\\. first");
    assert_eq!(md_escape("2.3.1 (build 4411)"), "2.3.1 (build 4411)");
    assert_eq!(
        md_escape("jane@example.com fb_1 de-DE"),
        "jane@example.com fb_1 de-DE"
    );
}

#[test]
fn the_block_escapes_the_message_the_values_and_an_unknown_channel() {
    let mut d = detail(
        "fb_1",
        "# Hi @team\n- **urgent** see [here](javascript:x)",
        Some("jane@example.com"),
        Some("https://tracker.example/ACME-12"),
    );
    d.delivery[1].channel =
        serde_json::from_value(serde_json::json!("ticket\u{1b}[31m **red** @all")).unwrap();
    d.feedback.project.name = "Acme #1 @ops".into();
    let block = markdown(&Copied::untriaged(d), false);
    assert!(
        block.starts_with(
            "> \\# Hi \\@team\n> \\- \\*\\*urgent\\*\\* see \\[here\\](javascript:x)\n\n"
        ),
        "{block}"
    );
    assert!(
        block.contains("- **ticket␛ \\*\\*red\\*\\* \\@all:** <https://tracker.example/ACME-12>\n"),
        "{block}"
    );
    assert!(
        block.ends_with("- **Feedback:** fb_1 (Acme \\#1 \\@ops)\n"),
        "{block}"
    );
    assert!(feedback_core::text::is_clean(&block), "{block:?}");
}

#[test]
fn the_block_has_the_note_unless_private_and_the_json_the_triage_state() {
    let mut d = item("fb_1", "hi", Some("jane@example.com"), None);
    d.detail.feedback.tags = vec!["bug".into(), "**hot**".into()];
    d.triage = Triage {
        seen: true,
        starred: true,
        note: Some("call @ana back\nafter 5\u{1b}[2J".into()),
        ..Triage::default()
    };
    let block = markdown(&d, false);
    assert!(
        block.contains("- **Tags:** bug, \\*\\*hot\\*\\*\n"),
        "{block}"
    );
    assert!(
        block.contains("- **Note:** call \\@ana back after 5␛\n- **Feedback:**"),
        "{block}"
    );
    let private = markdown(&d, true);
    assert!(
        !private.contains("**Note:**") && !private.contains("@ana"),
        "{private}"
    );

    let line: serde_json::Value = serde_json::from_str(&json(&d, false, false)).unwrap();
    assert_eq!(
        line["triage"],
        serde_json::json!({
            "seen": true, "starred": true, "done": false, "snoozed_until": null,
            "note": "call @ana back\nafter 5\u{1b}[2J"
        })
    );
    let masked: serde_json::Value = serde_json::from_str(&json(&d, true, false)).unwrap();
    assert_eq!(masked["triage"]["note"], crate::privacy::MASK);
    // Written terminal-safe: the escape is a `\u` escape in the text.
    assert!(feedback_core::text::is_clean(&json(&d, false, false)));
}

#[test]
fn with_a_team_the_block_names_the_owner_the_labels_and_teammates_notes() {
    let mut copied = item("fb_1", "It crashes", Some("jane@example.com"), None);
    copied.triage.note = Some("mine: asked for logs".into());
    copied.team = Some(TeamCopy {
        owner: Some(Clean::line("bo")),
        labels: Clean::line("billing, *urgent*"),
        notes: vec![(Clean::line("cy"), Clean::text("refund sent\n@all see #12"))],
    });
    let block = markdown(&copied, false);
    for line in [
        "- **Owner:** bo\n",
        "- **Labels:** billing, \\*urgent\\*\n",
        "- **Note:** mine: asked for logs\n",
        "- **Teammate's note:** cy: refund sent \\@all see \\#12\n",
    ] {
        assert!(block.contains(line), "{line:?} not in:\n{block}");
    }
    // Privacy mode leaves every note out, the owner and labels stay.
    let private = markdown(&copied, true);
    assert!(private.contains("- **Owner:** bo\n"), "{private}");
    assert!(
        !private.contains("refund") && !private.contains("mine:"),
        "{private}"
    );
    // Nobody owns it: said so.
    copied.team = Some(TeamCopy::default());
    assert!(markdown(&copied, false).contains("- **Owner:** nobody\n"));
    assert!(!markdown(&copied, false).contains("Labels"));
}
