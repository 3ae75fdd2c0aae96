//! Keeping a store's replica of the team: what the team's database says is read into the store
//! after the replica's position ([`catch_up`]), and the changes made here are sent from the
//! store's outbox in the order made ([`send`]). A change is recorded in the outbox
//! ([`record`]) durably before anything shows it; the states the inbox and the commands show
//! are the replica's with the outbox's changes laid over, marked pending ([`shared_states`]).
//! `NOTIFY` only hints that there is more to read; [`catch_up`] reads the truth.
//!
//! It joins the store and the team backend (neither knows the other) and also owns the team's
//! shared mirror of the account (`mirror`, `syncer`, `deliveries`, `team_walk`). It never imports
//! either driver, the inbox or the command line.

use std::collections::BTreeMap;

pub mod deliveries;
pub mod history;
pub mod live;
pub mod mirror;
pub mod syncer;
pub mod team_walk;
pub mod templates;

use feedback_core::link::Link;
use jiff::Timestamp;

use feedback_store::{
    OutboxEntry, Rebuilt, ReplicaStart, Shared, StoreError, TeamBatch, TeamItemRecord,
};
use feedback_team::{Change, Outcome, Position, Team, TeamError, TeamEvent};

/// Events read per round trip while catching up: memory stays flat however far behind.
pub const BATCH: i64 = 5000;

/// Why keeping the replica failed.
#[derive(Debug, thiserror::Error)]
pub enum TeamSyncError {
    #[error(transparent)]
    Team(#[from] TeamError),
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error(
        "this store holds {pending} change(s) not yet sent to team {team} as {member}: connect as \
         {member} to team {team} to send them first"
    )]
    OtherTeamPending {
        team: String,
        member: String,
        pending: usize,
    },
    #[error("the store task failed: {0}")]
    Task(String),
    /// The store follows no team yet: it joins first (`join`).
    #[error("this store has not joined the team yet")]
    NotJoined,
    /// The walk state the team's mirror holds does not read (a newer version wrote it?).
    #[error("the team's walk state does not read: {0}")]
    WalkState(String),
}

impl TeamSyncError {
    /// The team's database could not be reached (or the connection broke): what was asked is
    /// kept for later, and what is stored still answers.
    #[must_use]
    pub fn is_unreachable(&self) -> bool {
        matches!(self, Self::Team(error) if error.is_unreachable())
    }
}

/// Makes `store`'s replica `team`'s: the team records the store's account (its projects) when
/// it has none yet, and refuses a store of another account.
///
/// The team's id is checked against the one the replica followed: another team of the name
/// (dropped and made again) starts the replica again, said in the answer.
///
/// # Errors
/// The team refused the account, the database failed, or the store holds changes not yet sent
/// to another team.
pub async fn join(team: &Team, store: &Shared) -> Result<Option<Rebuilt>, TeamSyncError> {
    let projects = blocking(store, |s| s.known_project_ids()).await??;
    team.bind_account(&projects).await?;
    let (name, member) = (team.name().to_owned(), team.member().to_owned());
    match blocking(store, move |s| s.team_start_replica(&name, &member)).await?? {
        ReplicaStart::Ready => {}
        ReplicaStart::OtherTeamPending {
            team,
            member,
            pending,
        } => {
            return Err(TeamSyncError::OtherTeamPending {
                team,
                member,
                pending,
            });
        }
    }
    let instance = team.instance().to_owned();
    let followed = blocking(store, |s| s.team_replica())
        .await??
        .and_then(|r| r.instance);
    match followed {
        Some(followed) if followed != instance => {
            rebuild(store, instance, Rebuilt::OtherTeam).await.map(Some)
        }
        Some(_) => Ok(None),
        None => {
            blocking(store, move |s| s.team_record_instance(&instance)).await??;
            Ok(None)
        }
    }
}

/// Starts the replica again from the team's first event, for `why`; said by the caller.
async fn rebuild(store: &Shared, instance: String, why: Rebuilt) -> Result<Rebuilt, TeamSyncError> {
    let kept = blocking(store, move |s| {
        s.team_rebuild_replica(&instance, Timestamp::now())
    })
    .await??;
    tracing::warn!(why = %why.describe(), kept, "the team's state is read again from the start");
    Ok(why)
}

