//! The command line: argument definitions, account setup, and one module per non-interactive
//! command. Human-facing output (table, text, csv) goes through the sanitizer; JSON keeps the
//! server's text (the serializer escapes it). Errors become one line on stderr and an exit code.
//! The interactive inbox is prepared here and opened through a [`screen::Screen`], given by the
//! caller.
//!
//! It uses every room below it and never imports the inbox, a database driver or a terminal
//! library: the binary hands it the inbox as a `Screen`.

pub mod account;
pub mod completions;
pub mod context;
pub mod discovery;
pub mod doctor;
pub mod error;
pub mod estimate;
mod examples;
pub mod export;
mod ids_arg;
pub mod inbox;
pub mod list;
pub mod login;
pub mod mark;
pub mod names;
pub mod offline;
pub mod output;
pub mod query_arg;
pub mod reply_cmd;
pub mod scope;
pub mod screen;
pub mod search_cmd;
pub mod show;
pub mod sim_cmd;
pub mod since;
// The `stats` command.
mod demo_team;
pub mod stats;
pub mod store_cmd;
pub mod sync_cmd;
pub mod team_cmd;
pub mod version;
pub mod webhook_cmd;
pub mod webhook_team;

use std::path::PathBuf;

use clap::{Parser, Subcommand};

pub use error::CliError;

use context::Context;
use feedback_api::key::redact_keys;
use feedback_api::retry::WaitObserver;
use feedback_api::{Client, WaitReason};
use feedback_config as config;
use output::Bulk;

/// The heading the options every command takes are listed under, apart from its own.
const GLOBAL: &str = "Global options";

/// The commands that refuse `--no-store` (they read the store, or keep what they do in it) or
/// have no use for it (`sim`): their help does not offer it.
const NO_USE_FOR_NO_STORE: &[&str] = &[
    "search", "stats", "store", "sync", "mark", "claim", "unclaim", "assign", "label", "team",
    "sim",
];

/// The command line as it is parsed, completed and documented: [`Args`]' definition, with
/// `--no-store` (a global option, so taken by every command) left out of the help of the
/// commands that have no use for it.
#[must_use]
pub fn command() -> clap::Command {
    adjusted(<Args as clap::CommandFactory>::command().version(version::long()))
}

/// [`command`] from a definition adjusted first (the man pages', without a `help` command).
#[must_use]
pub(crate) fn adjusted(mut command: clap::Command) -> clap::Command {
    let no_store = command
        .get_arguments()
        .find(|a| a.get_id() == "no_store")
        .cloned();
    if let Some(no_store) = no_store {
        for name in NO_USE_FOR_NO_STORE {
            // The same global option, hidden: a command's own copy of a global option is not
            // replaced by the propagated one, and its value still reaches `Args::no_store`.
            let hidden = no_store.clone().hide(true);
            command = command.mut_subcommand(name, |sub| sub.arg(hidden));
        }
    }
    command
}

/// The arguments of the command line `argv` (the program's name first); on an error or a
/// `--help`, said and the process exits, as clap's `parse` does.
#[must_use]
pub fn parse(argv: impl IntoIterator<Item = std::ffi::OsString>) -> Args {
    let command = command();
    let argv = team_cmd::label_removals(&command, argv);
    let matches = command.get_matches_from(argv);
    <Args as clap::FromArgMatches>::from_arg_matches(&matches).unwrap_or_else(|e| e.exit())
}

