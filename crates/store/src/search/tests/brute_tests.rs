//! Search results equal a brute-force filter over the same items, in the same order, for
//! hand-written and generated queries over a few thousand generated items.

use super::brute::Fixture;
use crate::match_walk::Choice;

const ITEMS: usize = 3000;

/// Hand-written queries: every construct, mixes of text and qualifiers under AND, OR and NOT.
const QUERIES: &[&str] = &[
    "",
    "crash",
    "=crash",
    "=crashed OR =crashes",
    "crashes settings",
    "\"the app crashes\"",
    "\"the app crash\"",
    "=\"the app crashes\"",
    "syncing -=sync",
    "\"app crash\"*",
    "crash*",
    "sync OR offline",
    "sync -offline",
    "-crash",
    "NOT crash NOT sync",
    "-(crash OR sync)",
    "cafe",
    "CAFÉ naive",
    "refund_100%",
    "(crash OR tag:billing) -status:archived",
    "crash OR app:nimbus-ios",
    "app:\"Trailhead iOS\"",
    "app:TRAILHEAD-IOS crash",
    "-app:trailhead-ios",
    "project:ledgerly",
    "project:\"Nimbus Notes\" sync",
    "platform:android",
    "-platform:ios",
    "tag:bug",
    "tag:BUG -tag:crash",
    "status:new",
    "status:triage",
    "status:ARCHIVED crash*",
    "email:example.de",
    "from:ALEX",
    "-email:example",
    "email:_",
    "version:1.0.0",
    "os:17",
    "locale:de-de",
    "-locale:en-US",
    "meta.locale:ja-jp",
    "meta.LOCALE:JA-JP",
    "meta.screen:settings",
    "meta.nokey:x",
    "has:email",
    "-has:email",
    "has:link",
    "has:tag has:app",
    "-has:app",
    "after:2026-11-01",
    "before:2026-06-01",
    "after:2026-09-01 before:2026-09-08",
    "after:2026-10-01T08:30 -before:2026-10-15",
    "age:<7d",
    "age:>20w",
    "age:<=3w age:>=1w",
    "age:<48h OR age:>25w",
    "(sync OR crash*) (tag:bug OR -has:email) age:<12w",
    "NOT (tag:sync AND status:new) OR \"dark mode\"",
    "stürzt OR 同期 OR 꺼져요",
    "is:unseen",
    "is:seen",
    "-is:seen crash",
    "is:starred OR is:done",
    "is:mine",
    "is:unclaimed crash",
    "-is:unclaimed -is:mine",
    "assignee:me OR assignee:BO",
    "owner:cy -label:urgent",
    "label:URGENT",
    "label:ios OR label:billing",
    "note-by:me -note-by:bo",
    "note-by:Bo is:unclaimed",
    "note:CALL",
    "note:refund -note:back",
    "note:looked OR note:\"100%\"",
    "note:_",
    "assignee:nobody",
    "is:snoozed",
    "-is:snoozed is:starred",
    "has:note",
    "-has:note is:seen",
    "(is:unseen OR has:note) tag:bug",
    "has:ticket",
    "-has:ticket has:link",
    "has:tickets is:mine",
    "ticket:GUIDE",
    "ticket:tracker.example -ticket:\"crash report\"",
    "ticket:100% OR ticket:relinked",
    "ticket:mine",
    "ticket:gone",
    "ticket:_",
    "is:replied",
    "-is:replied has:email",
    "replied-by:me",
    "replied-by:BO OR replied-by:cy",
    "replied:<2d",
    "replied:>1w -replied-by:me",
    "replied:<=72h is:replied",
    "replied:3h",
    "sync is:starred -is:done",
    "view:Inbox",
    "view:inbox crash",
    "-view:Inbox",
    "view:Starred tag:bug",
    "view:Done OR view:Snoozed",
    "view:Archived -has:email",
    "view:bugs",
    "view:\"Web without email\" crash*",
    "view:old",
    "view:Done -view:\"Done or sync\"",
    "view:mine OR view:Unclaimed",
    "(view:Bugs OR tag:praise) age:<30w",
];

#[test]
fn hand_written_queries_match_brute_force() {
    let fixture = Fixture::new(ITEMS);
    let mut non_empty = 0;
    for query in QUERIES {
        let got = fixture
            .search(query)
            .unwrap_or_else(|e| panic!("{query:?}: {e}"));
        let want = fixture.brute(query);
        assert_eq!(got.len(), want.len(), "{query:?}");
        assert_eq!(got, want, "{query:?}");
        non_empty += usize::from(!got.is_empty() && got.len() < ITEMS);
    }
    assert!(
        non_empty > QUERIES.len() * 2 / 3,
        "too few selective queries: {non_empty}"
    );
}

