//! Item ids as the triage commands take them: on the command line, and for a `-` among them,
//! one per line from stdin, as a piped `search … --fields id,…` prints them
//! (`feedback-inbox search 'crash' --fields id | feedback-inbox mark - --done`): the first
//! tab-separated column of each line, its header line (`id`) skipped. Blank lines are skipped;
//! stdin is read once, however many `-` there are.

use std::io::BufRead;

use crate::CliError;

/// The ids `given` names, `-` read from stdin.
///
/// # Errors
/// Stdin cannot be read (or is not text), or no id was given at all.
pub(crate) fn expand(given: &[String]) -> Result<Vec<String>, CliError> {
    expand_from(given, std::io::stdin().lock())
}

fn expand_from(given: &[String], mut stdin: impl BufRead) -> Result<Vec<String>, CliError> {
    let mut ids = Vec::new();
    let mut read = false;
    for id in given {
        if id != "-" {
            ids.push(id.clone());
            continue;
        }
        if std::mem::replace(&mut read, true) {
            continue;
        }
        let mut line = String::new();
        let mut first = true;
        loop {
            line.clear();
            if stdin.read_line(&mut line)? == 0 {
                break;
            }
            let id = line.split('\t').next().unwrap_or_default().trim();
            if std::mem::replace(&mut first, false) && id == "id" {
                continue;
            }
            if !id.is_empty() {
                ids.push(id.to_owned());
            }
        }
    }
    if ids.is_empty() {
        return Err(CliError::Usage(if read {
            "no item ids given (stdin had none)".to_owned()
        } else {
            "no item ids given".to_owned()
        }));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(w: &[&str]) -> Vec<String> {
        w.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn a_dash_reads_ids_from_stdin_once_in_its_place() {
        let stdin = "fb_2\n\n  fb_3  \r\nfb_4".as_bytes();
        let ids = expand_from(&words(&["fb_1", "-", "fb_5", "-"]), stdin).unwrap();
        assert_eq!(ids, ["fb_1", "fb_2", "fb_3", "fb_4", "fb_5"]);
        assert!(expand_from(&words(&["-"]), "\n \n".as_bytes()).is_err());
        // A piped table: its header skipped, the first column taken.
        let table = "id\tmessage\nfb_7\tit crashes\tagain\nfb_8\t\n".as_bytes();
        assert_eq!(
            expand_from(&words(&["-"]), table).unwrap(),
            ["fb_7", "fb_8"]
        );
        // Only a first line is a header.
        let later = "fb_1\nid\n".as_bytes();
        assert_eq!(expand_from(&words(&["-"]), later).unwrap(), ["fb_1", "id"]);
        assert!(expand_from(&[], "fb_1\n".as_bytes()).is_err());
    }
}
