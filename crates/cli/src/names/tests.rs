//! Matching names in a catalog (id, name, slug, any case; ambiguity; unknown names), the
//! store's catalog answering without a request, and the inbox's start view.

use super::*;
use feedback_api::{ApiKey, Feedback, FeedbackId, ProjectRef, Status};
use feedback_core::text::Clean;

const P1: &str = "11111111-1111-4111-8111-111111111111";
const P2: &str = "22222222-2222-4222-8222-222222222222";
const A1: &str = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa1";
const A2: &str = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa2";
const A3: &str = "aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaa3";

fn project(id: &str, name: &str, slug: &str) -> Project {
    Project {
        id: id.to_owned(),
        name: name.to_owned(),
        slug: Some(slug.to_owned()),
        created_at: None,
    }
}

fn app(id: &str, project: &str, name: &str, slug: &str) -> App {
    App {
        id: id.to_owned(),
        project_id: Some(project.to_owned()),
        name: name.to_owned(),
        slug: Some(slug.to_owned()),
        platform: None,
        app_identifier: None,
        region: None,
    }
}

/// Two projects; "Trailhead Android" is the name of an app in each.
fn catalog() -> Catalog {
    Catalog {
        projects: vec![
            project(P1, "Trailhead", "trailhead"),
            project(P2, "Ledgerly \u{1b}[31m", "ledgerly"),
        ],
        apps: vec![
            app(A1, P1, "Trailhead Android", "trailhead-android"),
            app(A2, P2, "Trailhead Android", "th-android-2"),
            app(A3, P1, "Trailhead iOS", "trailhead-ios"),
        ],
    }
}

fn id_of(found: Result<Option<Resolved>, CliError>) -> String {
    found.unwrap().unwrap().id
}

#[test]
fn a_name_in_any_case_a_slug_a_slugified_name_or_an_id_finds_one_entry() {
    let c = catalog();
    for value in ["Trailhead iOS", "trailhead ios", "TRAILHEAD-IOS", A3] {
        assert_eq!(id_of(find(&c, Kind::App, value, None)), A3, "{value}");
    }
    assert_eq!(id_of(find(&c, Kind::App, "th-android-2", None)), A2);
    assert_eq!(id_of(find(&c, Kind::Project, "LEDGERLY", None)), P2);
    assert!(find(&c, Kind::App, "Nimbus", None).unwrap().is_none());
    assert!(is_id(A1) && !is_id("trailhead") && !is_id("aaaaaaaa"));
}

/// The rule: a value that is no id, name or slug names the one entry whose name or slug it
/// begins; beginning several is the ambiguity error, listing them.
#[test]
fn the_beginning_of_one_name_finds_it_and_of_several_lists_them() {
    let c = catalog();
    assert_eq!(id_of(find(&c, Kind::App, "trailhead i", None)), A3);
    assert_eq!(
        id_of(find(&c, Kind::App, "th-a", None)),
        A2,
        "a slug's beginning"
    );
    assert_eq!(id_of(find(&c, Kind::App, "Trail", Some(P2))), A2);
    assert_eq!(id_of(find(&c, Kind::Project, "ledg", None)), P2);
    let shown = find(&c, Kind::App, "Trailhead", None)
        .unwrap_err()
        .to_string();
    assert!(
        shown.starts_with("--app \"Trailhead\" matches 3 apps; give a slug or an id:"),
        "{shown}"
    );
    assert_eq!(shown.lines().count(), 4, "{shown}");
}

#[test]
fn a_shared_name_is_an_error_listing_each_candidate_with_its_project() {
    let error = find(&catalog(), Kind::App, "trailhead android", None).unwrap_err();
    assert!(matches!(error, CliError::Usage(_)));
    let shown = error.to_string();
    let lines: Vec<&str> = shown.lines().collect();
    assert_eq!(
        lines[0],
        "--app \"trailhead android\" matches 2 apps; give a slug or an id:"
    );
    assert_eq!(
        lines[1],
        format!("  Trailhead Android  slug trailhead-android  id {A1}  project Trailhead")
    );
    assert!(
        lines[2].contains(&format!("id {A2}  project Ledgerly ␛")),
        "{shown}"
    );
    assert!(!shown.contains('\u{1b}'), "sanitized: {shown:?}");
    // The project given narrows the apps looked at.
    assert_eq!(
        id_of(find(&catalog(), Kind::App, "Trailhead Android", Some(P2))),
        A2
    );
}

#[test]
fn an_unknown_name_lists_the_known_ones() {
    let shown = unknown(Kind::Project, "Nimbus", &catalog()).to_string();
    assert_eq!(
        shown,
        "no project named \"Nimbus\"; known: \"Ledgerly ␛\", \"Trailhead\" (name, slug or id)"
    );
    let none = unknown(Kind::App, "x", &Catalog::default()).to_string();
    assert!(none.contains("the account lists no apps"), "{none}");
}

/// A memory store that lists the catalog, and an item of an app no list has any more.
fn store() -> Store {
    let mut store = undated();
    listed_at(&mut store, jiff::Timestamp::now());
    store
}

/// [`store`] without the time its catalog was listed.
fn undated() -> Store {
    let mut store = Store::open_memory().unwrap();
    let c = catalog();
    store.put_projects(&c.projects).unwrap();
    store.put_apps(&c.apps, None).unwrap();
    let gone = Feedback {
        id: FeedbackId("fb_gone".into()),
        message: "m".into(),
        reporter_email: None,
        status: Status::New,
        received_at: "2026-11-01T00:00:00Z".parse().unwrap(),
        tags: vec![],
        app: Some(feedback_api::model::AppRef {
            id: "app_gone".into(),
            name: "Old Widget".into(),
            platform: feedback_api::Platform::from("ios"),
        }),
        project: ProjectRef {
            id: P1.into(),
            name: "Trailhead".into(),
        },
    };
    store.put_items(&[gone], jiff::Timestamp::now()).unwrap();
    store
}

