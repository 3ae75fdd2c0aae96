//! The environment of the commands the inbox runs for the user (`|` commands, `$EDITOR`): the
//! inbox's own, minus the variables that hold its secrets. The API key's variable and the
//! team's URL (which may hold the database password) are always withheld; a variable a secret was read from (the webhook's `--secret-env`) is added to the
//! list when it is read, so the list covers whatever this process holds.

use std::process::Command;
use std::sync::Mutex;

/// The variable the API key is read from.
pub const ENV_API_KEY: &str = "FEEDBACK_API_KEY";
/// The variable the team's URL is read from (it may hold the database password).
pub const ENV_TEAM_URL: &str = "FEEDBACK_TEAM_URL";

/// Variables named at run time as holding a secret (beyond the API key's).
static WITHHELD: Mutex<Vec<String>> = Mutex::new(Vec::new());

/// Marks the variable `name` as holding a secret: commands run for the user do not get it.
pub fn withhold(name: &str) {
    let mut names = WITHHELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    if !names.iter().any(|n| n == name) {
        names.push(name.to_owned());
    }
}

/// Every variable a command run for the user must not get.
#[must_use]
pub(crate) fn withheld() -> Vec<String> {
    let names = WITHHELD
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    [ENV_API_KEY, ENV_TEAM_URL]
        .into_iter()
        .map(str::to_owned)
        .chain(names.iter().cloned())
        .collect()
}

/// Removes the secret variables from the environment `command` will run with.
pub fn scrub(command: &mut Command) -> &mut Command {
    for name in withheld() {
        command.env_remove(name);
    }
    command
}

/// The variables `command` was told to drop (for tests of the commands built).
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn removed(command: &Command) -> Vec<String> {
    command
        .get_envs()
        .filter(|(_, value)| value.is_none())
        .map(|(name, _)| name.to_string_lossy().into_owned())
        .collect()
}

/// The variable a test's re-run of itself carries, as the webhook's secret variable.
#[cfg(any(test, feature = "testing"))]
pub const TEST_SECRET_VAR: &str = "FEEDBACK_TEST_WEBHOOK_SECRET";

/// For a test of what a command inherits: `true` in a re-run of the test `name` (its full
/// path) in a child process whose environment holds the API key, the team's URL and
/// [`TEST_SECRET_VAR`]; in
/// the test itself, runs that child, asserts that it passed and returns `false`.
#[cfg(any(test, feature = "testing"))]
#[must_use]
pub fn rerun_with_secrets(name: &str) -> bool {
    if std::env::var_os(TEST_SECRET_VAR).is_some() {
        return true;
    }
    let Ok(exe) = std::env::current_exe() else {
        panic!("no test binary to re-run");
    };
    let output = Command::new(exe)
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(ENV_API_KEY, "us_sk_not_for_children")
        .env(
            ENV_TEAM_URL,
            "postgres://ana:pw-not-for-children@db/support",
        )
        .env(TEST_SECRET_VAR, "not-for-children-either")
        .output();
    let Ok(output) = output else {
        panic!("cannot re-run {name}");
    };
    let text = String::from_utf8_lossy(&output.stdout);
    let errors = String::from_utf8_lossy(&output.stderr);
    assert!(
        output.status.success(),
        "{name} failed in the child: {text}{errors}"
    );
    assert!(
        text.contains("1 passed"),
        "{name} did not run in the child: {text}"
    );
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_api_key_and_a_named_secret_variable_are_removed() {
        withhold("FEEDBACK_TEST_HOOK_SECRET");
        let mut command = Command::new("true");
        scrub(&mut command);
        let removed = removed(&command);
        assert!(
            removed.contains(&"FEEDBACK_API_KEY".to_owned()),
            "{removed:?}"
        );
        assert!(
            removed.contains(&"FEEDBACK_TEST_HOOK_SECRET".to_owned()),
            "{removed:?}"
        );
        assert!(
            removed.contains(&"FEEDBACK_TEAM_URL".to_owned()),
            "{removed:?}"
        );
    }
}

/// The command a settings line names (`api_key_command`, `url_command`, `password_command`):
/// run by `sh -c` on Unix, so it may use the shell's syntax (a pipe, `$HOME`); elsewhere, where
/// there is no `sh`, split into words as a POSIX shell would (shell-words: quotes and
/// backslashes, no expansions) and run without a shell.
///
/// # Errors
/// The line is empty, or (without a shell) its quotes do not close.
pub fn shell_line(line: &str) -> Result<Command, String> {
    if line.trim().is_empty() {
        return Err("the command is empty".to_owned());
    }
    #[cfg(unix)]
    {
        let mut command = Command::new("sh");
        command.arg("-c").arg(line);
        Ok(command)
    }
    #[cfg(not(unix))]
    {
        let words = words(line)?;
        let mut command = Command::new(&words[0]);
        command.args(&words[1..]);
        Ok(command)
    }
}

/// `line` split into words as a POSIX shell would, without expansions (the editor's
/// `code --wait`, a command where there is no shell).
///
/// # Errors
/// No word, or quotes that do not close.
pub fn words(line: &str) -> Result<Vec<String>, String> {
    let words = shell_words::split(line).map_err(|e| format!("cannot split {line:?}: {e}"))?;
    if words.is_empty() {
        return Err("the command is empty".to_owned());
    }
    Ok(words)
}

#[cfg(test)]
mod words_tests {
    use super::*;

    #[test]
    fn a_line_splits_into_words_as_a_shell_would_without_expanding() {
        assert_eq!(
            words(r#"code --wait "My Notes/x" 'a b' c\ d $HOME"#).unwrap(),
            ["code", "--wait", "My Notes/x", "a b", "c d", "$HOME"]
        );
        assert!(words("  ").is_err());
        assert!(words("vi \"open").is_err());
        assert!(shell_line("").is_err());
    }
}
