//! Every construct of the language, and the errors, with where they point.

use super::super::*;

/// The tree as a compact S-expression, so each test states the shape it expects.
fn show(input: &str) -> String {
    let query = parse(input).unwrap_or_else(|e| panic!("{input:?}: {e} at {:?}", e.span));
    query.root().map_or_else(|| "()".to_owned(), sexpr)
}

fn sexpr(expr: &Expr) -> String {
    let list = |name: &str, parts: &[Expr]| {
        let inner: Vec<String> = parts.iter().map(sexpr).collect();
        format!("({name} {})", inner.join(" "))
    };
    match expr {
        Expr::And(parts) => list("and", parts),
        Expr::Or(parts) => list("or", parts),
        Expr::Not(inner) => format!("(not {})", sexpr(inner)),
        Expr::Text(t) => match t.form {
            Form::Stem => format!("{:?}", t.text),
            Form::Exact => format!("={:?}", t.text),
            Form::Prefix => format!("{:?}*", t.text),
        },
        Expr::Filter(f) => format!("{:?}", f.kind),
    }
}

/// The error's message and the input it points at.
fn error(input: &str) -> (String, String) {
    let e = parse(input).expect_err(input);
    (e.message.to_string(), input[e.span].to_owned())
}

#[test]
fn blank_queries_are_empty_and_match_all() {
    for input in ["", "   ", "\t\n"] {
        let query = parse(input).unwrap();
        assert!(query.is_empty());
        assert!(query.highlights().is_empty());
    }
    assert!(!parse("x").unwrap().is_empty());
}