/// The replica's position, after checking that the event it is after is the one the store
/// read: where the team's database went back (restored from an earlier copy), the replica is
/// started again from the first event, and that is said in `rebuilt`.
async fn checked_position(
    team: &Team,
    store: &Shared,
    rebuilt: &mut Option<Rebuilt>,
) -> Result<Position, TeamSyncError> {
    let Some(replica) = blocking(store, |s| s.team_replica()).await?? else {
        return Ok(Position::start());
    };
    if replica.seq == 0 {
        return Ok(Position { seq: 0 });
    }
    let seq = replica.seq;
    let read = blocking(store, move |s| s.team_event_id_at(seq)).await??;
    let there = team.event_id_at(seq).await?;
    // A position whose event the store does not hold (never the case for one it read) is
    // checked by its presence alone.
    let same = match (&read, &there) {
        (Some(read), Some(there)) => read == there,
        (None, there) => there.is_some(),
        (Some(_), None) => false,
    };
    if same {
        return Ok(Position { seq });
    }
    let instance = team.instance().to_owned();
    *rebuilt = Some(rebuild(store, instance, Rebuilt::WentBack { seq }).await?);
    Ok(Position { seq: 0 })
}

/// What a catch-up read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CaughtUp {
    pub events: usize,
    /// The replica was started again first, and why (the team's database went back).
    pub rebuilt: Option<Rebuilt>,
    /// Events of items assigned to this member by someone else, in the order read.
    pub assigned_to_me: Vec<TeamEvent>,
}

/// Reads every event after the replica's position, in batches of [`BATCH`], each stored with
/// the state of the items it touched and the position after it in one transaction.
///
/// # Errors
/// The database or the store failed: what was stored before stays.
pub async fn catch_up(
    team: &Team,
    store: &Shared,
    now: impl Fn() -> Timestamp,
) -> Result<CaughtUp, TeamSyncError> {
    let mut caught_up = CaughtUp::default();
    let mut position = checked_position(team, store, &mut caught_up.rebuilt).await?;
    let mut read = read_batch(team, &position).await?;
    loop {
        let (events, states) = read;
        let full = i64::try_from(events.len()).unwrap_or(i64::MAX) >= BATCH;
        if let Some(last) = events.last() {
            position = Position { seq: last.seq };
        }
        let mut batch = TeamBatch {
            seq: position.seq,
            caught_up: !full,
            ..TeamBatch::default()
        };
        for event in events {
            if let Some(Change::Assign { to, .. }) = event.change.known()
                && event.member != team.member()
                && to == team.member()
            {
                caught_up.assigned_to_me.push(event.clone());
            }
            batch.events.push(event);
        }
        batch.items = states
            .into_iter()
            .map(|s| TeamItemRecord {
                item_id: s.item_id,
                owner: s.owner,
                labels: s.labels,
                done: s.done,
                snoozed_until: s.snoozed_until,
                last_seq: s.last_seq,
            })
            .collect();
        caught_up.events += batch.events.len();
        let at = now();
        let apply = blocking(store, move |s| s.team_apply(&batch, at));
        if !full {
            apply.await??;
            return Ok(caught_up);
        }
        // The next batch is read from the database while this one is written to the store.
        let (applied, next) = tokio::join!(apply, read_batch(team, &position));
        applied??;
        read = next?;
    }
}

/// The events after `position` (at most a batch) and the current state of the items they
/// are about.
async fn read_batch(
    team: &Team,
    position: &Position,
) -> Result<(Vec<TeamEvent>, Vec<feedback_team::ItemState>), TeamSyncError> {
    let events = team.events_after(position, BATCH).await?;
    let mut ids: Vec<String> = events.iter().map(|e| e.item_id.clone()).collect();
    ids.sort_unstable();
    ids.dedup();
    let states = if ids.is_empty() {
        Vec::new()
    } else {
        team.states(&ids).await?
    };
    Ok((events, states))
}

/// Records `changes` (an item and its change each) in the outbox, in this order, durably; the
/// event ids made for them.
///
/// # Errors
/// The store could not write them: none was recorded.
pub async fn record(
    store: &Shared,
    member: &str,
    changes: &[(String, Change)],
    now: Timestamp,
) -> Result<Vec<String>, TeamSyncError> {
    let (member, changes) = (member.to_owned(), changes.to_vec());
    Ok(blocking(store, move |s| record_in(s, &member, &changes, now)).await??)
}

