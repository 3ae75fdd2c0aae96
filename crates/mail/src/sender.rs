//! Sending the store's replies outbox: one sender per store at a time (an exclusive lock on
//! `<store>.mail.lock`, released by the system however the process ends), which first marks
//! `unknown` what a sender killed mid-send left `sending`, then sends what waits, oldest first,
//! paced: each reply marked `sending` (committed) before it is handed over and `sent` once the
//! server took it. A server away or saying "later" leaves the reply waiting and ends the round
//! (the rest wait too); a refusal for good fails that reply alone.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::time::Duration;

use feedback_store::{Reply, ReplyState, Shared, StoreError};
use jiff::Timestamp;
use lettre::message::Mailbox;

use super::compose;
use super::transport::{Mailer, SendError};

/// Why the outbox could not be sent.
#[derive(Debug, thiserror::Error)]
pub enum SenderError {
    #[error("another feedback-inbox is sending this store's replies")]
    Busy,
    #[error("{0}")]
    Store(#[from] StoreError),
    #[error("the mail lock {path}: {why}")]
    Lock { path: String, why: String },
}

/// What became of one reply this round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outcome {
    pub reply: Reply,
    /// `Sent`, `Waiting` (to try later), or `Failed`.
    pub state: ReplyState,
    pub why: Option<String>,
}

/// What the team is told of a reply that left (its outbox's entries), made by the caller.
pub type Sharing = Box<dyn Fn(&Reply) -> Vec<feedback_store::OutboxEntry> + Send + Sync>;

/// How replies leave: the mailer, the From, the pace, and with a team what it is told.
pub struct Sending {
    pub mailer: Mailer,
    pub from: Mailbox,
    pub per_minute: u32,
    /// With a team: the entries recorded with a sent reply, in the same transaction.
    pub share: Option<Sharing>,
}

impl std::fmt::Debug for Sending {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Sending")
            .field("mailer", &self.mailer)
            .field("from", &self.from)
            .field("per_minute", &self.per_minute)
            .field("shared", &self.share.is_some())
            .finish()
    }
}

impl Sending {
    /// The pause between two replies.
    fn pause(&self) -> Duration {
        Duration::from_millis(60_000 / u64::from(self.per_minute.max(1)))
    }
}

/// The sender's hold on a store: while alive, no other process sends its replies.
#[derive(Debug)]
pub struct SenderLock {
    /// The lock file, locked (fs4: `flock` on Unix, `LockFileEx` on Windows; closing it lets
    /// go, as does the process ending however it ends).
    _file: Option<File>,
}

/// The lock file next to a store file.
#[must_use]
pub fn lock_path(store: &Path) -> PathBuf {
    let mut name = store.as_os_str().to_owned();
    name.push(".mail.lock");
    PathBuf::from(name)
}

impl SenderLock {
    /// Takes the store's sender lock (an in-memory store has none to take).
    ///
    /// # Errors
    /// Another process holds it, or the file cannot be opened.
    pub fn take(store: &Shared) -> Result<Self, SenderError> {
        let Some(path) = store.read(|s| s.path().map(lock_path)) else {
            return Ok(Self { _file: None });
        };
        let failed = |why: std::io::Error| SenderError::Lock {
            path: path.display().to_string(),
            why: why.to_string(),
        };
        let mut options = std::fs::OpenOptions::new();
        options.read(true).write(true).create(true).truncate(false);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let file = options.open(&path).map_err(failed)?;
        match fs4::FileExt::try_lock(&file) {
            Ok(()) => Ok(Self { _file: Some(file) }),
            Err(fs4::TryLockError::WouldBlock) => Err(SenderError::Busy),
            Err(fs4::TryLockError::Error(error)) => Err(failed(error)),
        }
    }
}

/// Sends what waits in `store`'s outbox, holding its sender lock (replies a killed sender left
/// `sending` become `unknown` first); each reply's outcome, in the order tried. `now` gives the
/// times recorded.
///
/// # Errors
/// Another process sends, or the store cannot be written (what was sent is recorded).
pub async fn send_waiting(
    store: &Shared,
    sending: &Sending,
    now: &(dyn Fn() -> Timestamp + Sync),
) -> Result<Vec<Outcome>, SenderError> {
    let _lock = SenderLock::take(store)?;
    blocking(store, feedback_store::Store::replies_recover).await?;
    let mut outcomes = Vec::new();
    // The pace is from one send's start to the next's; nothing waits after the last.
    let mut last: Option<tokio::time::Instant> = None;
    loop {
        if let Some(last) = last {
            if blocking(store, |s| s.replies_waiting()).await? == 0 {
                break;
            }
            tokio::time::sleep_until(last + sending.pause()).await;
        }
        last = Some(tokio::time::Instant::now());
        let at = now();
        let Some(reply) = blocking(store, move |s| s.reply_to_send(at)).await? else {
            break;
        };
        let sent = match compose::reporter(&reply.to).and_then(|to| {
            compose::message(
                &sending.from,
                &to,
                &reply.reply_id,
                &reply.subject,
                &reply.body,
            )
        }) {
            Ok(message) => sending.mailer.send(message).await,
            Err(why) => Err(SendError::Refused(why.to_string())),
        };
        let (state, why) = match sent {
            Ok(()) => (ReplyState::Sent, None),
            Err(SendError::Later(why)) => (ReplyState::Waiting, Some(why)),
            Err(SendError::Refused(why)) => (ReplyState::Failed, Some(why)),
        };
        let share = match (&sending.share, state) {
            (Some(share), ReplyState::Sent) => share(&reply),
            _ => Vec::new(),
        };
        let (id, told, at) = (reply.reply_id.clone(), why.clone(), now());
        blocking(store, move |s| {
            s.reply_settled(&id, state, told.as_deref(), at, &share)
        })
        .await?;
        tracing::info!(reply = %reply.reply_id, ?state, "reply");
        outcomes.push(Outcome { reply, state, why });
        if state == ReplyState::Waiting {
            break;
        }
    }
    Ok(outcomes)
}

/// Runs `f` on the store off the async threads.
async fn blocking<T: Send + 'static>(
    store: &Shared,
    f: impl FnOnce(&mut feedback_store::Store) -> Result<T, StoreError> + Send + 'static,
) -> Result<T, SenderError> {
    let store = store.clone();
    let result = tokio::task::spawn_blocking(move || store.write(f))
        .await
        .map_err(|e| StoreError::Io {
            path: "the store".to_owned(),
            message: e.to_string(),
        })?;
    Ok(result?)
}
