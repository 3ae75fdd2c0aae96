//! The writing machinery of `list` and `search`: `--fields` (columns in every format, `all`
//! with metadata and delivery links), details from the store or fetched (`--with-detail`),
//! streaming sinks whose memory stays flat, tables that fit the terminal, the stored items by
//! key, and the resumable walk of `list --all` with its progress line. It takes typed inputs
//! ([`sink::Options`], keys, a query, a window) and knows nothing of the commands' flags.

pub mod api_row;
pub mod bulk;
pub mod detail;
pub mod fields;
pub mod progress;
pub mod resume;
pub mod sink;
pub mod stored;
pub mod table_fit;

use super::CliError;

pub use fields::{Field, Keys, Record};

/// `--with-detail` fetches metadata and delivery links: without a column that shows them it
/// would spend a request per item for nothing, so it is refused.
pub(crate) fn check_with_detail(with_detail: bool, needs_detail: bool) -> Result<(), CliError> {
    if with_detail && !needs_detail {
        return Err(CliError::Usage(
            "--with-detail fetches metadata and delivery links, and no column shows them: add \
             --fields with metadata, delivery, meta.KEY, custom.KEY, link.CHANNEL or all"
                .to_owned(),
        ));
    }
    Ok(())
}