/// [`record`] on a store at hand (a thread that may block).
///
/// # Errors
/// The store could not write them: none was recorded.
pub fn record_in(
    store: &mut feedback_store::Store,
    member: &str,
    changes: &[(String, Change)],
    now: Timestamp,
) -> Result<Vec<String>, StoreError> {
    let entries = outbox_entries(member, changes, now);
    store.team_outbox_push(&entries)?;
    Ok(entries.into_iter().map(|e| e.event_id).collect())
}

/// The outbox's entries for `changes` made by `member` at `now`, each with an event id of its
/// own (made once: sending it again is harmless).
#[must_use]
pub(crate) fn outbox_entries(
    member: &str,
    changes: &[(String, Change)],
    now: Timestamp,
) -> Vec<OutboxEntry> {
    changes
        .iter()
        .map(|(item_id, change)| OutboxEntry {
            event_id: uuid::Uuid::new_v4().to_string(),
            item_id: item_id.clone(),
            change: Ok(change.clone()),
            member: member.to_owned(),
            made_at: now,
        })
        .collect()
}

/// The outbox's entries for local triage `changes` by `member` (with a team; none without):
/// what of them the team is told ([`shared_change`]: done, snooze and notes).
#[must_use]
pub fn triage_outbox(
    member: Option<&str>,
    changes: &[(String, feedback_store::TriageChange)],
    at: Timestamp,
) -> Vec<OutboxEntry> {
    let Some(member) = member else {
        return Vec::new();
    };
    let team: Vec<(String, Change)> = changes
        .iter()
        .filter_map(|(id, change)| shared_change(id, change, member).map(|c| (id.clone(), c)))
        .collect();
    outbox_entries(member, &team, at)
}

/// What the team is told of `reply`, sent by `member` at `at`: a `reply` event on each item it
/// answered.
#[must_use]
pub fn reply_outbox(
    member: &str,
    reply: &feedback_store::Reply,
    at: Timestamp,
) -> Vec<OutboxEntry> {
    let changes: Vec<(String, Change)> = reply
        .item_ids
        .iter()
        .map(|id| {
            let change = Change::Reply {
                reply_id: reply.reply_id.clone(),
                to: reply.to.clone(),
                subject: reply.subject.clone(),
                body: reply.body.clone(),
            };
            (id.clone(), change)
        })
        .collect();
    outbox_entries(member, &changes, at)
}

/// What a local triage change of `item` by `member` tells the team: done, snooze and the note
/// are shared (the member's note is one note of the item's thread, each edit a version); seen
/// and starred are the member's own.
#[must_use]
pub(crate) fn shared_change(
    item: &str,
    change: &feedback_store::TriageChange,
    member: &str,
) -> Option<Change> {
    use feedback_store::TriageChange;
    match change {
        TriageChange::Done(done) => Some(Change::Done(*done)),
        TriageChange::Snooze(until) => Some(Change::Snooze(*until)),
        TriageChange::Note(note) => Some(Change::Note {
            note_id: format!("{member}/{item}"),
            body: note.clone().unwrap_or_default(),
        }),
        TriageChange::Seen(_) | TriageChange::Starred(_) => None,
    }
}

/// What one change sent became.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The team has it (now, or from an earlier send).
    Applied,
    /// The team refused it (someone else owns the item, or the change is not allowed): why.
    Lost(String),
}

/// What [`send`] did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sent {
    /// How many changes the send took out of the outbox (applied or lost).
    pub count: usize,
    /// The changes reported one by one, by event id, with their item and what became of
    /// them, in the order sent: a command's own changes, and every change the team refused
    /// (the others are only counted, so a long outbox is sent with memory flat).
    pub settled: Vec<(String, String, Settled)>,
    /// Changes still in the outbox once the send ended (the database went away meanwhile, the
    /// send's time ran out, or changes were made meanwhile).
    pub pending: usize,
}

/// Changes sent in one go at most: read from the store, sent pipelined, and settled in one
/// store write, so memory stays flat however many wait and the store is never held while the
/// team answers.
pub const SEND_CHUNK: usize = 250;

