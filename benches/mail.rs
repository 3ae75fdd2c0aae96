//! What sending replies costs, against a real SMTP server on loopback (Python's aiosmtpd, as the
//! mail tests run it):
//!
//! - **One reply**: from the reply written to the store's outbox (the moment `y` is pressed)
//!   to the server's acceptance recorded, `MAIL_SINGLE` times (50): median and p95.
//! - **A bulk reply** to `MAIL_BULK` (500) distinct reporters at the default pace
//!   (`MAIL_PER_MINUTE`, 30 a minute, takes 17 minutes: give 600 for a 50-second run): the time
//!   it took against the pace's, and the process's resident memory before, at the end and at
//!   its peak (flat: replies are read from the store one at a time).
//!
//! `cargo bench --bench mail`. Figures for people: nothing is asserted.
#![allow(clippy::unwrap_used, clippy::cast_precision_loss)]

// Its medians; the release binary it also finds is another bench's.
#[path = "support/release.rs"]
#[allow(dead_code)]
mod release;

use std::time::{Duration, Instant};

use feedback_config::mail::{MailSettings, Via};
use feedback_mail::sender::{Sending, send_waiting};
use feedback_mail::testing::SmtpServer;
use feedback_mail::transport::Mailer;
use feedback_store::{NewReply, Shared, Store};
use jiff::Timestamp;
use release::{env_or, median, percentile};

fn main() {
    if !std::env::args().any(|a| a == "--bench") {
        // Built as a test: nothing to measure.
        return;
    }
    let Some(server) = SmtpServer::start(&[]) else {
        eprintln!("no aiosmtpd: pip install aiosmtpd");
        return;
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("mail.db")).unwrap()).unwrap();
    let sending = |per_minute: u32| Sending {
        mailer: Mailer::new(&settings(server.port, per_minute)).unwrap(),
        from: feedback_mail::compose::from("Support <support@acme.example>").unwrap(),
        per_minute,
        share: None,
    };

    let single = env_or("MAIL_SINGLE", 50);
    let one = sending(600);
    let mut times = Vec::with_capacity(single);
    for n in 0..single {
        let started = Instant::now();
        store
            .write(|s| s.queue_replies(&[reply(&format!("one-{n}"), n)], Timestamp::now()))
            .unwrap();
        let outcomes = runtime
            .block_on(send_waiting(&store, &one, &Timestamp::now))
            .unwrap();
        assert_eq!(outcomes.len(), 1);
        times.push(started.elapsed());
    }
    println!(
        "one reply, kept to accepted: median {:?}, p95 {:?} ({single} runs)",
        median(&mut times),
        percentile(&mut times, 95)
    );

    let bulk = env_or("MAIL_BULK", 500);
    let per_minute = u32::try_from(env_or("MAIL_PER_MINUTE", 30)).unwrap();
    let replies: Vec<NewReply> = (0..bulk)
        .map(|n| reply(&format!("bulk-{n}"), 10_000 + n))
        .collect();
    store
        .write(|s| s.queue_replies(&replies, Timestamp::now()))
        .unwrap();
    let before = resident("VmRSS");
    let started = Instant::now();
    let outcomes = runtime
        .block_on(send_waiting(&store, &sending(per_minute), &Timestamp::now))
        .unwrap();
    let took = started.elapsed();
    let paced =
        Duration::from_millis(60_000 / u64::from(per_minute)) * u32::try_from(bulk - 1).unwrap();
    println!(
        "bulk: {} of {bulk} sent in {took:.1?} (the pace of {per_minute} a minute: {paced:.1?}); \
         memory {} KiB before, {} KiB after, {} KiB at its peak",
        outcomes
            .iter()
            .filter(|o| o.state == feedback_store::ReplyState::Sent)
            .count(),
        before,
        resident("VmRSS"),
        resident("VmHWM")
    );
    println!(
        "server accepted {} messages in all",
        server.messages().len()
    );
}

fn settings(port: u16, per_minute: u32) -> MailSettings {
    MailSettings {
        from: "Support <support@acme.example>".to_owned(),
        via: Via::Smtp {
            url: format!("smtp://127.0.0.1:{port}"),
            username: None,
            password_command: None,
            ca_file: None,
        },
        per_minute,
    }
}

fn reply(id: &str, n: usize) -> NewReply {
    NewReply {
        reply_id: id.to_owned(),
        batch: id.to_owned(),
        item_ids: vec![format!("id{n:05}")],
        to: format!("user{n}@example.com"),
        subject: "Re: your feedback on Nimbus Notes".to_owned(),
        body: "Thanks: it is fixed in 3.10.1.\n\nOn 2026-11-30, you wrote:\n> the sync button does nothing\n".to_owned(),
        by: None,
    }
}

/// A line of this process's `/proc/self/status`, in KiB (0 where there is none).
fn resident(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .unwrap_or_default()
        .lines()
        .find_map(|l| l.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|v| v.trim().trim_end_matches(" kB").parse().ok())
        .unwrap_or(0)
}