/// Triage end-user feedback from the feedback service, from the terminal.
#[derive(Debug, Parser)]
#[command(
    name = "feedback-inbox",
    version,
    about,
    after_help = examples::TOP,
    mut_args(scope::helps(&[
        ("app", "Open the inbox on this app (its name, slug or id)"),
        ("project", "Open the inbox on this project (its name, slug or id)"),
    ])),
)]
pub struct Args {
    /// The service's base URL (overrides FEEDBACK_BASE_URL and the config file).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "URL")]
    pub base_url: Option<String>,
    /// Use the [profiles.NAME] table of the config file.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "NAME", env = "FEEDBACK_PROFILE")]
    pub profile: Option<String>,
    /// Config file to read instead of the platform default.
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "PATH", env = "FEEDBACK_CONFIG")]
    pub config: Option<PathBuf>,
    /// The local store file to use (default: FEEDBACK_STORE, else the profile's file in the
    /// platform data folder).
    #[arg(long, global = true, help_heading = GLOBAL, value_name = "PATH", conflicts_with = "no_store")]
    pub store: Option<PathBuf>,
    /// Keep nothing on disk: the inbox runs in memory and `webhook listen` only journals.
    #[arg(long, global = true, help_heading = GLOBAL)]
    pub no_store: bool,
    /// Receive webhooks at this address while the inbox runs: new feedback appears at the top.
    #[arg(long, value_name = "ADDR", requires = "secret_env")]
    pub listen: Option<std::net::SocketAddr>,
    /// Name of the environment variable holding the webhook signing secret (with --listen).
    #[arg(long, value_name = "VAR", requires = "listen")]
    pub secret_env: Option<String>,
    #[command(flatten)]
    pub scope: scope::ScopeArgs,
    /// Without a command, the interactive inbox opens.
    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Open the inbox on the embedded simulator's demo data (no key needed).
    Demo(inbox::DemoArgs),
    /// List feedback, newest first.
    #[command(after_help = examples::LIST)]
    List(list::ListArgs),
    /// Show one feedback item with metadata and delivery links.
    Show(show::ShowArgs),
    /// List the account's projects.
    Projects(discovery::FormatArg),
    /// List apps, optionally of one project.
    Apps(discovery::AppsArgs),
    /// List tags with counts, optionally narrowed to a project and/or app.
    Tags(discovery::TagsArgs),
    /// Run the service simulator on loopback until interrupted.
    Sim(sim_cmd::SimArgs),
    /// Verify or receive the service's signed webhook deliveries.
    Webhook(webhook_cmd::WebhookArgs),
    /// Search the local store with the inbox's query language (offline), newest first.
    #[command(after_help = examples::SEARCH)]
    Search(search_cmd::SearchArgs),
    /// Describe or delete the local store (the account's mirror on this machine).
    Store(store_cmd::StoreArgs),
    /// Bring the local store up to date (head, backfill; --full reads everything again).
    #[command(after_help = examples::SYNC)]
    Sync(sync_cmd::SyncArgs),
    /// Show where the account settings come from (never the key) and check them with one request.
    Account,
    /// Keep the API key for this profile: asked for without echo (or `--with-key` from stdin),
    /// checked with one request, kept in the OS keyring (else a 0600 file beside the config).
    Login(login::LoginArgs),
    /// Remove the key `login` kept for this profile.
    Logout,
    /// Check the setup and explain: config, key, service, clock, store, terminal, clipboard,
    /// browser; one line each, with a fix for what fails.
    Doctor(doctor::DoctorArgs),
    /// Print a shell completion script (bash, zsh, fish, elvish, powershell).
    Completions(completions::CompletionsArgs),
    /// Print the man page (roff), or write one page per command with --dir.
    Man(completions::ManArgs),
    /// Print the version, the commit it was built from and that commit's date; `--format
    /// json` adds the target, the profile and the schema versions, for a bug report.
    Version(version::VersionArgs),
    // The `stats` command.
    /// Count the stored items by app, platform, tag, version, os, locale, meta.KEY, day or week
    /// (offline), with each group's share and its last 30 days.
    #[command(after_help = examples::STATS)]
    Stats(stats::StatsArgs),
    /// Set up and look at the team that shares triage state through PostgreSQL: init,
    /// add-member, remove-member, set, status, log.
    #[command(after_help = examples::TEAM)]
    Team(team_cmd::TeamArgs),
    /// Claim items for yourself (the team's; a claim someone else won is reported).
    #[command(after_help = examples::CLAIM)]
    Claim(team_cmd::ItemsArgs),
    /// Give up your claim on items.
    Unclaim(team_cmd::ItemsArgs),
    /// Assign items to a member of the team.
    #[command(after_help = examples::ASSIGN)]
    Assign(team_cmd::AssignArgs),
    /// Add (+name) and remove (-name) the team's labels on items.
    #[command(after_help = examples::LABEL)]
    Label(team_cmd::LabelArgs),
    /// Link items to what was made from them outside (a ticket, an issue, a doc): the team's
    /// with a team, else kept in the local store.
    #[command(after_help = examples::LINK)]
    Link(team_cmd::LinkArgs),
    /// Remove a link from items, by its address.
    Unlink(team_cmd::UnlinkArgs),
    /// Reply to the items' reporters by mail ([mail] in config.toml): one reply per reporter,
    /// from a template or a file, kept before it is sent and never sent twice.
    #[command(after_help = examples::REPLY)]
    Reply(reply_cmd::ReplyArgs),
    /// Triage items from a script, as the inbox's keys do: --seen, --star, --done,
    /// --snooze 2h, --note TEXT (and --unseen, --unstar, --undone, --wake).
    #[command(after_help = examples::MARK)]
    Mark(mark::MarkArgs),
}

