//! Three inboxes and one command line claim the same 1,000 items at once, over a real
//! PostgreSQL: each inbox marks every item and presses `a` (its `update` and its store driven by
//! the test harness, its live link to the team running as in the inbox), the command line runs
//! `claim` on all of them. Afterwards every item has exactly one owner, and every member's
//! store and screen show the same owner for every item.
#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::process::Command;
use std::time::Duration;

use feedback_team::{self as team, TeamUrl};
use feedback_team_sync::live::{Ask, LiveSettings, News, live};
use feedback_tui::action::{Action, Msg};
use feedback_tui::effect::{Effect, Local};
use feedback_tui::keymap::Keymap;
use feedback_tui::render;
use feedback_tui::team::TeamState;
use feedback_tui::testkit::{Harness, started_harness};
use ratatui::Terminal;
use ratatui::backend::TestBackend;
use team_pg as pg;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

const ITEMS: usize = 1000;

/// `claim` of every item from the command line, as the member whose URL is `url`; how many it
/// won, as it reported.
fn claim_all(url: &str) -> usize {
    let store = tempfile::tempdir().unwrap();
    pg::store_with_items(&store.path().join("cli.db"), ITEMS);
    let ids: Vec<String> = (0..ITEMS).map(|n| format!("id{n:05}")).collect();
    let cli = Command::new(env!("CARGO_BIN_EXE_feedback-inbox"))
        .arg("--store")
        .arg(store.path().join("cli.db"))
        .arg("claim")
        .args(&ids)
        .args(["--format", "json"])
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", store.path())
        .env("XDG_CONFIG_HOME", store.path().join("config"))
        .env("FEEDBACK_TEAM_URL", url)
        .output()
        .unwrap();
    let report: serde_json::Value = serde_json::from_slice(&cli.stdout)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&cli.stderr)));
    report
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["outcome"] == "done")
        .count()
}

/// The truth: every item's owner in the team's database, checked to be one per item, each by
/// one winning claim.
async fn owners_in_the_database(db: &pg::Db) -> Vec<Option<String>> {
    let admin = team::connect(&db.admin()).await.unwrap();
    let rows = admin
        .raw()
        .query(
            "SELECT item_id, owner::text FROM feedback_team.items ORDER BY item_id",
            &[],
        )
        .await
        .unwrap();
    assert_eq!(rows.len(), ITEMS);
    let truth: Vec<Option<String>> = rows.iter().map(|r| r.get(1)).collect();
    assert!(truth.iter().all(Option::is_some), "an item with no owner");
    let claims: i64 = admin
        .raw()
        .query_one(
            "SELECT count(*) FROM feedback_team.events WHERE kind = 'claim'",
            &[],
        )
        .await
        .unwrap()
        .get(0);
    assert_eq!(
        claims,
        i64::try_from(ITEMS).unwrap(),
        "one winning claim per item"
    );
    truth
}

/// An inbox of the 1,000 items in the team as `role`, with its live link.
struct Inbox {
    harness: Harness,
    asks: UnboundedSender<Ask>,
    news: UnboundedReceiver<News>,
}

impl Inbox {
    fn new(role: &str, url: &str) -> Self {
        let mut harness = started_harness(140, 30, ITEMS, true);
        harness.state.team = Some(TeamState::new(role));
        let (asks, ask_rx) = unbounded_channel();
        let (news_tx, news) = unbounded_channel();
        let settings = LiveSettings {
            url: url.parse::<TeamUrl>().unwrap(),
            team: None,
            poll: Duration::from_millis(500),
            listen: true,
            retry: Duration::from_millis(100),
            clock: feedback_core::clock::system(),
        };
        tokio::spawn(live(settings, harness.store.clone(), ask_rx, news_tx));
        Self {
            harness,
            asks,
            news,
        }
    }

    /// Sends an action through `update`, passing what it asks of the link to the link.
    fn act(&mut self, action: Action) {
        let effects = self.harness.send(Msg::Action(action));
        self.forward(effects);
    }

    fn forward(&self, effects: Vec<Effect>) {
        for effect in effects {
            match effect {
                Effect::Local(Local::TeamSend) => self.asks.send(Ask::Send).unwrap(),
                Effect::Local(Local::TeamLooking(item)) => {
                    self.asks.send(Ask::Looking(item)).unwrap();
                }
                _ => {}
            }
        }
    }

