//! Splitting a JSON object into the draw core's members and the others, so that `result.json`
//! and `bundle.json` are parsed with every member closed (`deny_unknown_fields` on each part)
//! without serde's `flatten`, which does not support it. Each member is kept as its raw JSON
//! text, so a key given twice is refused at every depth (spec/formats.md §1.5): here for the object's
//! own members, by the derived parsers inside them.

use serde::de::{Deserializer, Error, MapAccess, Visitor};
use serde_json::value::RawValue;

/// An object's members, the draw core's apart, each part as the JSON text of an object.
pub struct Split {
    /// The members named in the list given.
    pub core: String,
    /// The other members.
    pub rest: String,
}

impl Split {
    /// Reads one JSON object from `d` (a `serde_json` deserializer), putting the members named
    /// in `core` apart.
    ///
    /// # Errors
    /// Not an object, or a member twice.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D, core: &[&str]) -> Result<Split, D::Error> {
        d.deserialize_map(SplitVisitor(core))
    }
}

struct SplitVisitor<'a>(&'a [&'a str]);

impl<'de> Visitor<'de> for SplitVisitor<'_> {
    type Value = Split;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON object")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut m: A) -> Result<Split, A::Error> {
        let mut seen: Vec<String> = vec![];
        let (mut core, mut rest) = (vec![], vec![]);
        while let Some(k) = m.next_key::<String>()? {
            if seen.contains(&k) {
                return Err(A::Error::custom(format!("duplicate field `{k}`")));
            }
            let v: Box<RawValue> = m.next_value()?;
            let member = format!(
                "{}:{}",
                serde_json::to_string(&k).map_err(A::Error::custom)?,
                v.get()
            );
            if self.0.contains(&k.as_str()) {
                core.push(member);
            } else {
                rest.push(member);
            }
            seen.push(k);
        }
        Ok(Split {
            core: format!("{{{}}}", core.join(",")),
            rest: format!("{{{}}}", rest.join(",")),
        })
    }
}