#[test]
fn words_are_anded_phrases_and_prefixes_kept() {
    assert_eq!(show("refund"), r#""refund""#);
    assert_eq!(show("refund crash"), r#"(and "refund" "crash")"#);
    assert_eq!(show("refund AND crash"), r#"(and "refund" "crash")"#);
    assert_eq!(show(r#""app crashes" now"#), r#"(and "app crashes" "now")"#);
    assert_eq!(show("crash*"), r#""crash"*"#);
    assert_eq!(show(r#""app cra"*"#), r#""app cra"*"#);
    assert_eq!(show("e-mail"), r#""e-mail""#);
    assert_eq!(show("10:30"), r#""10:30""#);
    // `=` in front: the words as written, not their other forms.
    assert_eq!(show("=crash"), r#"="crash""#);
    assert_eq!(
        show(r#"="app crashes" -=Crashed"#),
        r#"(and ="app crashes" (not ="Crashed"))"#
    );
    assert_eq!(show("=crash*"), r#""crash"*"#, "a prefix is a prefix");
    assert_eq!(
        show("a=b x="),
        r#"(and "a=b" "x=")"#,
        "only a leading = counts"
    );
}

#[test]
fn or_binds_looser_than_and_and_parentheses_group() {
    assert_eq!(show("a b OR c"), r#"(or (and "a" "b") "c")"#);
    assert_eq!(show("a (b OR c)"), r#"(and "a" (or "b" "c"))"#);
    assert_eq!(show("a OR b OR c"), r#"(or "a" "b" "c")"#);
    assert_eq!(show("((a))"), r#""a""#);
    assert_eq!(
        show("or and not"),
        r#"(and "or" "and" "not")"#,
        "lower case is text"
    );
}

#[test]
fn minus_and_not_negate_the_next_term() {
    assert_eq!(show("-spam"), r#"(not "spam")"#);
    assert_eq!(show("NOT spam"), r#"(not "spam")"#);
    assert_eq!(show("a -b"), r#"(and "a" (not "b"))"#);
    assert_eq!(show("-(a OR b)"), r#"(not (or "a" "b"))"#);
    assert_eq!(show("NOT NOT a"), r#"(not (not "a"))"#);
    assert_eq!(show(r#"-"a b""#), r#"(not "a b")"#);
    assert_eq!(show("-tag:spam"), r#"(not Tag("spam"))"#);
}

#[test]
fn qualifiers_parse_their_values() {
    assert_eq!(show("app:trailhead-ios"), r#"App("trailhead-ios")"#);
    assert_eq!(show(r#"app:"Trailhead iOS""#), r#"App("Trailhead iOS")"#);
    assert_eq!(show("PROJECT:web"), r#"Project("web")"#);
    assert_eq!(
        show("platform:ios tag:bug"),
        r#"(and Platform("ios") Tag("bug"))"#
    );
    assert_eq!(show("status:archived"), r#"Status("archived")"#);
    assert_eq!(show("email:ana@x.io"), r#"Email("ana@x.io")"#);
    assert_eq!(show("from:ana"), r#"Email("ana")"#);
    assert_eq!(show("id:fb_123"), r#"Id("fb_123")"#);
    assert_eq!(
        show("version:2.3.1"),
        r#"Meta { key: BuiltIn(["appVersion"]), value: "2.3.1" }"#
    );
    assert_eq!(
        show("os:17"),
        r#"Meta { key: BuiltIn(["iOSVersion", "androidVersion"]), value: "17" }"#
    );
    assert_eq!(
        show("locale:de-DE"),
        r#"Meta { key: BuiltIn(["locale"]), value: "de-DE" }"#
    );
    assert_eq!(
        show("meta.plan:pro"),
        r#"Meta { key: Any("plan"), value: "pro" }"#
    );
    assert_eq!(show("has:email has:LINK"), "(and Has(Email) Has(Link))");
    assert_eq!(show("has:tag has:app"), "(and Has(Tag) Has(App))");
    assert_eq!(
        show("is:unseen is:SEEN is:starred is:done is:snoozed has:note"),
        "(and Is(Unseen) Is(Seen) Is(Starred) Is(Done) Is(Snoozed) Has(Note))"
    );
    assert!(parse("-is:done").unwrap().asks_for_hidden());
    assert!(parse("a OR (b is:snoozed)").unwrap().asks_for_hidden());
    assert!(!parse("is:starred has:note").unwrap().asks_for_hidden());
    assert_eq!(show("(tag:a OR tag:b)"), r#"(or Tag("a") Tag("b"))"#);
}

#[test]
fn dates_and_ages_parse() {
    assert_eq!(show("after:2026-11-01"), "After(2026-11-01T00:00:00)");
    assert_eq!(
        show("before:2026-11-01T09:30"),
        "Before(2026-11-01T09:30:00)"
    );
    assert_eq!(
        show(r#"before:"2026-11-01 09:30""#),
        "Before(2026-11-01T09:30:00)"
    );
    let age = |input: &str| match parse(input).unwrap().root() {
        Some(Expr::Filter(Filter {
            kind: FilterKind::Age { cmp, age },
            ..
        })) => (*cmp, age.as_secs()),
        other => panic!("{other:?}"),
    };
    assert_eq!(
        age("age:<7d"),
        (AgeCmp::Younger { inclusive: false }, 7 * 86_400)
    );
    assert_eq!(
        age("age:>2w"),
        (AgeCmp::Older { inclusive: false }, 14 * 86_400)
    );
    assert_eq!(
        age("age:<=3h"),
        (AgeCmp::Younger { inclusive: true }, 3 * 3600)
    );
    assert_eq!(
        age("age:>=30m"),
        (AgeCmp::Older { inclusive: true }, 30 * 60)
    );
    assert_eq!(
        age("age:1d"),
        (AgeCmp::Younger { inclusive: false }, 86_400)
    );
}

#[test]
fn errors_point_at_what_is_wrong() {
    let cases: &[(&str, &str, &str)] = &[
        ("a \"open", "unclosed quote", "\"open"),
        ("a (b", "unclosed `(`", "("),
        ("a )", "unmatched `)`", ")"),
        ("()", "empty parentheses", "()"),
        ("a -", "`-` excludes", "-"),
        ("a =", "`=` matches words as written", "="),
        ("= a", "`=` matches words as written", "="),
        ("=tag:bug", "`=` matches words as written", "=tag:bug"),
        ("=OR a", "`=` matches words as written", "=OR"),
        ("a - b", "`-` excludes", "-"),
        ("a NOT", "NOT needs", "NOT"),
        ("OR a", "OR and AND go between", "OR"),
        ("a OR", "OR needs", "OR"),
        ("a OR )", "OR needs", "OR"),
        ("a AND", "AND needs", "AND"),
        ("foo:bar", "unknown qualifier `foo:`", "foo:"),
        ("http://x.io", "unknown qualifier `http:`", "http:"),
        ("app:", "`app:` needs a value", "app:"),
        ("app:\"\"", "`app:` needs a value", "app:\"\""),
        ("has:cake", "unknown `has:cake`", "cake"),
        ("is:cake", "unknown `is:cake`; known: is:unseen", "cake"),
        ("after:2026-13-01", "bad date", "2026-13-01"),
        ("before:yesterday", "bad date", "yesterday"),
        ("age:7", "bad age", "7"),
        ("age:<7y", "bad age", "<7y"),
        ("age:<99999999999999999w", "bad age", "<99999999999999999w"),
        ("!!!", "nothing to search for", "!!!"),
        ("*", "nothing to search for", "*"),
        ("a \"…\"", "nothing to search for", "\"…\""),
    ];
    for (input, message, pointed) in cases {
        let (got, at) = error(input);
        assert!(
            got.contains(message),
            "{input:?}: {got:?} lacks {message:?}"
        );
        assert_eq!(at, *pointed, "{input:?}: {got}");
    }
}

#[test]
fn unknown_qualifier_lists_the_known_ones() {
    let (message, _) = error("colour:red");
    for name in ["app:", "tag:", "age:", "meta.KEY:"] {
        assert!(message.contains(name), "{message}");
    }
}

#[test]
fn limits_turn_into_errors_not_stack_overflows() {
    let deep = format!("{}a{}", "(".repeat(10_000), ")".repeat(10_000));
    let e = parse(&deep[..MAX_INPUT_BYTES]).expect_err("too deep");
    assert!(e.message.contains("nested too deeply"), "{e}");
    let e = parse(&"NOT ".repeat(40)).expect_err("too many NOTs");
    assert!(e.message.contains("nested too deeply"), "{e}");
    let e = parse(&"word ".repeat(MAX_TERMS + 1)).expect_err("too many terms");
    assert!(e.message.contains("too many terms"), "{e}");
    assert!(parse(&"word ".repeat(MAX_TERMS)).is_ok());
    let long = "é".repeat(MAX_INPUT_BYTES);
    let e = parse(&long).expect_err("too long");
    assert!(e.message.contains("too long"), "{e}");
    assert!(long.is_char_boundary(e.span.start) && e.span.end == long.len());
}

#[test]
fn help_names_every_qualifier() {
    for name in super::super::qualifier::QUALIFIERS {
        assert!(HELP.contains(name), "HELP lacks {name}");
    }
    for construct in ["OR", "NOT", "-", "*", "\"", "(", "="] {
        assert!(HELP.contains(construct), "HELP lacks {construct}");
    }
}

#[test]
fn errors_never_echo_control_characters() {
    for input in ["has:\u{1b}[2J", "after:\u{1b}]0;x\u{7}", "age:<\u{9b}1d"] {
        let e = parse(input).expect_err(input);
        assert!(!e.message.chars().any(char::is_control), "{:?}", e.message);
    }
}

#[test]
fn a_one_letter_prefix_is_refused_where_it_is_and_two_letters_are_enough() {
    let e = parse("crash s*").unwrap_err();
    assert_eq!(e.span, 6..8);
    assert!(e.message.contains("at least 2 letters"), "{e}");
    assert!(parse("crash sy*").is_ok());
    assert!(parse("\"dark m\"*").is_err());
    assert!(parse("\"dark mo\"*").is_ok());
}

#[test]
fn every_qualifier_listed_parses_and_an_unknown_one_lists_them_all() {
    for name in super::super::qualifier::QUALIFIERS {
        let typed = if name == "meta." {
            "meta.plan:x".to_owned()
        } else {
            format!("{name}x")
        };
        if let Err(e) = parse(&typed) {
            assert!(!e.message.contains("unknown qualifier"), "{typed}: {e}");
        }
    }
    let e = parse("colour:red").expect_err("unknown");
    for name in super::super::qualifier::QUALIFIERS {
        let listed = if name == "meta." { "meta.KEY:" } else { name };
        assert!(e.message.contains(listed), "{listed} missing from {e}");
    }
    let e = parse("is:wat").expect_err("unknown is");
    assert!(
        e.message.ends_with(
            "known: is:unseen is:seen is:starred is:done is:snoozed is:unclaimed is:mine is:replied"
        ),
        "{e}"
    );
    assert!(matches!(
        parse("is:READ").unwrap().root(),
        Some(Expr::Filter(Filter {
            kind: FilterKind::Is(Is::Seen),
            ..
        }))
    ));
    assert!(matches!(
        parse("has:Notes").unwrap().root(),
        Some(Expr::Filter(Filter {
            kind: FilterKind::Has(Has::Note),
            ..
        }))
    ));
}
