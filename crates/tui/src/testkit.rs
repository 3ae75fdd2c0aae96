//! Fixed data for the inbox's tests and benches: items, pages and a started state with a
//! fixed clock, so screens and state transitions are deterministic.

use jiff::Timestamp;

use jiff::tz::TimeZone;

use super::action::{Freshness, Msg, SyncJob, Synced};
use super::effect::Effect;
use super::runtime::lanes::{Work, work};
use super::runtime::reads::FreshnessOf;
use super::state::AppState;
use super::update::{first_query, start, update};
use feedback_api::{App, Feedback, Project, RateLimit, Tag};
use feedback_store::{Shared, Store, StoredItem};

pub use feedback_sim::fixtures::{detail, item, now, page};

/// The panes' data, as discovery gives it.
#[derive(Debug, Clone)]
pub enum PaneData {
    Projects(Vec<Project>),
    Apps(Vec<App>),
    Tags(Vec<Tag>),
}

/// The service's rate-limit figures as they arrive after a request: `remaining` of `limit`
/// left until `reset`.
#[must_use]
pub fn budget(limit: u32, remaining: u32, reset: Timestamp) -> Msg {
    Msg::RateLimited(RateLimit {
        limit: Some(limit),
        remaining: Some(remaining),
        reset: Some(reset),
    })
}

/// The panes' data.
#[must_use]
pub fn panes() -> [PaneData; 3] {
    let project = |id: &str, name: &str| Project {
        id: id.into(),
        name: name.into(),
        slug: None,
        created_at: None,
    };
    let app = |id: &str, name: &str, platform: &str| App {
        id: id.into(),
        project_id: Some("00000000-0000-4000-8000-0000000000a1".into()),
        name: name.into(),
        slug: None,
        platform: Some(platform.into()),
        app_identifier: None,
        region: None,
    };
    [
        PaneData::Projects(vec![
            project("00000000-0000-4000-8000-0000000000a1", "Nimbus Notes"),
            project("00000000-0000-4000-8000-0000000000a2", "Trailhead"),
        ]),
        PaneData::Apps(vec![
            app(
                "00000000-0000-4000-8000-000000000001",
                "Nimbus Notes for iOS",
                "ios",
            ),
            app(
                "00000000-0000-4000-8000-000000000002",
                "Nimbus Notes Web",
                "web",
            ),
        ]),
        PaneData::Tags(vec![
            Tag {
                tag: "bug".into(),
                count: 25,
            },
            Tag {
                tag: "ui".into(),
                count: 25,
            },
            Tag {
                tag: "feature-request".into(),
                count: 25,
            },
        ]),
    ]
}

/// Item `n` as the store gives it (key `n + 1`, the order of [`fill`]).
#[must_use]
pub fn stored(n: usize) -> StoredItem {
    StoredItem {
        key: i64::try_from(n).unwrap_or(0) + 1,
        feedback: item(n),
        seen: now(),
    }
}

/// An in-memory store holding items `0..items` (newest first by time), with the panes' projects
/// and apps as discovery stores them.
#[must_use]
pub fn fill(items: usize) -> Shared {
    let store = Store::open_memory().unwrap_or_else(|e| unreachable!("{e}"));
    let shared = Shared::new(store).unwrap_or_else(|e| unreachable!("{e}"));
    shared.write(|s| {
        let all: Vec<Feedback> = (0..items).map(item).collect();
        for chunk in all.chunks(1000) {
            s.put_items(chunk, now())
                .unwrap_or_else(|e| unreachable!("{e}"));
        }
        let [PaneData::Projects(projects), PaneData::Apps(apps), _] = panes() else {
            unreachable!("the fixture's order")
        };
        s.put_projects(&projects)
            .unwrap_or_else(|e| unreachable!("{e}"));
        s.put_apps(&apps, None)
            .unwrap_or_else(|e| unreachable!("{e}"));
        // Both statuses mirrored to their ends: the store holds the whole history.
        for status in ["new", "archived"] {
            s.write(|tx| feedback_store::sync_state::set_complete(tx, status))
                .unwrap_or_else(|e| unreachable!("{e}"));
        }
    });
    shared
}

