//! End to end, the team: two inboxes (the release binary's `demo --team`, in tmux, each on its
//! own throwaway store) are two members of one team in a real PostgreSQL; a claim in one shows
//! in the other's OWNER column, and the status bars count both online. Skipped (with a note)
//! where tmux is not installed; without a PostgreSQL, skipped unless `CI=true`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use crate::team_pg;
use crate::tmux;

use feedback_team::{self as team, AddedMember};
use team_pg as pg;
use tmux::{Tmux, binary};

/// The OWNER cell of the list's first row (the five cells after the marks), trimmed.
fn first_owner(screen: &str) -> String {
    let Some(header) = screen.lines().find(|l| l.contains("OWNER")) else {
        return String::new();
    };
    let at = header.find("OWNER").unwrap();
    let row = screen
        .lines()
        .skip_while(|l| !l.contains("OWNER"))
        .nth(1)
        .unwrap_or_default();
    // The header and the row line up cell for cell (both are plain text here).
    let cells: Vec<char> = row.chars().collect();
    let start = header[..at].chars().count();
    cells
        .get(start..start + 5)
        .map(|c| c.iter().collect::<String>().trim().to_owned())
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_claim_in_one_inbox_shows_in_the_other() {
    let (Some(one), Some(two)) = (Tmux::start("team-one"), Tmux::start("team-two")) else {
        return;
    };
    let Some(db) = pg::Db::new("e2e_team").await else {
        return;
    };
    // Short role names: the OWNER column shows their first letters.
    let suffix = fastrand::u32(1000..9999);
    let (ana, bo) = (format!("ana{suffix}"), format!("bo{suffix}"));
    let mut admin = team::connect(&db.admin()).await.unwrap();
    team::create_team(&mut admin, "demo").await.unwrap();
    let mut urls = Vec::new();
    for role in [&ana, &bo] {
        let AddedMember::Created { password } =
            team::add_member(&mut admin, "demo", role).await.unwrap()
        else {
            panic!("the role existed");
        };
        urls.push(db.url_text(Some(role), Some(&password)));
    }
    for (tmux, url) in [(&one, &urls[0]), (&two, &urls[1])] {
        let command = format!(
            "{} demo --items 200 --team '{url}' 2>/dev/null",
            binary().display()
        );
        tmux.keys(&[&command, "Enter"]);
    }
    for tmux in [&one, &two] {
        tmux.wait_for("the inbox in the team, both online", |s| {
            s.contains("OWNER") && s.contains("team: 2 online")
        });
    }
    // Before the claim the first row is nobody's. Waited for, not read once: a capture taken
    // while the inbox redraws for the OWNER column that just appeared can hold the new header
    // above a row of the frame before, whose text stands where the column now is.
    two.wait_for("the first row unowned before the claim", |s| {
        first_owner(s).is_empty()
    });
    one.keys(&["a"]);
    one.wait_for("the claim on the first inbox", |s| {
        first_owner(s).starts_with(&ana[..3])
    });
    let seen = two.wait_for("the claim on the other inbox", |s| {
        first_owner(s).starts_with(&ana[..3])
    });
    assert!(
        !seen.contains('~'),
        "the other inbox shows it committed:\n{seen}"
    );
    for tmux in [&one, &two] {
        tmux.keys(&["q"]);
        tmux.wait_for("the shell", |_| !tmux.alternate_on());
    }
    drop(admin);
    db.drop().await;
    for role in [&ana, &bo] {
        let server = team::connect(&db_server()).await.unwrap();
        server
            .raw()
            .batch_execute(&format!("DROP ROLE IF EXISTS {role}"))
            .await
            .unwrap();
    }
}

/// The server's admin URL (the test's roles are the whole server's).
fn db_server() -> team::TeamUrl {
    std::env::var("FEEDBACK_TEST_PG")
        .unwrap_or_else(|_| "host=127.0.0.1 port=5432 user=postgres dbname=postgres".to_owned())
        .parse()
        .unwrap()
}

/// `demo --team` as a role that may create roles makes its simulated teammates' login roles,
/// and drops them when it ends: roles are the whole server's and would outlive the database.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_demo_drops_the_teammates_roles_it_made_when_it_ends() {
    let Some(tmux) = Tmux::start("team-demo") else {
        return;
    };
    let Some(db) = pg::Db::new("e2e_demo").await else {
        return;
    };
    let server = team::connect(&db_server()).await.unwrap();
    let teammates = || async {
        server
            .raw()
            .query(
                "SELECT rolname::text FROM pg_roles WHERE rolname IN ('demo_ana', 'demo_bo')",
                &[],
            )
            .await
            .unwrap()
            .len()
    };
    // Roles an earlier demo left (before it dropped them) would be kept as not its own.
    server
        .raw()
        .batch_execute("DROP ROLE IF EXISTS demo_ana; DROP ROLE IF EXISTS demo_bo")
        .await
        .unwrap();
    let url = db.url_text(None, None);
    tmux.keys(&[
        &format!(
            "{} demo --items 50 --team '{url}' 2>/dev/null; echo demo-$((6*7))-ended",
            binary().display()
        ),
        "Enter",
    ]);
    tmux.wait_for("the demo in its team", |s| s.contains("OWNER"));
    assert_eq!(teammates().await, 2, "the demo made its teammates");
    tmux.keys(&["q"]);
    // The shell says so once the process ended, its teardown included.
    tmux.wait_for("the demo's end", |s| s.contains("demo-42-ended"));
    assert_eq!(
        teammates().await,
        0,
        "the teammates' roles outlived the demo"
    );
    drop(server);
    db.drop().await;
}
