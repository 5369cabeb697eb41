//! The reference's JSON: `serde_json` (RFC 8259) into a value that keeps what the export format
//! needs to know and `serde_json::Value` loses: a key twice in one object is an error at any
//! depth, and an integer written without fraction or exponent is told apart from other numbers.

use serde::de::{self, Deserialize, Deserializer, MapAccess, SeqAccess, Visitor};
use std::collections::HashSet;

/// A JSON value.
#[derive(Debug, Clone, PartialEq)]
pub enum J {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool(bool),
    /// A number written as an integer (no fraction, no exponent) that fits an `i64` or a `u64`.
    Int(i128),
    /// Any other number (a fraction, an exponent, or an integer beyond `u64`).
    Float,
    /// A string, escapes decoded.
    Str(String),
    /// An array.
    Arr(Vec<J>),
    /// An object, its members in order (no key twice).
    Obj(Vec<(String, J)>),
}

impl J {
    /// Nesting depth: 0 for a scalar, 1 for an object or array of scalars.
    pub fn depth(&self) -> usize {
        match self {
            J::Arr(a) => 1 + a.iter().map(J::depth).max().unwrap_or(0),
            J::Obj(m) => 1 + m.iter().map(|(_, v)| v.depth()).max().unwrap_or(0),
            _ => 0,
        }
    }
}

struct V;

impl<'de> Visitor<'de> for V {
    type Value = J;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value")
    }
    fn visit_unit<E>(self) -> Result<J, E> {
        Ok(J::Null)
    }
    fn visit_bool<E>(self, b: bool) -> Result<J, E> {
        Ok(J::Bool(b))
    }
    fn visit_i64<E>(self, n: i64) -> Result<J, E> {
        Ok(J::Int(i128::from(n)))
    }
    fn visit_u64<E>(self, n: u64) -> Result<J, E> {
        Ok(J::Int(i128::from(n)))
    }
    fn visit_f64<E>(self, _: f64) -> Result<J, E> {
        Ok(J::Float)
    }
    fn visit_str<E>(self, s: &str) -> Result<J, E> {
        Ok(J::Str(s.to_string()))
    }
    fn visit_string<E>(self, s: String) -> Result<J, E> {
        Ok(J::Str(s))
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<J, A::Error> {
        let mut v = Vec::new();
        while let Some(x) = seq.next_element::<J>()? {
            v.push(x);
        }
        Ok(J::Arr(v))
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<J, A::Error> {
        let mut seen = HashSet::new();
        let mut members = Vec::new();
        while let Some(k) = map.next_key::<String>()? {
            if !seen.insert(k.clone()) {
                return Err(de::Error::custom(format!("duplicate key {k:?}")));
            }
            members.push((k, map.next_value::<J>()?));
        }
        Ok(J::Obj(members))
    }
}

impl<'de> Deserialize<'de> for J {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<J, D::Error> {
        d.deserialize_any(V)
    }
}

/// The member `key` of an object's members.
pub fn get<'a>(members: &'a [(String, J)], key: &str) -> Option<&'a J> {
    members.iter().find(|(k, _)| k == key).map(|(_, v)| v)
}
