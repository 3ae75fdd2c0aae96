//! A group's words as the clustering sees them: sorted distinct 64-bit hashes, and a small hash
//! table of one group's weighed words that sums the weight another word list shares with it.
//!
//! Each word is hashed once. Hashes are 64 bits: two different words share one with a chance
//! of about 2⁻⁶⁴ per pair (under 10⁻⁷ over every pair of a million-word vocabulary), so in
//! practice the weights, the overlaps and the clusters are those of the words themselves.

use std::hash::{Hash, Hasher};

use super::rarity::Word;

/// The distinct words of a normalised text as sorted hashes, into `out`, the ways of writing
/// one thing that support requests use most written one way ([`said_alike`]).
pub(super) fn word_hashes(normalised: &str, out: &mut Vec<u64>) {
    out.clear();
    let mut words = normalised.split(' ').filter(|w| !w.is_empty()).peekable();
    while let Some(word) = words.next() {
        let next = words.peek().copied();
        match said_alike(word, next) {
            Alike::Word(word) => out.push(word_hash(word)),
            Alike::Pair(word) => {
                words.next();
                out.push(word_hash(word));
            }
            Alike::Words(these) => out.extend(these.iter().map(|w| word_hash(w))),
        }
    }
    out.sort_unstable();
    out.dedup();
}

/// What a word (with the one after it) counts as.
enum Alike<'a> {
    Word(&'a str),
    /// The word and the next one, as one.
    Pair(&'a str),
    /// The word, as these.
    Words(&'static [&'static str]),
}

/// The spellings of one thing that stemming cannot join: signing in ("log in", "sign in",
/// "login", "signin", "log on") is "login"; "cannot" is "can't" (normalised "can t"); and
/// every number is one word ("0"), a value rather than what is said: "crashes on 3.10" is
/// "crashes on 2.1" of another version, and an order number makes no complaint of its own.
fn said_alike<'a>(word: &'a str, next: Option<&str>) -> Alike<'a> {
    match (word, next) {
        ("log" | "sign", Some("in" | "on")) => Alike::Pair("login"),
        ("login" | "signin" | "logon" | "signon", _) => Alike::Word("login"),
        ("cannot", _) => Alike::Words(&["can", "t"]),
        _ if word.bytes().all(|b| b.is_ascii_digit()) => Alike::Word("0"),
        _ => Alike::Word(word),
    }
}

/// A word's hash, by its English stem (`query::stem`: "restarting" is "restart", "crashes"
/// "crash"), the same in every run (SipHash with fixed keys).
fn word_hash(word: &str) -> u64 {
    #[allow(deprecated)] // SipHasher: fixed keys, stable within a run and across runs
    let mut hasher = std::hash::SipHasher::new();
    feedback_core::query::stem(word).hash(&mut hasher);
    hasher.finish()
}

/// A 64-bit finaliser (splitmix64).
pub(super) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// The hasher of maps keyed by word hash: those are already mixed 64-bit values, so they serve
/// as their own hash (SipHash over them again would only cost time).
#[derive(Default)]
pub(super) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = mix(self.0 ^ u64::from(b));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.0 = n;
    }
}

/// One group's words in an open-addressed hash table (at most half full), so that a leader's
/// words are looked up with one probe each.
#[derive(Default)]
pub(super) struct WordTable {
    /// The words, 0 for an empty slot (a word hashed to 0 is `zero`).
    slots: Vec<u64>,
    mask: u64,
    zero: bool,
}

impl WordTable {
    pub(super) fn fill(&mut self, words: &[Word]) {
        let size = (words.len() * 2).next_power_of_two().max(8);
        self.slots.clear();
        self.slots.resize(size, 0);
        self.mask = (size - 1) as u64;
        self.zero = false;
        for word in words {
            if word.hash == 0 {
                self.zero = true;
                continue;
            }
            let mut at = self.slot(word.hash);
            while self.slots[at] != 0 {
                at = self.slot(at as u64 + 1);
            }
            self.slots[at] = word.hash;
        }
    }

    pub(super) fn contains(&self, word: u64) -> bool {
        if word == 0 {
            return self.zero;
        }
        let mut at = self.slot(word);
        loop {
            match self.slots[at] {
                found if found == word => return true,
                0 => return false,
                _ => at = self.slot(at as u64 + 1),
            }
        }
    }

    #[allow(clippy::cast_possible_truncation)] // masked to the table's size
    fn slot(&self, n: u64) -> usize {
        (n & self.mask) as usize
    }

    /// The weight of `theirs` that our words share (a word's weight is the same in both: it
    /// is the word's), or `None` once more than `allowed` of their weight is missing.
    pub(super) fn shared(&self, theirs: &[Word], allowed: u64) -> Option<u64> {
        let (mut shared, mut missing) = (0u64, 0u64);
        for word in theirs {
            if self.contains(word.hash) {
                shared += u64::from(word.weight);
            } else {
                missing += u64::from(word.weight);
                if missing > allowed {
                    return None;
                }
            }
        }
        Some(shared)
    }
}

#[cfg(test)]
mod tests;
