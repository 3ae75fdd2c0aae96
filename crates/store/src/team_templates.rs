//! The team's shared reply templates as last read from it (`team_templates`), so `R` and
//! `reply --template` offer them offline too. The team sync replaces them whole each time it
//! reads them; they are forgotten with the rest of the replica. Their text is a teammate's:
//! untrusted, made inert where shown, filled in where sent.

use jiff::Timestamp;
use rusqlite::params;

use super::read::micros;
use super::{Store, StoreError};

/// One template the team shares.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamTemplate {
    pub name: String,
    pub subject: Option<String>,
    pub body: String,
    /// The member who shared it last.
    pub shared_by: String,
    pub at: Timestamp,
}

impl Store {
    /// Keeps `templates` as the team's, in place of those kept before, in one transaction;
    /// whether they differ from those (so the inbox is told only of a change).
    pub fn put_team_templates(&mut self, templates: &[TeamTemplate]) -> Result<bool, StoreError> {
        if self.team_templates()? == sorted(templates) {
            return Ok(false);
        }
        self.transact(|tx| {
            tx.execute("DELETE FROM team_templates", [])?;
            let mut put = tx.prepare_cached(
                "INSERT INTO team_templates (name, subject, body, shared_by, at)
                 VALUES (?1, ?2, ?3, ?4, ?5) ON CONFLICT (name) DO NOTHING",
            )?;
            for t in templates {
                put.execute(params![
                    t.name,
                    t.subject,
                    t.body,
                    t.shared_by,
                    t.at.as_microsecond()
                ])?;
            }
            Ok(true)
        })
    }

    /// The team's templates as last read, by name (whatever its case).
    pub fn team_templates(&self) -> Result<Vec<TeamTemplate>, StoreError> {
        let read = || -> rusqlite::Result<Vec<TeamTemplate>> {
            self.conn
                .prepare_cached(
                    "SELECT name, subject, body, shared_by, at FROM team_templates
                     ORDER BY lower(name), name",
                )?
                .query_map([], |r| {
                    Ok(TeamTemplate {
                        name: r.get(0)?,
                        subject: r.get(1)?,
                        body: r.get(2)?,
                        shared_by: r.get(3)?,
                        at: micros(r.get(4)?).unwrap_or_default(),
                    })
                })?
                .collect()
        };
        read().map_err(|e| self.error(e))
    }
}

/// `templates` in the order [`Store::team_templates`] reads them.
fn sorted(templates: &[TeamTemplate]) -> Vec<TeamTemplate> {
    let mut sorted = templates.to_vec();
    sorted.sort_by(|a, b| (a.name.to_lowercase(), &a.name).cmp(&(b.name.to_lowercase(), &b.name)));
    sorted.dedup_by(|a, b| a.name == b.name);
    sorted
}

#[cfg(test)]
mod tests {
    use super::*;

    fn template(name: &str, body: &str) -> TeamTemplate {
        TeamTemplate {
            name: name.to_owned(),
            subject: Some(format!("About {name}")),
            body: body.to_owned(),
            shared_by: "ana".to_owned(),
            at: Timestamp::from_second(1_700_000_000).unwrap(),
        }
    }

    #[test]
    fn the_team_templates_are_replaced_whole_and_a_read_without_change_says_so() {
        let mut store = Store::open_memory().unwrap();
        assert!(store.team_templates().unwrap().is_empty());
        let first = [
            template("fixed", "Fixed in {version}."),
            template("Logs", "Send logs"),
        ];
        assert!(store.put_team_templates(&first).unwrap());
        let kept = store.team_templates().unwrap();
        assert_eq!(
            kept.iter().map(|t| t.name.as_str()).collect::<Vec<_>>(),
            ["fixed", "Logs"]
        );
        assert_eq!(kept[0], first[0]);
        assert!(!store.put_team_templates(&first).unwrap());
        assert!(
            store
                .put_team_templates(&[template("Logs", "Send logs, please")])
                .unwrap()
        );
        let kept = store.team_templates().unwrap();
        assert_eq!(kept.len(), 1);
        assert_eq!(kept[0].body, "Send logs, please");
        assert!(store.put_team_templates(&[]).unwrap());
        assert!(store.team_templates().unwrap().is_empty());
    }
}