/// Which of the outbox's changes a send takes.
#[derive(Debug, Clone, Copy)]
pub enum Sending<'a> {
    /// Every change, until none waits (or the database goes away).
    All,
    /// First the changes of these items (a command's own, however many others wait before
    /// them: changes of other items need no order between them), then the others until the
    /// moment given, after which they wait for the next send.
    Own(&'a [String], tokio::time::Instant),
}

/// Sends the outbox in the order the changes were made, each taken out of it once the team
/// answered. A change the team refuses is kept among the lost changes (reported, never
/// silently dropped); when the database goes away, the rest waits for the next send.
///
/// # Errors
/// The store failed.
pub async fn send(
    team: &Team,
    store: &Shared,
    now: impl Fn() -> Timestamp,
) -> Result<Sent, TeamSyncError> {
    send_some(team, store, Sending::All, now).await
}

/// [`send`] of the changes `sending` takes.
///
/// # Errors
/// The store failed.
pub async fn send_some(
    team: &Team,
    store: &Shared,
    sending: Sending<'_>,
    now: impl Fn() -> Timestamp,
) -> Result<Sent, TeamSyncError> {
    let mut sent = Sent::default();
    let reachable = match sending {
        Sending::All => send_chunks(team, store, None, None, &now, &mut sent).await?,
        Sending::Own(items, until) => {
            send_chunks(team, store, Some(items), None, &now, &mut sent).await?
                && send_chunks(team, store, None, Some(until), &now, &mut sent).await?
        }
    };
    sent.pending = blocking(store, |s| s.team_outbox_len()).await??;
    if !reachable {
        tracing::info!(
            pending = sent.pending,
            "the team's database went away; the outbox waits"
        );
    }
    Ok(sent)
}

/// Sends the changes of `items` (all when `None`), oldest first, a chunk at a time, until
/// none is left or `until` has passed; false when the database went away (the rest waits).
async fn send_chunks(
    team: &Team,
    store: &Shared,
    items: Option<&[String]>,
    until: Option<tokio::time::Instant>,
    now: &impl Fn() -> Timestamp,
    sent: &mut Sent,
) -> Result<bool, TeamSyncError> {
    loop {
        if until.is_some_and(|until| tokio::time::Instant::now() >= until) {
            return Ok(true);
        }
        let of = items.map(<[String]>::to_vec);
        let waiting = blocking(store, move |s| {
            s.team_outbox_first(SEND_CHUNK, of.as_deref())
        })
        .await??;
        if waiting.is_empty() {
            return Ok(true);
        }
        let chunk = one_per_item(waiting);
        let readable: Vec<(&str, &str, &Change)> = chunk
            .iter()
            .filter_map(|e| {
                Some((
                    e.event_id.as_str(),
                    e.item_id.as_str(),
                    e.change.as_ref().ok()?,
                ))
            })
            .collect();
        let mut answers = match team.apply_all(&readable).await {
            Ok(answers) => answers.into_iter(),
            Err(error) if error.is_unreachable() => return Ok(false),
            Err(error) => return Err(error.into()),
        };
        let mut settled = Vec::new();
        let mut reachable = true;
        for entry in &chunk {
            let answer = match &entry.change {
                Err(unreadable) => Settled::Lost(format!(
                    "this version cannot read the change: {}",
                    unreadable.why
                )),
                Ok(_) => match answers.next() {
                    Some(answer) => match settled_by(answer) {
                        Some(settled) => settled,
                        None => {
                            reachable = false;
                            break;
                        }
                    },
                    None => break,
                },
            };
            settled.push((entry, answer));
        }
        if !settled.is_empty() {
            let rows: Vec<(String, Option<String>)> = settled
                .iter()
                .map(|(entry, answer)| {
                    let lost = match answer {
                        Settled::Applied => None,
                        Settled::Lost(why) => Some(why.clone()),
                    };
                    (entry.event_id.clone(), lost)
                })
                .collect();
            let at = now();
            blocking(store, move |s| s.team_outbox_settle_all(&rows, at)).await??;
        }
        sent.count += settled.len();
        let own = items.is_some();
        sent.settled.extend(
            settled
                .into_iter()
                .filter(|(_, answer)| own || matches!(answer, Settled::Lost(_)))
                .map(|(entry, answer)| (entry.event_id.clone(), entry.item_id.clone(), answer)),
        );
        if !reachable {
            return Ok(false);
        }
    }
}

