//! `R`: one reply per distinct reporter of the marked items (or the selected one), from a
//! template, edited, and confirmed: nothing is kept before `y`, and then the replies are in
//! the store's outbox before the sender is asked; any other key on the confirm screen goes
//! back to the text, kept; the sender's answer is said.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::act;
use super::acting::note;
use crate::action::{Action, Msg};
use crate::effect::{Effect, Network};
use crate::replying::{SentReply, Step};
use crate::testkit::{Harness, detail, now, started_harness};
use feedback_config::mail::{MailSettings, Template, Via};
use feedback_store::ReplyState;

fn settings() -> MailSettings {
    MailSettings {
        from: "Ana at Support <support@acme.example>".to_owned(),
        via: Via::Smtp {
            url: "smtp://127.0.0.1:2525".to_owned(),
            username: None,
            password_command: None,
            ca_file: None,
        },
        per_minute: 30,
    }
}

/// A harness whose items 0..8 have their details stored, with `[mail]` and a template.
fn harness() -> Harness {
    let mut h = started_harness(140, 35, 20, true);
    for n in 0..8 {
        h.store.write(|s| s.put_detail(&detail(n), now())).unwrap();
    }
    h.state.mail.settings = Some(settings());
    h.state.mail.templates = vec![Template {
        name: "fixed".to_owned(),
        subject: Some("Fixed in {version}: {id}".to_owned()),
        body: "Hi, {agent} here: it is fixed.".to_owned(),
        shared_by: None,
    }];
    h
}

fn key(h: &mut Harness, code: KeyCode) -> Vec<Effect> {
    h.send(Msg::ReplyInput(KeyEvent::new(code, KeyModifiers::NONE)))
}

fn step(h: &Harness) -> Option<Step> {
    h.state.mail.composer.as_ref().map(|c| c.step.clone())
}

fn waiting(h: &Harness) -> Vec<feedback_store::Reply> {
    h.store.read(|s| s.replies_in(ReplyState::Waiting)).unwrap()
}

#[test]
fn without_mail_set_up_r_says_how() {
    let mut h = started_harness(140, 35, 20, true);
    act(&mut h, Action::Reply);
    assert!(
        note(&h).contains("No [mail] in config.toml"),
        "{}",
        note(&h)
    );
    assert!(h.state.mail.composer.is_none());
}

#[test]
fn a_reply_is_composed_from_a_template_confirmed_and_kept_before_it_is_sent() {
    let mut h = harness();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    assert_eq!(step(&h), Some(Step::Template { selected: 0 }));
    key(&mut h, KeyCode::Down);
    key(&mut h, KeyCode::Enter);
    assert!(matches!(step(&h), Some(Step::Edit { .. })));
    key(&mut h, KeyCode::Enter);
    assert_eq!(step(&h), Some(Step::Confirm));
    // Any other key goes back to the text, kept; nothing was kept in the store.
    key(&mut h, KeyCode::Char('n'));
    assert!(matches!(step(&h), Some(Step::Edit { .. })));
    assert_eq!(
        h.state.mail.composer.as_ref().unwrap().text(),
        "Hi, {agent} here: it is fixed."
    );
    assert!(waiting(&h).is_empty());
    key(&mut h, KeyCode::Enter);
    let effects = key(&mut h, KeyCode::Char('y'));
    assert!(
        matches!(
            &effects[..],
            [Effect::Network(Network::SendReplies { member: None, .. })]
        ),
        "{effects:?}"
    );
    let kept = waiting(&h);
    assert_eq!(kept.len(), 1, "in the outbox before the sender is asked");
    assert_eq!(kept[0].to, "user1@example.com");
    assert_eq!(kept[0].item_ids, ["id00001"]);
    assert_eq!(kept[0].subject, "Fixed in 2.14.1: id00001");
    assert!(
        kept[0]
            .body
            .starts_with("Hi, Ana at Support here: it is fixed.\n\nOn "),
        "{}",
        kept[0].body
    );
    assert!(
        kept[0]
            .body
            .contains("> Message number 1: the sync button does nothing")
    );
    assert!(h.state.mail.composer.is_none());
    h.send(Msg::RepliesSent(Ok(vec![SentReply {
        to: "user1@example.com".to_owned(),
        sent: true,
        why: None,
        waits: false,
        unknown: false,
    }])));
    assert_eq!(note(&h), "Sent 1 reply");
}

#[test]
fn marked_items_get_one_reply_per_reporter_and_those_without_an_address_are_counted() {
    let mut h = harness();
    // id00000 has no address; id00001 and id00002 have; id00003 has none.
    for _ in 0..4 {
        act(&mut h, Action::ToggleMark);
    }
    act(&mut h, Action::Reply);
    let composer = h.state.mail.composer.as_ref().unwrap();
    let to: Vec<&str> = composer.recipients.iter().map(|r| r.to.as_str()).collect();
    assert_eq!(to, ["user1@example.com", "user2@example.com"]);
    assert_eq!(composer.skipped, 2);
    key(&mut h, KeyCode::Esc);
    assert!(h.state.mail.composer.is_none());
    assert_eq!(note(&h), "Reply not sent");
}

