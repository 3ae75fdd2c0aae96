use super::*;
use crate::cursor::Position;
use crate::query::{ListQuery, scope_matches};

fn anchor() -> Timestamp {
    "2026-11-01T12:00:00Z".parse().unwrap()
}

fn key(item: &FeedbackDetail) -> (Timestamp, &str) {
    (item.feedback.received_at, item.feedback.id.as_str())
}

#[test]
fn same_seed_gives_same_data() {
    let a: Vec<_> = generate(42, 300, anchor()).items().collect();
    let b: Vec<_> = generate(42, 300, anchor()).items().collect();
    assert_eq!(a, b);
    assert_ne!(generate(43, 300, anchor()).items().collect::<Vec<_>>(), a);
}

#[test]
fn items_are_newest_first_with_unique_ids_and_variety() {
    let d = generate(7, 3000, anchor());
    let items: Vec<_> = d.items().collect();
    assert_eq!(items.len(), 3000);
    assert!(items.windows(2).all(|w| key(&w[0]) > key(&w[1])));
    let ids: HashSet<_> = items.iter().map(|i| &i.feedback.id).collect();
    assert_eq!(ids.len(), 3000);
    let f = |p: &dyn Fn(&FeedbackDetail) -> bool| items.iter().filter(|i| p(i)).count();
    assert!(f(&|i| i.feedback.app.is_none()) > 0);
    assert!(f(&|i| i.feedback.reporter_email.is_none()) > 0);
    assert!(f(&|i| i.feedback.status == Status::Archived) > 0);
    assert!(f(&|i| i.issue_tracker_url().is_some()) > 0);
    assert!(f(&|i| !i.metadata.custom.is_empty()) > 0);
    assert!(
        items.last().unwrap().feedback.received_at
            > anchor()
                .saturating_sub(SignedDuration::from_hours(200 * 24))
                .unwrap()
    );
    for item in &items {
        assert_eq!(d.get(item.feedback.id.as_str()).as_ref(), Some(item));
    }
}

/// Share of items whose message holds `word` as a whole word (ASCII case folded).
fn share(items: &[FeedbackDetail], word: &str) -> f64 {
    let hits = items
        .iter()
        .filter(|i| {
            i.feedback
                .message
                .split(|c: char| !c.is_alphanumeric())
                .any(|w| w.eq_ignore_ascii_case(word))
        })
        .count();
    f64::from(u32::try_from(hits).unwrap()) / f64::from(u32::try_from(items.len()).unwrap())
}

#[test]
fn word_frequencies_span_common_to_rare_as_the_module_doc_says() {
    let items: Vec<_> = generate(1, 40_000, anchor()).items().collect();
    let thanks = share(&items, "thanks");
    assert!((0.45..0.55).contains(&thanks), "thanks in {thanks}");
    let fairphone = share(&items, "fairphone");
    assert!(
        (0.005..0.008).contains(&fairphone),
        "fairphone in {fairphone}"
    );
    let folders = share(&items, "folders");
    assert!((0.008..0.011).contains(&folders), "folders in {folders}");
    let refund = share(&items, "refund");
    assert!((0.013..0.019).contains(&refund), "refund in {refund}");
    let stylus = share(&items, "stylus");
    assert!(stylus > 0.0 && stylus < 0.0015, "stylus in {stylus}");
    let emails: HashSet<_> = items
        .iter()
        .filter_map(|i| i.feedback.reporter_email.as_deref())
        .collect();
    assert!(emails.len() > 5000, "{} distinct emails", emails.len());
}

/// Every page of every filter, walked by cursor, equals a brute-force filter of all items.
#[test]
fn paging_by_cursor_matches_a_brute_force_filter() {
    let mut d = generate(5, 2500, anchor());
    let archived: Vec<String> = d.items().take(40).map(|i| i.feedback.id.0).collect();
    for id in &archived {
        assert!(d.set_status(id, &Status::Archived));
    }
    assert!(!d.set_status("nosuchid", &Status::Archived));
    let all: Vec<FeedbackDetail> = d.items().collect();
    let newest: Vec<_> = all
        .iter()
        .filter(|i| i.feedback.status == Status::Archived)
        .take(50)
        .map(|i| i.feedback.clone())
        .collect();
    let q = ListQuery {
        status: &Status::Archived,
        app: None,
        project: None,
        tag: None,
    };
    assert_eq!(
        d.page(&q, None, 50).0,
        newest,
        "a page shows the items' own fields"
    );
    let (app, project) = (d.apps[3].id.clone(), d.projects[1].id.clone());
    let unknown = "00000000-0000-4000-8000-000000000000".to_owned();
    for status in [Status::New, Status::Archived] {
        for (app, project, tag) in [
            (None, None, None),
            (Some(&app), None, None),
            (None, Some(&project), Some("crash")),
            (Some(&app), Some(&project), Some("bug")),
            (None, None, Some("no-such-tag")),
            (Some(&unknown), None, None),
        ] {
            let q = ListQuery {
                status: &status,
                app: app.map(String::as_str),
                project: project.map(String::as_str),
                tag,
            };
            let want: Vec<&str> = all
                .iter()
                .filter(|i| {
                    i.feedback.status == status
                        && scope_matches(i, q.app, q.project)
                        && tag.is_none_or(|t| i.feedback.tags.iter().any(|x| x == t))
                })
                .map(|i| i.feedback.id.as_str())
                .collect();
            let got = walk(&d, &q, 37);
            assert_eq!(got, want, "{q:?}");
        }
    }
}

fn walk(d: &Dataset, q: &ListQuery<'_>, limit: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut after: Option<Position> = None;
    loop {
        let (page, next) = d.page(q, after.as_ref(), limit);
        assert!(page.len() <= limit);
        out.extend(page.into_iter().map(|f| f.id.0));
        match next {
            Some(p) => after = Some(p),
            None => return out,
        }
    }
}

#[test]
fn whole_items_and_late_arrivals_are_served_in_order() {
    let mut d = generate(9, 200, anchor());
    let mut odd = d.items().nth(50).unwrap();
    odd.feedback.id = FeedbackId("a-long-handed-in-id".into());
    odd.feedback.tags = vec!["custom-tag".into()];
    odd.feedback.status = Status::New;
    d.insert(odd.clone());
    let newest = d.insert_seeded(77, "zzzzzzzz", anchor(), Status::New);
    assert_eq!(d.items().next().as_ref(), Some(&newest));
    assert_eq!(d.get("a-long-handed-in-id").as_ref(), Some(&odd));
    assert_eq!(d.len(), 202);
    let items: Vec<_> = d.items().collect();
    assert!(items.windows(2).all(|w| key(&w[0]) > key(&w[1])));
    let q = ListQuery {
        status: &Status::New,
        app: None,
        project: None,
        tag: Some("custom-tag"),
    };
    assert_eq!(walk(&d, &q, 10), vec!["a-long-handed-in-id".to_owned()]);
    let counts = d.tag_counts(None, None);
    assert_eq!(counts.get("custom-tag"), Some(&1));
    let brute = items
        .iter()
        .filter(|i| i.feedback.tags.iter().any(|t| t == "bug"));
    assert_eq!(counts.get("bug").copied(), Some(brute.count() as u64));
}

#[test]
fn a_generated_item_is_kept_in_a_few_dozen_bytes() {
    // The compactness MAX_ITEMS relies on: a million entries in under 50 MB.
    assert!(
        std::mem::size_of::<Entry>() <= 48,
        "{}",
        std::mem::size_of::<Entry>()
    );
}
