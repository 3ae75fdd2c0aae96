//! A view's rows lent to a writer for the time of a callback: the columns as the store holds
//! them, borrowed, so a bulk export turns each row straight into text with no item made for
//! it (an item is a dozen allocations; at a million rows they were most of an export's time).

use jiff::Timestamp;
use rusqlite::params_from_iter;

use super::read::micros;
use super::{Store, StoreError, ViewQuery};

/// Which of a row's columns a writer reads. Those it leaves out are not read from the store
/// (nor their joins) and are empty in the rows it is lent: `""`, no email, no tags, no app.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(clippy::struct_excessive_bools)] // a set of column groups, each in or out
pub struct RowNeeds {
    pub message: bool,
    pub email: bool,
    pub tags: bool,
    pub project: bool,
    pub app: bool,
}

impl RowNeeds {
    /// Every column (the API's item shape).
    pub const ALL: Self = Self {
        message: true,
        email: true,
        tags: true,
        project: true,
        app: true,
    };
}

/// One row of a view, borrowed (see [`Store::view_rows_each`]). Text is the store's: the
/// service's bytes, not sanitized.
#[derive(Debug, Clone, Copy)]
pub struct ItemRow<'r> {
    pub key: i64,
    pub id: &'r str,
    pub message: &'r str,
    pub email: Option<&'r str>,
    /// The status the item was listed under, or the one this version does not know that it
    /// carried.
    pub status: &'r str,
    pub received_at: Timestamp,
    /// The tags as stored: a JSON array of strings.
    pub tags: &'r str,
    pub project: RefRow<'r>,
    pub app: Option<AppRow<'r>>,
}

/// A project as an item names it.
#[derive(Debug, Clone, Copy)]
pub struct RefRow<'r> {
    pub id: &'r str,
    pub name: &'r str,
}

/// An app as an item names it.
#[derive(Debug, Clone, Copy)]
pub struct AppRow<'r> {
    pub id: &'r str,
    pub name: &'r str,
    pub platform: &'r str,
}

impl Store {
    /// The rows of the view `query`, newest first (at most `limit`), each lent to `each` as it
    /// is read, with the columns `needs` asks for: the same walk as
    /// [`Store::view_items_each`], in flat memory.
    pub fn view_rows_each<E: From<StoreError>>(
        &self,
        query: &ViewQuery,
        limit: Option<usize>,
        needs: RowNeeds,
        mut each: impl FnMut(&ItemRow<'_>) -> Result<(), E>,
    ) -> Result<(), E> {
        let (sql, params) = self.view_rows_sql(query, limit, needs)?;
        let mut stmt = self
            .conn()
            .prepare_cached(&sql)
            .map_err(|e| self.error(e))?;
        let mut rows = stmt
            .query(params_from_iter(params))
            .map_err(|e| self.error(e))?;
        while let Some(row) = rows.next().map_err(|e| self.error(e))? {
            let text = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_str()?));
            let optional = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_str_or_null()?));
            let read = || -> rusqlite::Result<ItemRow<'_>> {
                let app = match optional(10)?.filter(|_| needs.app) {
                    Some(id) => Some(AppRow {
                        id,
                        name: text(11)?,
                        platform: text(12)?,
                    }),
                    None => None,
                };
                Ok(ItemRow {
                    key: row.get(0)?,
                    id: text(1)?,
                    message: if needs.message { text(2)? } else { "" },
                    email: optional(3)?,
                    status: text(4)?,
                    received_at: micros(row.get(5)?).unwrap_or(Timestamp::UNIX_EPOCH),
                    tags: text(6)?,
                    project: if needs.project {
                        RefRow {
                            id: text(8)?,
                            name: text(9)?,
                        }
                    } else {
                        RefRow { id: "", name: "" }
                    },
                    app,
                })
            };
            let item = read().map_err(|e| self.error(e))?;
            each(&item)?;
        }
        Ok(())
    }
}
