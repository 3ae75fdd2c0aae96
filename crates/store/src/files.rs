//! Where a store lives and how its file is made: `<data dir>/stores/<profile>.sqlite3`, the folder
//! `0700` and the file `0600` before SQLite writes a byte into it (its `-wal` and `-shm` files
//! take the database file's mode), as for every private file ([`feedback_config::private_files`]).

use std::path::{Path, PathBuf};

use super::StoreError;
use feedback_config::private_files;

/// The store of `profile` (`None`: the top-level account) in the platform's local data folder
/// (`~/.local/share/feedback-inbox/stores/` on Linux; on Windows the local, not the roaming,
/// application data: the customers' data stays on the machine); `None` without a home folder.
#[must_use]
pub fn default_path(profile: Option<&str>) -> Option<PathBuf> {
    feedback_config::project_dirs().map(|dirs| {
        dirs.data_local_dir()
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
/// existing store file, its `stores` folder and the data folder when others can read them
/// ([`feedback_config::private_files`]).
pub(super) fn prepare(path: &Path) -> Result<(), StoreError> {
    let io = |what: &str, e: std::io::Error| StoreError::Io {
        path: path.display().to_string(),
        message: format!("{what}: {e}"),
    };
    if let Some(dir) = path.parent() {
        private_files::create_dir(dir).map_err(|e| io("cannot create its folder", e))?;
    }
    private_files::create_file(path).map_err(|e| io("cannot create it", e))
}
