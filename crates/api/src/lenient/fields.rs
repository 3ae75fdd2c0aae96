//! The readers the wire types ([`crate::model`]) name in their serde attributes, so one
//! odd field never costs its item: `#[serde(default, deserialize_with = "As::<Needed<Text>>::deserialize")]`.
//!
//! Two wrappers decide what a value that cannot be read becomes: [`Needed`] (an absent or `null`
//! one is noted as missing) and [`OrDefault`] (an absent or `null` one is simply the default);
//! in both, a value the inner reader refuses becomes the default and the reader's reason is
//! noted ([`super::notes`]). The inner readers say what they accept: [`Text`] (a string, number
//! or boolean as text), [`Id`] (an item's identity; refused, the item is skipped), [`Time`],
//! [`Count`], [`TextMap`], and lists built on serde_with's `VecSkipError` ([`Texts`],
//! [`Entries`]). A wrapper reads its value again through [`Tracked`], so the fields of an
//! object it holds are named too.

use std::collections::BTreeMap;
use std::marker::PhantomData;

use jiff::Timestamp;
use serde::de::Error as _;
use serde::{Deserialize, Deserializer};
use serde_json::Value;
use serde_with::{DeserializeAs, InspectError, VecSkipError};

use super::notes::note;
use super::tracked::Tracked;

/// `X`; absent or `null` is noted as missing and gives the default, and so does a value `X`
/// refuses, noted with its reason.
pub(crate) struct Needed<X>(PhantomData<X>);

/// `X`; absent or `null` gives the default without a note, a value `X` refuses gives the
/// default noted with its reason.
pub(crate) struct OrDefault<X>(PhantomData<X>);

/// `X`, read through [`Tracked`]: for a list's entries, which serde_with's `VecSkipError` hands
/// on without the names of their fields.
pub(crate) struct Named<X>(PhantomData<X>);

impl<'de, T, X> DeserializeAs<'de, T> for Needed<X>
where
    T: Default,
    X: for<'a> DeserializeAs<'a, T>,
{
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if value.is_null() {
            note("missing");
            return Ok(T::default());
        }
        Ok(read_or_default::<T, X>(&value))
    }
}

impl<'de, T, X> DeserializeAs<'de, T> for OrDefault<X>
where
    T: Default,
    X: for<'a> DeserializeAs<'a, T>,
{
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let value = Value::deserialize(deserializer)?;
        if value.is_null() {
            return Ok(T::default());
        }
        Ok(read_or_default::<T, X>(&value))
    }
}

impl<'de, T, X> DeserializeAs<'de, T> for Named<X>
where
    X: for<'a> DeserializeAs<'a, T>,
{
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let value = Value::deserialize(deserializer)?;
        X::deserialize_as(Tracked(&value)).map_err(D::Error::custom)
    }
}

fn read_or_default<T: Default, X: for<'a> DeserializeAs<'a, T>>(value: &Value) -> T {
    X::deserialize_as(Tracked(value)).unwrap_or_else(|error| {
        note(&error.to_string());
        T::default()
    })
}

/// A string, number or boolean as text; an open enumeration from that text.
pub(crate) struct Text;

impl<'de, T: for<'s> From<&'s str>> DeserializeAs<'de, T> for Text {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let value = Value::deserialize(deserializer)?;
        scalar_text(&value)
            .map(|text| T::from(text.as_str()))
            .ok_or_else(|| D::Error::custom("not text"))
    }
}

/// An item's identity: a string with more than blanks in it, or an integer. Anything else is
/// refused, and the item with it.
pub(crate) struct Id;

impl<'de, T: for<'s> From<&'s str>> DeserializeAs<'de, T> for Id {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<T, D::Error> {
        let id = match Value::deserialize(deserializer)? {
            Value::String(s) => Some(s),
            Value::Number(n) if n.is_u64() || n.is_i64() => Some(n.to_string()),
            _ => None,
        };
        id.filter(|id| !id.trim().is_empty())
            .map(|id| T::from(id.as_str()))
            .ok_or_else(|| D::Error::custom("no usable id"))
    }
}

/// RFC 3339 (without an offset, the civil time is read as UTC), or Unix seconds.
pub(crate) struct Time;

impl<'de> DeserializeAs<'de, Timestamp> for Time {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<Timestamp, D::Error> {
        let time = match Value::deserialize(deserializer)? {
            Value::String(s) => parse_time(&s),
            Value::Number(n) => n.as_i64().and_then(|s| Timestamp::from_second(s).ok()),
            _ => None,
        };
        time.ok_or_else(|| D::Error::custom("not a time"))
    }
}

/// A whole number, also written as a string.
pub(crate) struct Count;

impl<'de> DeserializeAs<'de, u64> for Count {
    fn deserialize_as<D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let count = match Value::deserialize(deserializer)? {
            Value::Number(n) => n.as_u64(),
            Value::String(s) => s.trim().parse().ok(),
            _ => None,
        };
        count.ok_or_else(|| D::Error::custom("not a whole number"))
    }
}

/// An object's values as text: a string, number or boolean as its text, anything else as its
/// JSON.
pub(crate) struct TextMap;

impl<'de> DeserializeAs<'de, BTreeMap<String, String>> for TextMap {
    fn deserialize_as<D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<BTreeMap<String, String>, D::Error> {
        let Value::Object(map) = Value::deserialize(deserializer)? else {
            return Err(D::Error::custom("not an object"));
        };
        Ok(map
            .into_iter()
            .map(|(key, value)| {
                let text = scalar_text(&value).unwrap_or_else(|| value.to_string());
                (key, text)
            })
            .collect())
    }
}

/// A list of texts; an entry that is not text is left out, and noted.
pub(crate) type Texts = VecSkipError<Text, EntryNotText>;

/// A list of objects read as `X`; an entry that is not one is left out, and noted.
pub(crate) type Entries<X> = VecSkipError<Named<X>, EntryNotObject>;

/// Notes an entry of [`Texts`] left out.
pub(crate) struct EntryNotText;

impl InspectError for EntryNotText {
    fn inspect_error(_error: impl serde::de::Error) {
        note("some entries are not text");
    }
}

/// Notes an entry of [`Entries`] left out.
pub(crate) struct EntryNotObject;

impl InspectError for EntryNotObject {
    fn inspect_error(_error: impl serde::de::Error) {
        note("an entry is not an object");
    }
}

/// A string, number or boolean as text.
pub(super) fn scalar_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

/// RFC 3339 with an offset; without one, the civil time is read as UTC.
fn parse_time(text: &str) -> Option<Timestamp> {
    text.parse::<Timestamp>().ok().or_else(|| {
        let civil = text.parse::<jiff::civil::DateTime>().ok()?;
        civil
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp())
    })
}
