//! Unit tests of the sync's pieces that need no server: the budget floor, the paging checks,
//! the cross-process lock.
#![allow(clippy::unwrap_used)]

use std::sync::Arc;
use std::time::Duration;

use jiff::Timestamp;

use super::SyncError;
use super::fill::{Advance, advance};
use super::gate::floor_wait;
use super::lock::{SyncLock, lock_path};
use super::paging::check_page;
use feedback_api::lenient::CountedPage;
use feedback_api::{Cursor, Page, RateLimit};
use feedback_store::sync_state::{Gap, Key};

fn rate(limit: u32, remaining: u32, reset: i64) -> RateLimit {
    RateLimit {
        limit: Some(limit),
        remaining: Some(remaining),
        reset: Some(Timestamp::from_second(reset).unwrap()),
    }
}

#[test]
fn background_waits_for_the_reset_rather_than_go_under_the_floor() {
    let now = Timestamp::from_second(100).unwrap();
    // 20% of 60 is 12: with 13 left one more request leaves 12, at the floor.
    assert_eq!(floor_wait(rate(60, 13, 130), now, 20), None);
    assert_eq!(
        floor_wait(rate(60, 12, 130), now, 20),
        Some(Duration::from_secs(30))
    );
    // The floor rounds up: 20% of 7 is 1.4, so 2 must stay.
    assert_eq!(floor_wait(rate(7, 3, 130), now, 20), None);
    assert!(floor_wait(rate(7, 2, 130), now, 20).is_some());
    // A window that has turned over, or an unknown budget, lets the request go.
    assert_eq!(floor_wait(rate(60, 0, 90), now, 20), None);
    assert_eq!(floor_wait(RateLimit::default(), now, 20), None);
}

fn page(ids: &[(&str, i64)], next: Option<&str>) -> CountedPage {
    let data: Vec<_> = ids
        .iter()
        .map(|(id, at)| {
            let mut item = feedback_sim::fixtures::item(0);
            item.id = feedback_api::FeedbackId((*id).to_owned());
            item.received_at = Timestamp::from_second(*at).unwrap();
            item
        })
        .collect();
    CountedPage {
        received: data.len(),
        page: Page {
            data,
            next_cursor: next.map(|c| Cursor(c.to_owned())),
        },
    }
}

#[test]
fn paging_checks_refuse_what_would_loop() {
    let sent = Cursor("c1".to_owned());
    let key = Key {
        received: Timestamp::from_second(50).unwrap().as_microsecond(),
        id: "m".to_owned(),
    };
    let ok = page(&[("a", 40), ("b", 30)], Some("c2"));
    assert!(check_page(Some(&sent), Some(&key), &ok).is_ok());
    let repeated = page(&[("a", 40)], Some("c1"));
    assert!(check_page(Some(&sent), Some(&key), &repeated).is_err());
    let empty = page(&[], Some("c2"));
    assert!(check_page(Some(&sent), Some(&key), &empty).is_err());
    let above = page(&[("z", 60), ("b", 30)], Some("c2"));
    assert!(check_page(Some(&sent), Some(&key), &above).is_err());
    let last = page(&[], None);
    assert!(check_page(Some(&sent), Some(&key), &last).is_ok());
}

#[test]
fn a_second_holder_of_the_lock_file_is_busy_until_the_first_lets_go() {
    let dir = tempfile::tempdir().unwrap();
    let path = lock_path(&dir.path().join("store.sqlite"));
    let first = Arc::new(SyncLock::new(Some(path.clone())));
    let second = Arc::new(SyncLock::new(Some(path)));
    let held = SyncLock::acquire(&first).unwrap();
    let again = SyncLock::acquire(&first).unwrap();
    assert!(matches!(SyncLock::acquire(&second), Err(SyncError::Busy)));
    drop(held);
    assert!(matches!(SyncLock::acquire(&second), Err(SyncError::Busy)));
    drop(again);
    let taken = SyncLock::acquire(&second).unwrap();
    assert!(matches!(SyncLock::acquire(&first), Err(SyncError::Busy)));
    drop(taken);
    assert!(SyncLock::acquire(&first).is_ok());
}

