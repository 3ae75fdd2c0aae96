//! The team over a real PostgreSQL (`FEEDBACK_TEST_PG`, else 127.0.0.1:5432 as `postgres`; the
//! bench says so and does nothing without one), in a database of its own, dropped at the end:
//!
//! - `notify`: a claim recorded in one member's store until the other member's link has it in
//!   its store (sent, committed, hinted through `NOTIFY`, read, stored): what a teammate waits
//!   for before the change is on their screen.
//! - `notify_link`: the same for a link a command printed (`capture = "link"`): found in its
//!   output, recorded, and in the other member's store, as a claim travels.
//! - `catch_up_100k`: a member away for 100,000 events catches up into an empty store; and,
//!   printed once each for 100,000 and 300,000 events, how far the process's peak memory rose
//!   doing so into a store file (flat: bounded by the store's page cache, not the events).
//! - `mirror_follow_100k`: a new member's store follows a shared mirror of 100,000 items from
//!   the team's database into an empty store; printed once: the same walk of the service's API
//!   at the simulator's default budget (1,000 list pages at 120 requests a minute), and how far
//!   the process's peak memory rose following the mirror into a store file.
//! - `members_20` (printed once, not sampled): 20 members each making `TEAM_BENCH_ACTIONS`
//!   changes (default 300) at `TEAM_BENCH_PACE` a minute each (default 60: five minutes;
//!   0: as fast as their links send them), a fifth of them claims of items every member races
//!   for: events per second the database sustained, its CPU time, and that nothing was lost or
//!   doubled and every raced item has one owner.
//! - `outbox` (printed once, not sampled): `TEAM_BENCH_OUTBOX` changes (default 100,000: a long
//!   offline day, a bulk script) waiting in a store file: how fast they are sent and how far the
//!   process's peak memory rose; with as many waiting again, how long a command's own claim
//!   takes to be sent; and, for comparison, the rate of sending one change per round trip with
//!   one store commit each, the whole outbox read at once.
//!
//! `TEAM_BENCH_ONLY` (a comma-separated list of the parts above: `notify`, `catch_up`,
//! `mirror_follow`, `members`, `outbox`) runs only those.
#![allow(clippy::unwrap_used)]

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use feedback_store::{Shared, Store};
use feedback_team::{self as team, AddedMember, Change, TeamUrl};
use feedback_team_sync::live::{Ask, LiveSettings, News, live};
use feedback_team_sync::{self as team_sync};
use tokio::runtime::Runtime;
use tokio::sync::mpsc::{UnboundedReceiver, UnboundedSender, unbounded_channel};

fn admin_url() -> TeamUrl {
    std::env::var("FEEDBACK_TEST_PG")
        .unwrap_or_else(|_| "host=127.0.0.1 port=5432 user=postgres dbname=postgres".to_owned())
        .parse()
        .unwrap()
}

/// A fresh database with the team `bench` of `members` members; their URLs.
async fn team_db(name: &str, members: usize) -> Option<(TeamUrl, Vec<TeamUrl>)> {
    let server = admin_url();
    let Ok(client) = team::connect(&server).await else {
        eprintln!("team bench skipped: no PostgreSQL at {}", server.describe());
        return None;
    };
    for sql in [
        format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
        format!("CREATE DATABASE {name}"),
    ] {
        client.raw().batch_execute(&sql).await.unwrap();
    }
    let admin = server.with_database(name);
    let mut admin_client = team::connect(&admin).await.unwrap();
    team::create_team(&mut admin_client, "bench").await.unwrap();
    let mut urls = Vec::new();
    for n in 0..members {
        let role = format!("{name}_m{n}");
        client
            .raw()
            .batch_execute(&format!("DROP ROLE IF EXISTS {role}"))
            .await
            .unwrap();
        let AddedMember::Created { password } = team::add_member(&mut admin_client, "bench", &role)
            .await
            .unwrap()
        else {
            panic!("the role existed");
        };
        urls.push(admin.as_role(&role, Some(&password)));
    }
    Some((admin, urls))
}

