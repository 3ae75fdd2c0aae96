//! Which way `y` will copy, by the same rules as [`feedback_clipboard::SystemClipboard`]: the
//! system clipboard when not over SSH and a display is reachable; inside tmux, tmux's paste
//! buffer (`load-buffer -w`, tmux 3.2 or later), passed on to the outer terminal only with
//! `set-clipboard` on; else OSC 52, which the terminal may or may not honour (and which tmux
//! passes through wrapped only with `allow-passthrough`).

use std::process::Command;
use std::time::Duration;

use super::Check;

/// Runs `tmux` with these arguments; its trimmed stdout, or why it failed.
pub(crate) type TmuxRunner = dyn Fn(&[&str]) -> Result<String, String>;

/// The clipboard line, and inside tmux a line on what tmux passes on.
#[must_use]
pub(super) fn checks(
    env: &dyn Fn(&str) -> Option<String>,
    system: &dyn Fn() -> Result<(), String>,
    tmux: &TmuxRunner,
) -> Vec<Check> {
    let over_ssh = feedback_clipboard::over_ssh_in(env);
    let display = feedback_clipboard::has_display_in(env);
    let no_system = if over_ssh {
        "over SSH (the remote machine's clipboard is not yours)".to_owned()
    } else if !display {
        "no display (DISPLAY and WAYLAND_DISPLAY unset)".to_owned()
    } else {
        match system() {
            Ok(()) => return vec![Check::ok("clipboard", "y copies to the system clipboard")],
            Err(error) => format!("the system clipboard is unreachable ({error})"),
        }
    };
    if env("TMUX").is_some() {
        return in_tmux(&no_system, tmux);
    }
    vec![Check::warn(
        "clipboard",
        format!(
            "{no_system}: y sends OSC 52, copied only if the terminal accepts it (most do; some need it enabled)"
        ),
        None,
    )]
}

fn in_tmux(no_system: &str, tmux: &TmuxRunner) -> Vec<Check> {
    let version = tmux(&["-V"]).map_err(|e| format!("tmux -V failed: {e}"));
    let buffer = match version.as_deref().map(supports_load_buffer_w) {
        Ok(true) => Check::ok(
            "clipboard",
            format!("{no_system}: y copies into tmux's paste buffer (load-buffer -w)"),
        ),
        Ok(false) => Check::warn(
            "clipboard",
            format!(
                "{no_system}; {} cannot load-buffer -w (needs 3.2): y falls back to OSC 52",
                version.as_deref().unwrap_or_default()
            ),
            Some("update tmux to 3.2 or later".to_owned()),
        ),
        Err(error) => Check::warn(
            "clipboard",
            format!("{no_system}; inside tmux, but {error}: y falls back to OSC 52"),
            None,
        ),
    };
    let option = |name: &str| tmux(&["show", "-gv", name]);
    let passthrough = match option("allow-passthrough") {
        Ok(value) => format!("allow-passthrough {value}"),
        Err(_) => "allow-passthrough unknown (tmux before 3.3)".to_owned(),
    };
    let forward = match option("set-clipboard") {
        Ok(value) if value == "on" || value == "external" => Check::ok(
            "tmux OSC 52",
            format!("set-clipboard {value}: tmux passes copies on to the terminal; {passthrough}"),
        ),
        Ok(value) => Check::warn(
            "tmux OSC 52",
            format!(
                "set-clipboard {value}: copies stay in tmux's paste buffer, the terminal's clipboard is not set; {passthrough}"
            ),
            Some("add `set -g set-clipboard on` to ~/.tmux.conf".to_owned()),
        ),
        Err(error) => Check::warn(
            "tmux OSC 52",
            format!("tmux show -gv set-clipboard failed: {error}"),
            None,
        ),
    };
    vec![buffer, forward]
}

/// "tmux 3.3a" → true; "tmux 3.1c" → false; "tmux next-3.4" → true.
fn supports_load_buffer_w(version: &str) -> bool {
    let digits: String = version
        .chars()
        .skip_while(|c| !c.is_ascii_digit())
        .take_while(|c| c.is_ascii_digit() || *c == '.')
        .collect();
    let mut parts = digits.split('.').map(|p| p.parse::<u32>().unwrap_or(0));
    let major = parts.next().unwrap_or(0);
    let minor = parts.next().unwrap_or(0);
    (major, minor) >= (3, 2)
}

