//! Pivot counts and daily series checked against brute force: the simulator's items (with odd
//! cases mixed in) stored, a third as list sightings only, then every pivot kind over generated
//! views (status, app, tag, searches, triage hiding) compared with a count in plain Rust over
//! the same items. Which items a view holds is the store's own answer (`view_keys`, checked
//! against brute force by the search's tests); what is checked here is the grouping: values,
//! `None` groups, apps of an unknown platform or none, local days and ISO weeks in a zone with daylight saving.

use std::collections::{BTreeMap, HashMap};

use jiff::tz::TimeZone;
use jiff::{SignedDuration, Timestamp};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use super::*;
use crate::search::{self, Context};
use crate::{Sighting, Triage};
use feedback_api::{AppRef, FeedbackDetail, Platform, Status};
use feedback_core::query;
use feedback_sim::data::generate;

/// Groups as brute force counts them: (key, label) to count and daily series.
type Counted = BTreeMap<(Option<String>, Option<String>), (u64, Vec<u32>)>;

struct Fixture {
    store: Store,
    /// By stored key: the item, whether its metadata was stored (a detail or a webhook), and
    /// whether its detail was.
    items: HashMap<i64, (FeedbackDetail, bool, bool)>,
    apps: Vec<String>,
    cx: Context,
}

fn now() -> Timestamp {
    "2026-11-20T15:00:00Z".parse().unwrap()
}

/// New York's rules: the window holds the change back to standard time (2026-11-01).
fn zone() -> TimeZone {
    TimeZone::posix("EST5EDT,M3.2.0,M11.1.0").unwrap()
}

/// The generator's items with oddities: received exactly at a local midnight or just before,
/// in the future, an app of an unknown platform, no app, a tag spelt apart, a custom key named
/// like a built-in one, metadata sent without a detail (a webhook), a detail without any
/// metadata, both OS version keys on one item.
fn items(count: usize) -> Vec<FeedbackDetail> {
    let data = generate(5, count, now());
    let tz = zone();
    let mut items: Vec<FeedbackDetail> = data.items().collect();
    for (i, item) in items.iter_mut().enumerate() {
        let f = &mut item.feedback;
        let midnight = |days: i64| {
            let day = now().to_zoned(tz.clone()).date() - jiff::Span::new().days(days);
            day_start(day, &tz)
        };
        match i % 41 {
            1 => f.received_at = midnight(i64::try_from(i % 37).unwrap()),
            2 => {
                f.received_at =
                    midnight(i64::try_from(i % 37).unwrap()) - SignedDuration::from_micros(1);
            }
            3 => f.received_at = now() + SignedDuration::from_hours(30),
            4 => {
                f.app = Some(AppRef {
                    id: "app-watch".into(),
                    name: "Watch".into(),
                    platform: Platform::from("watchos"),
                });
            }
            5 => f.app = None,
            6 => f.tags.push("Bug".into()),
            7 => {
                item.metadata.custom.insert("locale".into(), "xx-XX".into());
            }
            8 => f.status = Status::Other("triage".into()),
            9 => {
                item.metadata.built_in.clear();
                item.metadata.custom.clear();
            }
            10 => {
                let built_in = &mut item.metadata.built_in;
                built_in
                    .entry("iOSVersion".into())
                    .or_insert_with(|| "17.2".into());
                built_in
                    .entry("androidVersion".into())
                    .or_insert_with(|| "14".into());
            }
            _ => {}
        }
    }
    items
}

impl Fixture {
    fn new(count: usize) -> Self {
        let items = items(count);
        let data = generate(5, count, now());
        let mut store = Store::open_memory().unwrap();
        store.put_projects(&data.projects).unwrap();
        store.put_apps(&data.apps, None).unwrap();
        let sightings: Vec<Sighting<'_>> = items
            .iter()
            .enumerate()
            .map(|(i, d)| match i % 3 {
                0 => Sighting::listed(&d.feedback, &d.feedback.status),
                1 if i % 5 == 0 => Sighting {
                    listed: None,
                    feedback: &d.feedback,
                    metadata: Some(&d.metadata),
                    delivery: None,
                },
                _ => Sighting::detail(d),
            })
            .collect();
        store.put(&sightings, now()).unwrap();
        let states: Vec<(String, Triage)> = items
            .iter()
            .enumerate()
            .filter(|(i, _)| i % 4 == 1)
            .map(|(i, d)| {
                let triage = Triage {
                    done: i % 8 == 1,
                    starred: true,
                    ..Triage::default()
                };
                (d.feedback.id.as_str().to_owned(), triage)
            })
            .collect();
        store.restore_triage(&states, now()).unwrap();
        let mut by_key = HashMap::new();
        for (i, d) in items.into_iter().enumerate() {
            let key = store.item(d.feedback.id.as_str()).unwrap().unwrap().key;
            let webhook = i % 3 == 1 && i % 5 == 0;
            by_key.insert(key, (d, i % 3 != 0, i % 3 != 0 && !webhook));
        }
        let apps = data.apps.iter().map(|a| a.id.clone()).collect();
        let cx = Context {
            now: now(),
            tz: zone(),
            views: std::sync::Arc::default(),
        };
        Self {
            store,
            items: by_key,
            apps,
            cx,
        }
    }

