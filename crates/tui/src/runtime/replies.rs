//! The inbox's replies: kept in the store's outbox on the writes' thread (in order, answered
//! once committed), and sent off the UI thread by `feedback_mail` (the SMTP password asked of
//! its command there), answered with what became of each.

use jiff::Timestamp;
use tokio::sync::mpsc::UnboundedSender;

use super::reads::Task;
use crate::action::Msg;
use crate::failure::Failure;
use crate::replying::SentReply;
use feedback_config::mail::MailSettings;
use feedback_mail::sender::{Sending, Sharing, send_waiting};
use feedback_mail::transport::Mailer;
use feedback_store::{NewReply, ReplyState, Shared};

/// `Write::QueueReplies`: the replies into the outbox, in one transaction.
pub(super) fn queue(store: &Shared, replies: Vec<NewReply>, at: Timestamp) -> Task {
    let store = store.clone();
    Box::new(move || {
        let result = store
            .write(|s| s.queue_replies(&replies, at))
            .map(|queued| queued.kept)
            .map_err(Failure::from);
        Msg::RepliesQueued(result)
    })
}

/// `Write::RecordReplies`: replies the mail client sent, recorded (and told to the team).
pub(super) fn record(
    store: &Shared,
    replies: Vec<NewReply>,
    member: Option<String>,
    at: Timestamp,
) -> Task {
    let store = store.clone();
    Box::new(move || {
        let share: Vec<feedback_store::OutboxEntry> = match &member {
            Some(member) => replies
                .iter()
                .flat_map(|r| {
                    let kept = feedback_store::Reply {
                        reply_id: r.reply_id.clone(),
                        batch: r.batch.clone(),
                        item_ids: r.item_ids.clone(),
                        to: r.to.clone(),
                        subject: r.subject.clone(),
                        body: r.body.clone(),
                        by: r.by.clone(),
                        state: ReplyState::Sent,
                        made_at: at,
                        tried_at: Some(at),
                        sent_at: Some(at),
                        tries: 1,
                        why: None,
                    };
                    feedback_team_sync::reply_outbox(member, &kept, at)
                })
                .collect(),
            None => Vec::new(),
        };
        let result = store
            .write(|s| s.replies_sent_elsewhere(&replies, at, &share))
            .map_err(Failure::from);
        Msg::RepliesRecorded(result)
    })
}

/// `Network::SendReplies`: what waits in the outbox, sent by `settings`; with a team, each sent
/// reply recorded for it as `member`.
pub(super) fn send(
    store: &Shared,
    settings: MailSettings,
    member: Option<String>,
    tx: &UnboundedSender<Msg>,
) {
    let (store, tx) = (store.clone(), tx.clone());
    tokio::spawn(async move {
        let result = sent(&store, settings, member).await;
        let _ = tx.send(Msg::RepliesSent(result));
    });
}

async fn sent(
    store: &Shared,
    settings: MailSettings,
    member: Option<String>,
) -> Result<Vec<SentReply>, String> {
    let mailer = {
        let settings = settings.clone();
        // The password command may take a while: not on the async threads.
        tokio::task::spawn_blocking(move || Mailer::new(&settings))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?
    };
    let share: Option<Sharing> = member.map(|member| {
        Box::new(move |reply: &feedback_store::Reply| {
            feedback_team_sync::reply_outbox(&member, reply, Timestamp::now())
        }) as Sharing
    });
    let sending = Sending {
        mailer,
        from: feedback_mail::compose::from(&settings.from).map_err(|e| e.to_string())?,
        per_minute: settings.per_minute,
        share,
    };
    let outcomes = send_waiting(store, &sending, &Timestamp::now)
        .await
        .map_err(|e| e.to_string())?;
    let mut said: Vec<SentReply> = outcomes
        .into_iter()
        .map(|o| SentReply {
            to: o.reply.to,
            sent: o.state == ReplyState::Sent,
            waits: o.state == ReplyState::Waiting,
            why: o.why,
            unknown: false,
        })
        .collect();
    let store = store.clone();
    let unknown =
        tokio::task::spawn_blocking(move || store.read(|s| s.replies_in(ReplyState::Unknown)))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
    said.extend(unknown.into_iter().map(|r| SentReply {
        to: r.to,
        sent: false,
        waits: false,
        why: r.why,
        unknown: true,
    }));
    Ok(said)
}