#[test]
fn a_reply_with_an_unknown_variable_or_no_text_does_not_go_on() {
    let mut h = harness();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    key(&mut h, KeyCode::Enter);
    key(&mut h, KeyCode::Enter);
    let composer = h.state.mail.composer.as_ref().unwrap();
    assert!(matches!(composer.step, Step::Edit { .. }), "an empty reply");
    assert!(composer.error.is_some());
    h.send(Msg::Paste("Hi {name}".to_owned()));
    key(&mut h, KeyCode::Enter);
    let composer = h.state.mail.composer.as_ref().unwrap();
    assert!(
        composer
            .error
            .as_ref()
            .unwrap()
            .contains("unknown variable {name}")
    );
    // The subject is refused on two lines: a pasted line break is a space.
    key(&mut h, KeyCode::Tab);
    h.send(Msg::Paste("\r\nBcc: all@example.org".to_owned()));
    assert!(
        !h.state
            .mail
            .composer
            .as_ref()
            .unwrap()
            .subject
            .contains('\n')
    );
}

#[test]
fn a_teammates_reply_of_the_last_day_is_said_before_sending_another() {
    use feedback_core::team_event::{Change, EventChange, TeamEvent};
    let mut h = super::team::team_harness(&[]);
    h.state.mail.settings = Some(settings());
    h.store.write(|s| s.put_detail(&detail(1), now())).unwrap();
    let replied = |seq: i64, member: &str, hours: i64| TeamEvent {
        seq,
        event_id: format!("e{seq}"),
        member: member.to_owned(),
        item_id: "id00001".to_owned(),
        change: EventChange::Known(Change::Reply {
            reply_id: format!("r{seq}"),
            to: "user1@example.com".to_owned(),
            subject: "Fixed".to_owned(),
            body: "It is fixed".to_owned(),
        }),
        at: now() - jiff::SignedDuration::from_hours(hours),
    };
    let batch = feedback_store::TeamBatch {
        // Bo's of two hours ago counts; one of two days ago and this member's own do not.
        events: vec![
            replied(2, "bo", 2),
            replied(3, "cy", 48),
            replied(4, "ana", 1),
        ],
        seq: 4,
        ..feedback_store::TeamBatch::default()
    };
    h.store.write(|s| s.team_apply(&batch, now())).unwrap();
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    let composer = h.state.mail.composer.as_ref().unwrap();
    assert_eq!(
        composer
            .answered
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("bo replied to user1@example.com 2h ago")
    );
}

#[test]
fn with_an_editor_set_the_text_is_written_there_and_comes_back_to_the_confirm_screen() {
    let mut h = harness();
    h.state.triage.external_editor = true;
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    key(&mut h, KeyCode::Down);
    let effects = key(&mut h, KeyCode::Enter);
    let [Effect::Terminal(crate::effect::Handover::EditReply { text })] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert_eq!(text, "Hi, {agent} here: it is fixed.");
    h.send(Msg::ReplyEdited(Ok(Some(
        "Hi, {agent} here: fixed \u{1b}[31min 2.14.2.\n".to_owned(),
    ))));
    assert_eq!(step(&h), Some(Step::Confirm));
    let text = h.state.mail.composer.as_ref().unwrap().text();
    assert!(
        text.starts_with("Hi, {agent} here: fixed ") && !text.contains('\u{1b}'),
        "{text:?}"
    );
    // An editor that failed leaves the text as it was, said.
    key(&mut h, KeyCode::Char('n'));
    h.send(Msg::ReplyEdited(Err("exit 1".to_owned())));
    assert!(
        h.state
            .mail
            .composer
            .as_ref()
            .unwrap()
            .error
            .as_ref()
            .unwrap()
            .contains("exit 1")
    );
}

#[test]
fn with_mailto_the_mail_client_gets_the_reply_and_it_is_recorded_only_once_said_sent() {
    let mut h = harness();
    h.state.mail.settings = Some(MailSettings {
        from: String::new(),
        via: Via::Mailto,
        per_minute: 30,
    });
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    key(&mut h, KeyCode::Down);
    key(&mut h, KeyCode::Enter);
    key(&mut h, KeyCode::Enter);
    let effects = key(&mut h, KeyCode::Char('y'));
    let [Effect::Local(crate::effect::Local::OpenUrl { url })] = &effects[..] else {
        panic!("{effects:?}");
    };
    assert!(url.starts_with("mailto:user1%40example%2Ecom?subject=Fixed%20in%202%2E14%2E1%3A%20id00001&body=Hi%2C%20"), "{url}");
    assert!(url.contains("%0D%0A"), "line breaks as CRLF: {url}");
    assert!(matches!(step(&h), Some(Step::AskSent { .. })));
    assert!(
        h.store
            .read(|s| s.replies_about("id00001"))
            .unwrap()
            .is_empty()
    );
    key(&mut h, KeyCode::Char('y'));
    let kept = h.store.read(|s| s.replies_about("id00001")).unwrap();
    assert_eq!(kept.len(), 1);
    assert_eq!(kept[0].state, ReplyState::Sent);
    assert_eq!(note(&h), "Recorded 1 reply as sent");
    // Said not sent: nothing is recorded.
    act(&mut h, Action::Reply);
    key(&mut h, KeyCode::Enter);
    h.send(Msg::Paste("Another".to_owned()));
    key(&mut h, KeyCode::Enter);
    key(&mut h, KeyCode::Char('y'));
    key(&mut h, KeyCode::Char('n'));
    assert_eq!(
        h.store.read(|s| s.replies_about("id00001")).unwrap().len(),
        1
    );
    assert!(h.state.mail.composer.is_none());
}

