//! Running the built binary's `webhook listen` for the webhook CLI tests: a clean
//! environment, its output lines over channels, and a listener on a free port.
#![allow(dead_code, clippy::unwrap_used, clippy::missing_panics_doc)] // each test file uses a subset

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use feedback_api::webhook::{Secret, sign};

pub const SECRET: &str = "whsec_cli_secret";

/// The built binary.
pub const BIN: &str = env!("CARGO_BIN_EXE_feedback-inbox");

/// The arguments of `webhook listen` on a free port with the test secret.
pub const LISTEN: [&str; 6] = [
    "webhook",
    "listen",
    "--addr",
    "127.0.0.1:0",
    "--secret-env",
    "HOOK_SECRET",
];

/// The binary with a clean environment: no user config; data, state and config in `home`.
pub fn bin(home: &Path) -> Command {
    in_clean_env(Command::new(BIN), home)
}

/// `command` with a clean environment (see [`bin`]).
pub fn in_clean_env(mut command: Command, home: &Path) -> Command {
    command
        .env_clear()
        .env("PATH", std::env::var("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join("config"))
        .env("XDG_STATE_HOME", home.join("state"))
        .env("XDG_DATA_HOME", home.join("data"))
        .env("HOOK_SECRET", SECRET);
    command
}

pub fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// Lines of a child's pipe, delivered over a channel so a test can wait with a deadline.
pub fn lines(pipe: impl std::io::Read + Send + 'static) -> mpsc::Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(pipe).lines().map_while(Result::ok) {
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

pub fn next(rx: &mpsc::Receiver<String>, what: &str) -> String {
    rx.recv_timeout(Duration::from_secs(30))
        .unwrap_or_else(|_| panic!("timed out waiting for {what}"))
}

pub fn terminate(child: &mut Child) -> std::process::ExitStatus {
    let pid = child.id().to_string();
    assert!(
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .unwrap()
            .success()
    );
    child.wait().unwrap()
}

pub struct Running {
    pub child: Child,
    pub out: mpsc::Receiver<String>,
    pub err: mpsc::Receiver<String>,
}

pub fn spawn(mut command: Command) -> Running {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = lines(child.stdout.take().unwrap());
    let err = lines(child.stderr.take().unwrap());
    Running { child, out, err }
}

/// `webhook listen` on a free port; returns it with its URL.
pub fn start_listen(home: &Path, jsonl: &Path) -> (Running, String) {
    let mut command = bin(home);
    command.args(LISTEN).arg("--jsonl").arg(jsonl);
    listening(command)
}

/// Starts `command` (a `webhook listen`) and waits for its banner; returns it with its URL.
pub fn listening(command: Command) -> (Running, String) {
    let listen = spawn(command);
    let banner = next(&listen.err, "the listen banner");
    assert!(banner.starts_with("receiving webhooks at"), "{banner}");
    assert!(
        banner.contains("ids remembered in") && banner.contains("webhook-seen.txt")
            || banner.contains("ids remembered and items stored in"),
        "{banner}"
    );
    let url = banner
        .split_whitespace()
        .find(|w| w.starts_with("http://"))
        .unwrap()
        .to_owned();
    (listen, url)
}

/// Long enough for anything that should happen at once, even on a loaded machine.
pub const PATIENCE: Duration = Duration::from_secs(10);

/// POSTs `body`, signed now, over a fresh connection; the status, or `None` when the receiver
/// is gone.
pub fn post(addr: &str, body: &[u8]) -> Option<u16> {
    use std::io::{Read, Write};
    let ts = jiff::Timestamp::now().as_second();
    let sig = sign(&Secret::new(SECRET.as_bytes()).unwrap(), ts, body);
    let addr = addr.parse().ok()?;
    let mut stream = std::net::TcpStream::connect_timeout(&addr, PATIENCE).ok()?;
    stream.set_read_timeout(Some(PATIENCE)).ok()?;
    let head = format!(
        "POST / HTTP/1.1\r\nHost: {addr}\r\nX-Service-Timestamp: {ts}\r\nX-Service-Signature: {sig}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    stream.write_all(head.as_bytes()).ok()?;
    stream.write_all(body).ok()?;
    let mut answer = String::new();
    stream.read_to_string(&mut answer).ok()?;
    answer.split_whitespace().nth(1)?.parse().ok()
}

pub fn delivery(id: &str) -> Vec<u8> {
    format!(r#"{{"event":"feedback.created","feedback":{{"id":"{id}","appId":"app_1","appName":"Acme iOS","projectId":"prj_1","projectName":"Acme","message":"burst","email":null,"metadata":{{"custom":{{}}}},"receivedAt":"2026-11-01T11:59:00Z"}}}}"#).into_bytes()
}