/// Runs a parsed command line; the inbox (no command, or `demo`) opens on `screen`. Batch
/// commands lock stdout for their output, except those that may write many lines, which write
/// through [`Bulk`] (a bulk export writes from a second thread); the inbox does neither (the
/// terminal is written from its own code paths).
pub async fn run(args: Args, screen: &impl screen::Screen) -> Result<(), CliError> {
    // The one context of this run: every command takes it.
    let args = Context::new(args);
    let out = || std::io::stdout().lock();
    let Some(command) = &args.command else {
        return inbox::inbox(&args, screen).await;
    };
    if args.listen.is_some() {
        return Err(CliError::Usage(
            "--listen belongs to the inbox (no command); `webhook listen` receives on its own"
                .to_owned(),
        ));
    }
    if args.scope.is_set() {
        return Err(CliError::Usage(
            "--app/--project before the command open the inbox filtered; put them after the command"
                .to_owned(),
        ));
    }
    match command {
        Command::Demo(demo) => inbox::demo(&args, demo, screen).await,
        Command::Sim(sim) => sim_cmd::run(sim, &mut out()).await,
        Command::Account => account::run(&args, &mut out()).await,
        Command::Login(login) => login::login(&args, login, &mut out()).await,
        Command::Logout => login::logout(&args, &mut out()),
        Command::Doctor(doctor) => {
            let settings = |args: &Context| inbox::check_settings(args, screen);
            doctor::run(&args, doctor, &settings, &mut out()).await
        }
        Command::Completions(shell) => completions::completions(shell, &mut out()),
        Command::Man(man) => completions::man(man, &mut out()),
        Command::Version(v) => version::run(v, &mut out()),
        Command::Store(store) => match &store.command {
            store_cmd::StoreCommand::Info { format } => store_cmd::info(&args, *format, &mut out()),
            store_cmd::StoreCommand::Forget { yes } => store_cmd::forget(&args, *yes, &mut out()),
            store_cmd::StoreCommand::Export(export) => {
                let mut out = Bulk::stdout();
                let done = search_cmd::export(&args, export, &mut out).await;
                finish(done, out)
            }
        },
        Command::Search(search) => {
            let mut out = Bulk::stdout();
            let done = search_cmd::run_command(&args, search, &mut out).await;
            finish(done, out)
        }
        // The `stats` command.
        Command::Stats(stats) => {
            let mut out = Bulk::stdout();
            let done = stats::run_command(&args, stats, &mut out).await;
            finish(done, out)
        }
        Command::Webhook(webhook) => webhook_cmd::run(&args, webhook, &mut std::io::stdout()).await,
        Command::Sync(sync) => sync_cmd::run(&args, sync, &mut out()).await,
        Command::Team(team) => team_cmd::run(&args, team, &mut out()).await,
        Command::Claim(items) => {
            team_cmd::act(&args, team_cmd::Act::Claim(items), &mut out()).await
        }
        Command::Unclaim(items) => {
            team_cmd::act(&args, team_cmd::Act::Unclaim(items), &mut out()).await
        }
        Command::Assign(assign) => {
            team_cmd::act(&args, team_cmd::Act::Assign(assign), &mut out()).await
        }
        Command::Label(label) => {
            team_cmd::act(&args, team_cmd::Act::Label(label), &mut out()).await
        }
        Command::Link(link) => team_cmd::act(&args, team_cmd::Act::Link(link), &mut out()).await,
        Command::Unlink(unlink) => {
            team_cmd::act(&args, team_cmd::Act::Unlink(unlink), &mut out()).await
        }
        Command::Reply(reply) => reply_cmd::run(&args, reply, &mut out()).await,
        Command::Mark(mark) => mark::run(&args, mark, &mut out()).await,
        Command::List(list) => {
            let mut out = Bulk::stdout();
            let done = list::run(&args, list, &mut out).await;
            finish(done, out)
        }
        Command::Show(show) => {
            let store = names::existing_store(&args);
            show::run(&client(&args, false)?, store, show, &mut out()).await
        }
        Command::Projects(format) => {
            discovery::projects(&client(&args, false)?, format, &mut out()).await
        }
        Command::Apps(apps) => {
            let client = client(&args, false)?;
            let store = names::existing_store(&args);
            let mut resolver = names::Resolver::new(store.as_ref(), Some(&client));
            discovery::apps(&client, &mut resolver, apps, &mut out()).await
        }
        Command::Tags(tags) => {
            let client = client(&args, false)?;
            let store = names::existing_store(&args);
            let mut resolver = names::Resolver::new(store.as_ref(), Some(&client));
            discovery::tags(&client, &mut resolver, tags, &mut out()).await
        }
    }
}

