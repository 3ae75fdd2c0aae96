//! The story in the generated data, so that the demo shows what pivots, trends and similar
//! feedback are for:
//!
//! - **Releases**: every app ships a version every three weeks (a hotfix `x.y.1` follows some
//!   a week later). Users move to a release over about a week; the rest stay a version or two
//!   behind. Build numbers follow the versions.
//! - **A bad release**: Trailhead Android's latest release, 18 days before the anchor. From then
//!   on, crash reports on that app arrive three times as often as before, most of them the
//!   same complaint in other words ("App closes itself right after the splash screen").
//! - **A locale and a screen**: German-speaking users' complaints cluster on the Checkout
//!   screen (the custom `screen` key), where other locales' complaints spread over all screens.
//! - **Near-duplicate families**: a few complaints arrive again and again in slightly different
//!   words, across apps.
//! - **Realistic metadata**: locales, iOS and Android versions weighted as real audiences are.
//!
//! Everything here is drawn from its own generator (seeded from the item's seed), so the rest of
//! an item (its app, status, tags, email, delivery) is what it was before the story.

use jiff::{SignedDuration, Timestamp};

/// The app whose latest release goes wrong (index into `catalog::APPS`: Trailhead Android).
pub(crate) const BAD_APP: usize = 4;
/// Days before the anchor of each app's latest release (the bad app's is the bad release).
const LATEST_RELEASE_DAYS: [i64; 8] = [3, 10, 17, 6, 18, 12, 1, 8];
/// Every app's release cadence.
const RELEASE_EVERY: SignedDuration = SignedDuration::from_hours(21 * 24);
/// Each app's version numbering: (major, minor) of its release 0, the first of the data.
const BASE_VERSION: [(u32, u32); 8] = [
    (5, 2),
    (5, 1),
    (3, 7),
    (2, 4),
    (3, 0),
    (1, 8),
    (1, 6),
    (0, 9),
];
/// Releases before the latest one that the data's six months span.
const RELEASES_BACK: i64 = 10;
/// The topic of crash reports (`catalog::TOPICS[0]`).
pub(crate) const CRASH_TOPIC: usize = 0;
/// Topics that are not complaints: feature requests, praise, data export wishes.
const NOT_COMPLAINTS: [usize; 3] = [2, 6, 8];

/// Per generated slot after the bad release: the chance that the slot is (also) a crash report
/// of the bad app. Its usual share of slots is about 1% (1/8 apps × 94% with an app × 94%
/// topics × 1/11 topics), so 2% more triples it.
pub(crate) const EXTRA_CRASH_PER_MILLE: u16 = 20;

/// The story's time line, fixed by the dataset's anchor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Story {
    pub anchor: Timestamp,
}

impl Story {
    /// When the bad release shipped.
    #[must_use]
    pub(crate) fn bad_release(&self) -> Timestamp {
        self.release_at(BAD_APP, RELEASES_BACK)
    }

    /// Release `n` of app `app` (0: the first in the data, `RELEASES_BACK`: the latest before
    /// the anchor; later ones come after it, for live submissions).
    fn release_at(&self, app: usize, n: i64) -> Timestamp {
        let latest = self
            .anchor
            .saturating_sub(SignedDuration::from_hours(24 * latest_days(app)))
            .unwrap_or(self.anchor);
        let back = RELEASE_EVERY
            .checked_mul(i32::try_from(RELEASES_BACK - n).unwrap_or(0))
            .unwrap_or(SignedDuration::ZERO);
        latest.saturating_sub(back).unwrap_or(latest)
    }

    /// The release of `app` current at `at`, and how long it has been out.
    fn current(&self, app: usize, at: Timestamp) -> (i64, SignedDuration) {
        let first = self.release_at(app, 0);
        let since = at.duration_since(first);
        let n = since.as_secs().div_euclid(RELEASE_EVERY.as_secs()).max(0);
        (n, at.duration_since(self.release_at(app, n)))
    }

