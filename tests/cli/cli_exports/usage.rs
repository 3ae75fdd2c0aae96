//! What `list` checks before any request (status, limit, tag before names are looked up;
//! `--with-detail` with nothing to show), and the one page's `next_cursor` after `--since`.

use super::{ok, run, stderr};
use crate::common::rig;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_limit_tag_or_a_pointless_with_detail_fail_before_any_request() {
    let r = rig(10, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let long_tag = "t".repeat(40);
    let cases: [&[&str]; 4] = [
        &["list", "--app", "Trailhead iOS", "--limit", "500"],
        &["list", "--project", "trailhead", "--tag", &long_tag],
        &["list", "--with-detail"],
        &["list", "--all", "--with-detail", "--fields", "id,message"],
    ];
    for args in cases {
        let before = r.sim.stats().requests;
        let out = run(home.path(), &url, args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert_eq!(r.sim.stats().requests, before, "{args:?}: no request");
    }
    let out = run(home.path(), &url, &["list", "--with-detail"]);
    assert!(stderr(&out).contains("--fields"), "{}", stderr(&out));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_page_that_reached_past_since_has_no_next_cursor() {
    let r = rig(300, 10_000).await;
    let home = tempfile::tempdir().unwrap();
    let url = r.sim.base_url();
    let items: Vec<_> = r
        .sim
        .state()
        .read()
        .items()
        .filter(|it| it.feedback.status == feedback_api::Status::New)
        .map(|it| it.feedback.received_at)
        .collect();
    // Inside the first page of 100: the page reaches past it.
    let since = items[50];
    let inside = items.iter().filter(|at| **at >= since).count();
    let since = since.to_string();
    let page = |since: &str| -> serde_json::Value {
        let args = [
            "list", "--limit", "100", "--format", "json", "--since", since,
        ];
        serde_json::from_str(&ok(&run(home.path(), &url, &args))).unwrap()
    };
    let json = page(&since);
    assert_eq!(json["data"].as_array().unwrap().len(), inside);
    assert!(json["next_cursor"].is_null(), "{}", json["next_cursor"]);
    // A since beyond the page: the cursor goes on.
    assert!(items.len() > 100);
    let older = items[items.len() - 1].to_string();
    assert!(page(&older)["next_cursor"].is_string());
}
