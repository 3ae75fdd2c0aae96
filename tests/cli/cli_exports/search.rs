//! `search` exports: `--fields all` takes every stored key as a column, `--with-detail` fetches
//! what the store lacks once and keeps it.

use feedback_sim::Route;
use feedback_store::Store;

use super::{ok, run, stderr};
use crate::common::rig;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_fields_all_has_every_stored_key_as_a_column_in_every_format() {
    let r = rig(30, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let path = home.path().join("store.sqlite3");
    let details: Vec<_> = r.sim.state().read().items().take(12).collect();
    {
        let mut store = Store::open(&path).unwrap();
        for detail in &details {
            store.put_detail(detail, jiff::Timestamp::now()).unwrap();
        }
    }
    let mut custom: Vec<String> = details
        .iter()
        .flat_map(|d| d.metadata.custom.keys().cloned())
        .collect();
    custom.sort();
    custom.dedup();
    let store = path.to_str().unwrap();
    let search = |format: &str| {
        run(
            home.path(),
            &url,
            &[
                "--store", store, "search", "--fields", "all", "--format", format, "--", "-zzzzqq",
            ],
        )
    };
    let csv = ok(&search("csv"));
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_owned)
        .collect();
    let shown: Vec<&str> = header
        .iter()
        .filter_map(|h| h.strip_prefix("custom."))
        .collect();
    assert_eq!(shown, custom, "{header:?}");
    assert!(!header.contains(&"extra".to_owned()), "{header:?}");
    assert_eq!(reader.records().count(), 12);
    let json: serde_json::Value = serde_json::from_str(&ok(&search("json"))).unwrap();
    let data = json["data"].as_array().unwrap();
    assert_eq!(data.len(), 12);
    assert!(
        data.iter()
            .all(|d| d["metadata"]["built_in"].is_object() && d["delivery"].is_array())
    );
    assert_eq!(ok(&search("jsonl")).lines().count(), 12);
    let table = ok(&search("table"));
    assert_eq!(table.lines().count(), 13, "{table}");
    assert!(
        table.lines().next().unwrap().contains("meta.locale"),
        "{table}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_with_detail_fetches_what_the_store_lacks_once_and_keeps_it() {
    let r = rig(30, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let path = home.path().join("store.sqlite3");
    let details: Vec<_> = r.sim.state().read().items().take(6).collect();
    {
        let mut store = Store::open(&path).unwrap();
        let items: Vec<_> = details.iter().map(|d| d.feedback.clone()).collect();
        store.put_items(&items, jiff::Timestamp::now()).unwrap();
        store
            .put_detail(&details[0], jiff::Timestamp::now())
            .unwrap();
    }
    let store = path.to_str().unwrap();
    let args = [
        "--store",
        store,
        "search",
        "--fields",
        "id,metadata,delivery",
        "--format",
        "jsonl",
        "--with-detail",
        "--",
        "-zzzzqq",
    ];
    let before = r.sim.stats().route(Route::FeedbackItem);
    let out = run(home.path(), &url, &args);
    let text = ok(&out);
    assert_eq!(
        r.sim.stats().route(Route::FeedbackItem) - before,
        5,
        "{}",
        stderr(&out)
    );
    assert!(
        stderr(&out).contains("with-detail: 5 details fetched"),
        "{}",
        stderr(&out)
    );
    let lines: Vec<serde_json::Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 6);
    for line in &lines {
        let id = line["id"].as_str().unwrap();
        let detail = details.iter().find(|d| d.feedback.id.0 == id).unwrap();
        assert_eq!(
            line["metadata"],
            serde_json::to_value(&detail.metadata).unwrap()
        );
        assert_eq!(
            line["delivery"],
            serde_json::to_value(&detail.delivery).unwrap()
        );
    }
    // Kept: a second run asks for nothing.
    ok(&run(home.path(), &url, &args));
    assert_eq!(r.sim.stats().route(Route::FeedbackItem) - before, 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn search_with_detail_fetches_the_details_a_metadata_query_reads_for_every_item_it_is_about()
{
    let r = rig(30, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let path = home.path().join("store.sqlite3");
    let details: Vec<_> = r.sim.state().read().items().take(6).collect();
    let version = details[3].metadata.built_in["appVersion"].clone();
    let with_version = details
        .iter()
        .filter(|d| d.metadata.built_in.get("appVersion") == Some(&version))
        .count();
    {
        let mut store = Store::open(&path).unwrap();
        let items: Vec<_> = details.iter().map(|d| d.feedback.clone()).collect();
        store.put_items(&items, jiff::Timestamp::now()).unwrap();
        store
            .put_detail(&details[0], jiff::Timestamp::now())
            .unwrap();
    }
    let store = path.to_str().unwrap();
    let query = format!("version:{version}");
    let args = ["--store", store, "search", "--with-detail", "--", &query];
    let before = r.sim.stats().route(Route::FeedbackItem);
    let out = run(home.path(), &url, &args);
    let table = ok(&out);
    assert_eq!(r.sim.stats().route(Route::FeedbackItem) - before, 5);
    assert_eq!(table.lines().count(), 1 + with_version, "{table}");
    let plural = if with_version == 1 {
        "match"
    } else {
        "matches"
    };
    assert!(
        stderr(&out).contains(&format!(
            "{with_version} {plural} in new and archived, done and snoozed left out · based on 6 of 6 items with details"
        )),
        "{}",
        stderr(&out)
    );
}