/// The oldest changes of `waiting` up to the first whose item came before in it: sent
/// together, no two of one item, so one sent again after a failure is never applied after a
/// later change of its item.
fn one_per_item(waiting: Vec<OutboxEntry>) -> Vec<OutboxEntry> {
    let mut seen = std::collections::HashSet::new();
    waiting
        .into_iter()
        .take_while(|e| seen.insert(e.item_id.clone()))
        .collect()
}

/// What the team's answer makes of a change; `None` when it is to be sent again later (the
/// database went away, or asked for the change to be tried again).
fn settled_by(answer: Result<Outcome, TeamError>) -> Option<Settled> {
    match answer {
        Ok(Outcome::Applied { .. } | Outcome::AlreadyApplied) => Some(Settled::Applied),
        Ok(Outcome::Claimed(claimed)) => Some(Settled::Lost(match claimed.owner {
            Some(owner) => format!("{owner} claimed this {}", ago(claimed.seconds)),
            None => "it was unclaimed meanwhile".to_owned(),
        })),
        Err(error) if error.is_unreachable() || error.is_retryable() => {
            tracing::info!(%error, "a change waits for the next send");
            None
        }
        Err(error) => Some(Settled::Lost(error.to_string())),
    }
}

/// "5 s ago", "3 min ago", "2 h ago", "4 d ago".
#[must_use]
pub fn ago(seconds: i64) -> String {
    let seconds = seconds.max(0);
    match seconds {
        0..60 => format!("{seconds} s ago"),
        60..3600 => format!("{} min ago", seconds / 60),
        3600..86_400 => format!("{} h ago", seconds / 3600),
        _ => format!("{} d ago", seconds / 86_400),
    }
}

/// One item's shared state as this member sees it: the team's, with the changes made here and
/// not yet sent laid over.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
pub struct SharedState {
    pub item_id: String,
    pub owner: Option<String>,
    pub labels: Vec<String>,
    /// The item's notes, each at its latest version (an emptied note is gone), oldest first.
    pub notes: Vec<SharedNote>,
    /// The item's links (this store's own and the team's), oldest first.
    pub links: Vec<SharedLink>,
    /// The replies to its reporter: this store's (whatever became of them) and the ones
    /// teammates sent, oldest first.
    pub replies: Vec<SharedReply>,
    /// Changes made here wait to be sent.
    pub pending: bool,
}

/// One reply to an item's reporter, as this member sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SharedReply {
    pub reply_id: String,
    pub to: String,
    pub subject: String,
    /// Who sent it (none: this store, in no team).
    pub by: Option<String>,
    /// When it left (or, not sent, when it was written).
    pub at: Timestamp,
    /// `sent`, `waiting`, `sending`, `unknown` or `failed`.
    pub state: &'static str,
    /// Why it did not leave (yet).
    pub why: Option<String>,
}

/// One link on an item, as this member sees it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SharedLink {
    #[serde(flatten)]
    pub link: Link,
    /// The member who linked it (none: this store's own, in no team).
    pub by: Option<String>,
    pub at: Timestamp,
    /// Made here and not yet sent to the team.
    pub pending: bool,
}

/// One note of an item's thread, at its latest version.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct SharedNote {
    pub author: String,
    pub body: String,
    pub at: Timestamp,
}

/// The notes of `item` at their latest versions, oldest first, emptied ones left out.
fn notes_of(store: &feedback_store::Store, item: &str) -> Result<Vec<SharedNote>, StoreError> {
    let mut latest: BTreeMap<String, feedback_store::TeamNoteRecord> = BTreeMap::new();
    for note in store.team_notes(item)? {
        latest.insert(note.note_id.clone(), note);
    }
    let mut notes: Vec<SharedNote> = latest
        .into_values()
        .filter(|n| !n.body.trim().is_empty())
        .map(|n| SharedNote {
            author: n.author,
            body: n.body,
            at: n.at,
        })
        .collect();
    notes.sort_by_key(|n| n.at);
    Ok(notes)
}

/// The shared states of `item_ids` (in that order), as this store's member sees them.
///
/// # Errors
/// The store could not be read.
pub async fn shared_states(
    store: &Shared,
    item_ids: Vec<String>,
) -> Result<Vec<SharedState>, TeamSyncError> {
    blocking(store, move |s| states_now(s, &item_ids))
        .await?
        .map_err(TeamSyncError::from)
}

