//! The word table's early-stopping count against the plain Jaccard index: the same overlap
//! whenever it reaches the bar, `None` exactly when it does not (word hashes of 0 included), and
//! the fewest shared words found by brute force.

use proptest::prelude::*;

use super::*;

/// Sorted distinct words from a small range (0 included), so that sets overlap.
fn words() -> impl Strategy<Value = Vec<u64>> {
    prop::collection::btree_set(0u64..40, 1..30).prop_map(|s| s.into_iter().collect())
}

proptest! {
    #[test]
    fn the_table_gives_the_jaccard_index_when_it_reaches_the_bar(
        a in words(),
        b in words(),
        bar in prop_oneof![Just(JACCARD), 0.6f64..1.0, (1usize..30, 1usize..30)
            .prop_map(|(p, q)| ratio(p.min(q), p.max(q)))],
    ) {
        let mut table = WordTable::default();
        table.fill(&a);
        let plain = jaccard(&a, &b);
        let counted = table.overlap(a.len(), &b, bar);
        prop_assert_eq!(counted, (plain >= bar).then_some(plain), "bar {}", bar);
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
