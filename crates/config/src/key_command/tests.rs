use super::*;

fn quick() -> Duration {
    Duration::from_secs(5)
}

#[test]
fn first_line_of_stdout_is_the_key() {
    let key = run("printf ' service_eu_sk_abc \\nmore\\n'", quick()).unwrap();
    assert_eq!(key, "service_eu_sk_abc");
    assert_eq!(
        run("printf service_eu_sk_x", quick()).unwrap(),
        "service_eu_sk_x"
    );
}

#[test]
fn a_background_child_holding_stdout_open_is_not_waited_for() {
    let started = Instant::now();
    let key = run("sleep 30 & echo service_eu_sk_abc", Duration::from_secs(20)).unwrap();
    assert_eq!(key, "service_eu_sk_abc");
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_command_that_hangs_is_stopped_at_the_timeout() {
    let started = Instant::now();
    let err = run("sleep 30", Duration::from_millis(300)).unwrap_err();
    assert!(
        err.to_string().contains("did not finish within 0.3s"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "{:?}",
        started.elapsed()
    );
}

#[test]
fn a_timeout_past_the_clock_is_an_error_not_a_panic() {
    let err = run("echo service_eu_sk_x", Duration::MAX).unwrap_err();
    assert!(err.to_string().contains("timeout is too long"), "{err}");
}

#[test]
fn endless_output_is_capped() {
    let err = run("yes x | tr -d '\\n'", quick()).unwrap_err();
    assert!(
        err.to_string().contains("no line break within 64 KiB"),
        "{err}"
    );
}

#[test]
fn stderr_is_cleaned_and_redacted_before_it_is_shown() {
    let err = run(
        "printf '\\n\\033]0;t\\007wrong key service_eu_sk_leaked1\\n' >&2; exit 3",
        quick(),
    )
    .unwrap_err()
    .to_string();
    assert!(
        !err.contains("leaked1") && err.contains("<redacted>"),
        "{err}"
    );
    assert!(!err.chars().any(char::is_control), "{err:?}");
    assert!(err.contains("exit status: 3"), "{err}");
}

#[test]
fn output_after_the_key_line_is_dropped_not_an_error() {
    // 200 KB after the key line, then a clean exit.
    let key = run(
        "printf 'service_eu_sk_abc\\n'; head -c 200000 /dev/zero; echo",
        quick(),
    )
    .unwrap();
    assert_eq!(key, "service_eu_sk_abc");
}

/// CPU time (user + system) this thread has used, in clock ticks.
#[cfg(target_os = "linux")]
fn thread_cpu_ticks() -> u64 {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // Fields after the command name (which is in parentheses): state is the 3rd field of the
    // line, utime the 14th and stime the 15th.
    let rest = &stat[stat.rfind(')').unwrap() + 2..];
    let fields: Vec<&str> = rest.split(' ').collect();
    fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap()
}

#[cfg(target_os = "linux")]
#[test]
fn a_command_that_closed_stdout_is_waited_for_without_spinning() {
    let before = thread_cpu_ticks();
    let key = run("echo service_eu_sk_abc; exec >&-; sleep 1", quick()).unwrap();
    let used = thread_cpu_ticks() - before;
    assert_eq!(key, "service_eu_sk_abc");
    // Waiting a second by polling every few milliseconds costs next to nothing; spinning on the
    // closed pipe costs most of the second (100 ticks).
    assert!(used < 20, "{used} ticks of CPU while waiting");
}

/// A background job of the command holds the write end of a pipe (as fd 3, from the command's
/// stdin): the pipe reaches its end only once every process holding it is gone.
#[cfg(unix)]
#[test]
fn a_timeout_stops_what_the_command_started_too() {
    let (mut pipe, writer) = std::io::pipe().unwrap();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut seen = Vec::new();
        let _ = pipe.read_to_end(&mut seen);
        let _ = tx.send(seen);
    });
    let mut sh = Command::new("sh");
    sh.arg("-c")
        .arg("exec 3<&0 0</dev/null; (echo started >&3; exec sleep 60) & sleep 60")
        .stdin(Stdio::from(writer));
    let err = run_prepared(sh, Duration::from_secs(2)).unwrap_err();
    assert!(
        err.to_string().contains("did not finish within 2s"),
        "{err}"
    );
    let seen = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("the background job was stopped with the command");
    assert_eq!(seen, b"started\n");
}