    fn view(&self, spec: &ViewSpec) -> ViewQuery {
        let mut view = ViewQuery {
            status: spec.status.map(str::to_owned),
            app: spec.app.map(|i| self.apps[i % self.apps.len()].clone()),
            tag: spec.tag.map(str::to_owned),
            ..ViewQuery::default()
        };
        let query = query::parse(spec.search).unwrap();
        if !query.is_empty() {
            view = view.search(search::compile(self.store.conn(), &query, &self.cx).unwrap());
        }
        if spec.hide {
            view = view.hide_triaged(self.cx.now);
        }
        view
    }

    /// Brute force: the groups of the view's items, by `by`, as plain Rust counts them.
    fn brute(&self, view: &ViewQuery, by: &By) -> (u64, u64, Counted) {
        let keys = self.store.view_keys(view, None).unwrap();
        let window: Vec<jiff::civil::Date> = (0..SERIES_DAYS)
            .map(|i| {
                self.cx.now.to_zoned(self.cx.tz.clone()).date()
                    - jiff::Span::new().days(i64::try_from(SERIES_DAYS - 1 - i).unwrap())
            })
            .collect();
        let mut groups: BTreeMap<_, (u64, Vec<u32>)> = BTreeMap::new();
        let mut covered = 0;
        for k in &keys {
            let (item, detail, _) = &self.items[k];
            // Known: a detail or a webhook delivery brought the metadata, even none.
            covered += u64::from(*detail);
            let day = item
                .feedback
                .received_at
                .to_zoned(self.cx.tz.clone())
                .date();
            let slot = window.iter().position(|d| *d == day);
            for id in brute_values(item, *detail, by, &self.cx.tz) {
                let entry = groups.entry(id).or_insert((0, vec![0; SERIES_DAYS]));
                entry.0 += 1;
                if let Some(slot) = slot {
                    entry.1[slot] += 1;
                }
            }
        }
        (keys.len() as u64, covered, groups)
    }
}

/// The groups (key, label) an item counts in, from its fields.
fn brute_values(
    d: &FeedbackDetail,
    detail: bool,
    by: &By,
    tz: &TimeZone,
) -> Vec<(Option<String>, Option<String>)> {
    let f = &d.feedback;
    let built_in = |key: &str| {
        detail
            .then(|| d.metadata.built_in.get(key).cloned())
            .flatten()
    };
    let one = |key: Option<String>| vec![(key, None)];
    match by {
        By::App => vec![(
            f.app.as_ref().map(|a| a.id.clone()),
            f.app.as_ref().map(|a| a.name.clone()),
        )],
        By::Platform => one(f.app.as_ref().map(|a| a.platform.as_str().to_owned())),
        By::Tag if f.tags.is_empty() => one(None),
        By::Tag => f.tags.iter().map(|t| (Some(t.clone()), None)).collect(),
        // One version of one app: "Trailhead iOS 3.10.0".
        By::Version => match (built_in(VERSION_KEY), &f.app) {
            (Some(v), Some(app)) => vec![(Some(v.clone()), Some(format!("{} {v}", app.name)))],
            (v, _) => one(v),
        },
        By::Locale => one(built_in(LOCALE_KEY)),
        By::Os => match (built_in("iOSVersion"), built_in("androidVersion")) {
            (Some(v), _) => vec![(Some(v.clone()), Some(format!("iOS {v}")))],
            (None, Some(v)) => vec![(Some(v.clone()), Some(format!("Android {v}")))],
            (None, None) => one(None),
        },
        By::Meta(key) => one(detail
            .then(|| d.metadata.custom.get(key).cloned())
            .flatten()),
        By::Day | By::Week => {
            let day = f.received_at.to_zoned(tz.clone()).date();
            one(Some(if *by == By::Day {
                day.to_string()
            } else {
                let w = day.iso_week_date();
                format!("{:04}-W{:02}", w.year(), w.week())
            }))
        }
    }
}

#[derive(Debug, Clone)]
struct ViewSpec {
    status: Option<&'static str>,
    app: Option<usize>,
    tag: Option<&'static str>,
    search: &'static str,
    hide: bool,
}

fn view_spec() -> impl Strategy<Value = ViewSpec> {
    (
        prop::option::of(prop::sample::select(vec!["new", "archived", "triage"])),
        prop::option::weighted(0.3, 0..20usize),
        prop::option::weighted(0.3, prop::sample::select(vec!["bug", "Bug", "crash", "ux"])),
        prop::sample::select(vec![
            "",
            "crash",
            "tag:bug",
            "platform:ios",
            "-crash",
            "has:email",
            "meta.plan:pro",
            "is:starred",
            "age:<10d",
            "crash OR login",
        ]),
        any::<bool>(),
    )
        .prop_map(|(status, app, tag, search, hide)| ViewSpec {
            status,
            app,
            tag,
            search,
            hide,
        })
}