/// An inbox over a store, for tests of `update` with real queries: the store's reads are
/// answered at once (as the executor would, off the UI thread), every other effect is kept
/// for the test to look at.
pub struct Harness {
    pub state: AppState,
    pub store: Shared,
    /// Effects that are not store reads, in the order they were asked for.
    pub sent: Vec<Effect>,
}

impl Harness {
    /// A `width`×`height` inbox over `store`, after start-up: the first query answered, the
    /// start-up sync sent (not answered).
    #[must_use]
    pub fn start(store: Shared, width: u16, height: u16) -> Self {
        let mut harness = Self {
            state: AppState::new(now(), width, height),
            store,
            sent: Vec::new(),
        };
        harness.send(Msg::Resize { width, height });
        let first = first_query(&mut harness.state);
        harness.settle(vec![Effect::Read(first)]);
        let effects = start(&mut harness.state);
        harness.settle(effects);
        harness
    }

    /// Applies a message and answers the reads (and triage writes) it leads to; returns the
    /// other effects.
    pub fn send(&mut self, msg: Msg) -> Vec<Effect> {
        let effects = update(&mut self.state, msg);
        self.settle(effects)
    }

    /// Applies a message and answers none of the reads it asks for: [`Harness::hold`] runs
    /// them, and the test delivers their answers in the order it chooses.
    pub fn apply(&mut self, msg: Msg) -> Vec<Effect> {
        update(&mut self.state, msg)
    }

    /// Runs the reads among `effects` against the store as it is now and hands back their
    /// answers unapplied (the other effects go to `sent`). The real reader does not answer in
    /// request order (it runs queries before row reads): a test releases these with
    /// [`Harness::send`] in the order it means to check.
    pub fn hold(&mut self, effects: Vec<Effect>) -> Vec<Msg> {
        let mut answers = Vec::new();
        for effect in effects {
            match self.store_task(effect) {
                Work::Store(task) => answers.push(task()),
                Work::Elsewhere(effect) => self.sent.push(*effect),
            }
        }
        answers
    }

    /// The store work of an effect in one of the store's lanes, as the executor runs it (the
    /// same routing: `runtime::lanes`), or the effect back when it is another lane's.
    fn store_task(&self, effect: Effect) -> Work {
        // The views as the state holds them now (the executor follows them by
        // `Local::ViewsChanged`).
        let reading = feedback_store::search::Reading {
            tz: TimeZone::UTC,
            views: self.state.views.shared(),
        };
        work(&self.store, effect, &reading, &no_freshness())
    }

    /// Answers reads (and the reads their answers ask for), keeping the other effects.
    pub fn settle(&mut self, effects: Vec<Effect>) -> Vec<Effect> {
        let mut queue: std::collections::VecDeque<Effect> = effects.into();
        let mut others = Vec::new();
        while let Some(effect) = queue.pop_front() {
            match self.store_task(effect) {
                Work::Store(task) => queue.extend(update(&mut self.state, task())),
                Work::Elsewhere(effect) => others.push(*effect),
            }
        }
        self.sent.extend(others.iter().cloned());
        others
    }

    /// Answers a sync job that stored nothing new, with how fresh the status is.
    pub fn synced(&mut self, job: SyncJob, complete: bool) -> Vec<Effect> {
        let status = match &job {
            SyncJob::Start(s)
            | SyncJob::Head(s)
            | SyncJob::Refresh(s)
            | SyncJob::Backfill { status: s, .. }
            | SyncJob::Background { listed: s } => s.as_str().to_owned(),
        };
        self.send(Msg::Synced {
            job,
            result: Ok(Synced {
                freshness: Some(Freshness {
                    status,
                    synced_at: Some(now()),
                    complete,
                }),
                ..Synced::default()
            }),
        })
    }

    /// Ids of the rows on screen, top to bottom.
    #[must_use]
    #[cfg(test)]
    pub(crate) fn screen_ids(&self) -> Vec<String> {
        let list = &self.state.list;
        (list.offset..list.offset + list.viewport_rows)
            .filter_map(|n| list.window.get(n).map(|r| r.id.to_string()))
            .collect()
    }

