//! The API key `login` keeps, per profile: in the operating system's keyring (macOS Keychain,
//! Windows Credential Manager, the Secret Service on Linux; the `keyring` crate), or where none
//! answers (a headless server over SSH) or when asked (`--insecure-storage`), in a credentials
//! file beside the config (`credentials.toml`, `0600`, one key per profile). The key is read
//! after every other source (`FEEDBACK_API_KEY`, `api_key_command`, `api_key`): a key set on
//! purpose for one run always wins. A key in the file is found first, then the keyring's, so
//! a machine that chose the file never asks the keyring.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::private_files;

/// The keyring's service name.
const SERVICE: &str = "feedback-inbox";

/// The credentials file's name, in the config's folder.
pub const FILE_NAME: &str = "credentials.toml";

/// Where a stored key is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Place {
    Keyring,
    File(PathBuf),
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Keyring => f.write_str("the system keyring"),
            Self::File(path) => write!(f, "{}", path.display()),
        }
    }
}

/// Why a key could not be kept or removed.
#[derive(Debug, thiserror::Error)]
pub enum CredentialsError {
    #[error("{path}: {source}")]
    File {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error("{path}: not a credentials file this program wrote ({message})")]
    Parse { path: String, message: String },
}

/// Where the keys of a config at `config` are kept: its folder's credentials file.
#[must_use]
pub fn file_beside(config: &Path) -> PathBuf {
    config.with_file_name(FILE_NAME)
}

/// The keyring's and the file's name for `profile` (`None`: the top-level account).
fn account(profile: Option<&str>) -> &str {
    profile.unwrap_or("default")
}

/// The key kept for `profile`, and where: the file's, else the keyring's. A keyring that does
/// not answer is no key.
#[must_use]
pub fn load(profile: Option<&str>, file: &Path) -> Option<(String, Place)> {
    if let Ok(keys) = read(file)
        && let Some(key) = keys.get(account(profile))
    {
        return Some((key.clone(), Place::File(file.to_owned())));
    }
    keyring_entry(profile)
        .ok()?
        .get_password()
        .ok()
        .map(|key| (key, Place::Keyring))
}

/// Keeps `key` for `profile`: in the keyring unless `insecure_storage`, else (or when the
/// keyring does not answer) in `file`. Where it went, and why not the keyring when it could
/// not be.
///
/// # Errors
/// The file could not be written: nothing was kept.
pub fn save(
    profile: Option<&str>,
    key: &str,
    file: &Path,
    insecure_storage: bool,
) -> Result<(Place, Option<String>), CredentialsError> {
    let why_not = if insecure_storage {
        Some("asked for with --insecure-storage".to_owned())
    } else {
        match keyring_save(profile, key) {
            Ok(()) => {
                // A key left in the file would be found first.
                remove_from_file(profile, file)?;
                return Ok((Place::Keyring, None));
            }
            Err(why) => Some(why),
        }
    };
    let mut keys = read(file)?;
    keys.insert(account(profile).to_owned(), key.to_owned());
    write(file, &keys)?;
    Ok((Place::File(file.to_owned()), why_not))
}

/// Removes the key kept for `profile` from the keyring and the file; where one was.
///
/// # Errors
/// The file could not be rewritten.
pub fn remove(profile: Option<&str>, file: &Path) -> Result<Vec<Place>, CredentialsError> {
    let mut removed = Vec::new();
    if keyring_entry(profile).is_ok_and(|entry| entry.delete_credential().is_ok()) {
        removed.push(Place::Keyring);
    }
    if remove_from_file(profile, file)? {
        removed.push(Place::File(file.to_owned()));
    }
    Ok(removed)
}

fn keyring_entry(profile: Option<&str>) -> Result<keyring::Entry, String> {
    keyring::Entry::new(SERVICE, account(profile)).map_err(|e| e.to_string())
}

