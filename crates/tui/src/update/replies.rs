//! `R`: the reply composer's keys and the answers of the outbox and the sender. The items'
//! details are gathered as a copy's are; each distinct reporter gets one reply. Nothing leaves
//! before `y` on the confirm screen, and then only once the replies are in the store's outbox.

use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{error, info};
use crate::acting::GatheredItem;
use crate::effect::{Effect, Local, Network, Write};
use crate::failure::Failure;
use crate::picker_keys::{PickerKey, Typing, picker_key};
use crate::replying::{Composer, Recipient, SentReply, Step};
use crate::state::AppState;
use feedback_core::text::Clean;
use feedback_mail::template::Values;

/// The most a subject line takes as it is typed.
const SUBJECT_MAX_BYTES: usize = 800;

/// Whether `R` can send at all; says how to set it up when not.
pub(super) fn ready(state: &mut AppState) -> bool {
    match &state.mail.settings {
        None => {
            info(
                state,
                "No [mail] in config.toml: set from and smtp_url (or sendmail) to reply (docs/replies.md)",
            );
            false
        }
        Some(_) => true,
    }
}

/// Sends the replies an earlier run left waiting (the server was away), when `[mail]` sends
/// by itself.
pub(super) fn left_waiting(state: &AppState) -> Option<Effect> {
    let settings = state.mail.settings.clone()?;
    if settings.via == feedback_config::mail::Via::Mailto {
        return None;
    }
    let member = state.team.as_ref().map(|t| t.member.clone());
    Some(Effect::Network(Network::SendReplies { settings, member }))
}

/// The gathered items' reporters, one recipient per distinct address: the composer opens.
pub(super) fn compose(state: &mut AppState, items: &[GatheredItem]) -> Vec<Effect> {
    let agent = state.team.as_ref().map(|t| t.member.clone()).or_else(|| {
        state
            .mail
            .settings
            .as_ref()
            .and_then(|s| feedback_mail::compose::from(&s.from).ok())
            .and_then(|m| m.name)
    });
    let me = state.team.as_ref().map(|t| t.member.clone());
    let day_ago = state.now - jiff::SignedDuration::from_hours(24);
    let mut answered: Vec<String> = Vec::new();
    let mut recipients: Vec<Recipient> = Vec::new();
    let mut skipped = 0;
    for item in items {
        // A teammate's reply of the last day to this item's reporter is said before `y`.
        for reply in item.team.iter().flat_map(|t| &t.replies) {
            let theirs = reply
                .by
                .as_ref()
                .is_some_and(|by| me.as_deref() != Some(by.as_str()));
            if theirs && reply.sent() && reply.at > day_ago {
                let to = crate::privacy::email(&reply.to, state.acting.privacy).into_owned();
                let by = reply
                    .by
                    .as_ref()
                    .map(ToString::to_string)
                    .unwrap_or_default();
                let when = feedback_core::timefmt::age(state.now, reply.at);
                answered.push(format!("{by} replied to {to} {when} ago"));
            }
        }
        let f = &item.detail.item.feedback;
        let to = f
            .reporter_email
            .as_deref()
            .and_then(|e| feedback_mail::compose::reporter(e).ok());
        let Some(to) = to.map(|a| a.to_string()) else {
            skipped += 1;
            continue;
        };
        let id = f.id.as_str().to_owned();
        if let Some(known) = recipients
            .iter_mut()
            .find(|r| r.to.eq_ignore_ascii_case(&to))
        {
            known.item_ids.push(id);
            continue;
        }
        let ticket = item
            .team
            .as_ref()
            .and_then(|t| t.newest_link())
            .map(|l| l.link.url().to_owned());
        recipients.push(Recipient {
            to,
            item_ids: vec![id.clone()],
            values: Values {
                app: f.app.as_ref().map(|a| a.name.clone()),
                version: item.detail.metadata.built_in.get("appVersion").cloned(),
                ticket,
                agent: agent.clone(),
                id,
                project: Some(f.project.name.clone()),
            },
            message: f.message.clone(),
            written: f.received_at.strftime("%Y-%m-%d").to_string(),
        });
    }
    if recipients.is_empty() {
        info(
            state,
            "None of these items has a reporter's address to reply to",
        );
        return Vec::new();
    }
    let templates = state.mail.offered();
    // A teammate composing a reply to one of these items now is said too.
    if let Some(team) = &state.team {
        for item in items {
            let id = item.detail.item.feedback.id.as_str();
            if let Some(who) = team.replying_to(id).first() {
                answered.insert(0, format!("{who} is replying to {} now", Clean::line(id)));
                break;
            }
        }
    }
    let mut composer = Composer::new(recipients, skipped, templates);
    composer.answered = answered.first().map(|first| {
        Clean::line(&match answered.len() {
            1 => first.clone(),
            n => format!("{first} (and {} more replies in the last day)", n - 1),
        })
    });
    let editing = matches!(composer.step, Step::Edit { .. });
    state.mail.composer = Some(composer);
    if editing {
        return outside(state);
    }
    Vec::new()
}

