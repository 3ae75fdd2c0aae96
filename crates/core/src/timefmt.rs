//! Human time: compact relative ages (`3m`, `2h`, `5d`) and local date-times.

use jiff::Timestamp;
use jiff::tz::TimeZone;

/// Compact age of `then` as seen at `now`: `now`, `45s`, `3m`, `2h`, `5d`, `7w`, `3y`.
#[must_use]
pub fn age(now: Timestamp, then: Timestamp) -> String {
    let secs = now.duration_since(then).as_secs();
    match secs {
        i64::MIN..=4 => "now".to_owned(),
        5..=59 => format!("{secs}s"),
        60..=3599 => format!("{}m", secs / 60),
        3600..=86_399 => format!("{}h", secs / 3600),
        86_400..=1_209_599 => format!("{}d", secs / 86_400),
        1_209_600..=31_535_999 => format!("{}w", secs / 604_800),
        _ => format!("{}y", secs / 31_536_000),
    }
}

/// [`age`] as a phrase: `3m ago`, or `just now` (never `now ago`).
#[must_use]
pub fn ago(now: Timestamp, then: Timestamp) -> String {
    match age(now, then).as_str() {
        "now" => "just now".to_owned(),
        compact => format!("{compact} ago"),
    }
}

/// `2026-11-01 13:00:00 CET` in the given zone.
#[must_use]
pub fn local(ts: Timestamp, tz: &TimeZone) -> String {
    ts.to_zoned(tz.clone())
        .strftime("%Y-%m-%d %H:%M:%S %Z")
        .to_string()
}

/// The local day of `ts` as a person says it: `19 Nov`, with the year when it is not the year
/// of `now` (`19 Nov 2025`).
#[must_use]
pub fn day(ts: Timestamp, now: Timestamp, tz: &TimeZone) -> String {
    let (date, today) = (
        ts.to_zoned(tz.clone()).date(),
        now.to_zoned(tz.clone()).date(),
    );
    if date.year() == today.year() {
        date.strftime("%-d %b").to_string()
    } else {
        date.strftime("%-d %b %Y").to_string()
    }
}

/// A snooze's length: `3d`, `2h`, `45m`, `1w` as the search's `age:` reads them (any case),
/// from a minute up to a year.
pub fn snooze_length(text: &str) -> Result<jiff::SignedDuration, String> {
    let text = text.trim();
    let bad = || {
        format!(
            "bad duration `{}`: use 45m, 2h, 3d or 1w",
            crate::text::sanitize_line(text)
        )
    };
    let length = crate::query::duration(&text.to_ascii_lowercase()).ok_or_else(bad)?;
    let year = jiff::SignedDuration::from_hours(366 * 24);
    if length < jiff::SignedDuration::from_mins(1) || length > year {
        return Err(format!("{}: between 1 minute and a year", bad()));
    }
    Ok(length)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ages_are_compact() {
        let now = Timestamp::from_second(10_000_000).unwrap();
        let ago = |s: i64| age(now, Timestamp::from_second(10_000_000 - s).unwrap());
        assert_eq!(ago(0), "now");
        assert_eq!(ago(-30), "now");
        assert_eq!(ago(30), "30s");
        assert_eq!(ago(180), "3m");
        assert_eq!(ago(7200), "2h");
        assert_eq!(ago(5 * 86_400), "5d");
        assert_eq!(ago(21 * 86_400), "3w");
        assert_eq!(ago(800 * 86_400), "2y");
    }

    #[test]
    fn a_day_has_its_year_only_when_it_is_another_year() {
        let now: Timestamp = "2026-11-20T12:00:00Z".parse().unwrap();
        let at = |s: &str| s.parse::<Timestamp>().unwrap();
        assert_eq!(
            day(at("2026-11-09T23:30:00Z"), now, &TimeZone::UTC),
            "9 Nov"
        );
        assert_eq!(
            day(at("2025-12-31T12:00:00Z"), now, &TimeZone::UTC),
            "31 Dec 2025"
        );
        let tokyo = TimeZone::fixed(jiff::tz::offset(9));
        assert_eq!(day(at("2026-11-09T23:30:00Z"), now, &tokyo), "10 Nov");
    }

    #[test]
    fn local_time_uses_the_zone() {
        let ts: Timestamp = "2026-01-01T12:00:00Z".parse().unwrap();
        let tz = TimeZone::get("Europe/Berlin").unwrap_or(TimeZone::fixed(jiff::tz::offset(1)));
        assert!(local(ts, &tz).starts_with("2026-01-01 13:00:00"));
    }

    #[test]
    fn snooze_lengths_parse_and_bad_ones_say_why() {
        use jiff::SignedDuration;
        assert_eq!(snooze_length("45m"), Ok(SignedDuration::from_mins(45)));
        assert_eq!(snooze_length(" 2H "), Ok(SignedDuration::from_hours(2)));
        assert_eq!(snooze_length("3d"), Ok(SignedDuration::from_hours(72)));
        assert_eq!(snooze_length("1w"), Ok(SignedDuration::from_hours(168)));
        for bad in [
            "",
            "d",
            "3",
            "3y",
            "-2h",
            "0m",
            "53w",
            "99999999999999999999d",
        ] {
            let err = snooze_length(bad).unwrap_err();
            assert!(err.starts_with("bad duration"), "{bad:?}: {err}");
        }
    }
}
