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
    // Nothing waits and no sender was stopped mid-send (the start's look, most often): no
    // password is asked, nothing is locked.
    let idle = {
        let store = store.clone();
        tokio::task::spawn_blocking(move || {
            store.read(|s| {
                Ok::<_, feedback_store::StoreError>(
                    s.replies_in(ReplyState::Waiting)?.is_empty()
                        && s.replies_in(ReplyState::Sending)?.is_empty(),
                )
            })
        })
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?
    };
    if idle {
        return Ok(Vec::new());
    }
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

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;
    use feedback_config::mail::Via;

    fn settings(port: u16) -> MailSettings {
        MailSettings {
            from: "Support <support@acme.example>".to_owned(),
            via: Via::Smtp {
                url: format!("smtp://127.0.0.1:{port}"),
                username: None,
                // Asked only when something is to be sent.
                password_command: None,
                ca_file: None,
            },
            per_minute: 600,
        }
    }

    #[tokio::test]
    async fn what_waits_leaves_once_and_nothing_waiting_asks_nothing_of_the_server() {
        let store = Shared::new(feedback_store::Store::open_memory().unwrap()).unwrap();
        // No server on port 9 (discard): with nothing waiting it is never reached.
        assert_eq!(sent(&store, settings(9), None).await, Ok(Vec::new()));
        let Some(server) = feedback_mail::testing::SmtpServer::start(&[]) else {
            return;
        };
        let reply = NewReply {
            reply_id: "r1".to_owned(),
            batch: "b".to_owned(),
            item_ids: vec!["id00001".to_owned()],
            to: "user1@example.com".to_owned(),
            subject: "Fixed".to_owned(),
            body: "It is fixed.".to_owned(),
            by: None,
        };
        store
            .write(|s| s.queue_replies(&[reply], Timestamp::now()))
            .unwrap();
        let said = sent(&store, settings(server.port), None).await.unwrap();
        assert_eq!(said.len(), 1);
        assert!(said[0].sent, "{said:?}");
        assert!(
            sent(&store, settings(server.port), None)
                .await
                .unwrap()
                .is_empty()
        );
        assert_eq!(server.messages().len(), 1);
    }
}
