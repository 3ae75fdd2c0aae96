//! Fixed building blocks of the seeded dataset: projects, apps, tags and message fragments.
//! Kept apart from the generator so the generator stays about *how* data is combined.

/// (name, slug, days before the anchor it was created)
pub(crate) const PROJECTS: &[(&str, &str, i64)] = &[
    ("Nimbus Notes", "nimbus-notes", 720),
    ("Trailhead", "trailhead", 410),
    ("Ledgerly", "ledgerly", 260),
];

/// (project index, name, slug, platform, app identifier, region)
pub(crate) const APPS: &[(usize, &str, &str, &str, &str, &str)] = &[
    (
        0,
        "Nimbus Notes for iOS",
        "nimbus-ios",
        "ios",
        "com.nimbusnotes.ios",
        "eu",
    ),
    (
        0,
        "Nimbus Notes for Android",
        "nimbus-android",
        "android",
        "com.nimbusnotes.android",
        "eu",
    ),
    (
        0,
        "Nimbus Notes Web",
        "nimbus-web",
        "web",
        "app.nimbusnotes.com",
        "eu",
    ),
    (
        1,
        "Trailhead iOS",
        "trailhead-ios",
        "ios",
        "io.trailhead.app",
        "us",
    ),
    (
        1,
        "Trailhead Android",
        "trailhead-android",
        "android",
        "io.trailhead.android",
        "us",
    ),
    (
        2,
        "Ledgerly Web",
        "ledgerly-web",
        "web",
        "ledgerly.app",
        "eu",
    ),
    (
        2,
        "Ledgerly iOS",
        "ledgerly-ios",
        "ios",
        "app.ledgerly.ios",
        "eu",
    ),
    // A platform this client version does not know, to keep open enums honest.
    (
        2,
        "Ledgerly for Mac",
        "ledgerly-mac",
        "macos",
        "app.ledgerly.mac",
        "eu",
    ),
];

pub const TAGS: &[&str] = &[
    "bug",
    "crash",
    "feature-request",
    "ui",
    "performance",
    "sync",
    "billing",
    "login",
    "offline",
    "accessibility",
    "praise",
    "notifications",
    "data",
];

/// A topic: tags it implies, and message parts to combine.
pub(crate) struct Topic {
    pub tags: &'static [&'static str],
    pub openers: &'static [&'static str],
    pub details: &'static [&'static str],
}