/// The shared states of `item_ids` (in that order) as this store's member sees them: the
/// replica's, with the outbox laid over (each change as its member made it). Items the team
/// never touched have no owner and no label; without a replica, only the outbox says anything.
///
/// # Errors
/// The store could not be read.
pub fn states_now(
    store: &feedback_store::Store,
    item_ids: &[String],
) -> Result<Vec<SharedState>, StoreError> {
    let outbox = store.team_outbox_first(usize::MAX, Some(item_ids))?;
    let mut links = stored_links(store, item_ids)?;
    // A store in no team (and with nothing waiting) says nothing more: no read per item.
    if outbox.is_empty() && store.team_replica()?.is_none() {
        return item_ids
            .iter()
            .map(|id| {
                Ok(SharedState {
                    item_id: id.clone(),
                    links: links.remove(id).unwrap_or_default(),
                    replies: replies_of(store, id)?,
                    ..SharedState::default()
                })
            })
            .collect();
    }
    let known: BTreeMap<String, TeamItemRecord> = store
        .team_items(item_ids)?
        .into_iter()
        .map(|item| (item.item_id.clone(), item))
        .collect();
    item_ids
        .iter()
        .map(|id| {
            let mut state = SharedState {
                item_id: id.clone(),
                notes: notes_of(store, id)?,
                links: links.remove(id).unwrap_or_default(),
                replies: replies_of(store, id)?,
                ..SharedState::default()
            };
            if let Some(item) = known.get(id) {
                state.owner.clone_from(&item.owner);
                state.labels.clone_from(&item.labels);
            }
            for entry in outbox.iter().filter(|e| &e.item_id == id) {
                if let Ok(change) = &entry.change {
                    lay_over(&mut state, change, &entry.member, entry.made_at);
                }
            }
            Ok(state)
        })
        .collect()
}

/// The replies about `item`: this store's and its team's (one sent here and told to the team
/// once), oldest first.
fn replies_of(store: &feedback_store::Store, item: &str) -> Result<Vec<SharedReply>, StoreError> {
    use feedback_store::ReplyState;
    let mut replies: Vec<SharedReply> = store
        .replies_about(item)?
        .into_iter()
        .map(|r| SharedReply {
            state: match r.state {
                ReplyState::Sent => "sent",
                ReplyState::Waiting => "waiting",
                ReplyState::Sending => "sending",
                ReplyState::Unknown => "unknown",
                ReplyState::Failed => "failed",
            },
            at: r.sent_at.unwrap_or(r.made_at),
            reply_id: r.reply_id,
            to: r.to,
            subject: r.subject,
            by: r.by,
            why: r.why,
        })
        .collect();
    for event in store.team_replies(item)? {
        if let Some(Change::Reply {
            reply_id,
            to,
            subject,
            ..
        }) = event.change.known()
            && !replies.iter().any(|r| r.reply_id == *reply_id)
        {
            replies.push(SharedReply {
                reply_id: reply_id.clone(),
                to: to.clone(),
                subject: subject.clone(),
                by: Some(event.member.clone()),
                at: event.at,
                state: "sent",
                why: None,
            });
        }
    }
    replies.sort_by_key(|r| r.at);
    Ok(replies)
}

/// The links of `item_ids` as the store holds them (the outbox not laid over), by item.
fn stored_links(
    store: &feedback_store::Store,
    item_ids: &[String],
) -> Result<BTreeMap<String, Vec<SharedLink>>, StoreError> {
    let mut links: BTreeMap<String, Vec<SharedLink>> = BTreeMap::new();
    for record in store.links(item_ids)? {
        links.entry(record.item_id).or_default().push(SharedLink {
            link: record.link,
            by: record.author,
            at: record.at,
            pending: false,
        });
    }
    Ok(links)
}

