//! `=` by version in the inbox: a group is one version of one app ("Nimbus Notes for iOS
//! 2.13.0"), the versions of the items without an app apart, each with the day it was first
//! seen, in version order. Fixed data, a fixed clock, UTC.
#![allow(clippy::unwrap_used)]

use crate::insight_support;

use insight_support::{draw, group_by, groups, harness};

#[test]
fn versions_are_grouped_by_app_with_their_first_day() {
    let mut h = harness(120, 30, 40);
    group_by(&mut h, "version");
    let screen = draw(&h.state).backend().to_string();
    insta::assert_snapshot!("grouped_by_version", screen);
    let rows: Vec<&str> = screen.lines().filter(|l| l.contains(" · first ")).collect();
    assert_eq!(rows.len(), 4, "{screen}");
    // The app's versions in version order, then those of the items without an app; a cut
    // label loses its app's name, never its version nor its day.
    assert!(
        rows[0].contains("Nimbus Notes… 2.13.0 · first  3 Oct"),
        "{screen}"
    );
    assert!(
        rows[1].contains("Nimbus Notes… 2.14.1 · first  2 Oct"),
        "{screen}"
    );
    assert!(rows[2].contains("│2.13.0 "), "{screen}");
    let labels: Vec<_> = groups(&h).into_iter().map(|g| g.0).collect();
    assert_eq!(
        labels,
        [
            Some("2.13.0".into()),
            Some("2.14.1".into()),
            Some("2.13.0".into()),
            Some("2.14.1".into())
        ]
    );
}