/// Says sync's discovery listed the store's catalog at `at`.
fn listed_at(store: &mut Store, at: jiff::Timestamp) {
    store.mark_catalog(at).unwrap();
}

/// A client whose requests go nowhere (nothing listens on the discard port): a test that
/// passes with it made no request that mattered.
fn nowhere() -> Client {
    let key = ApiKey::parse(feedback_sim::DEMO_KEY).unwrap();
    Client::builder("http://127.0.0.1:9", key)
        .unwrap()
        .build()
        .unwrap()
}

#[tokio::test]
async fn the_store_answers_names_it_knows_without_a_request() {
    let store = store();
    let client = nowhere();
    let mut resolver = Resolver::new(Some(&store), Some(&client));
    let (project, app) = resolver
        .scope(Some("trailhead"), Some("Trailhead Android"))
        .await
        .unwrap();
    assert_eq!(project.unwrap().id, P1);
    assert_eq!(app.unwrap().id, A1, "the project given picks the app");
    // A name only a stored item carries, as `app:` finds it.
    let gone = resolver
        .resolve(Kind::App, "old widget", None)
        .await
        .unwrap();
    assert_eq!(gone.id, "app_gone");
    // An id is taken as given, named from the store when it lists it.
    let by_id = resolver.resolve(Kind::Project, P2, None).await.unwrap();
    assert_eq!(
        (by_id.id.as_str(), by_id.name.as_str()),
        (P2, "Ledgerly \u{1b}[31m")
    );
    // Offline (search): an unknown name is an error listing what the store knows.
    let mut offline = Resolver::new(Some(&store), None);
    let error = offline
        .resolve(Kind::App, "Nimbus", None)
        .await
        .unwrap_err();
    let shown = error.to_string();
    assert!(
        shown.starts_with("no app named \"Nimbus\"; known: \"Old Widget\""),
        "{shown}"
    );
    // Not in the store: the service is asked (and here it cannot be reached).
    let error = resolver
        .resolve(Kind::App, "Nimbus", None)
        .await
        .unwrap_err();
    assert!(matches!(error, CliError::Api(_)), "{error}");
}

#[tokio::test]
async fn the_inbox_starts_on_the_flags_view_keeping_the_remembered_status() {
    use feedback_store::{Chosen, ViewSpec};
    let mut store = store();
    let client = nowhere();
    let app = crate::scope::ScopeArgs {
        app: Some("trailhead-ios".into()),
        project: None,
    };
    crate::scope::start_view(&mut store, &client, &app)
        .await
        .unwrap();
    let spec = store.last_view().unwrap();
    assert_eq!(spec.status.as_str(), "new");
    assert_eq!(
        spec.app,
        Some(Chosen {
            value: A3.into(),
            label: Clean::fixed("Trailhead iOS")
        })
    );
    assert_eq!(spec.project, None);
    let remembered = ViewSpec {
        status: "archived".into(),
        tag: Some(Chosen {
            value: "bug".into(),
            label: Clean::fixed("bug"),
        }),
        search: "crash".into(),
        ..ViewSpec::default()
    };
    store.save_view(&remembered).unwrap();
    let project = crate::scope::ScopeArgs {
        app: None,
        project: Some("ledgerly".into()),
    };
    crate::scope::start_view(&mut store, &client, &project)
        .await
        .unwrap();
    let spec = store.last_view().unwrap();
    assert_eq!(spec.status.as_str(), "archived");
    let project = spec.project.unwrap();
    assert_eq!(project.value, P2);
    assert_eq!(project.label, "Ledgerly ␛", "sanitized for the screen");
    assert_eq!((spec.app, spec.tag, spec.search.as_str()), (None, None, ""));
}

#[tokio::test]
async fn online_a_stale_or_undated_catalog_is_not_trusted_offline_it_is() {
    let client = nowhere();
    let stale = jiff::Timestamp::now() - jiff::SignedDuration::from_hours(2);
    for listed in [Some(stale), None] {
        let mut store = undated();
        if let Some(at) = listed {
            listed_at(&mut store, at);
        }
        let mut online = Resolver::new(Some(&store), Some(&client));
        // The service is asked (and here it cannot be reached).
        let error = online
            .resolve(Kind::App, "trailhead ios", None)
            .await
            .unwrap_err();
        assert!(matches!(error, CliError::Api(_)), "{listed:?}: {error}");
        let mut offline = Resolver::new(Some(&store), None);
        let found = offline.resolve(Kind::App, "trailhead ios", None).await;
        assert_eq!(found.unwrap().id, A3);
    }
}

#[tokio::test]
async fn an_app_only_stored_items_name_belongs_to_their_project() {
    let store = store();
    let mut offline = Resolver::new(Some(&store), None);
    let (_, app) = offline
        .scope(Some("trailhead"), Some("old widget"))
        .await
        .unwrap();
    assert_eq!(app.unwrap().id, "app_gone");
    let error = offline
        .scope(Some("ledgerly"), Some("old widget"))
        .await
        .unwrap_err();
    assert!(
        error.to_string().starts_with("no app named \"old widget\""),
        "{error}"
    );
}