/// A bulk command's outcome, with the rest of its output written: a failure to write it is the
/// command's failure, unless the command failed first.
fn finish(done: Result<(), CliError>, out: Bulk) -> Result<(), CliError> {
    let flushed = out.finish();
    done?;
    Ok(flushed?)
}

/// Resolves the account and builds a client. Every wait is reported on stderr: as a plain line,
/// or, when `progress_line` (a progress line on a terminal), in place on that line.
pub fn client(args: &Context, progress_line: bool) -> Result<Client, CliError> {
    client_with(args, wait_reporter(progress_line))
}

/// Resolves the account (its warnings said on stderr, the key never) and builds a client whose
/// waits go to `observer` (a progress bar's countdown, a sync's line).
pub(crate) fn client_with(args: &Context, observer: WaitObserver) -> Result<Client, CliError> {
    let resolved = resolve_account(args)?;
    for warning in &resolved.warnings {
        eprintln!("warning: {}", redact_keys(warning));
    }
    tracing::info!(base_url = %redact_keys(resolved.base_url.as_str()), key = ?resolved.key, origin = %resolved.key_origin, "account");
    let builder = Client::builder(resolved.base_url.as_str(), resolved.key)?;
    Ok(builder.on_wait(observer).build()?)
}

/// Reports a wait on stderr, so a script's log says why nothing happens for a while.
fn wait_reporter(progress_line: bool) -> WaitObserver {
    std::sync::Arc::new(move |wait: &feedback_api::Wait| {
        let line = describe_wait(wait);
        if progress_line {
            eprint!("\r\x1b[2K{line}…");
        } else {
            eprintln!("{line}");
        }
    })
}

/// "rate limited; waiting 7s", or for a wait cut to the cap, "request budget spent; the
/// server's reset is 10h away (clock skew?); waiting at most 120s".
#[must_use]
pub(crate) fn describe_wait(wait: &feedback_api::Wait) -> String {
    let seconds = wait.duration.as_secs_f32().ceil();
    if let Some(asked) = wait.capped_from {
        let (why, what) = match &wait.reason {
            WaitReason::Pacing => ("request budget spent", "reset"),
            _ => ("rate limited", "retry time"),
        };
        return format!(
            "{why}; the server's {what} is {} away (clock skew?); waiting at most {seconds}s",
            rough_duration(asked)
        );
    }
    let why = match &wait.reason {
        WaitReason::RateLimited => "rate limited".to_owned(),
        WaitReason::Pacing => "request budget spent until the window resets".to_owned(),
        WaitReason::Retry {
            attempt,
            max_tries,
            error,
        } => format!("{}; try {attempt} of {max_tries}", redact_keys(error)),
    };
    format!("{why}; waiting {seconds}s")
}

/// "10h", "2h 5m", "3m 20s", "45s" (whole seconds, the two largest units).
#[must_use]
pub(crate) fn rough_duration(duration: std::time::Duration) -> String {
    let total = duration.as_secs();
    let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60);
    match (hours, minutes, seconds) {
        (0, 0, s) => format!("{s}s"),
        (0, m, 0) => format!("{m}m"),
        (0, m, s) => format!("{m}m {s}s"),
        (h, 0, _) => format!("{h}h"),
        (h, m, _) => format!("{h}h {m}m"),
    }
}