async fn drop_db(name: &str, members: usize) {
    let client = team::connect(&admin_url()).await.unwrap();
    client
        .raw()
        .batch_execute(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
        .await
        .unwrap();
    for n in 0..members {
        client
            .raw()
            .batch_execute(&format!("DROP ROLE IF EXISTS {name}_m{n}"))
            .await
            .unwrap();
    }
}

struct Link {
    role: String,
    store: Shared,
    asks: UnboundedSender<Ask>,
    news: UnboundedReceiver<News>,
}

fn link(url: &TeamUrl, poll: Duration) -> Link {
    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
    let (asks, ask_rx) = unbounded_channel();
    let (news_tx, news) = unbounded_channel();
    let settings = LiveSettings {
        url: url.clone(),
        team: None,
        poll,
        listen: true,
        retry: Duration::from_millis(100),
        clock: feedback_core::clock::system(),
    };
    tokio::spawn(live(settings, store.clone(), ask_rx, news_tx));
    Link {
        role: url.role().unwrap().to_owned(),
        store,
        asks,
        news,
    }
}

impl Link {
    async fn until(&mut self, mut wanted: impl FnMut(&News) -> bool) {
        loop {
            let news = tokio::time::timeout(Duration::from_secs(30), self.news.recv())
                .await
                .unwrap()
                .unwrap();
            if wanted(&news) {
                return;
            }
        }
    }

    async fn record(&self, changes: &[(String, Change)]) {
        team_sync::record(&self.store, &self.role, changes, jiff::Timestamp::now())
            .await
            .unwrap();
        self.asks.send(Ask::Send).unwrap();
    }
}

fn notify(c: &mut Criterion, rt: &Runtime) {
    let Some((_, urls)) = rt.block_on(team_db("fi_bench_notify", 2)) else {
        return;
    };
    let hour = Duration::from_secs(3600);
    let (mut ana, mut bo) = rt.block_on(async {
        let mut ana = link(&urls[0], hour);
        let mut bo = link(&urls[1], hour);
        ana.until(|n| matches!(n, News::Connected { .. })).await;
        bo.until(|n| matches!(n, News::Connected { .. })).await;
        (ana, bo)
    });
    let mut n = 0_u64;
    c.bench_function(
        "team/notify: a claim in one store until it is in the other's",
        |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        n += 1;
                        let started = Instant::now();
                        ana.record(&[(format!("fb_{n}"), Change::Claim)]).await;
                        bo.until(|news| matches!(news, News::Changed(_))).await;
                        total += started.elapsed();
                        // Ana's own news of the same change, before the next.
                        while ana.news.try_recv().is_ok() {}
                    }
                    total
                })
            });
        },
    );
    c.bench_function(
        "team/notify_link: a link captured from a command's output in one store until it is in the other's",
        |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        n += 1;
                        let output = format!(
                            "\u{1b}[32mcreated\u{1b}[0m https://tracker.example/TICKET-{n}\n"
                        );
                        let started = Instant::now();
                        let link = feedback_core::link::first_in(&output).unwrap();
                        ana.record(&[(format!("fb_{n}"), Change::Link(link))]).await;
                        bo.until(|news| matches!(news, News::Changed(_))).await;
                        total += started.elapsed();
                        while ana.news.try_recv().is_ok() {}
                    }
                    total
                })
            });
        },
    );
    drop((ana, bo));
    rt.block_on(drop_db("fi_bench_notify", 2));
}

