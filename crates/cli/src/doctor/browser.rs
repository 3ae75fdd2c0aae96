//! Which program `o` will open links with: the `open` crate's launchers in its own order
//! (`xdg-open`, `gio`, … on Linux; `open` on macOS), the first found on `PATH`. `$BROWSER` is
//! not read by the crate, only by some launchers (xdg-open outside a desktop session), so it is
//! shown as such. A missing opener is a warning: `y` still copies the link.

use std::path::{Path, PathBuf};

use super::Check;

/// The launcher programs `o` tries, in order.
#[must_use]
pub(crate) fn launchers() -> Vec<String> {
    open::commands("https://example.invalid/")
        .iter()
        .map(|c| c.get_program().to_string_lossy().into_owned())
        .collect()
}

/// Where `program` is found on `PATH` (or itself, when given with a path).
#[must_use]
pub(super) fn which(program: &str) -> Option<PathBuf> {
    let path = Path::new(program);
    if path.components().count() > 1 {
        return path.is_file().then(|| path.to_owned());
    }
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|dir| dir.join(program))
        .find(|candidate| candidate.is_file())
}

/// The browser line.
#[must_use]
pub(super) fn check(
    env: &dyn Fn(&str) -> Option<String>,
    launchers: &[String],
    which: &dyn Fn(&str) -> Option<PathBuf>,
) -> Check {
    const NAME: &str = "browser";
    let set = |name: &str| env(name).filter(|v| !v.is_empty());
    let browser = set("BROWSER")
        .map(|b| format!("; BROWSER={b} (used by xdg-open outside a desktop session)"))
        .unwrap_or_default();
    let Some((program, path)) = launchers
        .iter()
        .find_map(|program| which(program).map(|path| (program, path)))
    else {
        return Check::warn(
            NAME,
            format!(
                "no link opener found (tried {}): o cannot open links; y still copies them",
                launchers.join(", ")
            ),
            Some("install xdg-utils (xdg-open)".to_owned()),
        );
    };
    let found = format!("o opens links with {program} ({}){browser}", path.display());
    let over_ssh = feedback_clipboard::over_ssh_in(env);
    let headless = !feedback_clipboard::has_display_in(env);
    if over_ssh {
        Check::warn(
            NAME,
            format!("{found}; over SSH, so on the remote machine"),
            Some("copy links with y instead".to_owned()),
        )
    } else if headless && browser.is_empty() {
        Check::warn(
            NAME,
            format!("{found}; but there is no display for a browser"),
            Some("set BROWSER to a terminal browser, or copy links with y".to_owned()),
        )
    } else {
        Check::ok(NAME, found)
    }
}

#[cfg(test)]
mod tests {
    use super::super::Verdict;
    use super::*;

    use super::super::tests::env;

    fn only(found: &'static str) -> impl Fn(&str) -> Option<PathBuf> {
        move |program| (program == found).then(|| PathBuf::from("/usr/bin").join(program))
    }

    fn openers() -> Vec<String> {
        vec!["xdg-open".into(), "gio".into()]
    }

    #[test]
    fn the_first_launcher_on_path_is_named_with_browser() {
        let check = check(
            &env(&[
                ("DISPLAY", ":0"),
                ("WAYLAND_DISPLAY", "w"),
                ("BROWSER", "firefox"),
            ]),
            &openers(),
            &only("gio"),
        );
        assert_eq!(check.verdict, Verdict::Ok);
        assert_eq!(
            check.detail,
            "o opens links with gio (/usr/bin/gio); BROWSER=firefox (used by xdg-open outside a desktop session)"
        );
    }

    #[test]
    fn no_launcher_ssh_and_no_display_are_warnings() {
        let none = check(&env(&[("DISPLAY", ":0")]), &openers(), &|_: &str| None);
        assert_eq!(none.verdict, Verdict::Warn);
        assert!(
            none.detail.contains("tried xdg-open, gio"),
            "{}",
            none.detail
        );
        let ssh = check(
            &env(&[("DISPLAY", ":0"), ("SSH_CONNECTION", "1 2 3 4")]),
            &openers(),
            &only("xdg-open"),
        );
        assert_eq!(ssh.verdict, Verdict::Warn);
        assert!(ssh.detail.contains("remote machine"));
        if cfg!(all(unix, not(target_os = "macos"))) {
            let headless = check(&env(&[]), &openers(), &only("xdg-open"));
            assert_eq!(headless.verdict, Verdict::Warn);
        }
    }

    #[test]
    fn the_real_launchers_are_listed() {
        assert!(!launchers().is_empty());
    }
}