#[test]
fn a_teammate_replying_now_is_said_and_this_member_replying_is_told_to_the_team() {
    use crate::effect::Local;
    let mut h = super::team::team_harness(&[]);
    h.state.mail.settings = Some(settings());
    h.store.write(|s| s.put_detail(&detail(1), now())).unwrap();
    h.send(Msg::Team(feedback_team_sync::live::News::Present(vec![
        feedback_team::Presence {
            member: "bo".to_owned(),
            item_id: Some("id00001".to_owned()),
            replying: true,
        },
    ])));
    act(&mut h, Action::MoveDown);
    let effects = act(&mut h, Action::Reply);
    let composer = h.state.mail.composer.as_ref().unwrap();
    assert_eq!(
        composer
            .answered
            .as_ref()
            .map(ToString::to_string)
            .as_deref(),
        Some("bo is replying to id00001 now")
    );
    assert!(
        effects.contains(&Effect::Local(Local::TeamReplying(true)))
            && effects.contains(&Effect::Local(Local::TeamLooking(Some(
                "id00001".to_owned()
            )))),
        "{effects:?}"
    );
    let effects = key(&mut h, KeyCode::Esc);
    assert!(
        effects.contains(&Effect::Local(Local::TeamReplying(false))),
        "{effects:?}"
    );
}

#[test]
fn a_reply_opened_in_the_mail_client_is_not_said_with_its_address_or_text() {
    let mut h = harness();
    h.send(Msg::Opened {
        url: crate::replying::mailto("user1@example.com", "Fixed", "It is fixed"),
        result: Ok(()),
    });
    assert_eq!(note(&h), "Opened the reply in your mail client");
    h.send(Msg::Opened {
        url: crate::replying::mailto("user1@example.com", "Fixed", "It is fixed"),
        result: Err("no handler".to_owned()),
    });
    assert!(
        note(&h).starts_with("Could not open the mail client (no handler)"),
        "{}",
        note(&h)
    );
    assert!(!note(&h).contains("example"), "{}", note(&h));
}

#[test]
fn the_teams_shared_templates_are_offered_after_ones_own_and_follow_the_team() {
    let mut h = super::team::team_harness(&[]);
    h.state.mail.settings = Some(settings());
    h.store.write(|s| s.put_detail(&detail(1), now())).unwrap();
    h.state.mail.templates = vec![Template {
        name: "fixed".to_owned(),
        subject: None,
        body: "Fixed.".to_owned(),
        shared_by: None,
    }];
    let shared = |body: &str| feedback_store::TeamTemplate {
        name: "logs".to_owned(),
        subject: Some("Logs for {id}".to_owned()),
        body: body.to_owned(),
        shared_by: "bo".to_owned(),
        at: now(),
    };
    h.send(Msg::Team(feedback_team_sync::live::News::Templates(vec![
        shared("Send us the logs."),
    ])));
    // A teammate changed it: the next `R` offers the new text.
    h.send(Msg::Team(feedback_team_sync::live::News::Templates(vec![
        shared("Send us the logs, please."),
    ])));
    act(&mut h, Action::MoveDown);
    act(&mut h, Action::Reply);
    let names: Vec<(&str, Option<&str>)> = h
        .state
        .mail
        .composer
        .as_ref()
        .unwrap()
        .templates
        .iter()
        .map(|t| (t.name.as_str(), t.shared_by.as_deref()))
        .collect();
    assert_eq!(names, [("fixed", None), ("logs", Some("bo"))]);
    key(&mut h, KeyCode::Down);
    key(&mut h, KeyCode::Down);
    key(&mut h, KeyCode::Enter);
    let composer = h.state.mail.composer.as_ref().unwrap();
    assert_eq!(composer.text(), "Send us the logs, please.");
    assert_eq!(composer.subject, "Logs for {id}");
    // The team stopped sharing it: it is no longer offered.
    key(&mut h, KeyCode::Esc);
    h.send(Msg::Team(feedback_team_sync::live::News::Templates(
        Vec::new(),
    )));
    assert!(h.state.mail.team_templates.is_empty());
}
