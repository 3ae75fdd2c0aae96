//! The simulator's outbound webhooks (spec part 6): each new submission is POSTed as a signed
//! `feedback.created` delivery. Any 2xx acknowledges; network errors, 408, 429 and 5xx are
//! retried on the Indie schedule (immediate, then 1 min, 5 min, 30 min, 2 h after the previous
//! attempt; 5 attempts in all), other 4xx are permanent, and the Starter plan delivers once.
//! Waits go through the injected clock and are multiplied by a time scale, so tests and the
//! live demo need not wait hours.

use std::time::Duration;

use jiff::Timestamp;

use feedback_api::webhook::{FEEDBACK_CREATED, Secret, Submission, sign};
use feedback_core::clock::SharedClock;

/// The wait before each attempt on the Indie plan.
pub(crate) const INDIE_SCHEDULE: [Duration; 5] = [
    Duration::ZERO,
    Duration::from_secs(60),
    Duration::from_secs(5 * 60),
    Duration::from_secs(30 * 60),
    Duration::from_secs(2 * 3600),
];

/// The account plan, which decides retries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Plan {
    /// Up to 5 attempts on the retry schedule.
    Indie,
    /// One attempt, no retry.
    Starter,
}

/// Where and how to deliver.
#[derive(Debug, Clone)]
pub struct WebhookTarget {
    pub url: String,
    pub secret: Secret,
    pub plan: Plan,
    /// Multiplies every wait of the schedule (1.0: real minutes and hours).
    pub time_scale: f64,
    /// After an acknowledged delivery, deliver the same event once more (as the service may).
    pub duplicates: bool,
    /// Per-attempt timeout.
    pub timeout: Duration,
}

/// What one attempt got.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AttemptResult {
    Status(u16),
    Network(String),
}

/// One attempt: when it was signed and what came back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    pub at: Timestamp,
    pub result: AttemptResult,
}

/// Every attempt of one event, duplicates included.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    pub attempts: Vec<Attempt>,
    pub acknowledged: bool,
}

/// Sends deliveries to one target.
#[derive(Debug, Clone)]
pub struct Sender {
    http: reqwest::Client,
    target: WebhookTarget,
    clock: SharedClock,
}

enum Verdict {
    Acknowledged,
    Retry,
    Permanent,
}

impl Sender {
    pub fn new(target: WebhookTarget, clock: SharedClock) -> Result<Self, reqwest::Error> {
        feedback_api::client::install_crypto_provider();
        let http = reqwest::Client::builder()
            .timeout(target.timeout)
            .redirect(reqwest::redirect::Policy::none())
            .build()?;
        Ok(Self {
            http,
            target,
            clock,
        })
    }

    /// Delivers `submission` by the plan's rules (and once more when duplicates are on).
    pub async fn deliver(&self, submission: &Submission) -> Outcome {
        let body = submission.to_body();
        let schedule: &[Duration] = match self.target.plan {
            Plan::Indie => &INDIE_SCHEDULE,
            Plan::Starter => &INDIE_SCHEDULE[..1],
        };
        let mut outcome = Outcome::default();
        for wait in schedule {
            if !wait.is_zero() {
                self.clock
                    .sleep(scaled(*wait, self.target.time_scale))
                    .await;
            }
            match self.attempt(&body, &mut outcome).await {
                Verdict::Acknowledged => {
                    outcome.acknowledged = true;
                    break;
                }
                Verdict::Permanent => break,
                Verdict::Retry => {}
            }
        }
        if outcome.acknowledged && self.target.duplicates {
            self.attempt(&body, &mut outcome).await;
        }
        outcome
    }

    /// One signed POST, signed at the moment it is sent.
    async fn attempt(&self, body: &[u8], outcome: &mut Outcome) -> Verdict {
        let at = self.clock.now();
        let timestamp = at.as_second();
        let signature = sign(&self.target.secret, timestamp, body);
        let sent = self
            .http
            .post(&self.target.url)
            .header("Content-Type", "application/json")
            .header("X-Service-Event", FEEDBACK_CREATED)
            .header("X-Service-Timestamp", timestamp.to_string())
            .header("X-Service-Signature", signature)
            .body(body.to_vec())
            .send()
            .await;
        let (result, verdict) = match sent {
            Ok(response) => {
                let status = response.status().as_u16();
                (AttemptResult::Status(status), verdict(status))
            }
            Err(error) => (
                AttemptResult::Network(network_reason(&error)),
                Verdict::Retry,
            ),
        };
        tracing::info!(url = %self.target.url, ?result, "webhook attempt");
        outcome.attempts.push(Attempt { at, result });
        verdict
    }
}

/// `wait` times `scale`; a negative or NaN scale waits not at all, a huge one for ever.
fn scaled(wait: Duration, scale: f64) -> Duration {
    let seconds = wait.as_secs_f64() * scale;
    if seconds.is_nan() || seconds <= 0.0 {
        return Duration::ZERO;
    }
    Duration::try_from_secs_f64(seconds).unwrap_or(Duration::MAX)
}

fn verdict(status: u16) -> Verdict {
    match status {
        200..=299 => Verdict::Acknowledged,
        408 | 429 | 500..=599 => Verdict::Retry,
        _ => Verdict::Permanent,
    }
}

fn network_reason(error: &reqwest::Error) -> String {
    if error.is_timeout() {
        "timed out".to_owned()
    } else if error.is_connect() {
        "could not connect".to_owned()
    } else {
        "the connection failed".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scaling_never_panics() {
        let hour = Duration::from_secs(3600);
        assert_eq!(scaled(hour, 0.5), Duration::from_secs(1800));
        assert_eq!(scaled(hour, 0.0), Duration::ZERO);
        assert_eq!(scaled(hour, -1.0), Duration::ZERO);
        assert_eq!(scaled(hour, f64::NAN), Duration::ZERO);
        assert_eq!(scaled(hour, 1e300), Duration::MAX);
        assert_eq!(scaled(hour, f64::INFINITY), Duration::MAX);
    }
}