/// A key in the composer.
pub(super) fn input(state: &mut AppState, key: KeyEvent) -> Vec<Effect> {
    let Some(composer) = state.mail.composer.as_mut() else {
        return Vec::new();
    };
    match composer.step.clone() {
        Step::Template { selected } => {
            let count = composer.templates.len() + 1;
            match picker_key(&key, selected, count, Typing::None) {
                PickerKey::Select(n) => composer.step = Step::Template { selected: n },
                PickerKey::Choose(n) => {
                    composer.take_template(n.checked_sub(1));
                    return outside(state);
                }
                PickerKey::Cancel => closed(state),
                PickerKey::Other => state.dirty = false,
            }
            Vec::new()
        }
        Step::Edit { subject_focus } => edit_key(state, key, subject_focus),
        Step::Confirm => match key.code {
            KeyCode::Char('y' | 'Y') => send(state),
            // Anything else goes back to the text, kept.
            _ => {
                composer.step = Step::Edit {
                    subject_focus: false,
                };
                Vec::new()
            }
        },
        Step::Sending => {
            state.dirty = false;
            Vec::new()
        }
        Step::AskSent { replies } => match key.code {
            KeyCode::Char('y' | 'Y') => {
                composer.step = Step::Sending;
                vec![Effect::Write(Write::RecordReplies {
                    replies,
                    member: state.team.as_ref().map(|t| t.member.clone()),
                    at: state.now,
                })]
            }
            _ => {
                state.mail.composer = None;
                info(
                    state,
                    "Not recorded: the replies did not go (R writes them again)",
                );
                Vec::new()
            }
        },
    }
}

/// With `$EDITOR` (or `$VISUAL`) set, the text goes to it; else it is edited here.
fn outside(state: &mut AppState) -> Vec<Effect> {
    let Some(composer) = state.mail.composer.as_ref() else {
        return Vec::new();
    };
    if !state.triage.external_editor {
        return Vec::new();
    }
    vec![Effect::Terminal(crate::effect::Handover::EditReply {
        text: composer.text(),
    })]
}

/// The editor ended: its text is the reply's, shown on the confirm screen (the subject and
/// the text stay editable here: any key but `y` goes back to them).
pub(super) fn edited(state: &mut AppState, result: Result<Option<String>, String>) -> Vec<Effect> {
    let Some(composer) = state.mail.composer.as_mut() else {
        return Vec::new();
    };
    match result {
        Ok(text) => {
            if let Some(text) = text {
                let clean = feedback_core::text::sanitize(feedback_store::capped_note(&text).0);
                composer.body =
                    ratatui_textarea::TextArea::new(clean.lines().map(str::to_owned).collect());
            }
            match composer.filled() {
                Ok(_) => composer.step = Step::Confirm,
                Err(why) => composer.error = Some(Clean::line(&why)),
            }
        }
        Err(why) => {
            composer.error = Some(Clean::line(&format!("the editor failed: {why}")));
        }
    }
    Vec::new()
}

