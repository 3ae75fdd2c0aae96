//! How the OWNER column shows names too long for it: cut so that no two names the team may
//! show there read the same. A name is kept whole when it fits; a longer one keeps as much of
//! its start as leaves the cut names distinct, then `…` and its end (`demo_ana` and `demo_bo`
//! in five cells are `dem…a` and `dem…o`, never both `demo…`).

use std::collections::HashSet;

use feedback_core::width::{elide, width};

/// The names the column may show, and for each budget of cells the cut that keeps them apart.
pub(super) struct OwnerNames {
    names: Vec<String>,
    /// `(budget, head)`: the head cells of a cut name in `budget` cells, for the budgets asked
    /// so far (a row's glyphs take one or two cells of the column).
    heads: std::cell::RefCell<Vec<(usize, usize)>>,
}

impl OwnerNames {
    /// `names`: every name the column may show (the team's members and the owners on screen),
    /// as shown (sanitized).
    pub(super) fn new<'a>(names: impl IntoIterator<Item = &'a str>) -> Self {
        let mut names: Vec<String> = names.into_iter().map(str::to_owned).collect();
        names.sort_unstable();
        names.dedup();
        Self {
            names,
            heads: std::cell::RefCell::new(Vec::new()),
        }
    }

    /// `name` in at most `budget` cells.
    pub(super) fn show(&self, name: &str, budget: usize) -> String {
        if width(name) <= budget {
            return name.to_owned();
        }
        elide(name, budget, self.head(budget))
    }

    /// The longest head (up to `budget - 1` cells, the plain cut `name…`) under which every
    /// name cut to `budget` cells is still told from every other; the plain cut when none is.
    fn head(&self, budget: usize) -> usize {
        if let Some((_, head)) = self.heads.borrow().iter().find(|(b, _)| *b == budget) {
            return *head;
        }
        let plain = budget.saturating_sub(1);
        let head = (0..=plain)
            .rev()
            .find(|head| {
                let mut seen = HashSet::with_capacity(self.names.len());
                self.names
                    .iter()
                    .all(|name| seen.insert(elide(name, budget, *head)))
            })
            .unwrap_or(plain);
        self.heads.borrow_mut().push((budget, head));
        head
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    #[test]
    fn names_that_fit_are_whole_and_cut_names_stay_apart() {
        let names = OwnerNames::new(["demo_ana", "demo_bo", "cy"]);
        assert_eq!(names.show("demo_ana", 8), "demo_ana");
        assert_eq!(names.show("cy", 2), "cy");
        assert_eq!(names.show("demo_ana", 5), "dem…a");
        assert_eq!(names.show("demo_bo", 5), "dem…o");
        // Names apart in their first cells keep the plain cut.
        let names = OwnerNames::new(["alexandra", "bartholomew"]);
        assert_eq!(names.show("alexandra", 5), "alex…");
        assert_eq!(names.show("bartholomew", 5), "bart…");
    }

    proptest! {
        /// Whenever some cut in `budget` cells tells every name apart, the one chosen does,
        /// and every shown name stays within its cells. The reference tries every head.
        #[test]
        fn distinct_names_stay_distinct_when_any_cut_allows(
            names in prop::collection::hash_set("[a-c_]{1,12}", 1..8),
            budget in 1usize..12,
        ) {
            let shown = OwnerNames::new(names.iter().map(String::as_str));
            let cuts: Vec<String> = names.iter().map(|n| shown.show(n, budget)).collect();
            for cut in &cuts {
                prop_assert!(width(cut) <= budget, "{cut:?} in {budget}");
            }
            let possible = (0..budget).any(|head| {
                let all: HashSet<String> = names.iter().map(|n| elide(n, budget, head)).collect();
                all.len() == names.len()
            });
            let distinct: HashSet<&String> = cuts.iter().collect();
            if possible {
                prop_assert_eq!(distinct.len(), names.len(), "{:?} → {:?}", names, cuts);
            }
        }
    }
}