    /// Groups the view by `kind` as a user does: `=`, the kind typed in the picker, `Enter`.
    ///
    /// # Panics
    /// When opening the picker leaves a read unanswered, or the picker stays open.
    pub fn group_by(&mut self, kind: &str) {
        use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
        let effects = self.send(Msg::Action(super::action::Action::GroupBy));
        assert!(
            effects.is_empty(),
            "the picker's reads are answered: {effects:?}"
        );
        for code in kind.chars().map(KeyCode::Char).chain([KeyCode::Enter]) {
            self.send(Msg::InsightInput(KeyEvent::new(code, KeyModifiers::NONE)));
        }
        assert!(self.state.insight.picker.is_none());
    }

    /// Id of the selected row.
    #[must_use]
    pub fn selected_id(&self) -> String {
        self.state
            .selected_row()
            .map(|r| r.id.to_string())
            .unwrap_or_default()
    }

    /// The outbox's changes were sent and the team applied them.
    pub fn outbox_sent(&self) {
        let outbox = self.store.read(Store::team_outbox);
        for entry in outbox.unwrap_or_else(|e| panic!("the outbox does not read: {e}")) {
            self.store
                .write(|s| s.team_outbox_settle(&entry.event_id, None, now()))
                .unwrap_or_else(|e| panic!("the outbox does not settle: {e}"));
        }
    }

    /// The team's state of one item, `record` (at its `last_seq`), reached the replica, as the
    /// live link catches up: the inbox is told, as it is of one event.
    pub fn team_changed(&mut self, record: feedback_store::TeamItemRecord) {
        let batch = feedback_store::TeamBatch {
            seq: record.last_seq,
            items: vec![record],
            ..feedback_store::TeamBatch::default()
        };
        self.store
            .write(|s| s.team_apply(&batch, now()))
            .unwrap_or_else(|e| panic!("the batch does not apply: {e}"));
        self.send(Msg::Team(feedback_team_sync::live::News::Changed(
            feedback_team_sync::CaughtUp {
                events: 1,
                assigned_to_me: Vec::new(),
                rebuilt: None,
            },
        )));
    }
}

/// How fresh a status is, as the harness answers: never synced (the tests send `Synced`).
fn no_freshness() -> FreshnessOf {
    std::sync::Arc::new(|_: &Store, _: &str| None)
}

/// A state of `width`×`height` after start-up over a store of `items` items, the start-up sync
/// answered (the status mirrored to its end when `complete`), notes cleared.
#[must_use]
pub fn started(width: u16, height: u16, items: usize, complete: bool) -> AppState {
    started_harness(width, height, items, complete).state
}

/// [`started`], with its store.
#[must_use]
pub fn started_harness(width: u16, height: u16, items: usize, complete: bool) -> Harness {
    let mut harness = Harness::start(fill(items), width, height);
    harness.synced(SyncJob::Start(feedback_api::Status::New), complete);
    if complete {
        // The background's first look finds nothing to do: it rests.
        let listed = feedback_api::Status::New;
        harness.send(Msg::Tick(now()));
        harness.send(Msg::Synced {
            job: SyncJob::Background { listed },
            result: Ok(Synced {
                idle: true,
                ..Synced::default()
            }),
        });
    }
    harness.sent.clear();
    let state = &mut harness.state;
    state.note = None;
    state.dirty = true;
    harness
}

/// [`detail`] as the syncer gives it back, stored (key `n + 1`, fetched at [`now`]).
#[must_use]
pub fn stored_detail(n: usize) -> feedback_store::StoredDetail {
    let detail = detail(n);
    feedback_store::StoredDetail {
        item: StoredItem {
            key: i64::try_from(n).unwrap_or(0) + 1,
            feedback: detail.feedback,
            seen: now(),
        },
        metadata: detail.metadata,
        delivery: Some(detail.delivery),
        detail_at: Some(now()),
    }
}