pub(crate) const TOPICS: &[Topic] = &[
    Topic {
        tags: &["bug", "crash"],
        openers: &[
            "The app crashes every time I open the settings screen.",
            "Crashed twice today while I was typing.",
            "App closes itself right after the splash screen since the last update.",
        ],
        details: &[
            "I tried reinstalling but it still happens.",
            "It started after updating this morning.",
            "Steps: open the app, tap the gear icon, wait two seconds.",
            "I lost a paragraph I was writing, which is frustrating.",
            "The crash report dialog appeared and I sent it.",
            "Clearing the cache did not help either.",
            "It only happens when the document has images.",
        ],
    },
    Topic {
        tags: &["sync", "offline"],
        openers: &[
            "My notes don't sync between my phone and laptop.",
            "Changes made offline disappeared when I reconnected.",
            "Sync has been stuck on \"Updating…\" for hours.",
        ],
        details: &[
            "Both devices are signed into the same account.",
            "I was on a flight and edited a few entries.",
            "Pull to refresh doesn't help.",
            "The web version shows the right content.",
            "Some entries are now duplicated with a conflict marker.",
        ],
    },
    Topic {
        tags: &["feature-request"],
        openers: &[
            "Would love a dark mode that follows the system setting.",
            "Please add export to CSV.",
            "Could you add a widget for the home screen?",
            "It would be great to share a list with my partner.",
        ],
        details: &[
            "I use this every day and this is the one thing missing.",
            "Other apps in this space already have it.",
            "Happy to beta test if that helps.",
        ],
    },
    Topic {
        tags: &["ui", "accessibility"],
        openers: &[
            "The text is too small on the summary screen and doesn't respect my font size.",
            "VoiceOver reads the buttons on the map as \"button button\".",
            "The contrast of the grey labels is really low.",
        ],
        details: &[
            "I have low vision and rely on larger text.",
            "The rest of the app works fine with the screen reader.",
        ],
    },
    Topic {
        tags: &["performance"],
        openers: &[
            "Scrolling through a long list is very laggy.",
            "Startup takes almost ten seconds on my older phone.",
            "The battery drains fast while the app is in the background.",
        ],
        details: &[
            "This is on a three year old device.",
            "It used to be much faster a few versions ago.",
            "The phone gets noticeably warm after a few minutes.",
            "I have about two thousand entries, if that matters.",
        ],
    },
    Topic {
        tags: &["billing", "login"],
        openers: &[
            "I was charged twice for the yearly plan.",
            "Can't log in with my Apple ID anymore.",
            "The password reset email never arrives.",
        ],
        details: &[
            "Please refund the duplicate charge.",
            "I checked the spam folder too.",
            "Order number is in my account history.",
        ],
    },
    Topic {
        tags: &["praise"],
        openers: &[
            "Love this app! 🎉",
            "Best tracker I've used, thank you.",
            "Just wanted to say the new update is great 👍",
        ],
        details: &[
            "Keep up the good work.",
            "Recommended it to my whole team.",
            "The last redesign made everything so much clearer.",
            "Worth every cent of the subscription.",
        ],
    },
    Topic {
        tags: &["notifications", "bug"],
        openers: &[
            "I stopped getting push notifications after the update.",
            "Reminders fire an hour late since the clocks changed.",
            "I get the same notification three or four times.",
            "Notifications arrive but tapping them opens an empty screen.",
        ],
        details: &[
            "Notifications are allowed in the system settings.",
            "Do not disturb is off.",
            "Restarting the phone fixes it for a day or so.",
            "My colleague on the same plan has the same issue.",
        ],
    },
    Topic {
        tags: &["data", "feature-request"],
        openers: &[
            "The export to PDF cuts off the last page.",
            "Importing my old backup fails halfway with no message.",
            "Exported spreadsheets have the dates in the wrong format.",
            "Is there a way to download all my data at once?",
        ],
        details: &[
            "The file is about forty megabytes.",
            "I need this for my accountant by the end of the month.",
            "Commas in descriptions break the columns.",
            "The same file imported fine last year.",
        ],
    },
    Topic {
        tags: &["bug"],
        openers: &[
            "The map keeps centering on the wrong location.",
            "GPS tracking stops when the screen turns off.",
            "Recorded hikes show a straight line across the valley.",
            "Saved trails vanished from the list after I renamed one.",
        ],
        details: &[
            "Location access is set to always.",
            "Battery saver is disabled for the app.",
            "It was a six hour walk, so losing it hurts.",
            "The distance and elevation numbers are way off as well.",
        ],
    },
    Topic {
        tags: &["billing"],
        openers: &[
            "My invoice shows the wrong company address.",
            "The app still says free plan although I paid yesterday.",
            "How do I cancel the trial before it renews?",
            "The price in the store is different from the one on your website.",
        ],
        details: &[
            "I need a corrected invoice for my records.",
            "The payment went through on my card statement.",
            "I contacted support by email last week without an answer.",
            "We are a small nonprofit, is there a discount?",
        ],
    },
];

/// Messages in other scripts, so wide characters and right-to-left text appear in real data.
pub(crate) const INTERNATIONAL: &[&str] = &[
    "Die App stürzt beim Öffnen der Karte ab. Bitte beheben!",
    "同期が遅いです。メモが反映されるまで数分かかります。",
    "التطبيق لا يحفظ الملاحظات بعد التحديث الأخير",
    "הכפתור לשמירה לא עובד בגרסה החדשה",
    "L'application ne se synchronise plus depuis hier 😕",
    "앱이 자꾸 꺼져요. 업데이트 후부터 그래요.",
];

/// Hostile messages: what a malicious end user could submit. Clients must show them inert.
pub const HOSTILE: &[&str] = &[
    "\u{1b}]0;pwned title\u{7}Nothing to see here",
    "Please copy this \u{1b}]52;c;cm0gLXJmIH4=\u{7}now",
    "\u{1b}[2J\u{1b}[Hscreen cleared?",
    "\u{1b}[31mRED ALERT\u{1b}[0m the app is broken",
    "invoice\u{202e}fdp.exe attached",
    "query the terminal \u{1b}[6n\u{1b}[c please",
    "zero\u{200b}width\u{feff}chars and \u{9b}31m C1 CSI",
];

pub(crate) const FIRST_NAMES: &[&str] = &[
    "alex", "sam", "jordan", "maria", "li.wei", "fatima", "noah", "emma", "yuki", "omar", "ines",
    "lukas",
];

pub(crate) const MAIL_DOMAINS: &[&str] = &[
    "example.com",
    "example.org",
    "mail.example.net",
    "example.de",
];

pub(crate) const LOCALES: &[&str] = &[
    "en-US", "en-GB", "de-DE", "fr-FR", "ja-JP", "ar-EG", "he-IL", "ko-KR",
];
