//! A JSON value read by serde with the name of each field entered while it is read (see
//! [`super::notes`]), so a reader that replaces a value can say where it was.
//!
//! A struct is offered every field it declares, in its order: an absent field as `null`, so
//! absent and `null` are one case for the readers of [`super::fields`] and a needed field that
//! is absent is noted as missing. Keys the struct does not declare are never offered. A struct
//! read from anything but an object fails with "not an object", a list from anything but an
//! array with "not a list": the readers note those texts as they are.

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};
use serde::forward_to_deserialize_any;
use serde_json::{Error, Map, Value};

use super::notes;

/// What an absent field is read as.
static ABSENT: Value = Value::Null;

/// `value`, read with its fields' names remembered.
pub(super) struct Tracked<'a>(pub &'a Value);

impl<'de> de::Deserializer<'de> for Tracked<'de> {
    type Error = Error;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.iter())),
            Value::Object(map) => visitor.visit_map(Fields::new(present(map))),
            leaf => leaf.deserialize_any(visitor),
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Null => visitor.visit_none(),
            _ => visitor.visit_some(self),
        }
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        let Value::Object(map) = self.0 else {
            return Err(de::Error::custom("not an object"));
        };
        let declared = fields
            .iter()
            .map(|name| (*name, map.get(*name).unwrap_or(&ABSENT)));
        visitor.visit_map(Fields::new(declared))
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Object(map) => visitor.visit_map(Fields::new(present(map))),
            _ => Err(de::Error::custom("not an object")),
        }
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Error> {
        match self.0 {
            Value::Array(items) => visitor.visit_seq(Items(items.iter())),
            _ => Err(de::Error::custom("not a list")),
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Error> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Error> {
        self.0.deserialize_enum(name, variants, visitor)
    }

    forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string
        bytes byte_buf unit unit_struct tuple tuple_struct identifier ignored_any
    }
}

fn present(map: &Map<String, Value>) -> impl Iterator<Item = (&str, &Value)> {
    map.iter().map(|(key, value)| (key.as_str(), value))
}

/// An object's entries, each value read with its key entered.
struct Fields<'de, I> {
    entries: I,
    next: Option<(&'de str, &'de Value)>,
}

impl<I> Fields<'_, I> {
    fn new(entries: I) -> Self {
        Self {
            entries,
            next: None,
        }
    }
}

impl<'de, I: Iterator<Item = (&'de str, &'de Value)>> MapAccess<'de> for Fields<'de, I> {
    type Error = Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, Error> {
        let Some((key, value)) = self.entries.next() else {
            return Ok(None);
        };
        self.next = Some((key, value));
        seed.deserialize(BorrowedStrDeserializer::new(key))
            .map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Error> {
        let (key, value) = self
            .next
            .take()
            .ok_or_else(|| de::Error::custom("a value asked for before its key"))?;
        let _inside = notes::enter(key);
        seed.deserialize(Tracked(value))
    }
}

/// An array's elements, each read tracked.
struct Items<'de>(std::slice::Iter<'de, Value>);

impl<'de> SeqAccess<'de> for Items<'de> {
    type Error = Error;

    fn next_element_seed<T: DeserializeSeed<'de>>(
        &mut self,
        seed: T,
    ) -> Result<Option<T::Value>, Error> {
        self.0
            .next()
            .map(|value| seed.deserialize(Tracked(value)))
            .transpose()
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.0.len())
    }
}
