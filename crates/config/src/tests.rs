use std::collections::HashMap;

use super::*;

const KEY_EU: &str = "service_eu_sk_fromfile";
const KEY_US: &str = "service_us_sk_fromenv";

fn loaded(text: &str) -> Loaded {
    Loaded {
        path: PathBuf::from("/home/u/.config/feedback-inbox/config.toml"),
        text: text.to_owned(),
        file: parse(text).unwrap(),
        readable_by_others: false,
    }
}

fn resolve_with(
    flag: Option<&str>,
    profile: Option<&str>,
    file: Option<&Loaded>,
    env: &[(&str, &str)],
) -> Result<Resolved, ConfigError> {
    let env: HashMap<String, String> = env
        .iter()
        .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
        .collect();
    let lookup = move |name: &str| env.get(name).cloned();
    resolve(&Sources {
        base_url_flag: flag,
        profile,
        file,
        env: &lookup,
        file_hint: "config.toml".into(),
        credentials: None,
    })
}

#[test]
fn flag_beats_env_beats_file_for_base_url() {
    let file = loaded(&format!(
        "base_url = \"https://file.example.com\"\napi_key = \"{KEY_EU}\""
    ));
    let env = [(ENV_BASE_URL, "https://env.example.com/v1/")];
    let r = resolve_with(Some("https://flag.example.com/v1"), None, Some(&file), &env).unwrap();
    assert_eq!(r.base_url.as_str(), "https://flag.example.com/");
    let r = resolve_with(None, None, Some(&file), &env).unwrap();
    assert_eq!(r.base_url.as_str(), "https://env.example.com/");
    let r = resolve_with(None, None, Some(&file), &[]).unwrap();
    assert_eq!(r.base_url.as_str(), "https://file.example.com/");
}

#[test]
fn env_key_beats_command_beats_file_key() {
    let file = loaded(&format!(
        "base_url = \"https://x.example.com\"\napi_key = \"{KEY_EU}\"\napi_key_command = \"echo service_eu_sk_fromcommand\""
    ));
    let r = resolve_with(None, None, Some(&file), &[(ENV_API_KEY, KEY_US)]).unwrap();
    assert_eq!((r.key.expose(), r.key.region().as_str()), (KEY_US, "us"));
    let r = resolve_with(None, None, Some(&file), &[]).unwrap();
    assert_eq!(r.key.expose(), "service_eu_sk_fromcommand");
    let file = loaded(&format!(
        "base_url = \"https://x.example.com\"\napi_key = \"{KEY_EU}\""
    ));
    assert_eq!(
        resolve_with(None, None, Some(&file), &[])
            .unwrap()
            .key
            .expose(),
        KEY_EU
    );
}

#[test]
fn profile_overrides_top_level_values() {
    let file = loaded(&format!(
        "base_url = \"https://main.example.com\"\napi_key = \"{KEY_EU}\"\n\n[profiles.client-b]\nbase_url = \"https://b.example.com\"\napi_key_command = \"printf 'service_us_sk_bbb\\n'\"\n"
    ));
    let r = resolve_with(None, Some("client-b"), Some(&file), &[]).unwrap();
    assert_eq!(r.base_url.as_str(), "https://b.example.com/");
    assert_eq!(r.key.expose(), "service_us_sk_bbb");
    let err = resolve_with(None, Some("nope"), Some(&file), &[]).unwrap_err();
    assert!(err.to_string().contains("client-b"), "{err}");
}

#[test]
fn missing_values_say_how_to_set_them() {
    let err = resolve_with(None, None, None, &[(ENV_API_KEY, KEY_US)]).unwrap_err();
    assert!(err.to_string().contains("FEEDBACK_BASE_URL") && err.to_string().contains("demo"));
    let err = resolve_with(Some("https://x.example.com"), None, None, &[]).unwrap_err();
    assert!(err.to_string().contains("FEEDBACK_API_KEY"));
}

#[test]
fn bad_key_and_insecure_url_are_refused_without_echoing_the_key() {
    let err = resolve_with(
        Some("https://x.example.com"),
        None,
        None,
        &[(ENV_API_KEY, "sk_live_hunter2")],
    )
    .unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("FEEDBACK_API_KEY") && !text.contains("hunter2"),
        "{text}"
    );
    let err = resolve_with(
        Some("http://x.example.com"),
        None,
        None,
        &[(ENV_API_KEY, KEY_US)],
    )
    .unwrap_err();
    assert!(err.to_string().contains("https"), "{err}");
    assert!(
        resolve_with(
            Some("http://127.0.0.1:9"),
            None,
            None,
            &[(ENV_API_KEY, KEY_US)]
        )
        .is_ok()
    );
}

