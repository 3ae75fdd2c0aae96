//! Faults, over a real PostgreSQL reached through a proxy the test stops and starts (every
//! connection cut, new ones refused: the database going away, as in a restart or an outage, and
//! coming back): a burst of changes made across the outage is sent once the database is back,
//! nothing lost or doubled, whatever was cut mid-answer; a member whose clock is ten minutes
//! ahead changes nothing of the server's order; a member killed with SIGKILL in the middle of a
//! burst loses nothing it recorded.
#![allow(clippy::unwrap_used)]

use crate::team_pg;

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use feedback_core::clock::{Clock, Sleep};
use feedback_team as team;
use feedback_team_sync::live::News;
use team_pg as pg;
use team_pg::burst::{self, bos_turn, item, label, labels_after};
use team_pg::member::{How, Member};
use team_pg::shared_state;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;

/// Changes in the burst across the outage.
const BURST: usize = 60;
/// Items the killed member claims.
const ITEMS: usize = 400;

/// Where the test's PostgreSQL listens: a TCP address, or a Unix socket's path.
enum Upstream {
    Tcp(String),
    Unix(String),
}

fn upstream() -> Upstream {
    let text = std::env::var("FEEDBACK_TEST_PG")
        .unwrap_or_else(|_| "host=127.0.0.1 port=5432 user=postgres dbname=postgres".to_owned());
    let value = |key: &str| {
        text.split_whitespace()
            .find_map(|kv| kv.strip_prefix(&format!("{key}=")))
            .map(str::to_owned)
    };
    let host = value("host").unwrap_or_else(|| "127.0.0.1".to_owned());
    let port = value("port").unwrap_or_else(|| "5432".to_owned());
    if host.starts_with('/') {
        Upstream::Unix(format!("{host}/.s.PGSQL.{port}"))
    } else {
        Upstream::Tcp(format!("{host}:{port}"))
    }
}

/// A proxy on a port of its own to the test's PostgreSQL. `stop` cuts every connection and
/// refuses new ones; `start` serves again on the same port.
struct Proxy {
    port: u16,
    /// The accept loop, and every connection's task: aborting them closes their sockets.
    tasks: Arc<Mutex<Vec<JoinHandle<()>>>>,
}

impl Proxy {
    async fn new() -> Self {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let proxy = Self {
            port,
            tasks: Arc::default(),
        };
        proxy.serve(listener);
        proxy
    }

    fn serve(&self, listener: TcpListener) {
        let tasks = Arc::clone(&self.tasks);
        let accept = tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                let connection = tokio::spawn(async move {
                    let _ = match upstream() {
                        Upstream::Tcp(at) => {
                            let mut server = tokio::net::TcpStream::connect(at).await.unwrap();
                            tokio::io::copy_bidirectional(&mut client, &mut server).await
                        }
                        Upstream::Unix(path) => {
                            let mut server = tokio::net::UnixStream::connect(path).await.unwrap();
                            tokio::io::copy_bidirectional(&mut client, &mut server).await
                        }
                    };
                });
                tasks.lock().unwrap().push(connection);
            }
        });
        self.tasks.lock().unwrap().push(accept);
    }

    /// The database goes away: the listener closes and every connection is cut.
    fn stop(&self) {
        for task in self.tasks.lock().unwrap().drain(..) {
            task.abort();
        }
    }

    /// The database is back, on the same port.
    async fn start(&self) {
        let listener = TcpListener::bind(("127.0.0.1", self.port)).await.unwrap();
        self.serve(listener);
    }

    /// `url` (key=value) through this proxy: its host and port replaced (a second `host=` would
    /// add a host to try, not replace the first).
    fn route(&self, url: &str) -> String {
        let rest: Vec<&str> = url
            .split_whitespace()
            .filter(|kv| !kv.starts_with("host=") && !kv.starts_with("port="))
            .collect();
        format!("{} host=127.0.0.1 port={}", rest.join(" "), self.port)
    }
}

/// The system clock, `offset` ahead (a member's clock set wrong).
#[derive(Debug)]
struct Skewed(jiff::SignedDuration);

impl Clock for Skewed {
    fn now(&self) -> jiff::Timestamp {
        jiff::Timestamp::now() + self.0
    }

    fn sleep(&self, duration: Duration) -> Sleep {
        Box::pin(tokio::time::sleep(duration))
    }
}