/// How long a tmux query may take.
const TMUX_TIMEOUT: Duration = Duration::from_secs(2);

/// The real runner: `tmux ARGS` through the clipboard's runner, so a hung tmux costs at most
/// [`TMUX_TIMEOUT`] and is then killed and reaped (it never outlives `doctor`).
pub(crate) fn run_tmux(args: &[&str]) -> Result<String, String> {
    let mut command = Command::new("tmux");
    command.args(args);
    feedback_clipboard::run(command, TMUX_TIMEOUT)
}

#[cfg(test)]
mod tests {
    use super::super::Verdict;
    use super::*;

    use super::super::tests::env;

    fn no_tmux(_: &[&str]) -> Result<String, String> {
        Err("not called".into())
    }

    fn tmux(
        version: &'static str,
        set_clipboard: &'static str,
    ) -> impl Fn(&[&str]) -> Result<String, String> {
        move |args: &[&str]| match args {
            ["-V"] => Ok(version.to_owned()),
            ["show", "-gv", "set-clipboard"] => Ok(set_clipboard.to_owned()),
            ["show", "-gv", "allow-passthrough"] => Ok("off".to_owned()),
            _ => Err(format!("unexpected {args:?}")),
        }
    }

    #[test]
    fn with_a_display_the_system_clipboard_is_used() {
        let lines = checks(&env(&[("DISPLAY", ":0")]), &|| Ok(()), &no_tmux);
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0].verdict, Verdict::Ok);
        assert_eq!(lines[0].detail, "y copies to the system clipboard");
    }

    #[test]
    fn without_system_or_tmux_it_is_osc52_with_the_reason() {
        let ssh = checks(
            &env(&[("DISPLAY", ":0"), ("SSH_TTY", "/dev/pts/1")]),
            &|| Ok(()),
            &no_tmux,
        );
        assert_eq!(ssh[0].verdict, Verdict::Warn);
        assert!(ssh[0].detail.starts_with("over SSH"), "{}", ssh[0].detail);
        assert!(ssh[0].detail.contains("OSC 52"));
        let broken = checks(
            &env(&[("DISPLAY", ":0")]),
            &|| Err("X11 refused".into()),
            &no_tmux,
        );
        assert!(
            broken[0].detail.contains("unreachable (X11 refused)"),
            "{}",
            broken[0].detail
        );
        let headless = checks(&env(&[]), &|| Ok(()), &no_tmux);
        assert!(headless[0].detail.starts_with("no display"));
    }

    #[test]
    fn inside_tmux_set_clipboard_decides_whether_the_copy_leaves_tmux() {
        let vars = &[("TMUX", "/tmp/tmux-1000/default,1,0")];
        let on = checks(&env(vars), &|| Ok(()), &tmux("tmux 3.4", "on"));
        assert_eq!(on[0].verdict, Verdict::Ok);
        assert!(on[0].detail.contains("load-buffer -w"));
        assert_eq!(on[1].verdict, Verdict::Ok);
        assert!(
            on[1].detail.contains("allow-passthrough off"),
            "{}",
            on[1].detail
        );
        let off = checks(&env(vars), &|| Ok(()), &tmux("tmux 3.4", "off"));
        assert_eq!(off[1].verdict, Verdict::Warn);
        assert!(off[1].fix.as_deref().unwrap().contains("set-clipboard on"));
        let old = checks(&env(vars), &|| Ok(()), &tmux("tmux 3.1c", "external"));
        assert_eq!(old[0].verdict, Verdict::Warn);
        assert!(old[0].detail.contains("needs 3.2"));
        assert_eq!(old[1].verdict, Verdict::Ok);
        let gone = checks(&env(vars), &|| Ok(()), &|_: &[&str]| {
            Err("no server running".to_owned())
        });
        assert_eq!(gone[0].verdict, Verdict::Warn);
        assert_eq!(gone[1].verdict, Verdict::Warn);
    }

    #[test]
    fn tmux_versions_are_read() {
        assert!(supports_load_buffer_w("tmux 3.2"));
        assert!(supports_load_buffer_w("tmux 3.3a"));
        assert!(supports_load_buffer_w("tmux next-3.5"));
        assert!(!supports_load_buffer_w("tmux 3.1c"));
        assert!(!supports_load_buffer_w("tmux 2.9"));
    }
}
