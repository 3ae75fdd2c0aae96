//! Where a store lives and how its file is made: `<data dir>/stores/<profile>.sqlite3`, the folder
//! `0700` and the file `0600` before SQLite writes a byte into it (its `-wal` and `-shm` files
//! take the database file's mode).

use std::fs;
use std::path::{Path, PathBuf};

use super::StoreError;

/// The store of `profile` (`None`: the top-level account) in the platform data folder
/// (`~/.local/share/feedback-inbox/stores/` on Linux); `None` without a home folder.
#[must_use]
pub fn default_path(profile: Option<&str>) -> Option<PathBuf> {
    crate::config::project_dirs().map(|dirs| {
        dirs.data_dir()
            .join("stores")
            .join(store_file_name(profile))
    })
}

/// The file name for a profile: the name itself when it is plain (letters, digits, `-`, `_`),
/// otherwise made plain with the bytes of anything else in hex, so no profile name can reach
/// outside the folder or collide with another.
#[must_use]
pub fn store_file_name(profile: Option<&str>) -> String {
    let Some(name) = profile else {
        return "default.sqlite3".to_owned();
    };
    let plain = !name.is_empty()
        && name != "default"
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    if plain {
        format!("{name}.sqlite3")
    } else {
        format!("profile-{}.sqlite3", hex::encode(name.as_bytes()))
    }
}

/// Makes the folder (`0700`) and an empty file (`0600`) when they are missing, and tightens an
/// existing store file or folder that others can read.
pub(super) fn prepare(path: &Path) -> Result<(), StoreError> {
    let io = |what: &str, e: std::io::Error| StoreError::Io {
        path: path.display().to_string(),
        message: format!("{what}: {e}"),
    };
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        create_private_dir(dir).map_err(|e| io("cannot create its folder", e))?;
    }
    create_private_file(path).map_err(|e| io("cannot create it", e))
}

#[cfg(unix)]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{DirBuilderExt, PermissionsExt};
    if !dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(0o700)
            .create(dir)?;
    }
    let mode = fs::metadata(dir)?.permissions().mode();
    if mode & 0o077 != 0 && dir.file_name().is_some_and(|n| n == "stores") {
        fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    }
    Ok(())
}

#[cfg(not(unix))]
fn create_private_dir(dir: &Path) -> std::io::Result<()> {
    fs::create_dir_all(dir)
}

#[cfg(unix)]
fn create_private_file(path: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::{OpenOptionsExt, PermissionsExt};
    match fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(path)
    {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            let mode = fs::metadata(path)?.permissions().mode();
            if mode & 0o077 != 0 {
                fs::set_permissions(path, fs::Permissions::from_mode(0o600))?;
            }
            Ok(())
        }
        Err(e) => Err(e),
    }
}

#[cfg(not(unix))]
fn create_private_file(path: &Path) -> std::io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map(|_| ())
}
