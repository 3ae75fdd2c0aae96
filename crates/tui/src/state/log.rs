//! The message log: everything the status bar said since the inbox started, whole, with its
//! time. The bar has one line and cuts a long message with `…`; the log (`M`, `:messages`)
//! shows it wrapped, so no error or hint is lost to the screen's width.

use std::collections::VecDeque;

use jiff::Timestamp;

use feedback_core::text::Clean;

/// Messages kept: the oldest go first beyond this.
pub(crate) const KEPT: usize = 500;

/// The messages said, oldest first.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct MessageLog {
    entries: VecDeque<Logged>,
    /// Messages let go to keep [`KEPT`].
    dropped: u64,
}

/// One message and when it was last said.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Logged {
    pub at: Timestamp,
    pub text: Clean,
    pub error: bool,
    /// How many times in a row it was said (a retry that fails again is one entry).
    pub times: u32,
}

impl MessageLog {
    /// Keeps a message said `at`; the same message said again right after counts once more.
    pub fn push(&mut self, at: Timestamp, text: &Clean, error: bool) {
        if let Some(last) = self.entries.back_mut()
            && last.text == *text
            && last.error == error
        {
            last.times = last.times.saturating_add(1);
            last.at = at;
            return;
        }
        self.entries.push_back(Logged {
            at,
            text: text.clone(),
            error,
            times: 1,
        });
        if self.entries.len() > KEPT {
            self.entries.pop_front();
            self.dropped += 1;
        }
    }

    /// The messages, oldest first.
    #[must_use]
    pub fn entries(&self) -> impl DoubleEndedIterator<Item = &Logged> + ExactSizeIterator {
        self.entries.iter()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The log as plain text, one message a line after its date and time, for a copy.
    #[must_use]
    pub fn plain(&self, tz: &jiff::tz::TimeZone) -> String {
        use std::fmt::Write as _;
        let mut out = String::new();
        for l in &self.entries {
            let time = l.at.to_zoned(tz.clone()).strftime("%Y-%m-%d %H:%M:%S");
            let kind = if l.error { "error: " } else { "" };
            let _ = write!(out, "{time}  {kind}{}", l.text);
            if l.times > 1 {
                let _ = write!(out, " (×{})", l.times);
            }
            out.push('\n');
        }
        out
    }

    /// Messages let go, the oldest, to keep the last [`KEPT`].
    #[must_use]
    pub fn dropped(&self) -> u64 {
        self.dropped
    }
}

#[cfg(test)]
mod tests {
    use super::{KEPT, MessageLog};
    use feedback_core::text::Clean;

    fn at(second: i64) -> jiff::Timestamp {
        jiff::Timestamp::from_second(1_790_000_000 + second).unwrap_or_default()
    }

    #[test]
    fn a_message_said_again_right_after_is_counted_not_repeated() {
        let mut log = MessageLog::default();
        log.push(at(0), &Clean::line("Offline"), true);
        log.push(at(5), &Clean::line("Offline"), true);
        log.push(at(6), &Clean::line("Offline"), false);
        log.push(at(9), &Clean::line("Offline"), true);
        let seen: Vec<_> = log
            .entries()
            .map(|l| (l.at, l.text.to_string(), l.error, l.times))
            .collect();
        assert_eq!(
            seen,
            vec![
                (at(5), "Offline".to_owned(), true, 2),
                (at(6), "Offline".to_owned(), false, 1),
                (at(9), "Offline".to_owned(), true, 1),
            ]
        );
    }

    #[test]
    fn the_oldest_go_beyond_what_is_kept() {
        let mut log = MessageLog::default();
        for n in 0..KEPT + 3 {
            log.push(at(0), &Clean::line(&format!("message {n}")), false);
        }
        assert_eq!(log.entries().len(), KEPT);
        assert_eq!(log.dropped(), 3);
        assert_eq!(
            log.entries().next().map(|l| l.text.to_string()),
            Some("message 3".to_owned())
        );
    }
}
