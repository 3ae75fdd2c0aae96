//! Items' shared state as the team's database holds it and as a member's store shows it, to
//! compare them item by item: each item's owner, whether it is done, its labels (sorted).

use feedback_store::Shared;
use feedback_team as team;

/// One item: its id, owner, done, labels (sorted).
pub type ItemState = (String, Option<String>, bool, Vec<String>);

/// `ids`' shared state as the team's database holds it (an item it never changed: no owner,
/// not done, no label).
pub async fn in_database(db: &super::Db, ids: &[String]) -> Vec<ItemState> {
    let admin = team::connect(&db.admin()).await.unwrap();
    let mut out = Vec::new();
    for id in ids {
        let row = admin
            .raw()
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
        out.push((id.clone(), owner, done, labels));
    }
    out
}

/// `ids`' shared state as `store` shows it: the replica's owner and labels, the triage
/// state's done.
pub fn in_store(store: &Shared, ids: &[String]) -> Vec<ItemState> {
    store.read(|s| {
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
    })
}

/// [`in_store`] of the store file at `path`.
pub fn in_store_file(path: &std::path::Path, ids: &[String]) -> Vec<ItemState> {
    let store = Shared::new(feedback_store::Store::open(path).unwrap()).unwrap();
    in_store(&store, ids)
}

/// `store` shows each of `ids` as the team's database holds it, and nothing waits to be sent.
pub async fn assert_store_is_database(db: &super::Db, store: &Shared, ids: &[String], who: &str) {
    assert_eq!(
        store.read(|s| s.team_outbox_len().unwrap()),
        0,
        "{who}: nothing waits"
    );
    assert_eq!(
        in_store(store, ids),
        in_database(db, ids).await,
        "{who}'s store against the database, item by item"
    );
}
