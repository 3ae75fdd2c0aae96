//! Any input parses or fails with a span inside it on char boundaries; highlighting any text
//! never panics and gives sorted, disjoint ranges on char boundaries.

use proptest::prelude::*;

use super::super::*;

/// Query-like strings: the language's own pieces mixed with hostile characters.
fn query_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("(".to_owned()),
        Just(")".to_owned()),
        Just("\"".to_owned()),
        Just("-".to_owned()),
        Just(":".to_owned()),
        Just("*".to_owned()),
        Just(" ".to_owned()),
        Just("OR".to_owned()),
        Just("AND".to_owned()),
        Just("NOT".to_owned()),
        Just("app:".to_owned()),
        Just("tag:".to_owned()),
        Just("age:<".to_owned()),
        Just("after:".to_owned()),
        Just("meta.".to_owned()),
        Just("has:".to_owned()),
        "[a-zA-Z0-9]{1,6}",
        "[\\PC]{1,4}",
        "[\\x00-\\x1f\\u{7f}\\u{202e}\\u{200d}\\u{301}]{1,3}",
        "[éÅßİﬁ日本語🦀]{1,3}",
    ];
    prop::collection::vec(piece, 0..24).prop_map(|parts| parts.concat())
}

fn check_parse(input: &str) {
    match parse(input) {
        Ok(query) => {
            let _ = query.highlights().ranges(input);
        }
        Err(e) => {
            assert!(
                e.span.start <= e.span.end && e.span.end <= input.len(),
                "{e:?}"
            );
            assert!(input.is_char_boundary(e.span.start), "{e:?}");
            assert!(input.is_char_boundary(e.span.end), "{e:?}");
            assert!(!e.message.is_empty());
        }
    }
}

fn check_ranges(query: &str, text: &str) {
    let Ok(query) = parse(query) else { return };
    let ranges = query.highlights().ranges(text);
    let mut last_end = 0;
    for (i, r) in ranges.iter().enumerate() {
        assert!(r.start < r.end && r.end <= text.len(), "{r:?}");
        assert!(text.is_char_boundary(r.start) && text.is_char_boundary(r.end));
        assert!(i == 0 || r.start > last_end, "not merged: {ranges:?}");
        last_end = r.end;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn any_query_like_input_parses_or_errs_inside_it(input in query_text()) {
        check_parse(&input);
    }

    #[test]
    fn any_string_parses_or_errs_inside_it(input in any::<String>()) {
        check_parse(&input);
    }

    #[test]
    fn highlighting_any_text_is_well_formed(query in query_text(), text in any::<String>()) {
        check_ranges(&query, &text);
    }
}

#[test]
fn huge_inputs_are_refused_quickly() {
    for input in [
        "(".repeat(1_000_000),
        "\"".repeat(1_000_001),
        "-".repeat(5000),
        "a ".repeat(500_000),
        "🦀".repeat(300_000),
    ] {
        check_parse(&input);
        check_parse(&input[..input.len().min(MAX_INPUT_BYTES) / 4 * 4]);
    }
}