fn catch_up(c: &mut Criterion, rt: &Runtime) {
    const EVENTS: i64 = 100_000;
    let Some((admin, urls)) = rt.block_on(team_db("fi_bench_catchup", 1)) else {
        return;
    };
    let member = urls[0].role().unwrap().to_owned();
    rt.block_on(async {
        let client = team::connect(&admin).await.unwrap();
        add_events(client.raw(), &member, 0..EVENTS).await;
        client
            .raw().batch_execute(
                "INSERT INTO feedback_team.items (team_id, item_id, labels, last_seq)
                 SELECT 1, item_id, ARRAY['l1', 'l2'], max(seq) FROM feedback_team.events GROUP BY item_id",
            )
            .await
            .unwrap();
        // The events came in while the member was away, over hours in which autovacuum
        // gathered the tables' statistics; without them the planner takes the 100,000 rows for
        // a few dozen and sorts every event after the position for each batch.
        client
            .raw().batch_execute("ANALYZE feedback_team.events, feedback_team.items")
            .await
            .unwrap();
    });
    let team = rt.block_on(team::Team::open(&urls[0], None)).unwrap();
    // Before the samples, whose freed memory a later catch-up could reuse unseen.
    peak_memory(rt, &team);
    let mut group = c.benchmark_group("team/catch_up");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(20));
    group.bench_function("100,000 events into an empty store", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
                    team_sync::join(&team, &store).await.unwrap();
                    let started = Instant::now();
                    let caught_up = team_sync::catch_up(&team, &store, jiff::Timestamp::now)
                        .await
                        .unwrap();
                    total += started.elapsed();
                    assert_eq!(caught_up.events, usize::try_from(EVENTS).unwrap());
                }
                total
            })
        });
    });
    group.finish();
    // Three times the events: the peak rises no further (the store's page cache is bounded).
    rt.block_on(async {
        let client = team::connect(&admin).await.unwrap();
        add_events(client.raw(), &member, EVENTS..3 * EVENTS).await;
    });
    peak_memory(rt, &team);
    drop(team);
    rt.block_on(drop_db("fi_bench_catchup", 1));
}

fn mirror_follow(c: &mut Criterion, rt: &Runtime) {
    const ITEMS: usize = 100_000;
    let Some((_, urls)) = rt.block_on(team_db("fi_bench_mirror", 1)) else {
        return;
    };
    let mut syncer = rt.block_on(team::Team::open(&urls[0], None)).unwrap();
    rt.block_on(async {
        let mut lease = syncer
            .take_syncer(team::LEASE_SECONDS)
            .await
            .unwrap()
            .unwrap();
        for start in (0..ITEMS).step_by(1000) {
            let page: Vec<_> = (start..start + 1000)
                .map(feedback_tui::testkit::item)
                .collect();
            // Renewed as a syncer does, well before it runs out.
            lease = syncer
                .renew_syncer(&lease, team::LEASE_SECONDS)
                .await
                .unwrap()
                .unwrap();
            let written = syncer.mirror_page(&lease, &page).await.unwrap();
            assert_eq!(written, team::MirrorWrite::Written { changed: 1000 });
        }
    });
    let mut group = c.benchmark_group("team/mirror_follow");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(30));
    group.bench_function("100,000 items into an empty store", |b| {
        b.iter_custom(|iters| {
            rt.block_on(async {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    let store = Shared::new(Store::open_memory().unwrap()).unwrap();
                    team_sync::join(&syncer, &store).await.unwrap();
                    let started = Instant::now();
                    let followed = team_sync::mirror::follow(&syncer, &store, jiff::Timestamp::now)
                        .await
                        .unwrap();
                    total += started.elapsed();
                    assert_eq!(followed.added, ITEMS);
                }
                total
            })
        });
    });
    group.finish();
    // The API walk it replaces: a list page of 100 items a request, paced by the budget.
    let requests = ITEMS.div_ceil(100);
    let per_minute = feedback_sim::SimConfig::default().rate_per_minute;
    println!(
        "team/mirror_follow: the same {ITEMS} items walked from the API take {requests} list \
         requests: {:.0} s at the simulator's default budget of {per_minute} a minute",
        f64::from(u32::try_from(requests).unwrap()) * 60.0 / f64::from(per_minute)
    );
    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("mirror.db")).unwrap()).unwrap();
    rt.block_on(team_sync::join(&syncer, &store)).unwrap();
    if let Some(before) = peak_kib(true) {
        let followed = rt
            .block_on(team_sync::mirror::follow(
                &syncer,
                &store,
                jiff::Timestamp::now,
            ))
            .unwrap();
        let after = peak_kib(false).unwrap_or(before);
        println!(
            "team/mirror_follow: {} items into a store file: peak memory rose {} KiB",
            followed.added,
            after.saturating_sub(before)
        );
    }
    drop(syncer);
    rt.block_on(drop_db("fi_bench_mirror", 1));
}

