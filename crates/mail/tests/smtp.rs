//! The replies outbox sent to a real SMTP server on loopback (aiosmtpd, `smtp_server.py`):
//! each reply leaves once, one per address; a recipient refused for good fails alone, one the
//! server cannot take now waits; a server that drops the connection in the middle of DATA
//! leaves the reply waiting, sent once later; STARTTLS with a test certificate, checked
//! against the `ca_file`'s root (and refused without it).
#![allow(clippy::unwrap_used)]

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use feedback_config::mail::{MailSettings, Via};
use feedback_mail::sender::{Sending, send_waiting};
use feedback_mail::testing::SmtpServer as Server;
use feedback_mail::transport::Mailer;
use feedback_store::{NewReply, ReplyState, Shared, Store};
use jiff::Timestamp;

fn settings(port: u16, host: &str, ca_file: Option<PathBuf>) -> MailSettings {
    MailSettings {
        from: "Support <support@acme.example>".to_owned(),
        via: Via::Smtp {
            url: format!("smtp://{host}:{port}"),
            username: None,
            password_command: None,
            ca_file,
        },
        per_minute: 600,
    }
}

fn sending(settings: &MailSettings) -> Sending {
    Sending {
        mailer: Mailer::new(settings).unwrap(),
        from: feedback_mail::compose::from(&settings.from).unwrap(),
        per_minute: settings.per_minute,
        share: None,
    }
}

fn reply(id: &str, item: &str, to: &str) -> NewReply {
    NewReply {
        reply_id: id.to_owned(),
        batch: "b1".to_owned(),
        item_ids: vec![item.to_owned()],
        to: to.to_owned(),
        subject: "Re: your feedback on Nimbus Notes".to_owned(),
        body: format!("Thanks, it is fixed in 3.10.1.\n\n> {item} said it crashed\n"),
        by: None,
    }
}

fn store_with(replies: &[NewReply]) -> Shared {
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    store
        .write(|s| s.queue_replies(replies, Timestamp::now()))
        .unwrap();
    store
}

fn states(store: &Shared) -> Vec<(String, ReplyState)> {
    store
        .read(|s| s.replies_of_batch("b1"))
        .unwrap()
        .into_iter()
        .map(|r| (r.reply_id, r.state))
        .collect()
}

