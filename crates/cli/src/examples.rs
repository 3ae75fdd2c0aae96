//! The examples each command's `--help` (and so its man page) ends with: real command lines,
//! each with what it does.

/// The program's own.
pub(crate) const TOP: &str = "\
Examples:
  feedback-inbox demo                          Open the inbox on the simulator's demo data
  feedback-inbox                               Open the inbox on your account (FEEDBACK_API_KEY)
  feedback-inbox sync                          Bring the local store up to date
  feedback-inbox search 'tag:crash age:<7d'    Search the store offline
  feedback-inbox doctor                        Check the setup, with a fix for what fails
  feedback-inbox login                         Keep your API key in the OS keyring

Environment:
  FEEDBACK_API_KEY    the API key (wins over api_key_command, api_key and `login`)
  FEEDBACK_BASE_URL   the service's API address (--base-url wins)
  FEEDBACK_CONFIG     the config file (--config wins); FEEDBACK_PROFILE the profile (--profile)
  FEEDBACK_STORE      the local store file (--store wins)
  FEEDBACK_TEAM_URL   the team's PostgreSQL database
  FEEDBACK_LOG        how much goes to the log (default info); NO_COLOR turns colours off

Exit status:
  0 done; 1 something failed (the message says what; the log may say more); 2 bad usage or
  setup; 3 the key refused or the plan lacks the API; 4 not found; 5 rate limited; 128+N ended
  by signal N.";

pub(crate) const SEARCH: &str = "\
Examples:
  feedback-inbox search crash                          The items that say crash
  feedback-inbox search 'app:ledgerly-ios is:unseen'   The unseen items of one app
  feedback-inbox search 'tag:bug age:<7d' --format json
  feedback-inbox search --sync -- -tag:spam refund     Sync first; `--` before a query starting with -";

pub(crate) const LIST: &str = "\
Examples:
  feedback-inbox list --limit 20                    The 20 newest items, from the service
  feedback-inbox list --app 'Nimbus Notes' --since 7d --format json";

pub(crate) const SYNC: &str = "\
Examples:
  feedback-inbox sync                  What is new in both statuses, then the rest of the backfill
  feedback-inbox sync --app ledgerly-ios
  feedback-inbox sync --full           Read every page again";

pub(crate) const STATS: &str = "\
Examples:
  feedback-inbox stats --by app
  feedback-inbox stats --by version --app ledgerly-ios --since 30d --format csv";

pub(crate) const MARK: &str = "\
Examples:
  feedback-inbox mark 2qgddabg --done
  feedback-inbox mark 2qgddabg 79bajusq --snooze 2d --note 'waiting for the fix in 5.12'
  feedback-inbox search 'tag:spam' --fields id | feedback-inbox mark - --done   Ids from stdin";

pub(crate) const CLAIM: &str = "\
Examples:
  feedback-inbox claim 2qgddabg 79bajusq
  feedback-inbox claim 2qgddabg --format json     Each item's outcome: done, lost (with why) or pending";

pub(crate) const ASSIGN: &str = "\
Examples:
  feedback-inbox assign 2qgddabg --to bo
  feedback-inbox assign 2qgddabg 79bajusq --to me";

pub(crate) const LABEL: &str = "\
Examples:
  feedback-inbox label 2qgddabg +billing -triage
  feedback-inbox label 2qgddabg +wontfix --format json
  feedback-inbox label 2qgddabg -- -h               A label named like a flag, after --";

pub(crate) const LINK: &str = "\
Examples:
  feedback-inbox link 2qgddabg 79bajusq https://tracker.example/TICKET-26944 --title 'Crash on start'
  feedback-inbox unlink 2qgddabg https://tracker.example/TICKET-26944
  feedback-inbox link 2qgddabg https://tracker.example/TICKET-26944 --format json";

pub(crate) const REPLY: &str = "\
Examples:
  feedback-inbox reply 2qgddabg 79bajusq --template fixed --dry-run
  feedback-inbox search 'ticket:TICKET-26944' --fields id --format jsonl | jq -r .id | feedback-inbox reply - --template fixed --yes
  feedback-inbox reply 2qgddabg --body-file answer.txt --subject 'About your crash report'
  feedback-inbox reply --send-waiting --yes           Send what earlier sends left waiting";

pub(crate) const TEAM: &str = "\
Examples:
  feedback-inbox team init support          Make the team (as the database's admin)
  feedback-inbox team add-member ana        Add a member; prints their password once
  feedback-inbox team status
  feedback-inbox team log 2qgddabg          One item's history";
