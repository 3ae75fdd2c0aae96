//! A burst of label changes two members make on a few items (the fault tests' workload), and
//! what every replica must end with.

use feedback_store::Shared;
use feedback_team::{self as team, Change};
use feedback_team_sync as team_sync;

/// Ana's `n`-th change: the label `l{n}` on item `fb_{n % items}`.
pub fn label(n: usize) -> Change {
    Change::Labels {
        add: vec![format!("l{n}")],
        remove: vec![],
    }
}

/// The item a burst's `n`-th change is on.
pub fn item(n: usize, items: usize) -> String {
    format!("fb_{}", n % items)
}

/// Whether Bo also changes the item at step `n` (the label `l{1000 + n}`): the server orders
/// his changes and Ana's.
pub fn bos_turn(n: usize) -> bool {
    n.is_multiple_of(15)
}

/// Each item's labels, sorted, once every change of a burst of `burst` is in.
pub fn labels_after(burst: usize, items: usize) -> Vec<Vec<String>> {
    (0..items)
        .map(|i| {
            let mut labels: Vec<String> = (0..burst)
                .filter(|n| n % items == i)
                .map(|n| format!("l{n}"))
                .chain(
                    (0..burst)
                        .filter(|n| bos_turn(*n) && n % items == i)
                        .map(|n| format!("l{}", 1000 + n)),
                )
                .collect();
            labels.sort();
            labels
        })
        .collect()
}

/// Each of the burst's items' labels in `store`'s replica, with changes not yet sent laid over.
pub fn labels_now(store: &Shared, items: usize) -> Vec<Vec<String>> {
    let ids: Vec<String> = (0..items).map(|n| format!("fb_{n}")).collect();
    store
        .read(|s| team_sync::states_now(s, &ids))
        .unwrap()
        .into_iter()
        .map(|s| s.labels)
        .collect()
}

/// The database holds each of a burst's `burst` changes (Ana's and Bo's) exactly once.
pub async fn assert_each_change_once(db: &super::Db, burst: usize) {
    let admin = team::connect(&db.admin()).await.unwrap();
    let row = admin
        .raw().query_one(
            "SELECT count(*), count(DISTINCT event_id) FROM feedback_team.events WHERE kind = 'labels'",
            &[],
        )
        .await
        .unwrap();
    let (events, distinct): (i64, i64) = (row.get(0), row.get(1));
    let bos = (0..burst).filter(|n| bos_turn(*n)).count();
    assert_eq!(
        events,
        i64::try_from(burst + bos).unwrap(),
        "nothing lost or doubled"
    );
    assert_eq!(events, distinct);
}
