//! What a lenient read replaced, named by where in the item it was (`received_at`,
//! `app.platform`, `delivery.channel`).
//!
//! serde hands a field's reader its value but not its name, so the name travels beside the
//! read: [`super::tracked::Tracked`] enters a field's name while its value is read, and a
//! reader that replaces a value calls [`note`], which records the problem under the names
//! entered. Both live in this thread's state, which a read is confined to: serde reads
//! synchronously. Outside [`collect`] (a model type read by plain serde_json) notes are dropped.

use std::cell::RefCell;

thread_local! {
    /// The names of the fields being read, outermost first.
    static PLACE: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
    /// The problems of the item being read, when one is being collected.
    static NOTES: RefCell<Option<Vec<String>>> = const { RefCell::new(None) };
}

/// Runs `read` and returns what it noted, each as `place: problem`.
pub(super) fn collect<T>(read: impl FnOnce() -> T) -> (T, Vec<String>) {
    /// Puts back what was there before, also when `read` panics.
    struct Restore {
        place: Vec<String>,
        notes: Option<Vec<String>>,
    }
    impl Drop for Restore {
        fn drop(&mut self) {
            PLACE.with(|p| *p.borrow_mut() = std::mem::take(&mut self.place));
            NOTES.with(|n| *n.borrow_mut() = self.notes.take());
        }
    }
    let restore = Restore {
        place: PLACE.with(|p| std::mem::take(&mut *p.borrow_mut())),
        notes: NOTES.with(|n| n.borrow_mut().replace(Vec::new())),
    };
    let value = read();
    let notes = NOTES.with(|n| n.borrow_mut().take()).unwrap_or_default();
    drop(restore);
    (value, notes)
}

/// Records `problem` at the current place. The same problem noted again at the same place
/// (each bad entry of one list) is kept once.
pub(crate) fn note(problem: &str) {
    NOTES.with(|notes| {
        if let Some(notes) = notes.borrow_mut().as_mut() {
            let place = PLACE.with(|p| p.borrow().join("."));
            let line = format!("{place}: {problem}");
            if notes.last() != Some(&line) {
                notes.push(line);
            }
        }
    });
}

/// A field's name, entered while its value is read; left when dropped.
pub(super) struct Inside(());

pub(super) fn enter(name: &str) -> Inside {
    PLACE.with(|p| p.borrow_mut().push(name.to_owned()));
    Inside(())
}

impl Drop for Inside {
    fn drop(&mut self) {
        PLACE.with(|p| p.borrow_mut().pop());
    }
}