#[tokio::test]
async fn each_reporter_gets_one_reply_and_it_never_leaves_twice() {
    let Some(server) = Server::start(&[]) else {
        return;
    };
    let store = store_with(&[
        reply("r1", "fb_1", "ana@example.org"),
        reply("r2", "fb_2", "Ana@Example.org"),
        reply("r3", "fb_3", "bo@example.org"),
    ]);
    let sending = sending(&settings(server.port, "127.0.0.1", None));
    let outcomes = send_waiting(&store, &sending, &Timestamp::now)
        .await
        .unwrap();
    let sent: Vec<(&str, ReplyState)> = outcomes
        .iter()
        .map(|o| (o.reply.to.as_str(), o.state))
        .collect();
    assert_eq!(
        sent,
        [
            ("ana@example.org", ReplyState::Sent),
            ("bo@example.org", ReplyState::Sent)
        ]
    );
    let messages = server.messages();
    assert_eq!(messages.len(), 2);
    assert!(
        messages[0].contains("To: ana@example.org\r\n"),
        "{}",
        messages[0]
    );
    assert!(messages[0].contains("From: Support <support@acme.example>\r\n"));
    assert!(messages[0].contains("Subject: Re: your feedback on Nimbus Notes\r\n"));
    assert!(messages[0].contains("fixed in 3.10.1"));
    // Sent again: nothing waits, nothing leaves.
    assert!(
        send_waiting(&store, &sending, &Timestamp::now)
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(server.messages().len(), 2);
    assert_eq!(
        states(&store),
        [
            ("r1".to_owned(), ReplyState::Sent),
            ("r3".to_owned(), ReplyState::Sent)
        ]
    );
}

#[tokio::test]
async fn a_refused_recipient_fails_alone_and_one_the_server_cannot_take_now_waits() {
    let Some(server) = Server::start(&[]) else {
        return;
    };
    let store = store_with(&[
        reply("r1", "fb_1", "refuse@example.org"),
        reply("r2", "fb_2", "bo@example.org"),
        reply("r3", "fb_3", "later@example.org"),
        reply("r4", "fb_4", "cy@example.org"),
    ]);
    let sending = sending(&settings(server.port, "127.0.0.1", None));
    let outcomes = send_waiting(&store, &sending, &Timestamp::now)
        .await
        .unwrap();
    assert_eq!(outcomes.len(), 3, "the round ends at the reply that waits");
    assert_eq!(outcomes[0].state, ReplyState::Failed);
    assert!(
        outcomes[0].why.as_deref().unwrap().contains("550"),
        "{:?}",
        outcomes[0].why
    );
    assert_eq!(outcomes[2].state, ReplyState::Waiting);
    assert!(
        outcomes[2].why.as_deref().unwrap().contains("451"),
        "{:?}",
        outcomes[2].why
    );
    assert_eq!(
        states(&store),
        [
            ("r1".to_owned(), ReplyState::Failed),
            ("r2".to_owned(), ReplyState::Sent),
            ("r3".to_owned(), ReplyState::Waiting),
            ("r4".to_owned(), ReplyState::Waiting),
        ]
    );
    assert_eq!(server.messages().len(), 1);
}

#[tokio::test]
async fn a_connection_dropped_in_the_middle_of_data_leaves_the_reply_waiting_to_be_sent_once() {
    let Some(dropper) = Server::start(&["--mode", "drop"]) else {
        return;
    };
    let store = store_with(&[reply("r1", "fb_1", "ana@example.org")]);
    let outcomes = send_waiting(
        &store,
        &sending(&settings(dropper.port, "127.0.0.1", None)),
        &Timestamp::now,
    )
    .await
    .unwrap();
    assert_eq!(
        outcomes[0].state,
        ReplyState::Waiting,
        "{:?}",
        outcomes[0].why
    );
    drop(dropper);
    let server = Server::start(&[]).unwrap();
    let sending = sending(&settings(server.port, "127.0.0.1", None));
    send_waiting(&store, &sending, &Timestamp::now)
        .await
        .unwrap();
    send_waiting(&store, &sending, &Timestamp::now)
        .await
        .unwrap();
    assert_eq!(server.messages().len(), 1);
    assert_eq!(states(&store), [("r1".to_owned(), ReplyState::Sent)]);
}

/// A test CA and a certificate it signed for 127.0.0.1 and localhost, made with openssl:
/// (the CA's PEM, the server's certificate, its key).
fn certificates(dir: &Path) -> (PathBuf, PathBuf, PathBuf) {
    let run = |args: &[&str]| {
        let status = Command::new("openssl")
            .args(args)
            .current_dir(dir)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .unwrap();
        assert!(status.success(), "openssl {args:?}");
    };
    run(&[
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/CN=feedback-inbox test CA",
        "-addext",
        "basicConstraints=critical,CA:TRUE",
        "-addext",
        "keyUsage=critical,keyCertSign,cRLSign",
    ]);
    run(&[
        "req",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "server.key",
        "-out",
        "server.csr",
        "-subj",
        "/CN=localhost",
    ]);
    std::fs::write(
        dir.join("ext.cnf"),
        "subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n\
         basicConstraints=CA:FALSE\n",
    )
    .unwrap();
    run(&[
        "x509",
        "-req",
        "-in",
        "server.csr",
        "-CA",
        "ca.pem",
        "-CAkey",
        "ca.key",
        "-CAcreateserial",
        "-out",
        "server.pem",
        "-days",
        "2",
        "-extfile",
        "ext.cnf",
    ]);
    (
        dir.join("ca.pem"),
        dir.join("server.pem"),
        dir.join("server.key"),
    )
}

#[tokio::test]
async fn starttls_is_used_with_the_servers_certificate_checked_against_the_ca_file() {
    let certs = tempfile::tempdir().unwrap();
    let (ca, cert, key) = certificates(certs.path());
    let Some(server) = Server::start(&["--tls", cert.to_str().unwrap(), key.to_str().unwrap()])
    else {
        return;
    };
    // Without the test CA the certificate is not trusted: nothing leaves.
    let store = store_with(&[reply("r1", "fb_1", "ana@example.org")]);
    let untrusted = sending(&settings(server.port, "127.0.0.1", None));
    let outcomes = send_waiting(&store, &untrusted, &Timestamp::now)
        .await
        .unwrap();
    assert_eq!(outcomes[0].state, ReplyState::Waiting);
    assert!(server.messages().is_empty());
    // With it, the reply leaves over TLS (the server takes nothing before STARTTLS).
    let trusted = sending(&settings(server.port, "127.0.0.1", Some(ca)));
    let outcomes = send_waiting(&store, &trusted, &Timestamp::now)
        .await
        .unwrap();
    assert_eq!(outcomes[0].state, ReplyState::Sent, "{:?}", outcomes[0].why);
    assert_eq!(server.messages().len(), 1);
    assert!(trusted.mailer.check().await.is_ok());
}

#[tokio::test]
async fn a_second_sender_of_the_same_store_file_is_refused_while_one_sends() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.db");
    let store = Shared::new(Store::open(&path).unwrap()).unwrap();
    let held = feedback_mail::sender::SenderLock::take(&store).unwrap();
    let other = Shared::new(Store::open(&path).unwrap()).unwrap();
    assert!(matches!(
        feedback_mail::sender::SenderLock::take(&other),
        Err(feedback_mail::sender::SenderError::Busy)
    ));
    drop(held);
    assert!(feedback_mail::sender::SenderLock::take(&other).is_ok());
}