fn edit_key(state: &mut AppState, key: KeyEvent, subject_focus: bool) -> Vec<Effect> {
    let Some(composer) = state.mail.composer.as_mut() else {
        return Vec::new();
    };
    composer.error = None;
    match key.code {
        KeyCode::Esc => closed(state),
        KeyCode::Tab | KeyCode::BackTab => {
            composer.step = Step::Edit {
                subject_focus: !subject_focus,
            };
        }
        KeyCode::Enter if !key.modifiers.contains(KeyModifiers::ALT) => match composer.filled() {
            Ok(_) => composer.step = Step::Confirm,
            Err(why) => composer.error = Some(Clean::line(&why)),
        },
        KeyCode::Enter if !subject_focus => composer.body.insert_newline(),
        KeyCode::Backspace if subject_focus => {
            composer.subject.pop();
        }
        KeyCode::Char(c) if subject_focus && !c.is_control() => {
            if composer.subject.len() + c.len_utf8() <= SUBJECT_MAX_BYTES {
                composer.subject.push(c);
            }
        }
        _ if subject_focus => state.dirty = false,
        _ => {
            composer.body.input(key);
        }
    }
    Vec::new()
}

/// A paste: into the subject (one line) or the text (lines kept), made inert.
pub(super) fn paste(state: &mut AppState, text: &str) -> Vec<Effect> {
    let Some(composer) = state.mail.composer.as_mut() else {
        state.dirty = false;
        return Vec::new();
    };
    match composer.step {
        Step::Edit {
            subject_focus: true,
        } => {
            for c in Clean::line(text).chars() {
                if composer.subject.len() + c.len_utf8() > SUBJECT_MAX_BYTES {
                    break;
                }
                composer.subject.push(c);
            }
        }
        Step::Edit {
            subject_focus: false,
        } => {
            let (kept, _) = feedback_store::capped_note(text);
            composer
                .body
                .insert_str(feedback_core::text::sanitize(kept));
        }
        _ => state.dirty = false,
    }
    Vec::new()
}

fn closed(state: &mut AppState) {
    state.mail.composer = None;
    info(state, "Reply not sent");
}

/// `y`: the replies written to the outbox (they leave once it committed).
fn send(state: &mut AppState) -> Vec<Effect> {
    let by = state.team.as_ref().map(|t| t.member.clone());
    let Some(composer) = state.mail.composer.as_mut() else {
        return Vec::new();
    };
    let filled = match composer.filled() {
        Ok(filled) => filled,
        Err(why) => {
            composer.error = Some(Clean::line(&why));
            composer.step = Step::Edit {
                subject_focus: false,
            };
            return Vec::new();
        }
    };
    let batch = uuid::Uuid::new_v4().to_string();
    let replies: Vec<feedback_store::NewReply> = filled
        .into_iter()
        .map(|(recipient, subject, body)| feedback_store::NewReply {
            reply_id: uuid::Uuid::new_v4().to_string(),
            batch: batch.clone(),
            item_ids: recipient.item_ids,
            to: recipient.to,
            subject,
            body,
            by: by.clone(),
        })
        .collect();
    let mailto = state
        .mail
        .settings
        .as_ref()
        .is_some_and(|s| s.via == feedback_config::mail::Via::Mailto);
    if mailto {
        return hand_to_mail_client(state, replies);
    }
    if let Some(composer) = state.mail.composer.as_mut() {
        composer.step = Step::Sending;
    }
    vec![Effect::Write(Write::QueueReplies {
        replies,
        at: state.now,
    })]
}