/// Events numbered `range` by `member`, in transactions of 1,000, over 10,000 items.
async fn add_events(client: &tokio_postgres::Client, member: &str, range: std::ops::Range<i64>) {
    for start in range.step_by(1000) {
        client
            .execute(
                "INSERT INTO feedback_team.events (team_id, event_id, member, item_id, kind, body)
                 SELECT 1, 'e' || g, $1::text::name, 'fb_' || (g % 10000), 'labels',
                        jsonb_build_object('add', jsonb_build_array('l' || (g % 7)), 'remove', '[]'::jsonb)
                 FROM generate_series($2::bigint, $2::bigint + 999) AS g",
                &[&member, &start],
            )
            .await
            .unwrap();
    }
}

/// This process's peak resident memory (`VmHWM`, KiB), reset first when `reset` (Linux only:
/// `None` elsewhere).
fn peak_kib(reset: bool) -> Option<u64> {
    if reset {
        std::fs::write("/proc/self/clear_refs", "5").ok()?;
    }
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Printed once: how far this process's peak memory rose while catching up on every event
/// into a store file (not memory: the store's pages are the disk's), against the size of the
/// events read, which a reader holding them all would need at least.
fn peak_memory(rt: &Runtime, team: &team::Team) {
    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("replica.db")).unwrap()).unwrap();
    rt.block_on(team_sync::join(team, &store)).unwrap();
    let Some(before) = peak_kib(true) else {
        println!("team/catch_up: no /proc/self here: no memory figure");
        return;
    };
    let caught_up = rt
        .block_on(team_sync::catch_up(team, &store, jiff::Timestamp::now))
        .unwrap();
    let after = peak_kib(false).unwrap_or(before);
    let bytes: usize = store
        .read(|s| s.team_recent(usize::MAX))
        .unwrap()
        .iter()
        .map(|e| {
            e.event_id.len()
                + e.member.len()
                + e.item_id.len()
                + e.change.kind().len()
                + e.change.body_text().len()
                + 8
        })
        .sum();
    println!(
        "team/catch_up: {} events into a store file: peak memory rose {} KiB (the events' text alone is {} KiB)",
        caught_up.events,
        after.saturating_sub(before),
        bytes / 1024
    );
}

/// The CPU time (user and system) of every `postgres` process on this machine so far, from
/// `/proc` (in USER_HZ ticks, 100 a second on Linux); `None` where there is no `/proc` or the
/// server runs elsewhere (then nothing is found).
fn db_cpu() -> Option<Duration> {
    let mut ticks = 0_u64;
    let mut found = false;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        let Some((head, rest)) = stat.split_once(") ") else {
            continue;
        };
        if !head.ends_with("(postgres") {
            continue;
        }
        // After the name: state is field 3, utime 14 and stime 15 of the whole line.
        let fields: Vec<&str> = rest.split_whitespace().collect();
        let field = |n: usize| fields.get(n - 3).and_then(|f| f.parse::<u64>().ok());
        if let (Some(user), Some(system)) = (field(14), field(15)) {
            ticks += user + system;
            found = true;
        }
    }
    found.then(|| Duration::from_millis(ticks * 10))
}