/// The config file to read, and whether it must exist (it must when named by `--config`).
#[must_use]
pub fn config_path(args: &Args) -> (Option<PathBuf>, bool) {
    match &args.config {
        Some(path) => (Some(path.clone()), true),
        None => (config::default_path(), false),
    }
}

/// The account from flags, environment and config file.
pub(crate) fn resolve_account(args: &Context) -> Result<config::Resolved, CliError> {
    let loaded = args.config()?;
    let hint = config_path(args)
        .0
        .map_or_else(|| "config.toml".to_owned(), |p| p.display().to_string());
    for name in [config::ENV_API_KEY, config::ENV_BASE_URL] {
        if let Err(std::env::VarError::NotUnicode(_)) = std::env::var(name) {
            return Err(config::ConfigError::NotUnicode(name).into());
        }
    }
    let env = |name: &str| std::env::var(name).ok();
    let credentials = config_path(args)
        .0
        .map(|p| config::credentials::file_beside(&p));
    Ok(config::resolve(&config::Sources {
        base_url_flag: args.base_url.as_deref(),
        profile: args.profile.as_deref(),
        file: loaded,
        env: &env,
        file_hint: hint,
        credentials: credentials.as_deref(),
    })?)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use clap::FromArgMatches;

    use super::*;
    use feedback_api::Wait;

    fn wait(reason: WaitReason, seconds: u64, capped_from: Option<Duration>) -> Wait {
        Wait {
            reason,
            duration: Duration::from_secs(seconds),
            until: jiff::Timestamp::UNIX_EPOCH,
            capped_from,
        }
    }

    fn help_of(path: &[&str]) -> String {
        let mut command = command();
        command.build();
        let mut sub = command;
        for name in path {
            sub = sub.find_subcommand(name).unwrap().clone();
        }
        sub.render_long_help().to_string()
    }

    #[test]
    fn each_commands_help_lists_the_global_options_apart_and_no_store_where_it_has_a_use() {
        for path in [
            &["sim"][..],
            &["search"],
            &["mark"],
            &["team", "log"],
            &["label"],
        ] {
            let help = help_of(path);
            assert!(!help.contains("--no-store"), "{path:?}:\n{help}");
            assert!(help.contains("Global options:"), "{path:?}:\n{help}");
        }
        for path in [&["list"][..], &["webhook", "listen"]] {
            let help = help_of(path);
            let global = help.split("Global options:").nth(1).unwrap_or_default();
            assert!(global.contains("--no-store"), "{path:?}:\n{help}");
        }
        for path in [
            &[][..],
            &["search"],
            &["mark"],
            &["claim"],
            &["label"],
            &["team"],
        ] {
            let help = help_of(path);
            let examples = help.split("Examples:").nth(1).unwrap_or_default();
            assert!(examples.contains("feedback-inbox "), "{path:?}:\n{help}");
        }
        // Hidden, it still parses where it is refused, and is refused with a clear error.
        let argv = ["feedback-inbox", "search", "--no-store", "x"].map(std::ffi::OsString::from);
        let matches = command().try_get_matches_from(argv).unwrap();
        assert!(Args::from_arg_matches(&matches).unwrap().no_store);
    }

    #[test]
    fn a_wait_cut_to_the_cap_says_so_and_why() {
        let far = Some(Duration::from_secs(10 * 3600));
        assert_eq!(
            describe_wait(&wait(WaitReason::Pacing, 120, far)),
            "request budget spent; the server's reset is 10h away (clock skew?); waiting at most 120s"
        );
        assert_eq!(
            describe_wait(&wait(WaitReason::RateLimited, 120, far)),
            "rate limited; the server's retry time is 10h away (clock skew?); waiting at most 120s"
        );
        assert_eq!(
            describe_wait(&wait(WaitReason::RateLimited, 7, None)),
            "rate limited; waiting 7s"
        );
    }

    #[test]
    fn rough_durations_keep_the_two_largest_units() {
        let cases = [
            (45, "45s"),
            (120, "2m"),
            (200, "3m 20s"),
            (36_000, "10h"),
            (7_530, "2h 5m"),
        ];
        for (seconds, shown) in cases {
            assert_eq!(rough_duration(Duration::from_secs(seconds)), shown);
        }
    }
}