    /// Takes the link's news until `done` holds of the inbox.
    async fn until(&mut self, what: &str, done: impl Fn(&Harness) -> bool) {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(60);
        while !done(&self.harness) {
            let news = tokio::time::timeout_at(deadline, self.news.recv())
                .await
                .unwrap_or_else(|_| panic!("{what}: not in time"))
                .unwrap();
            let effects = self.harness.send(Msg::Team(news));
            self.forward(effects);
        }
    }

    /// The owner of every item in this member's store.
    fn owners(&self) -> Vec<Option<String>> {
        let ids: Vec<String> = (0..ITEMS).map(|n| format!("id{n:05}")).collect();
        let states = self
            .harness
            .store
            .read(|s| feedback_team_sync::states_now(s, &ids))
            .unwrap();
        states.into_iter().map(|s| s.owner).collect()
    }

    /// The screen as drawn.
    fn screen(&self) -> String {
        let state = &self.harness.state;
        let mut terminal = Terminal::new(TestBackend::new(state.width, state.height)).unwrap();
        terminal
            .draw(|frame| render::render(frame, state, &Keymap::default()))
            .unwrap();
        format!("{}", terminal.backend())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn three_inboxes_and_the_command_line_race_for_1000_items_and_agree_on_each_owner() {
    let Some(db) = pg::Db::new("team_race").await else {
        return;
    };
    let members = db.team(&["ana", "bo", "cy", "dee"]).await;
    let mut inboxes: Vec<Inbox> = members[..3]
        .iter()
        .map(|(role, url)| Inbox::new(role, url))
        .collect();
    for inbox in &mut inboxes {
        inbox
            .until("connected", |h| {
                h.state
                    .team
                    .as_ref()
                    .is_some_and(|t| t.link == feedback_tui::team::Link::Online)
            })
            .await;
        // Every item marked: the first, then a range to the last.
        inbox.act(Action::ToggleMark);
        inbox.act(Action::Bottom);
        inbox.act(Action::MarkRange);
        assert_eq!(inbox.harness.state.acting.marks.len(), ITEMS);
    }
    let (dee_role, dee_url) = members[3].clone();
    let cli = std::thread::spawn(move || claim_all(&dee_url));
    for inbox in &mut inboxes {
        inbox.act(Action::Claim);
    }
    let cli_won = tokio::task::spawn_blocking(move || cli.join().unwrap())
        .await
        .unwrap();
    for inbox in &mut inboxes {
        inbox
            .until("every claim answered", |h| {
                h.store.read(|s| s.team_outbox().unwrap().is_empty())
                    && h.state.team.as_ref().is_some_and(|t| t.pending == 0)
            })
            .await;
    }
    let truth = owners_in_the_database(&db).await;
    let dee_owns = truth
        .iter()
        .filter(|o| o.as_deref() == Some(dee_role.as_str()))
        .count();
    assert_eq!(dee_owns, cli_won, "the command line reported its wins");
    for inbox in &mut inboxes {
        agrees(inbox, &truth).await;
    }
    drop(inboxes);
    db.drop().await;
}

/// Once caught up, the inbox's store holds `truth`, and the rows on screen draw it (from what
/// the inbox holds of them), nothing pending.
async fn agrees(inbox: &mut Inbox, truth: &[Option<String>]) {
    let expected = truth.to_vec();
    inbox
        .until("caught up with every owner", move |h| {
            let ids: Vec<String> = (0..ITEMS).map(|n| format!("id{n:05}")).collect();
            let shown: Vec<Option<String>> = h
                .store
                .read(|s| feedback_team_sync::states_now(s, &ids))
                .unwrap()
                .into_iter()
                .map(|s| s.owner)
                .collect();
            // The store, and the rows the inbox holds (read again once it heard of the change).
            let held = h.state.list.window.rows.iter().all(|row| {
                let n: usize = row.id[2..].parse().unwrap();
                h.state
                    .triage
                    .overlay
                    .team(&row.id)
                    .and_then(|t| t.owner.clone())
                    == expected[n]
            });
            shown == expected && held
        })
        .await;
    assert_eq!(inbox.owners(), truth);
    let state = &inbox.harness.state;
    assert!(!state.list.window.rows.is_empty());
    for row in &state.list.window.rows {
        let n: usize = row.id[2..].parse().unwrap();
        let held = state.triage.overlay.team(&row.id).unwrap();
        assert_eq!(held.owner, truth[n], "{}", row.id);
        assert!(!held.pending);
    }
    let screen = inbox.screen();
    assert!(screen.contains("OWNER"), "{screen}");
    assert!(
        !screen.contains('~'),
        "nothing pending on screen:\n{screen}"
    );
}
