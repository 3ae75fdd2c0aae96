//! The mail check: with `[mail]`, whether replies can leave the way it says (the SMTP server
//! answers, over TLS and logged in where it must be; the sendmail program is there), sending
//! nothing. Without `[mail]` there is nothing to check. No line shows the SMTP password.

use super::Check;
use crate::context::Context;
use feedback_config::mail::{MailSettings, Via};
use feedback_mail::transport::Mailer;

/// The `mail` check of this command line's `[mail]`.
pub(super) async fn check(args: &Context) -> Check {
    let Ok(loaded) = args.config() else {
        return Check::skip("mail", "the config file must be fixed first");
    };
    let settings = match MailSettings::from_config(loaded.and_then(|l| l.file.mail.as_ref())) {
        Ok(Some(settings)) => settings,
        Ok(None) => return Check::skip("mail", "no [mail] in config.toml: replies are not sent"),
        Err(why) => return Check::fail("mail", why.to_string(), "fix [mail] in config.toml"),
    };
    if settings.via == Via::Mailto {
        return Check::ok("mail", "replies go to the desktop's mail client (mailto)");
    }
    if let Err(why) = feedback_mail::compose::from(&settings.from) {
        return Check::fail(
            "mail",
            why.to_string(),
            "from = \"Name <address>\" in [mail]",
        );
    }
    let mailer = match Mailer::new(&settings) {
        Ok(mailer) => mailer,
        Err(why) => return Check::fail("mail", why.to_string(), "fix [mail] in config.toml"),
    };
    match mailer.check().await {
        Ok(found) => Check::ok("mail", format!("{found}; nothing was sent")),
        Err(why) => Check::fail(
            "mail",
            why,
            "check smtp_url, username and password_command in [mail] (or the sendmail program)",
        ),
    }
}
