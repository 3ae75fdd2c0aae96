//! Words that give generated messages a realistic spread of frequencies: a sign-off most
//! messages carry, devices and product features picked with a Zipf-like skew (a few common, a
//! long tail of rare ones), and reference numbers that are almost unique. Search benchmarks rely
//! on this spread; the module doc of `sim` names the words to query.

/// Sign-offs; each holds the word "thanks", appended to about half of the topic messages.
pub(crate) const SIGN_OFFS: &[&str] = &[
    "Thanks.",
    "Thanks!",
    "Thanks in advance.",
    "Thanks for looking into it.",
    "Thanks for the great work so far.",
    "Any help is appreciated, thanks.",
];

/// Devices, most common first (picked with a Zipf-like skew).
pub(crate) const DEVICES: &[&str] = &[
    "iPhone 15",
    "Pixel 8",
    "iPhone 13 mini",
    "Galaxy S23",
    "iPad Air",
    "MacBook Pro",
    "iPhone SE",
    "Galaxy A54",
    "ThinkPad X1",
    "Pixel 6a",
    "OnePlus 11",
    "Moto G Power",
    "Surface Laptop",
    "Xiaomi Redmi Note 12",
    "iPad mini",
    "Chromebook Duet",
    "Fairphone 5",
    "Nothing Phone",
    "Galaxy Tab S9",
    "Sony Xperia 10",
    "Oppo Reno",
    "Huawei P30",
    "Nokia G42",
    "Steam Deck",
];

/// Sentence shapes that mention a device (`{}`).
pub(crate) const DEVICE_SENTENCES: &[&str] = &[
    "I'm on an {}.",
    "This is on my {}.",
    "Using a {} with the latest system update.",
    "Happens on my {} but not on my partner's phone.",
];

/// Product features and screens, most mentioned first (Zipf-like skew: the first few are in a few
/// percent of messages, the last ones in a few per ten thousand).
pub(crate) const FEATURES: &[&str] = &[
    "calendar",
    "search",
    "reminders",
    "attachments",
    "notifications",
    "dashboard",
    "templates",
    "folders",
    "checklist",
    "widget",
    "sharing",
    "backup",
    "import",
    "keyboard shortcuts",
    "invoices",
    "receipts",
    "budget",
    "recurring payments",
    "elevation profile",
    "waypoints",
    "route planner",
    "photo upload",
    "voice memos",
    "handwriting",
    "markdown preview",
    "tables",
    "tag editor",
    "archive",
    "trash",
    "version history",
    "offline maps",
    "compass",
    "heart rate",
    "step counter",
    "currency converter",
    "tax report",
    "bank connection",
    "spreadsheet export",
    "PDF export",
    "dark theme",
    "font picker",
    "onboarding",
    "subscription page",
    "family sharing",
    "two-factor prompt",
    "passkey login",
    "magic link",
    "sidebar",
    "split view",
    "lock screen",
    "apple watch",
    "wear os",
    "siri shortcut",
    "quick capture",
    "web clipper",
    "browser extension",
    "email forwarding",
    "mentions",
    "comments",
    "pinned notes",
    "favorites",
    "color labels",
    "geofence",
    "trail difficulty",
    "weather overlay",
    "snow layer",
    "topographic layer",
    "gpx import",
    "strava sync",
    "mileage log",
    "expense categories",
    "split bills",
    "vat numbers",
    "payment reminders",
    "quarterly summary",
    "audit log",
    "csv mapping",
    "ocr scanner",
    "barcode scanner",
    "kanban board",
    "gantt chart",
    "zettelkasten links",
    "backlinks graph",
    "latex rendering",
    "mermaid diagrams",
    "dyslexia font",
    "haptic feedback",
    "landscape mode",
    "stylus pressure",
    "e-ink mode",
];

/// Sentence shapes that mention a feature (`{}`).
pub(crate) const FEATURE_SENTENCES: &[&str] = &[
    "It also happens in the {} view.",
    "The {} screen is affected too.",
    "Same problem with the {}.",
    "I mostly use the {} for this.",
    "Not sure if it's related to the {}.",
];

/// Family names for reporter emails (with `catalog::FIRST_NAMES`).
pub(crate) const LAST_NAMES: &[&str] = &[
    "garcia", "smith", "tanaka", "muller", "haddad", "cohen", "kim", "rossi", "novak", "silva",
    "okafor", "larsen", "dubois", "nguyen", "kowalski", "ivanova",
];

/// An index below `len`, skewed like Zipf's law (s = 1): index k is picked with weight 1/(k+1).
pub(crate) fn zipf(rng: &mut fastrand::Rng, len: usize) -> usize {
    // Inverse transform over the continuous approximation: weight 1/x on [1, len + 1).
    let span = f64::from(u32::try_from(len).unwrap_or(u32::MAX)).ln_1p();
    let x = (rng.f64() * span).exp();
    // x is in [1, len + 1): the cast truncates a small positive number, never out of range.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let index = x as usize - 1;
    index.min(len.saturating_sub(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zipf_favours_the_first_entries_and_reaches_the_last() {
        let mut rng = fastrand::Rng::with_seed(3);
        let mut counts = vec![0u32; FEATURES.len()];
        for _ in 0..200_000 {
            counts[zipf(&mut rng, FEATURES.len())] += 1;
        }
        assert!(counts[0] > counts[5] * 3, "{counts:?}");
        assert!(counts[5] > counts[50] * 3, "{counts:?}");
        assert!(counts.iter().all(|c| *c > 0), "{counts:?}");
    }
}