fn every_by() -> Vec<By> {
    vec![
        By::App,
        By::Platform,
        By::Tag,
        By::Version,
        By::Os,
        By::Locale,
        By::Meta("plan".into()),
        By::Meta("screen".into()),
        By::Meta("no-such-key".into()),
        By::Day,
        By::Week,
    ]
}

fn check(fixture: &Fixture, spec: &ViewSpec, by: &By) {
    let view = fixture.view(spec);
    let pivot = fixture.store.pivot(&view, by, &fixture.cx).unwrap();
    let (total, covered, want) = fixture.brute(&view, by);
    let context = format!("{spec:?} by {by:?}");
    assert_eq!(pivot.total, total, "{context}");
    assert_eq!(
        pivot.covered,
        by.is_metadata().then_some(covered),
        "{context}"
    );
    let got: BTreeMap<_, _> = pivot
        .groups
        .iter()
        .map(|g| ((g.key.clone(), g.label.clone()), (g.count, g.daily.clone())))
        .collect();
    assert_eq!(got.len(), pivot.groups.len(), "a group twice: {context}");
    assert_eq!(got, want, "{context}");
    check_order(&pivot, &context);
}

fn check_order(pivot: &Pivot, context: &str) {
    if pivot.by == By::Version {
        return check_version_order(pivot, context);
    }
    let keys: Vec<_> = pivot
        .groups
        .iter()
        .map(|g| (g.count, g.key.clone()))
        .collect();
    let in_order = keys.windows(2).all(|w| match pivot.by.period() {
        // Names of days and weeks sort as their time: newest first, the timeless last.
        Some(_) => w[1].1.is_none() || (w[0].1.is_some() && w[0].1 > w[1].1),
        None => {
            w[0].0 > w[1].0
                || (w[0].0 == w[1].0
                    && (w[1].1.is_none() || (w[0].1.is_some() && w[0].1 <= w[1].1)))
        }
    });
    assert!(in_order, "order: {context}: {keys:?}");
}

/// Versions by app (name, then id; no app after), then by precedence; no version last.
fn check_version_order(pivot: &Pivot, context: &str) {
    let rank = |g: &Group| {
        let name = match (&g.label, &g.key) {
            (Some(l), Some(v)) => l
                .strip_suffix(v.as_str())
                .unwrap_or(l)
                .trim_end()
                .to_owned(),
            _ => String::new(),
        };
        (g.key.is_none(), g.app.is_none(), name, g.app.clone())
    };
    for w in pivot.groups.windows(2) {
        let (a, b) = (rank(&w[0]), rank(&w[1]));
        let in_order = a < b
            || (a == b
                && version::precedence(w[0].key.as_deref(), w[1].key.as_deref())
                    != std::cmp::Ordering::Greater);
        assert!(in_order, "order: {context}: {:?} then {:?}", w[0], w[1]);
        // Every version group of an app names its app and when it was first seen.
        if w[0].key.is_some() {
            assert!(w[0].first_seen.is_some(), "{context}: {:?}", w[0]);
        }
    }
}

#[test]
fn every_pivot_counts_what_brute_force_counts() {
    let fixture = Fixture::new(2_500);
    // The plain view first, every kind, by hand: a failure here is the easiest to read.
    let plain = ViewSpec {
        status: None,
        app: None,
        tag: None,
        search: "",
        hide: false,
    };
    for by in every_by() {
        check(&fixture, &plain, &by);
    }
    let mut runner = TestRunner::new(Config::with_cases(48));
    runner
        .run(
            &(view_spec(), prop::sample::select(every_by())),
            |(spec, by)| {
                check(&fixture, &spec, &by);
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn the_fixture_has_what_the_checks_need() {
    let fixture = Fixture::new(2_500);
    let view = ViewQuery::default();
    let (_, _, days) = fixture.brute(&view, &By::Day);
    // Items in the window, around the daylight-saving change, and in the future.
    let window: u32 = days.values().map(|(_, d)| d.iter().sum::<u32>()).sum();
    assert!(window > 100, "{window}");
    assert!(days.contains_key(&(Some("2026-11-01".into()), None)));
    let (_, _, meta) = fixture.brute(&view, &By::Meta("plan".into()));
    assert!(meta.len() >= 4, "{meta:?}");
    let (_, _, os) = fixture.brute(&view, &By::Os);
    assert!(
        os.keys()
            .any(|(_, l)| l.as_deref().is_some_and(|l| l.starts_with("iOS")))
    );
    assert!(
        os.keys()
            .any(|(_, l)| l.as_deref().is_some_and(|l| l.starts_with("Android")))
    );
}
