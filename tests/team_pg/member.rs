//! A member's live link, as the inbox runs it, on a store of the test's: what it records, what
//! it hears, what its store holds.

use std::time::Duration;

use feedback_core::clock::SharedClock;
use feedback_store::Shared;
use feedback_team::{Change, TeamUrl};
use feedback_team_sync::live::{Ask, LiveSettings, News, live};
use feedback_team_sync::{self as team_sync};
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

/// How a member's link runs.
pub struct How {
    /// How often it reads without a hint.
    pub poll: Duration,
    /// Whether it listens for hints (`NOTIFY`).
    pub listen: bool,
    /// Its first wait before connecting again.
    pub retry: Duration,
    pub clock: SharedClock,
}

impl Default for How {
    fn default() -> Self {
        Self {
            poll: Duration::from_millis(200),
            listen: true,
            retry: Duration::from_millis(50),
            clock: feedback_core::clock::system(),
        }
    }
}

pub struct Member {
    pub role: String,
    pub store: Shared,
    pub asks: UnboundedSender<Ask>,
    pub news: UnboundedReceiver<News>,
}

impl Member {
    /// The link of the member `url` connects as, running on `store`.
    pub fn link(url: TeamUrl, store: Shared, how: How) -> Self {
        let (asks, ask_rx) = unbounded_channel();
        let (news_tx, news) = unbounded_channel();
        let settings = LiveSettings {
            url,
            team: None,
            poll: how.poll,
            listen: how.listen,
            retry: how.retry,
            clock: how.clock,
        };
        let role = settings.url.role().unwrap_or_default().to_owned();
        tokio::spawn(live(settings, store.clone(), ask_rx, news_tx));
        Self {
            role,
            store,
            asks,
            news,
        }
    }

    /// The link of the member `url` (text) connects as, on a store in memory.
    pub fn in_memory(url: &str, how: How) -> Self {
        let store = Shared::new(feedback_store::Store::open_memory().unwrap()).unwrap();
        Self::link(url.parse().unwrap(), store, how)
    }

    /// The first news `wanted` picks (seeing the store as it is then), within 30 s.
    pub async fn next<T>(
        &mut self,
        what: &str,
        mut wanted: impl FnMut(&News, &Shared) -> Option<T>,
    ) -> T {
        let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
        loop {
            let news = tokio::time::timeout_at(deadline, self.news.recv())
                .await
                .unwrap_or_else(|_| panic!("{what}: not in time"))
                .unwrap_or_else(|| panic!("{what}: the link ended"));
            if let Some(found) = wanted(&news, &self.store) {
                return found;
            }
        }
    }

    /// Waits for news after which `done` holds.
    pub async fn until(&mut self, what: &str, mut done: impl FnMut(&News, &Shared) -> bool) {
        self.next(what, |news, store| done(news, store).then_some(()))
            .await;
    }

    /// Waits until every change recorded here has been sent.
    pub async fn until_sent(&mut self) {
        self.until("every change sent", |_, store| {
            store.read(|s| s.team_outbox().unwrap().is_empty())
        })
        .await;
    }

    /// Records `change` of `item` as the inbox does, and asks the link to send it.
    pub async fn record(&self, item: &str, change: Change) {
        team_sync::record(
            &self.store,
            &self.role,
            &[(item.to_owned(), change)],
            jiff::Timestamp::now(),
        )
        .await
        .unwrap();
        self.asks.send(Ask::Send).unwrap();
    }

    /// `item`'s owner in this member's replica.
    pub fn owner(&self, item: &str) -> Option<String> {
        self.store
            .read(|s| s.team_items(&[item.to_owned()]))
            .unwrap()
            .pop()
            .and_then(|i| i.owner)
    }

    /// Changes recorded and not yet sent.
    pub fn waiting(&self) -> usize {
        self.store.read(|s| s.team_outbox().unwrap().len())
    }
}
