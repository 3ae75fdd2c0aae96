#![allow(clippy::unwrap_used)]

use super::*;

const SAMPLE: &str = r#"# my inbox
refresh_seconds = 60

[keys]
quit = "q"

# Crashes on iOS, my favourite
[[views]]
name = "Crashes"   # keep this comment
query = "crash OR freeze"

[[views]]
name = "Old bugs"
status = "archived"
tag = "bug"
project = "p1"
app = "a1"
"#;

#[test]
fn views_are_read_with_their_defaults() {
    let views = parse(SAMPLE, "c.toml").unwrap();
    assert_eq!(
        views,
        vec![
            ViewDef {
                name: "Crashes".into(),
                query: "crash OR freeze".into(),
                status: "new".into(),
                ..ViewDef::default()
            },
            ViewDef {
                name: "Old bugs".into(),
                query: String::new(),
                status: "archived".into(),
                project: Some("p1".into()),
                app: Some("a1".into()),
                tag: Some("bug".into()),
            },
        ]
    );
    assert!(parse("refresh_seconds = 1\n", "c.toml").unwrap().is_empty());
    // The whole config still parses with views in it.
    assert!(crate::parse(SAMPLE).is_ok());
}

fn error_of(text: &str) -> ViewsError {
    parse(text, "c.toml").unwrap_err()
}

#[test]
fn bad_entries_are_reported_with_their_line() {
    let bad_status = "a = 1\n\n[[views]]\nname = \"X\"\nstatus = \"open\"\n";
    let e = error_of(bad_status);
    assert_eq!((e.file.as_str(), e.line), ("c.toml", 5), "{e}");
    assert!(
        e.message.contains("\"new\", \"archived\" or \"any\""),
        "{e}"
    );

    let bad_query = "[[views]]\nname = \"X\"\n\nquery = \"tag:\"\n";
    let e = error_of(bad_query);
    assert_eq!(e.line, 4, "{e}");
    assert!(e.message.contains("query"), "{e}");

    let unknown = "[[views]]\nname = \"X\"\ncolour = \"red\"\n";
    let e = error_of(unknown);
    assert_eq!(e.line, 3, "{e}");
    assert!(e.message.contains("colour"), "{e}");

    let no_name = "\n[[views]]\nquery = \"a\"\n";
    let e = error_of(no_name);
    assert!(e.message.contains("name"), "{e}");
    assert_eq!(e.line, 2, "{e}");

    let built_in = "[[views]]\nname = \"inbox\"\n";
    let e = error_of(built_in);
    assert_eq!(e.line, 2, "{e}");
    assert!(e.message.contains("built-in"), "{e}");

    let twice = "[[views]]\nname = \"A\"\n\n[[views]]\nname = \"a\"\n";
    let e = error_of(twice);
    assert_eq!(e.line, 4, "{e}");

    let not_a_list = "views = \"all\"\n";
    assert_eq!(error_of(not_a_list).line, 1);
    assert_eq!(e.to_string(), format!("c.toml:4: {}", e.message));
}

#[test]
fn names_are_checked() {
    assert!(name_problem("Mine").is_none());
    assert!(name_problem("").is_some());
    assert!(name_problem("a\u{1b}[2J").is_some());
    assert!(name_problem(&"x".repeat(MAX_NAME_CHARS + 1)).is_some());
    assert!(name_problem("ARCHIVED").is_some());
}

fn saved(name: &str) -> SavedView {
    SavedView {
        name: name.into(),
        query: "is:starred tag:bug".into(),
        status: "new".into(),
        project: Some(Labelled {
            value: "p1".into(),
            label: "Acme iOS".into(),
        }),
        app: None,
        tag: Some(Labelled {
            value: "ui".into(),
            label: "ui".into(),
        }),
    }
}

#[test]
fn saving_adds_a_table_and_keeps_comments_and_formatting() {
    let out = edit(SAMPLE, &saved("Mine")).unwrap();
    assert!(
        out.starts_with(SAMPLE),
        "the file before is untouched:\n{out}"
    );
    let added = &out[SAMPLE.len()..];
    assert_eq!(
        added,
        "\n[[views]]\nname = \"Mine\"\nquery = \"is:starred tag:bug\"\nstatus = \"new\"\n\
         project = \"p1\" # Acme iOS\ntag = \"ui\"\n"
    );
    let views = parse(&out, "c.toml").unwrap();
    assert_eq!(views.len(), 3);
    assert_eq!(views[2].project.as_deref(), Some("p1"));
    assert_eq!(views[2].tag.as_deref(), Some("ui"));
}