fn member(url: &str, clock: feedback_core::clock::SharedClock) -> Member {
    Member::in_memory(
        url,
        How {
            clock,
            ..How::default()
        },
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_burst_across_an_outage_is_sent_once_the_database_is_back_nothing_lost_or_doubled() {
    let Some(db) = pg::Db::new("team_outage").await else {
        return;
    };
    let members = db.team(&["ana", "bo"]).await;
    let proxy = Proxy::new().await;
    // Ana reaches the database through the proxy, her clock ten minutes ahead; Bo directly.
    let ahead = Arc::new(Skewed(jiff::SignedDuration::from_mins(10)));
    let mut ana = member(&proxy.route(&members[0].1), ahead);
    let mut bo = member(&members[1].1, feedback_core::clock::system());
    for m in [&mut ana, &mut bo] {
        m.until("connected", |n, _| matches!(n, News::Connected { .. }))
            .await;
    }
    for n in 0..BURST {
        if n == 20 {
            // The database goes away in the middle of the burst (mid-answer, for some).
            proxy.stop();
        }
        if n == 45 {
            ana.until("offline", |n, _| matches!(n, News::Offline { .. }))
                .await;
            assert!(ana.waiting() > 0, "the changes made offline wait");
            proxy.start().await;
        }
        ana.record(&item(n, 10), label(n)).await;
        // Bo changes the same items between Ana's changes: the server orders them.
        if bos_turn(n) {
            bo.record(&item(n, 10), label(1000 + n)).await;
        }
    }
    ana.until_sent().await;
    // The truth: each change once.
    burst::assert_each_change_once(&db, BURST).await;
    assert!(ana.store.read(|s| s.team_lost().unwrap().is_empty()));
    // Every label is on its item, in Bo's replica too, whatever Ana's clock said.
    let expected = labels_after(BURST, 10);
    bo.until("Bo caught up", |_, store| {
        burst::labels_now(store, 10) == expected
    })
    .await;
    // Each store equals the database, item by item.
    let ids: Vec<String> = (0..10).map(|n| format!("fb_{n}")).collect();
    shared_state::assert_store_is_database(&db, &bo.store, &ids, "Bo").await;
    let events = i64::try_from(BURST + (0..BURST).filter(|n| bos_turn(*n)).count()).unwrap();
    let caught_up = |store: &feedback_store::Shared| {
        burst::labels_now(store, 10) == expected
            && store.read(|s| s.team_replica().unwrap().unwrap().seq) >= events
    };
    if !caught_up(&ana.store) {
        ana.until("Ana caught up", |_, store| caught_up(store))
            .await;
    }
    shared_state::assert_store_is_database(&db, &ana.store, &ids, "Ana").await;
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_member_killed_mid_burst_loses_nothing_it_recorded() {
    let Some(db) = pg::Db::new("team_kill").await else {
        return;
    };
    let members = db.team(&["ana"]).await;
    let dir = tempfile::tempdir().unwrap();
    let store = dir.path().join("ana.db");
    pg::store_with_items(&store, ITEMS);
    let ids: Vec<String> = (0..ITEMS).map(|n| format!("id{n:05}")).collect();
    let url = members[0].1.clone();
    let cli = |args: &[&str]| {
        let mut command = std::process::Command::new(env!("CARGO_BIN_EXE_feedback-inbox"));
        command
            .arg("--store")
            .arg(&store)
            .args(args)
            .env_clear()
            .env("PATH", std::env::var("PATH").unwrap_or_default())
            .env("HOME", dir.path())
            .env("XDG_CONFIG_HOME", dir.path().join("config"))
            .env("FEEDBACK_TEAM_URL", &url)
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null());
        command
    };
    let mut args = vec!["claim"];
    args.extend(ids.iter().map(String::as_str));
    let mut child = cli(&args).spawn().unwrap();
    // Killed once some of its claims reached the database and others still wait.
    let admin = team::connect(&db.admin()).await.unwrap();
    loop {
        let sent: i64 = admin
            .raw()
            .query_one("SELECT count(*) FROM feedback_team.events", &[])
            .await
            .unwrap()
            .get(0);
        if sent > 0 || child.try_wait().unwrap().is_some() {
            break;
        }
        tokio::task::yield_now().await;
    }
    let _ = child.kill();
    let _ = child.wait();
    // The next command sends what it recorded and did not send.
    let status = cli(&["team", "status"]).status().unwrap();
    assert!(status.success());
    let row = admin
        .raw().query_one(
            "SELECT count(*), count(DISTINCT item_id) FROM feedback_team.events WHERE kind = 'claim'",
            &[],
        )
        .await
        .unwrap();
    let (claims, items): (i64, i64) = (row.get(0), row.get(1));
    let all = i64::try_from(ITEMS).unwrap();
    assert_eq!((claims, items), (all, all), "every claim once");
    // The store equals the database, item by item.
    let shared = feedback_store::Shared::new(feedback_store::Store::open(&store).unwrap()).unwrap();
    shared_state::assert_store_is_database(&db, &shared, &ids, "Ana").await;
    db.drop().await;
}