/// The links of `item_ids` as this member sees them (the store's own and the team's, with the
/// outbox's links and unlinks laid over), by item; an item without a link is left out. Reads
/// only links, for exports of many items.
///
/// # Errors
/// The store could not be read.
pub fn links_now(
    store: &feedback_store::Store,
    item_ids: &[String],
) -> Result<BTreeMap<String, Vec<SharedLink>>, StoreError> {
    let mut links = stored_links(store, item_ids)?;
    for entry in store.team_outbox_first(usize::MAX, Some(item_ids))? {
        if let Ok(change @ (Change::Link(_) | Change::Unlink { .. })) = &entry.change {
            let mut state = SharedState {
                links: links.remove(&entry.item_id).unwrap_or_default(),
                ..SharedState::default()
            };
            lay_over(&mut state, change, &entry.member, entry.made_at);
            if !state.links.is_empty() {
                links.insert(entry.item_id.clone(), state.links);
            }
        }
    }
    Ok(links)
}

/// What `change`, made by `member` and not yet sent, does to the state shown.
fn lay_over(state: &mut SharedState, change: &Change, member: &str, made_at: Timestamp) {
    match change {
        Change::Claim | Change::TakeOver { .. } => state.owner = Some(member.to_owned()),
        Change::Unclaim => state.owner = None,
        Change::Assign { to, .. } => state.owner = Some(to.clone()),
        Change::Labels { add, remove } => {
            state.labels.extend(add.iter().cloned());
            state.labels.retain(|l| !remove.contains(l));
            state.labels.sort_unstable();
            state.labels.dedup();
        }
        Change::Link(link) => {
            state.links.retain(|l| l.link.url() != link.url());
            state.links.push(SharedLink {
                link: link.clone(),
                by: Some(member.to_owned()),
                at: made_at,
                pending: true,
            });
        }
        Change::Unlink { url } => state.links.retain(|l| l.link.url() != url),
        Change::Done(_) | Change::Snooze(_) | Change::Note { .. } | Change::Reply { .. } => {}
    }
    state.pending = true;
}

/// Runs `f` on the store off the async threads.
async fn blocking<T: Send + 'static>(
    store: &Shared,
    f: impl FnOnce(&mut feedback_store::Store) -> T + Send + 'static,
) -> Result<T, TeamSyncError> {
    let store = store.clone();
    tokio::task::spawn_blocking(move || store.write(f))
        .await
        .map_err(|e| TeamSyncError::Task(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_not_yet_sent_are_laid_over_the_teams_state_and_marked_pending() {
        let mut state = SharedState {
            item_id: "fb_1".to_owned(),
            labels: vec!["crash".to_owned()],
            ..SharedState::default()
        };
        lay_over(&mut state, &Change::Claim, "ana", Timestamp::UNIX_EPOCH);
        assert_eq!(state.owner.as_deref(), Some("ana"));
        assert!(state.pending);
        lay_over(
            &mut state,
            &Change::Labels {
                add: vec!["ios".to_owned(), "crash".to_owned()],
                remove: vec!["crash".to_owned()],
            },
            "ana",
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!(state.labels, ["ios"]);
        lay_over(
            &mut state,
            &Change::Assign {
                to: "bo".to_owned(),
                from: Some("ana".to_owned()),
            },
            "ana",
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!(state.owner.as_deref(), Some("bo"));
        lay_over(&mut state, &Change::Unclaim, "ana", Timestamp::UNIX_EPOCH);
        let t1 = Link::new("https://t.example/T-1", None).unwrap();
        lay_over(
            &mut state,
            &Change::Link(t1.clone()),
            "ana",
            Timestamp::UNIX_EPOCH,
        );
        lay_over(
            &mut state,
            &Change::Link(t1.clone()),
            "ana",
            Timestamp::UNIX_EPOCH,
        );
        assert_eq!(state.links.len(), 1);
        assert!(state.links[0].pending);
        assert_eq!(state.links[0].by.as_deref(), Some("ana"));
        lay_over(
            &mut state,
            &Change::Unlink {
                url: t1.url().to_owned(),
            },
            "ana",
            Timestamp::UNIX_EPOCH,
        );
        assert!(state.links.is_empty());
        assert_eq!(state.owner, None);
    }

    #[test]
    fn ages_read_as_a_person_says_them() {
        assert_eq!(ago(5), "5 s ago");
        assert_eq!(ago(-3), "0 s ago");
        assert_eq!(ago(125), "2 min ago");
        assert_eq!(ago(7300), "2 h ago");
        assert_eq!(ago(200_000), "2 d ago");
    }
}