/// Keeps the key in the keyring, read back to be sure the keyring keeps what it is given.
fn keyring_save(profile: Option<&str>, key: &str) -> Result<(), String> {
    let entry = keyring_entry(profile).map_err(|e| format!("no keyring answers ({e})"))?;
    entry
        .set_password(key)
        .map_err(|e| format!("the keyring refused it ({e})"))?;
    match entry.get_password() {
        Ok(kept) if kept == key => Ok(()),
        _ => Err("the keyring did not give the key back".to_owned()),
    }
}

/// Whether `profile` had a key in the file (then removed).
fn remove_from_file(profile: Option<&str>, file: &Path) -> Result<bool, CredentialsError> {
    let mut keys = read(file)?;
    if keys.remove(account(profile)).is_none() {
        return Ok(false);
    }
    write(file, &keys)?;
    Ok(true)
}

/// The file's keys by profile; none when there is no file.
fn read(file: &Path) -> Result<BTreeMap<String, String>, CredentialsError> {
    let shown = || file.display().to_string();
    let Some(bytes) =
        private_files::read_record(file).map_err(|source| CredentialsError::File {
            path: shown(),
            source,
        })?
    else {
        return Ok(BTreeMap::new());
    };
    let text = String::from_utf8(bytes).map_err(|_| CredentialsError::Parse {
        path: shown(),
        message: "not UTF-8".to_owned(),
    })?;
    let keys: BTreeMap<String, String> =
        toml::from_str(&text).map_err(|e| CredentialsError::Parse {
            path: shown(),
            message: e.message().to_owned(),
        })?;
    Ok(keys)
}

/// Writes the keys whole: a new `0600` file beside it, synced, then renamed over it, so a
/// crash leaves the old file or the new one, never a torn one.
fn write(file: &Path, keys: &BTreeMap<String, String>) -> Result<(), CredentialsError> {
    use std::io::Write as _;
    let err = |source| CredentialsError::File {
        path: file.display().to_string(),
        source,
    };
    if let Some(dir) = file.parent() {
        private_files::create_dir(dir).map_err(err)?;
    }
    let text = format!(
        "# API keys `feedback-inbox login` keeps, by profile (`default`: the top level).\n{}",
        toml::to_string(keys).map_err(|e| err(std::io::Error::other(e.to_string())))?
    );
    let temporary = file.with_extension("toml.new");
    let mut out = private_files::create_truncated(&temporary).map_err(err)?;
    out.write_all(text.as_bytes()).map_err(err)?;
    out.sync_all().map_err(err)?;
    drop(out);
    std::fs::rename(&temporary, file).map_err(err)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_kept_in_the_file_is_private_per_profile_and_removed_whole() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("config").join(FILE_NAME);
        // Profiles of the test's own: a keyring that answers here is asked about them only.
        let one = format!("fi-test-{}", std::process::id());
        let two = format!("{one}-staging");
        let (one, two) = (Some(one.as_str()), Some(two.as_str()));
        let (place, why) = save(one, "service_eu_sk_one", &file, true).unwrap();
        assert_eq!(place, Place::File(file.clone()));
        assert!(why.unwrap().contains("--insecure-storage"));
        save(two, "service_us_sk_two", &file, true).unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&file).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
        assert_eq!(
            load(one, &file),
            Some(("service_eu_sk_one".to_owned(), Place::File(file.clone())))
        );
        assert_eq!(
            load(two, &file).map(|(k, _)| k).as_deref(),
            Some("service_us_sk_two")
        );
        // Saved again, the profile's key is replaced; removed, the other stays.
        save(one, "service_eu_sk_three", &file, true).unwrap();
        assert_eq!(load(one, &file).unwrap().0, "service_eu_sk_three");
        assert!(
            remove(one, &file)
                .unwrap()
                .contains(&Place::File(file.clone()))
        );
        assert_eq!(load(two, &file).unwrap().0, "service_us_sk_two");
        assert!(
            !remove(one, &file)
                .unwrap()
                .contains(&Place::File(file.clone()))
        );
        remove(two, &file).unwrap();
        // A file that is not one of ours is refused, never overwritten.
        std::fs::write(&file, "not = [toml").unwrap();
        assert!(save(one, "service_eu_sk_four", &file, true).is_err());
        assert_eq!(std::fs::read_to_string(&file).unwrap(), "not = [toml");
    }
}
