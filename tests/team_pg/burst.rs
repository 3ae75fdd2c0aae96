//! A burst of label changes two members make on a few items (the fault tests' workload), and
//! what every replica must end with.

use feedback_inbox::team::Change;

/// Ana's `n`-th change: the label `l{n}` on item `fb_{n % items}`.
pub fn label(n: usize) -> Change {
    Change::Labels {
        add: vec![format!("l{n}")],
        remove: vec![],
    }
}

/// The item a burst's `n`-th change is on.
pub fn item(n: usize, items: usize) -> String {
    format!("fb_{}", n % items)
}

/// Whether Bo also changes the item at step `n` (the label `l{1000 + n}`): the server orders
/// his changes and Ana's.
pub fn bos_turn(n: usize) -> bool {
    n.is_multiple_of(15)
}

/// Each item's labels, sorted, once every change of a burst of `burst` is in.
pub fn labels_after(burst: usize, items: usize) -> Vec<Vec<String>> {
    (0..items)
        .map(|i| {
            let mut labels: Vec<String> = (0..burst)
                .filter(|n| n % items == i)
                .map(|n| format!("l{n}"))
                .chain(
                    (0..burst)
                        .filter(|n| bos_turn(*n) && n % items == i)
                        .map(|n| format!("l{}", 1000 + n)),
                )
                .collect();
            labels.sort();
            labels
        })
        .collect()
}
