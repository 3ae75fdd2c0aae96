//! A burst of label changes two members make on a few items (the fault tests' workload), and
//! what every replica must end with.

use feedback_inbox::store::Shared;
use feedback_inbox::team::{self, Change};
use feedback_inbox::team_sync;

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
        .query_one(
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

/// `store` shows each of `ids` as the team's database holds it: its owner, whether it is done,
/// its labels (and nothing waits to be sent).
pub async fn assert_store_is_database(db: &super::Db, store: &Shared, ids: &[String], who: &str) {
    let admin = team::connect(&db.admin()).await.unwrap();
    let mut truth = Vec::new();
    for id in ids {
        let row = admin
            .query_opt(
                "SELECT owner::text, done, labels FROM feedback_team.items WHERE item_id = $1",
                &[id],
            )
            .await
            .unwrap();
        let (owner, done, mut labels): (Option<String>, bool, Vec<String>) = row
            .map_or((None, false, Vec::new()), |r| {
                (r.get(0), r.get(1), r.get(2))
            });
        labels.sort();
        truth.push((id.clone(), owner, done, labels));
    }
    let shown: Vec<(String, Option<String>, bool, Vec<String>)> = store.read(|s| {
        assert_eq!(s.team_outbox_len().unwrap(), 0, "{who}: nothing waits");
        ids.iter()
            .map(|id| {
                let team = s.team_items(std::slice::from_ref(id)).unwrap();
                let (owner, mut labels) = team
                    .first()
                    .map_or((None, Vec::new()), |t| (t.owner.clone(), t.labels.clone()));
                labels.sort();
                let done = s
                    .triage_of(&[id.as_str()])
                    .unwrap()
                    .get(id)
                    .is_some_and(|t| t.done);
                (id.clone(), owner, done, labels)
            })
            .collect()
    });
    assert_eq!(
        shown, truth,
        "{who}'s store against the database, item by item"
    );
}