#[test]
fn saving_a_known_name_replaces_that_view_in_place() {
    let mut view = saved("crashes");
    view.project = None;
    view.query = "crash".into();
    let out = edit(SAMPLE, &view).unwrap();
    assert!(
        out.contains("# Crashes on iOS, my favourite\n[[views]]\n"),
        "{out}"
    );
    assert!(
        out.contains("name = \"crashes\"   # keep this comment"),
        "{out}"
    );
    let views = parse(&out, "c.toml").unwrap();
    assert_eq!(views.len(), 2);
    assert_eq!(views[0].query, "crash");
    assert_eq!(views[0].tag.as_deref(), Some("ui"));
    assert_eq!(views[1].name, "Old bugs");
}

#[test]
fn saving_into_an_empty_or_odd_file() {
    let out = edit("", &saved("Mine")).unwrap();
    assert_eq!(parse(&out, "c.toml").unwrap()[0].name, "Mine");
    assert!(edit("views = 3\n", &saved("Mine")).is_err());
    assert!(edit("a = \n", &saved("Mine")).is_err());
    assert!(edit("", &saved("Done")).unwrap_err().contains("built-in"));
}

#[test]
fn save_writes_the_file_atomically_and_keeps_its_mode() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("sub").join("config.toml");
    save(&path, &saved("Mine")).unwrap();
    assert_eq!(
        parse(&std::fs::read_to_string(&path).unwrap(), "c")
            .unwrap()
            .len(),
        1
    );

    std::fs::write(&path, SAMPLE).unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    save(&path, &saved("Mine")).unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.starts_with(SAMPLE));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&path).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o600);
    }
    // No temporary file is left beside it.
    let names: Vec<_> = std::fs::read_dir(path.parent().unwrap())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("config.toml")]);
}

#[cfg(unix)]
#[test]
fn saving_through_a_symlinked_config_writes_its_target_and_keeps_the_link() {
    let dir = tempfile::tempdir().unwrap();
    let dotfiles = dir.path().join("dotfiles");
    let config = dir.path().join("config");
    std::fs::create_dir_all(&dotfiles).unwrap();
    std::fs::create_dir_all(&config).unwrap();
    let target = dotfiles.join("feedback.toml");
    std::fs::write(&target, SAMPLE).unwrap();
    let link = config.join("config.toml");
    // A relative link, then a link to that link: both are followed.
    std::os::unix::fs::symlink("../dotfiles/feedback.toml", &link).unwrap();
    let outer = dir.path().join("outer.toml");
    std::os::unix::fs::symlink(&link, &outer).unwrap();
    save(&outer, &saved("Mine")).unwrap();
    for path in [&link, &outer] {
        let meta = std::fs::symlink_metadata(path).unwrap();
        assert!(
            meta.file_type().is_symlink(),
            "{} is still a link",
            path.display()
        );
    }
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.starts_with(SAMPLE) && text.contains("Mine"), "{text}");
    let names: Vec<_> = std::fs::read_dir(&config)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(names, vec![std::ffi::OsString::from("config.toml")]);
    // A link loop is an error, not a hang.
    let a = dir.path().join("a.toml");
    let b = dir.path().join("b.toml");
    std::os::unix::fs::symlink(&b, &a).unwrap();
    std::os::unix::fs::symlink(&a, &b).unwrap();
    assert!(save(&a, &saved("Mine")).is_err());
}

#[test]
fn a_failed_save_says_why_and_leaves_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(&path, "broken = \n").unwrap();
    let err = save(&path, &saved("Mine")).unwrap_err();
    assert!(err.contains("config.toml"), "{err}");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "broken = \n");
    // A folder where the file should be cannot be written.
    let err = save(dir.path(), &saved("Mine")).unwrap_err();
    assert!(err.contains("cannot"), "{err}");
}

#[test]
fn the_example_config_views_parse() {
    let text = include_str!("../../../../assets/config.example.toml");
    let views = parse(text, "config.example.toml").unwrap();
    assert_eq!(views.len(), 2);
    assert_eq!(views[1].status, "archived");
}