    /// The version a user of `app` runs at `at`, and its build number. A crash report of the
    /// bad app after the bad release mostly runs the bad release: it is what crashes.
    #[must_use]
    pub fn version(
        &self,
        rng: &mut fastrand::Rng,
        app: usize,
        at: Timestamp,
        crash: bool,
    ) -> (String, u32) {
        let (newest, out_for) = self.current(app, at);
        // Adoption: 15% on the day of a release, 10 points more each day, at most 85%.
        let days = u32::try_from(out_for.as_hours().max(0) / 24).unwrap_or(u32::MAX);
        let on_newest = (15 + 10 * days.min(7)).min(85);
        let bad_crash = crash && app == BAD_APP && at >= self.bad_release();
        let n = if (bad_crash && rng.u8(..100) < 70) || rng.u32(..100) < on_newest || newest == 0 {
            newest
        } else if rng.u8(..100) < 80 || newest == 1 {
            newest - 1
        } else {
            newest - 2
        };
        // Every third release gets a hotfix a week later, which its users take; not the bad
        // release (the story is that it is not fixed yet).
        let bad = app == BAD_APP && n == RELEASES_BACK;
        let hotfix = n % 3 == 1 && !bad && (n < newest || days >= 7);
        let (major, minor) = BASE_VERSION[app % BASE_VERSION.len()];
        let minor = minor + u32::try_from(n).unwrap_or(0);
        let (major, minor) = (major + minor / 20, minor % 20);
        let patch = u32::from(hotfix);
        let build = 1000 + 40 * u32::try_from(n).unwrap_or(0) + patch;
        (format!("{major}.{minor}.{patch}"), build)
    }

    /// Whether a slot at `at` carries an extra crash report of the bad app (drawn from the
    /// generator's own story stream).
    #[must_use]
    pub(crate) fn extra_crash(&self, rng: &mut fastrand::Rng, at: Timestamp) -> bool {
        at >= self.bad_release() && rng.u16(..1000) < EXTRA_CRASH_PER_MILLE
    }
}

fn latest_days(app: usize) -> i64 {
    LATEST_RELEASE_DAYS[app % LATEST_RELEASE_DAYS.len()]
}

/// Whether a topic's reports are complaints (the locale/screen cluster is made of those).
#[must_use]
pub(crate) fn is_complaint(topic: usize) -> bool {
    !NOT_COMPLAINTS.contains(&topic)
}

/// A locale, weighted as a European-American audience with some Asia and Middle East.
#[must_use]
pub fn locale(rng: &mut fastrand::Rng) -> &'static str {
    weighted(
        rng,
        &[
            ("en-US", 34),
            ("de-DE", 16),
            ("en-GB", 10),
            ("fr-FR", 10),
            ("ja-JP", 10),
            ("ko-KR", 8),
            ("ar-EG", 7),
            ("he-IL", 5),
        ],
    )
}

/// The screen a complaint comes from: German-speaking complaints mostly from Checkout.
#[must_use]
pub fn screen(rng: &mut fastrand::Rng, locale: &str, complaint: bool) -> &'static str {
    const SCREENS: [&str; 5] = ["Home", "Settings", "Editor", "Map", "Checkout"];
    if complaint && locale == "de-DE" && rng.u8(..100) < 75 {
        return "Checkout";
    }
    SCREENS[rng.usize(..SCREENS.len())]
}

/// An iOS version: most users on the newest major, a tail on the two before.
#[must_use]
pub(crate) fn ios_version(rng: &mut fastrand::Rng) -> String {
    let major = weighted(rng, &[("18", 58), ("17", 32), ("16", 10)]);
    let minor = match major {
        "18" => weighted(
            rng,
            &[
                ("5", 30),
                ("4", 25),
                ("3", 20),
                ("2", 10),
                ("1", 10),
                ("0", 5),
            ],
        ),
        "17" => weighted(rng, &[("7", 45), ("6", 25), ("5", 15), ("4", 10), ("2", 5)]),
        _ => weighted(rng, &[("7", 60), ("6", 30), ("5", 10)]),
    };
    format!("{major}.{minor}")
}

