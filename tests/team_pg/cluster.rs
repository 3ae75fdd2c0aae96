//! A PostgreSQL cluster of the test's own, for the tests that stop and restart the server (the
//! shared one must keep serving every other test): `initdb` in a temporary folder, listening
//! only on a Unix socket there, stopped and removed when dropped. It runs as the `postgres`
//! user when the test runs as root (the server refuses root). Without PostgreSQL's programs
//! here, a test says so in one line and passes, except under `CI=true`, where it fails.

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The port that names the socket (no TCP is listened on: any port does).
const PORT: u16 = 5432;

pub struct Cluster {
    dir: tempfile::TempDir,
    bin: PathBuf,
}

impl Cluster {
    /// A new cluster, started; `None` (after one line on stderr) without PostgreSQL's programs
    /// when the run is not CI's.
    pub fn start() -> Option<Self> {
        let Some(bin) = programs() else {
            assert!(
                std::env::var("CI").as_deref() != Ok("true"),
                "no PostgreSQL programs (initdb, pg_ctl) for the restart tests under CI"
            );
            let _ = writeln!(
                std::io::stderr(),
                "restart tests skipped: no initdb in /usr/lib/postgresql/*/bin or on PATH"
            );
            return None;
        };
        let dir = tempfile::tempdir().unwrap();
        if as_root() {
            let status = Command::new("chown")
                .arg("postgres:")
                .arg(dir.path())
                .status()
                .unwrap();
            assert!(
                status.success(),
                "chown of the cluster's folder to postgres"
            );
        }
        let cluster = Self { dir, bin };
        cluster.run(
            "initdb",
            &[
                "-D",
                &cluster.data(),
                "-A",
                "trust",
                "-U",
                "postgres",
                "--no-sync",
                "--no-instructions",
            ],
        );
        cluster.start_again();
        Some(cluster)
    }

    /// The admin's connection string (key=value), as `FEEDBACK_TEST_PG` would name it.
    pub fn admin_text(&self) -> String {
        format!(
            "host={} port={PORT} user=postgres dbname=postgres",
            self.dir.path().display()
        )
    }

    /// Starts the server (again), waiting until it takes connections.
    pub fn start_again(&self) {
        self.serve("start", &[]);
    }

    /// Stops the server as an admin would for maintenance (`-m fast`: every connection is
    /// cut, open transactions roll back), waiting until it has.
    pub fn stop(&self) {
        self.run("pg_ctl", &["-D", &self.data(), "-m", "fast", "-w", "stop"]);
    }

    /// Restarts the server (`pg_ctl restart -m fast`), waiting until it takes connections.
    pub fn restart(&self) {
        self.serve("restart", &["-m", "fast"]);
    }

    /// `pg_ctl ACTION` of a server that serves: its options and log, waiting until it does.
    fn serve(&self, action: &str, extra: &[&str]) {
        let (data, log, options) = (self.data(), self.log(), self.options());
        let mut args = vec!["-D", &data, "-l", &log, "-o", &options, "-w"];
        args.extend_from_slice(extra);
        args.push(action);
        self.run("pg_ctl", &args);
    }

    /// The server's options: only the socket in the cluster's folder.
    fn options(&self) -> String {
        format!(
            "-c listen_addresses='' -c unix_socket_directories='{}' -p {PORT}",
            self.dir.path().display()
        )
    }

    /// The server's log (its output goes there, not to the pipes of the programs run here,
    /// which would then never close).
    fn log(&self) -> String {
        self.dir.path().join("log").display().to_string()
    }

    fn data(&self) -> String {
        self.dir.path().join("data").display().to_string()
    }

    /// Runs one of PostgreSQL's programs, as `postgres` when this is root.
    fn run(&self, program: &str, args: &[&str]) {
        let path = self.bin.join(program);
        let mut command = if as_root() {
            let mut command = Command::new("runuser");
            command.args(["-u", "postgres", "--"]).arg(&path);
            command
        } else {
            Command::new(&path)
        };
        let output = command.args(args).output().unwrap();
        assert!(
            output.status.success(),
            "{program} {args:?}: {}\n{}",
            String::from_utf8_lossy(&output.stderr),
            std::fs::read_to_string(self.dir.path().join("log")).unwrap_or_default()
        );
    }
}

impl Drop for Cluster {
    fn drop(&mut self) {
        let path = self.bin.join("pg_ctl");
        let data = self.data();
        let args = ["-D", data.as_str(), "-m", "immediate", "stop"];
        let _ = if as_root() {
            Command::new("runuser")
                .args(["-u", "postgres", "--"])
                .arg(&path)
                .args(args)
                .output()
        } else {
            Command::new(&path).args(args).output()
        };
    }
}

/// The folder of the newest PostgreSQL's programs: Debian's layout, else `initdb` on `PATH`.
fn programs() -> Option<PathBuf> {
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").exists().then_some((version, bin))
        })
        .collect();
    versions.sort();
    if let Some((_, bin)) = versions.pop() {
        return Some(bin);
    }
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .find(|dir| dir.join("initdb").exists() && dir.join("pg_ctl").exists())
    })
}

/// Whether this process runs as root (the owner of `/proc/self` is the effective user).
fn as_root() -> bool {
    use std::os::unix::fs::MetadataExt as _;
    std::fs::metadata(Path::new("/proc/self")).is_ok_and(|m| m.uid() == 0)
}