fn members(rt: &Runtime) {
    let actions: usize = std::env::var("TEAM_BENCH_ACTIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let pace: u32 = std::env::var("TEAM_BENCH_PACE")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(60);
    // Each member's time between changes, the members' turns spread across it.
    let every = (pace > 0).then(|| Duration::from_secs(60) / pace);
    let Some((admin, urls)) = rt.block_on(team_db("fi_bench_members", 20)) else {
        return;
    };
    rt.block_on(async {
        let cpu_before = db_cpu();
        let mut links: Vec<Link> = urls.iter().map(|u| link(u, Duration::from_secs(5))).collect();
        for l in &mut links {
            l.until(|n| matches!(n, News::Connected { .. })).await;
        }
        let started = Instant::now();
        let start = tokio::time::Instant::now();
        let mut tasks = Vec::new();
        for (m, l) in links.into_iter().enumerate() {
            tasks.push(tokio::spawn(act(l, m, actions, every, start)));
        }
        let mut links = Vec::new();
        for task in tasks {
            links.push(task.await.unwrap());
        }
        let took = started.elapsed();
        let client = team::connect(&admin).await.unwrap();
        let events: i64 = client
            .raw().query_one("SELECT count(*) FROM feedback_team.events", &[])
            .await
            .unwrap()
            .get(0);
        let raced: i64 = client
            .raw().query_one(
                "SELECT count(*) FROM feedback_team.items WHERE item_id LIKE 'race_%' AND owner IS NOT NULL",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        let claims_won: i64 = client
            .raw().query_one(
                "SELECT count(*) FROM feedback_team.events WHERE kind = 'claim'",
                &[],
            )
            .await
            .unwrap()
            .get(0);
        let lost: usize = links
            .iter()
            .map(|l| l.store.read(|s| s.team_lost().unwrap().len()))
            .sum();
        let race_items = actions.div_ceil(5);
        let made = 20 * actions;
        // Every change is an event, or a claim lost (and kept as lost): nothing vanished.
        let accounted = usize::try_from(events).unwrap() + lost;
        println!(
            "team/members_20: {made} changes by 20 members ({}) in {took:.2?}: {:.0} events/s; \
             {events} events stored, {lost} claims lost (reported), {accounted} accounted for; \
             {raced} of {race_items} raced items owned, {claims_won} claims won",
            if pace == 0 {
                "as fast as sent".to_owned()
            } else {
                format!("{pace} a minute each")
            },
            f64::from(u32::try_from(events).unwrap()) / took.as_secs_f64(),
        );
        assert_eq!(accounted, made, "a change lost or doubled");
        assert_eq!(usize::try_from(raced).unwrap(), race_items);
        assert_eq!(claims_won, raced, "a raced item with two winners");
        match (cpu_before, db_cpu()) {
            (Some(before), Some(after)) => {
                let cpu = after.saturating_sub(before);
                println!(
                    "team/members_20: the database's processes used {cpu:.2?} of CPU ({:.0}% of one core over the run)",
                    100.0 * cpu.as_secs_f64() / took.as_secs_f64()
                );
            }
            _ => println!("team/members_20: no postgres process in /proc here: no CPU figure"),
        }
        drop(links);
    });
    rt.block_on(drop_db("fi_bench_members", 20));
}

/// Member `m`'s part: `actions` changes, one each `every` from `start` (its turn spread
/// across the interval; `None`: as fast as sent), then waits until all are answered.
async fn act(
    mut l: Link,
    m: usize,
    actions: usize,
    every: Option<Duration>,
    start: tokio::time::Instant,
) -> Link {
    for a in 0..actions {
        if let Some(every) = every {
            let turn = every * u32::try_from(a).unwrap() + every * u32::try_from(m).unwrap() / 20;
            tokio::time::sleep_until(start + turn).await;
        }
        let change = if a % 5 == 0 {
            // Every member races for the same items.
            (format!("race_{a}"), Change::Claim)
        } else {
            let label = format!("m{m}_{a}");
            (
                format!("own_{m}_{}", a % 50),
                Change::Labels {
                    add: vec![label],
                    remove: vec![],
                },
            )
        };
        l.record(&[change]).await;
    }
    // Until everything recorded has been answered.
    loop {
        let waiting = l.store.read(|s| s.team_outbox().unwrap().len());
        if waiting == 0 {
            break;
        }
        l.until(|n| matches!(n, News::Sent(_))).await;
    }
    l
}

/// `count` label changes, one item each (a bulk script's), recorded in `store`.
async fn queue(store: &Shared, member: &str, from: usize, count: usize) {
    let changes: Vec<(String, Change)> = (from..from + count)
        .map(|n| {
            (
                format!("fb_{n}"),
                Change::Labels {
                    add: vec!["bulk".to_owned()],
                    remove: Vec::new(),
                },
            )
        })
        .collect();
    for chunk in changes.chunks(10_000) {
        team_sync::record(store, member, chunk, jiff::Timestamp::now())
            .await
            .unwrap();
    }
}

fn outbox(rt: &Runtime) {
    let count: usize = std::env::var("TEAM_BENCH_OUTBOX")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let Some((_, urls)) = rt.block_on(team_db("fi_bench_outbox", 1)) else {
        return;
    };
    let member = urls[0].role().unwrap().to_owned();
    let team = rt.block_on(team::Team::open(&urls[0], None)).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let store = Shared::new(Store::open(&dir.path().join("outbox.db")).unwrap()).unwrap();
    rt.block_on(async {
        team_sync::join(&team, &store).await.unwrap();
        queue(&store, &member, 0, count).await;
    });
    let before = peak_kib(true);
    let started = Instant::now();
    let sent = rt
        .block_on(team_sync::send(&team, &store, jiff::Timestamp::now))
        .unwrap();
    let took = started.elapsed();
    assert_eq!((sent.count, sent.pending), (count, 0));
    let rose = before.and_then(|b| Some(peak_kib(false)?.saturating_sub(b)));
    println!(
        "team/outbox: {count} changes sent in {:.1} s ({:.0} a second); peak memory rose {}",
        took.as_secs_f64(),
        f64::from(u32::try_from(count).unwrap()) / took.as_secs_f64(),
        rose.map_or_else(|| "(no /proc here)".to_owned(), |k| format!("{k} KiB"))
    );
    // As many waiting again: a command's own claim, sent first.
    rt.block_on(queue(&store, &member, count, count));
    let own = vec!["fb_own".to_owned()];
    rt.block_on(team_sync::record(
        &store,
        &member,
        &[(own[0].clone(), Change::Claim)],
        jiff::Timestamp::now(),
    ))
    .unwrap();
    let started = Instant::now();
    let sending = team_sync::Sending::Own(&own, tokio::time::Instant::now());
    let sent = rt
        .block_on(team_sync::send_some(
            &team,
            &store,
            sending,
            jiff::Timestamp::now,
        ))
        .unwrap();
    assert_eq!(sent.settled.len(), 1);
    println!(
        "team/outbox: a command's own claim with {} others waiting: sent in {} ms",
        sent.pending,
        started.elapsed().as_millis()
    );
    // For comparison: the whole outbox read at once, one change per round trip and one store
    // commit per change, over the first few thousand.
    let baseline = count.min(5_000);
    let started = Instant::now();
    rt.block_on(async {
        let waiting = store.read(Store::team_outbox).unwrap();
        for entry in waiting.iter().take(baseline) {
            let change: &Change = entry.change.as_ref().unwrap();
            team.apply(&entry.event_id, &entry.item_id, change)
                .await
                .unwrap();
            let id = entry.event_id.clone();
            store
                .write(|s| s.team_outbox_settle(&id, None, jiff::Timestamp::now()))
                .unwrap();
        }
    });
    let took = started.elapsed();
    println!(
        "team/outbox: one change per round trip and per commit: {baseline} in {:.1} s ({:.0} a second)",
        took.as_secs_f64(),
        f64::from(u32::try_from(baseline).unwrap()) / took.as_secs_f64()
    );
    drop(team);
    rt.block_on(drop_db("fi_bench_outbox", 1));
}

fn benches(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    // `TEAM_BENCH_ONLY=notify,outbox` runs only those parts (their set-up is long).
    let only = std::env::var("TEAM_BENCH_ONLY").unwrap_or_default();
    let runs = |part: &str| only.is_empty() || only.split(',').any(|p| p.trim() == part);
    if runs("notify") {
        notify(c, &rt);
    }
    if runs("catch_up") {
        catch_up(c, &rt);
    }
    if runs("mirror_follow") {
        mirror_follow(c, &rt);
    }
    if runs("members") {
        members(&rt);
    }
    if runs("outbox") {
        outbox(&rt);
    }
}

criterion_group!(team_benches, benches);
criterion_main!(team_benches);