#[test]
fn failing_key_command_is_reported() {
    let file = loaded(
        "base_url = \"https://x.example.com\"\napi_key_command = \"echo locked >&2; exit 3\"",
    );
    let err = resolve_with(None, None, Some(&file), &[]).unwrap_err();
    assert!(err.to_string().contains("locked"), "{err}");
}

#[test]
fn unknown_field_is_reported_with_its_line() {
    let err = parse("base_url = \"https://x\"\napi_kye = \"oops\"\n").unwrap_err();
    assert!(err.contains("line 2"), "{err}");
    assert!(err.contains("api_kye"), "{err}");
}

#[cfg(unix)]
#[test]
fn key_in_a_world_readable_file_gives_a_warning() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    std::fs::write(
        &path,
        format!("base_url = \"https://x.example.com\"\napi_key = \"{KEY_EU}\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let file = load(&path, true).unwrap().unwrap();
    let r = resolve_with(None, None, Some(&file), &[]).unwrap();
    assert!(
        r.warnings.iter().any(|w| w.contains("chmod 600")),
        "{:?}",
        r.warnings
    );
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
    let file = load(&path, true).unwrap().unwrap();
    assert!(
        resolve_with(None, None, Some(&file), &[])
            .unwrap()
            .warnings
            .is_empty()
    );
}

#[test]
fn missing_optional_file_is_fine_but_required_one_is_an_error() {
    let path = Path::new("/nonexistent/feedback-inbox/config.toml");
    assert!(load(path, false).unwrap().is_none());
    assert!(matches!(load(path, true), Err(ConfigError::Read { .. })));
}

#[test]
fn example_config_in_assets_parses() {
    let file = parse(include_str!("../../../assets/config.example.toml")).unwrap();
    assert!(file.profiles.contains_key("staging"));
    assert_eq!(file.privacy, Some(false));
    assert_eq!(file.theme, Some(super::looks::ThemeName::Default));
    assert_eq!(file.preview, Some(super::preview::PreviewSetting::Auto));
    let waits: Vec<(&str, bool)> = file
        .commands
        .iter()
        .map(|c| (c.name.as_str(), c.wait))
        .collect();
    assert_eq!(waits, [("new ticket", true), ("save to a file", false)]);
    let looks = super::looks::LooksSettings::from_file(&file).unwrap();
    assert_eq!(looks.commands.len(), 2);
}

#[test]
fn a_key_in_the_wrong_place_is_never_echoed() {
    const SECRET: &str = "service_eu_sk_Sw4pp3d";
    // Swapped variables: the key in FEEDBACK_BASE_URL.
    let err = resolve_with(
        None,
        None,
        None,
        &[
            (ENV_BASE_URL, SECRET),
            (ENV_API_KEY, "https://x.example.com"),
        ],
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains(ENV_BASE_URL) && !err.contains("Sw4pp3d"),
        "{err}"
    );
    // The key under base_url, in a URL, and under a field of another type.
    for text in [
        format!("base_url = \"{SECRET}\"\napi_key = \"{KEY_EU}\""),
        format!("base_url = \"ftp://{SECRET}/\"\napi_key = \"{KEY_EU}\""),
    ] {
        let err = resolve_with(None, None, Some(&loaded(&text)), &[])
            .unwrap_err()
            .to_string();
        assert!(!err.contains("Sw4pp3d"), "{err}");
    }
    for text in [
        format!("refresh_seconds = \"{SECRET}\""),
        format!("keys = \"{SECRET}\""),
        format!("[profiles.a]\napi_key = [\"{SECRET}\"]"),
    ] {
        let err = parse(&text).unwrap_err();
        assert!(!err.contains("Sw4pp3d") && err.contains("line "), "{err}");
    }
}

#[test]
fn key_command_timeout_comes_from_the_profile_or_the_top_level() {
    let file = loaded(
        "base_url = \"https://x.example.com\"\napi_key_command = \"sleep 5\"\napi_key_command_timeout_seconds = 1\n\n[profiles.slow]\napi_key_command_timeout_seconds = 30\n",
    );
    let started = std::time::Instant::now();
    let err = resolve_with(None, None, Some(&file), &[]).unwrap_err();
    assert!(err.to_string().contains("within 1s"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(4));
    let account = selected_account(&Sources {
        base_url_flag: None,
        profile: Some("slow"),
        file: Some(&file),
        env: &|_| None,
        file_hint: String::new(),
        credentials: None,
    })
    .unwrap();
    assert_eq!(key_command_timeout(&account, "").unwrap().as_secs(), 30);
    assert_eq!(
        key_command_timeout(&Account::default(), "").unwrap(),
        key_command::DEFAULT_TIMEOUT
    );
}

#[test]
fn a_key_command_timeout_out_of_range_is_a_config_error() {
    for seconds in [0, 3601, i64::MAX.unsigned_abs()] {
        let file = loaded(&format!(
            "base_url = \"https://x.example.com\"\napi_key_command = \"echo {KEY_EU}\"\napi_key_command_timeout_seconds = {seconds}\n"
        ));
        let err = resolve_with(None, None, Some(&file), &[]).unwrap_err();
        assert!(
            matches!(err, ConfigError::BadKeyCommandTimeout(s, _) if s == seconds),
            "{seconds}: {err}"
        );
        assert!(err.to_string().contains("from 1 to 3600"), "{err}");
        // Checked even when the key comes from the environment and the command does not run.
        let err = resolve_with(None, None, Some(&file), &[(ENV_API_KEY, KEY_US)]).unwrap_err();
        assert!(
            matches!(err, ConfigError::BadKeyCommandTimeout(..)),
            "{err}"
        );
    }
    for seconds in [1, 3600] {
        let file = loaded(&format!(
            "base_url = \"https://x.example.com\"\napi_key_command = \"echo {KEY_EU}\"\napi_key_command_timeout_seconds = {seconds}\n"
        ));
        let resolved = resolve_with(None, None, Some(&file), &[]).unwrap();
        assert_eq!(resolved.key.expose(), KEY_EU);
    }
}

#[test]
fn retention_days_comes_from_the_profile_or_the_top_level() {
    let file = loaded(
        "retention_days = 90\n[profiles.a]\nretention_days = 7\n[profiles.b]\nbase_url = \"https://b.example.com\"\n",
    );
    let days = |n: i64| Some(jiff::SignedDuration::from_hours(n * 24));
    assert_eq!(retention(Some(&file), None).unwrap(), days(90));
    assert_eq!(retention(Some(&file), Some("a")).unwrap(), days(7));
    assert_eq!(retention(Some(&file), Some("b")).unwrap(), days(90));
    assert_eq!(retention(None, None).unwrap(), None);
    assert_eq!(retention(Some(&loaded("")), None).unwrap(), None);
    assert!(matches!(
        retention(Some(&file), Some("nope")),
        Err(ConfigError::UnknownProfile { .. })
    ));
}

#[test]
fn retention_days_out_of_range_is_a_config_error() {
    for bad in [0, 36_501] {
        let file = loaded(&format!("[profiles.a]\nretention_days = {bad}\n"));
        let err = retention(Some(&file), Some("a")).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "retention_days = {bad} in /home/u/.config/feedback-inbox/config.toml: give a number of days from 1 to 36500"
            )
        );
    }
    let file = loaded("retention_days = 36500\n");
    assert!(retention(Some(&file), None).unwrap().is_some());
}

#[test]
fn on_macos_the_config_follows_xdg_config_home_when_it_is_set() {
    let platform = Some(PathBuf::from(
        "/Users/ana/Library/Application Support/feedback-inbox",
    ));
    let xdg = || Some(std::ffi::OsString::from("/Users/ana/.config"));
    assert_eq!(
        super::config_dir(xdg(), true, platform.clone()),
        Some(PathBuf::from("/Users/ana/.config/feedback-inbox"))
    );
    assert_eq!(super::config_dir(None, true, platform.clone()), platform);
    // A relative value means nothing (as the XDG spec says); elsewhere the platform decides.
    let relative = Some(std::ffi::OsString::from("config"));
    assert_eq!(
        super::config_dir(relative, true, platform.clone()),
        platform
    );
    assert_eq!(super::config_dir(xdg(), false, platform.clone()), platform);
}
