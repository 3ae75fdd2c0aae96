//! The word table's early-stopping count against the plain Jaccard index (a merge of sorted
//! lists): the same overlap whenever it reaches the bar, nothing exactly when it does not (word
//! hashes of 0 included); the signature never counts a shared word as missing; the fewest
//! shared words are the brute-force answer.

use proptest::prelude::*;

use super::*;
use crate::store::similar::top::JACCARD;

/// Sorted distinct words from a small range (0 included), so that sets overlap.
fn words() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(0u64..40, 1..30).prop_map(|s| s.into_iter().collect())
}

/// Words spread over the whole range (the signature's bits come from the top byte).
fn wide_words() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(0u64..40, 1..30)
        .prop_map(|s| {
            s.into_iter()
                .map(|w| mix(w) ^ (w << 57))
                .collect::<Vec<_>>()
        })
        .prop_map(|mut w| {
            w.sort_unstable();
            w
        })
}

fn jaccard(a: &[u64], b: &[u64]) -> f64 {
    let (mut i, mut j, mut shared) = (0, 0, 0);
    while i < a.len() && j < b.len() {
        match a[i].cmp(&b[j]) {
            std::cmp::Ordering::Less => i += 1,
            std::cmp::Ordering::Greater => j += 1,
            std::cmp::Ordering::Equal => {
                shared += 1;
                i += 1;
                j += 1;
            }
        }
    }
    ratio(shared, a.len() + b.len() - shared)
}

/// The table's answer as the clustering reaches it: allowed misses, signature, count.
fn counted(table: &mut WordTable, theirs: &[u64], bar: f64) -> Option<f64> {
    let allowed = table.allowed_missing(theirs.len())?;
    if table.surely_missing(&signature(theirs)) > allowed {
        return None;
    }
    let allowed = if bar > JACCARD {
        table.allowed_missing_at(theirs.len(), bar)?
    } else {
        allowed
    };
    table.overlap(theirs, allowed)
}

/// Bars the clustering sets: the rule's, or a best overlap so far (a ratio at or above it).
fn bars() -> impl Strategy<Value = f64> {
    prop_oneof![
        Just(JACCARD),
        0.6f64..1.0,
        (1usize..30, 1usize..30)
            .prop_map(|(p, q)| ratio(p.min(q), p.max(q)))
            .prop_filter("a bar at or above the rule's", |bar| *bar >= JACCARD)
    ]
}

proptest! {
    #[test]
    fn the_table_gives_the_jaccard_index_when_it_reaches_the_bar(
        (a, b) in prop_oneof![(words(), words()), (wide_words(), wide_words())],
        bar in bars(),
    ) {
        let mut table = WordTable::default();
        table.fill(&a);
        let plain = jaccard(&a, &b);
        let answer = counted(&mut table, &b, bar);
        prop_assert_eq!(answer, (plain >= bar).then_some(plain), "bar {}", bar);
        // Asked again (the remembered need).
        prop_assert_eq!(counted(&mut table, &b, bar), answer);
    }

    #[test]
    fn the_signature_counts_no_shared_word_as_missing(a in wide_words(), b in wide_words()) {
        let mut table = WordTable::default();
        table.fill(&a);
        let missing = b.iter().filter(|w| !a.contains(w)).count();
        prop_assert!(table.surely_missing(&signature(&b)) <= missing);
        prop_assert_eq!(table.surely_missing(&signature(&a)), 0);
    }

    #[test]
    fn the_table_holds_its_words_and_no_others(a in words(), other in 40u64..u64::MAX) {
        let mut table = WordTable::default();
        table.fill(&a);
        prop_assert!(a.iter().all(|&w| table.contains(w)));
        prop_assert!(!table.contains(other));
        prop_assert_eq!(table.contains(0), a.contains(&0));
    }
}

#[test]
fn the_fewest_shared_words_are_the_brute_force_answer() {
    for a in 1..60 {
        for b in 1..60 {
            for bar in [JACCARD, 0.61, 2.0 / 3.0, 0.75, 0.9, 1.0] {
                let brute = (0..=a.min(b)).find(|&s| ratio(s, a + b - s) >= bar);
                assert_eq!(least_shared(a, b, bar), brute, "{a} {b} {bar}");
            }
        }
    }
}

#[test]
fn words_are_hashed_once_each_sorted() {
    let mut out = Vec::new();
    word_hashes("dark mode dark  again", &mut out);
    assert_eq!(out.len(), 3);
    assert!(out.windows(2).all(|w| w[0] < w[1]));
    word_hashes("", &mut out);
    assert!(out.is_empty());
}