#[cfg(unix)]
#[test]
fn a_lock_file_others_can_read_is_made_private_again() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = lock_path(&dir.path().join("store.sqlite"));
    std::fs::write(&path, "").unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o666)).unwrap();
    let lock = Arc::new(SyncLock::new(Some(path.clone())));
    drop(SyncLock::acquire(&lock).unwrap());
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[tokio::test]
async fn the_user_goes_first_and_a_background_turn_learns_of_the_arrival() {
    use futures_util::FutureExt;

    use super::Priority;
    use super::gate::Gate;

    let gate = Arc::new(Gate::default());
    let first = gate.turn(Priority::User).await;
    let mut background = std::pin::pin!(gate.turn(Priority::Background));
    assert!((&mut background).now_or_never().is_none());
    // A second user operation arrives while the background one waits: it goes first.
    let mut second = std::pin::pin!(gate.turn(Priority::User));
    assert!((&mut second).now_or_never().is_none());
    drop(first);
    let second = second.await;
    assert!((&mut background).now_or_never().is_none());
    drop(second);
    let turn = background.await;
    assert!(!gate.user_waiting());
    // While the background runs, a user's arrival is signalled, so it stops between pages.
    let arrived = gate.arrived();
    let waiting = {
        let gate = Arc::clone(&gate);
        tokio::spawn(async move {
            let _turn = gate.turn(Priority::User).await;
        })
    };
    tokio::time::timeout(Duration::from_secs(10), arrived)
        .await
        .unwrap();
    assert!(gate.user_waiting());
    drop(turn);
    tokio::time::timeout(Duration::from_secs(10), waiting)
        .await
        .unwrap()
        .unwrap();
    assert!(!gate.user_waiting());
}

#[tokio::test]
async fn a_user_wait_given_up_does_not_hold_the_background_back() {
    use futures_util::FutureExt;

    use super::Priority;
    use super::gate::Gate;

    let gate = Gate::default();
    let background = gate.turn(Priority::Background).await;
    let mut user = Box::pin(gate.turn(Priority::User));
    assert!((&mut user).now_or_never().is_none());
    assert!(gate.user_waiting());
    drop(user);
    assert!(!gate.user_waiting());
    drop(background);
    assert!(gate.turn(Priority::Background).now_or_never().is_some());
}

#[test]
fn equal_times_in_another_tie_order_are_not_a_paging_error() {
    let sent = Cursor("c1".to_owned());
    let key = Key {
        received: Timestamp::from_second(50).unwrap().as_microsecond(),
        id: "m".to_owned(),
    };
    // "z" sorts above "m" by id at the same time: a service that breaks ties otherwise.
    let tie = page(&[("z", 50), ("b", 30)], Some("c2"));
    assert!(check_page(Some(&sent), Some(&key), &tie).is_ok());
}

fn key(id: &str, at: i64) -> Key {
    Key {
        received: Timestamp::from_second(at).unwrap().as_microsecond(),
        id: id.to_owned(),
    }
}

#[test]
fn a_page_moves_its_gap_below_itself_or_closes_it_from_the_page_alone() {
    let deep = Gap {
        g: 7,
        cursor: Some(Cursor("c1".to_owned())),
        cursor_key: Some(key("z", 90)),
        last: key("z", 90),
        until: None,
    };
    // Moved: the next cursor, continuing after the page's oldest item.
    let moved = advance(&deep, &page(&[("b", 80), ("a", 70)], Some("c2")), None);
    let Advance::Moved(next) = moved else {
        panic!("{moved:?}")
    };
    assert_eq!(next.g, 7);
    assert_eq!(next.cursor, Some(Cursor("c2".to_owned())));
    assert_eq!(next.cursor_key, Some(key("a", 70)));
    assert_eq!(next.last, key("a", 70));
    assert_eq!(next.until, None);
    // The list's end closes the deep end: the status is complete.
    assert_eq!(
        advance(&deep, &page(&[("a", 70)], None), None),
        Advance::Closed { complete: true }
    );
    // A gap between two stored stretches closes where its page reaches the stretch below,
    // and completes nothing.
    let between = Gap {
        until: Some(key("m", 75)),
        ..deep.clone()
    };
    assert_eq!(
        advance(&between, &page(&[("b", 80), ("m", 75)], Some("c2")), None),
        Advance::Closed { complete: false }
    );
    assert_eq!(
        advance(&between, &page(&[("b", 80)], None), None),
        Advance::Closed { complete: false }
    );
    assert!(matches!(
        advance(&between, &page(&[("b", 80), ("n", 76)], Some("c2")), None),
        Advance::Moved(_)
    ));
    // A page reaching past the retention cutoff ends the walk: nothing older is kept.
    let cutoff = Some(Timestamp::from_second(75).unwrap().as_microsecond());
    assert_eq!(
        advance(&deep, &page(&[("b", 80), ("a", 70)], Some("c2")), cutoff),
        Advance::Closed { complete: true }
    );
    // A page of nothing readable (all skipped) keeps the gap's position, with the new cursor.
    let mut unreadable = page(&[], Some("c2"));
    unreadable.received = 3;
    let Advance::Moved(next) = advance(&deep, &unreadable, None) else {
        panic!("an unreadable page closed the gap")
    };
    assert_eq!(next.cursor, Some(Cursor("c2".to_owned())));
    assert_eq!((next.cursor_key, next.last), (deep.cursor_key, deep.last));
}