/// Building blocks for generated queries: words of the data, and qualifiers with known values.
const WORDS: &[&str] = &[
    "app",
    "crash*",
    "sync",
    "offline",
    "\"dark mode\"",
    "screen",
    "update",
    "notes",
    "export",
    "the",
    "it",
    "please",
    "widget",
    "cafe",
    "reinstalling",
    "=reinstalling",
    "typing",
    "=crashed",
    "flight",
    "sign*",
];
const QUALIFIERS: &[&str] = &[
    "tag:bug",
    "tag:sync",
    "tag:praise",
    "status:new",
    "status:archived",
    "app:nimbus-ios",
    "project:trailhead",
    "platform:web",
    "has:email",
    "has:link",
    "email:example.org",
    "locale:fr-FR",
    "os:14",
    "age:<30d",
    "age:>12w",
    "after:2026-08-01",
    "meta.screen:editor",
    "is:unseen",
    "is:starred",
    "is:done",
    "is:snoozed",
    "has:note",
    "is:mine",
    "is:unclaimed",
    "assignee:bo",
    "label:urgent",
    "label:fresh",
    "label:LABEL -label:ios",
    "note-by:me",
    "note:back",
    "note:refund",
    "has:ticket",
    "ticket:guide",
    "ticket:T-",
    "is:replied",
    "replied-by:me",
    "replied:<2d",
    "view:Inbox",
    "view:Starred",
    "view:Bugs",
    "view:\"Done or sync\"",
    "view:web",
];

fn generated(rng: &mut fastrand::Rng, depth: u32) -> String {
    let leaf = |rng: &mut fastrand::Rng| {
        if rng.bool() {
            WORDS[rng.usize(..WORDS.len())].to_owned()
        } else {
            QUALIFIERS[rng.usize(..QUALIFIERS.len())].to_owned()
        }
    };
    let term = |rng: &mut fastrand::Rng| {
        let t = if depth > 0 && rng.u8(..4) == 0 {
            format!("({})", generated(rng, depth - 1))
        } else {
            leaf(rng)
        };
        if rng.u8(..4) == 0 { format!("-{t}") } else { t }
    };
    let mut out = term(rng);
    for _ in 0..rng.usize(..3) {
        let op = ["", "OR ", "AND ", ""][rng.usize(..4)];
        out = format!("{out} {op}{}", term(rng));
    }
    out
}

#[test]
fn generated_queries_match_brute_force() {
    let fixture = Fixture::new(ITEMS);
    let mut rng = fastrand::Rng::with_seed(11);
    let mut selective = 0;
    for _ in 0..400 {
        let query = generated(&mut rng, 2);
        let got = fixture
            .search(&query)
            .unwrap_or_else(|e| panic!("{query:?}: {e}"));
        assert_eq!(got, fixture.brute(&query), "{query:?}");
        selective += usize::from(!got.is_empty() && got.len() < ITEMS);
    }
    assert!(selective > 200, "too few selective queries: {selective}");
}

/// A bulk walk lends the rows a search selects, in order, whether it looks each match up or
/// merges the match's keys with one pass over the other conditions, also when it stops early.
#[test]
fn both_bulk_walks_lend_what_brute_force_selects() {
    let fixture = Fixture::new(ITEMS);
    let mut rng = fastrand::Rng::with_seed(5);
    let generated: Vec<String> = (0..150).map(|_| generated(&mut rng, 2)).collect();
    let mut merged = 0;
    for query in QUERIES.iter().map(|q| (*q).to_owned()).chain(generated) {
        let want = fixture.brute(&query);
        for choice in [Choice::Lookup, Choice::Merge, Choice::Cheaper] {
            let got = fixture.walked(&query, choice, None);
            assert_eq!(got, want, "{query:?} {choice:?}");
            let limit = want.len() / 2;
            let got = fixture.walked(&query, choice, Some(limit));
            assert_eq!(got, want[..limit], "{query:?} {choice:?} limit {limit}");
        }
        merged += usize::from(want.len() > 1 && want.len() < ITEMS && !query.contains(':'));
    }
    assert!(merged > 30, "too few text searches: {merged}");
}

/// The team's qualifiers each select some items and not all (so the comparisons above test
/// something), and one naming nobody selects none.
#[test]
fn team_qualifiers_are_selective() {
    let fixture = Fixture::new(600);
    for query in [
        "is:mine",
        "is:unclaimed",
        "assignee:BO",
        "label:urgent",
        "note-by:me",
        "note:back",
        "note:REFUND",
    ] {
        let got = fixture.search(query).unwrap();
        assert!(!got.is_empty() && got.len() < 600, "{query}: {}", got.len());
        assert_eq!(got, fixture.brute(query), "{query}");
    }
    assert!(fixture.search("assignee:nobody").unwrap().is_empty());
}
