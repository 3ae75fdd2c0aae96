//! The word table's early-stopping sum against a plain one: the shared weight whenever no more
//! than the allowed weight is missing, nothing exactly when more is (word hashes of 0
//! included); the prefixes and the weight bounds of the clustering never turn away a leader
//! that reaches the bar (brute force over weights).

use proptest::prelude::*;

use super::*;
use crate::similar::top::CONTAINED_JACCARD;
use crate::similar::top::cluster::{HEAVY_SHARE, LIGHT_SHARE, allowed_missing, prefix};
use crate::similar::top::rarity::{near, overlap, total};

/// Distinct words from a small range (0 included), so that sets overlap, each with the weight
/// its hash gives it (the same word weighs the same in every set), heaviest first.
fn words() -> impl Strategy<Value = Vec<Word>> {
    prop::collection::btree_set(0u64..40, 1..30).prop_map(|s| {
        let mut words: Vec<Word> = s
            .into_iter()
            .map(|hash| Word {
                hash,
                weight: 693 + u32::try_from(mix(hash) % 9000).unwrap(),
            })
            .collect();
        words.sort_unstable_by(|a, b| b.weight.cmp(&a.weight).then(a.hash.cmp(&b.hash)));
        words
    })
}

fn plain_shared(a: &[Word], b: &[Word]) -> u64 {
    a.iter()
        .filter(|w| b.contains(w))
        .map(|w| u64::from(w.weight))
        .sum()
}

proptest! {
    #[test]
    fn the_table_sums_the_shared_weight_unless_too_much_is_missing(
        a in words(),
        b in words(),
        allowed in 0u64..60_000,
    ) {
        let mut table = WordTable::default();
        table.fill(&a);
        let shared = plain_shared(&a, &b);
        let missing = total(&b) - shared;
        prop_assert_eq!(table.shared(&b, allowed), (missing <= allowed).then_some(shared));
        prop_assert!(a.iter().all(|w| table.contains(w.hash)));
        prop_assert_eq!(table.contains(0), a.iter().any(|w| w.hash == 0));
    }

    #[test]
    fn the_bounds_never_turn_away_a_leader_that_reaches_the_bar(
        a in words(),
        b in words(),
        bar in prop_oneof![Just(CONTAINED_JACCARD), CONTAINED_JACCARD..1.0],
    ) {
        let (wa, wb) = (total(&a), total(&b));
        let shared = plain_shared(&a, &b);
        let found = overlap(shared, wa, wb);
        if found >= bar {
            let allowed = allowed_missing(wa, wb, bar);
            prop_assert!(allowed.is_some_and(|allowed| wb - shared <= allowed));
        }
        if near(shared, wa, wb) {
            // Their first shared word (in the one order) is in the lighter one's light-role
            // prefix and the heavier one's heavy-role prefix (either way when equal).
            let first = a.iter().find(|w| b.contains(w)).unwrap();
            let ((light, wl), (heavy, wh)) = if wa <= wb { ((&a, wa), (&b, wb)) } else { ((&b, wb), (&a, wa)) };
            prop_assert!(light[..prefix(light, wl, LIGHT_SHARE)].contains(first));
            prop_assert!(heavy[..prefix(heavy, wh, HEAVY_SHARE)].contains(first));
            if wa == wb {
                prop_assert!(heavy[..prefix(heavy, wh, LIGHT_SHARE)].contains(first));
                prop_assert!(light[..prefix(light, wl, HEAVY_SHARE)].contains(first));
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

#[test]
fn near_is_a_high_overlap_or_a_contained_one_at_the_lower_bar() {
    use crate::similar::top::rarity::near;
    // Overlap 700 / 1300 ≥ 0.5; 500 / 1500 is not, and half of either is not "contained".
    assert!(near(700, 1000, 1000));
    assert!(!near(500, 1000, 1000));
    // The lighter one wholly shared: near while the other weighs at most four times as much.
    assert!(near(650, 650, 2600));
    assert!(!near(650, 650, 2700));
    // 65% of the lighter one shared is enough at the lower bar; a little less is not.
    assert!(near(455, 700, 1200));
    assert!(!near(454, 700, 1200));
    // Nothing to weigh.
    assert!(!near(0, 0, 0));
}