/// An Android version (the platform's major number).
#[must_use]
pub(crate) fn android_version(rng: &mut fastrand::Rng) -> &'static str {
    weighted(
        rng,
        &[("15", 24), ("14", 36), ("13", 21), ("12", 12), ("11", 7)],
    )
}

fn weighted<'a>(rng: &mut fastrand::Rng, choices: &[(&'a str, u32)]) -> &'a str {
    let total: u32 = choices.iter().map(|(_, w)| w).sum();
    let mut roll = rng.u32(..total.max(1));
    for (choice, weight) in choices {
        if roll < *weight {
            return choice;
        }
        roll -= weight;
    }
    choices.last().map_or("", |(c, _)| c)
}

/// A family of near-duplicate complaints: the same report in other words.
struct Family {
    /// The topic whose reports it replaces.
    topic: usize,
    /// The opener of that topic it tells again in other words, if one (its story is then
    /// that opener's; else the family is a story of its own).
    tells: Option<usize>,
    /// Per mille of that topic's reports that are of this family.
    per_mille: u16,
    cores: &'static [&'static str],
}

const FAMILIES: &[Family] = &[
    Family {
        topic: CRASH_TOPIC,
        // "App closes itself right after the splash screen since the last update."
        tells: Some(2),
        per_mille: 350,
        cores: &[
            "App closes itself right after the splash screen",
            "The app closes itself right after the splash screen",
            "app closes right after the splash screen",
            "App closes itself just after the splash screen",
            "The app closes by itself right after the splash screen",
        ],
    },
    Family {
        topic: 5,
        tells: None,
        per_mille: 300,
        cores: &[
            "Can't log in with Google since the update",
            "Cannot log in with Google since the update",
            "can't sign in with Google since the update",
            "Login with Google fails since the update",
        ],
    },
    Family {
        topic: 3,
        tells: None,
        per_mille: 300,
        cores: &[
            "Dark mode switches back to light after a restart",
            "Dark mode goes back to light mode after restarting",
            "dark mode switches back to light after restart",
            "Dark mode resets to light after a restart",
        ],
    },
];

const OPENERS: &[&str] = &[
    "",
    "",
    "",
    "Hi, ",
    "Hello team, ",
    "Since the update: ",
    "Hey! ",
];
const ENDINGS: &[&str] = &[
    ".",
    ".",
    "!",
    "!!",
    "...",
    ". Please fix.",
    ". Any idea?",
    "",
];

/// A near-duplicate of its family for a report of `topic`, with the story it tells (see
/// `item::told`), or `None` (the report keeps its own words). Crash reports of the bad app
/// after the bad release are mostly of the family.
#[must_use]
pub(crate) fn family_message(
    rng: &mut fastrand::Rng,
    topic: usize,
    bad_app_after_release: bool,
) -> Option<(String, String)> {
    let family = FAMILIES.iter().find(|f| f.topic == topic)?;
    let per_mille = if bad_app_after_release && topic == CRASH_TOPIC {
        800
    } else {
        family.per_mille
    };
    if rng.u16(..1000) >= per_mille {
        return None;
    }
    let opener = OPENERS[rng.usize(..OPENERS.len())];
    let core = family.cores[rng.usize(..family.cores.len())];
    let ending = ENDINGS[rng.usize(..ENDINGS.len())];
    let mut text = format!("{opener}{core}{ending}");
    if !opener.is_empty() {
        // "Hi, App closes…" reads as "Hi, app closes…".
        let at = opener.len();
        let lower = text[at..=at].to_lowercase();
        text.replace_range(at..=at, &lower);
    }
    // Signed off as often as other reports (the search benchmarks' "about half" word).
    if rng.u8(..100) < 53 {
        text.push(' ');
        text.push_str(super::vocab::SIGN_OFFS[rng.usize(..super::vocab::SIGN_OFFS.len())]);
    }
    let told = match family.tells {
        Some(opener) => format!("topic {topic} opener {opener}"),
        None => format!("family {topic}"),
    };
    Some((text, told))
}

#[cfg(test)]
mod tests;