/// `mailto`: each reply opened in the desktop's mail client; then the user is asked whether
/// they went, and only then are they recorded.
fn hand_to_mail_client(
    state: &mut AppState,
    replies: Vec<feedback_store::NewReply>,
) -> Vec<Effect> {
    if replies.len() > crate::replying::MAILTO_MAX {
        error(
            state,
            format!(
                "The mail client takes at most {} replies at once (one window each): mark fewer, or set smtp_url in [mail]",
                crate::replying::MAILTO_MAX
            ),
        );
        return Vec::new();
    }
    let effects = replies
        .iter()
        .map(|r| {
            Effect::Local(Local::OpenUrl {
                url: crate::replying::mailto(&r.to, &r.subject, &r.body),
            })
        })
        .collect();
    if let Some(composer) = state.mail.composer.as_mut() {
        composer.step = Step::AskSent { replies };
    }
    effects
}

/// The replies the mail client sent are recorded.
pub(super) fn recorded(state: &mut AppState, result: Result<usize, Failure>) -> Vec<Effect> {
    match result {
        Ok(count) => {
            state.mail.composer = None;
            info(
                state,
                format!(
                    "Recorded {} as sent",
                    feedback_core::text::output::counted(count, "reply")
                ),
            );
            let mut effects: Vec<Effect> = super::sync::triage_changed(state).into_iter().collect();
            if state.team.is_some() {
                effects.push(Effect::Local(Local::TeamSend));
            }
            effects
        }
        Err(why) => {
            if let Some(composer) = state.mail.composer.as_mut() {
                composer.step = Step::Confirm;
            }
            error(state, format!("Replies not recorded: {why}"));
            Vec::new()
        }
    }
}

/// The replies are in the outbox: the composer closes and they are sent.
pub(super) fn queued(state: &mut AppState, result: Result<usize, Failure>) -> Vec<Effect> {
    match result {
        Ok(count) => {
            state.mail.composer = None;
            state.mail.sending += count;
            info(
                state,
                format!(
                    "Sending {}…",
                    feedback_core::text::output::counted(count, "reply")
                ),
            );
            let Some(settings) = state.mail.settings.clone() else {
                return Vec::new();
            };
            let member = state.team.as_ref().map(|t| t.member.clone());
            vec![Effect::Network(Network::SendReplies { settings, member })]
        }
        Err(why) => {
            if let Some(composer) = state.mail.composer.as_mut() {
                composer.step = Step::Confirm;
            }
            error(state, format!("Replies not kept (nothing was sent): {why}"));
            Vec::new()
        }
    }
}

/// The sender answered: what left, and what did not and why.
pub(super) fn sent(state: &mut AppState, result: Result<Vec<SentReply>, String>) -> Vec<Effect> {
    state.mail.sending = 0;
    let outcomes = match result {
        Ok(outcomes) => outcomes,
        Err(why) => {
            error(
                state,
                Clean::line(&format!(
                    "Replies kept, not sent: {why} (they leave at the next R)"
                )),
            );
            return Vec::new();
        }
    };
    if outcomes.is_empty() {
        // Nothing waited.
        state.dirty = false;
        return Vec::new();
    }
    let sent = outcomes.iter().filter(|o| o.sent).count();
    let unknown = outcomes.iter().filter(|o| o.unknown).count();
    let not: Vec<&SentReply> = outcomes.iter().filter(|o| !o.sent && !o.unknown).collect();
    let counted = feedback_core::text::output::counted(sent, "reply");
    match not.first() {
        None if unknown > 0 => error(
            state,
            format!(
                "Sent {counted}; {} may or may not have left (a sender was stopped mid-send): the item's Replies say what to check",
                feedback_core::text::output::counted(unknown, "reply")
            ),
        ),
        None => info(state, format!("Sent {counted}")),
        Some(first) => {
            let to = crate::privacy::email(&first.to, state.acting.privacy).into_owned();
            let what = if first.waits { "waits" } else { "failed" };
            let why = first.why.as_deref().unwrap_or_default();
            error(
                state,
                Clean::line(&format!(
                    "Sent {counted}; {} not: {to} {what} ({why})",
                    not.len()
                )),
            );
        }
    }
    let mut effects: Vec<Effect> = super::sync::triage_changed(state).into_iter().collect();
    if state.team.is_some() && sent > 0 {
        effects.push(Effect::Local(Local::TeamSend));
    }
    effects
}
