//! Production's own list of the exports it sent: the SHA-256 of each, one per line, as
//! `sha256sum` prints them (`HASH  NAME`; the name is kept for messages only). Blank lines and
//! lines beginning `#` are ignored. Every result imported must be bound to one of them
//! (its `export.sha256`, spec/formats.md §4.7).

use crate::error::{ImportError, Kind};
use std::collections::BTreeMap;
use urne_verify::crypto::Hash32;

/// The exports production sent, by SHA-256, with the name its list gives each.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Exports(BTreeMap<Hash32, String>);

impl Exports {
    /// Reads a list (`what`: where it comes from, for messages).
    ///
    /// # Errors
    /// A line that is not a SHA-256 in lowercase hex, optionally followed by a name.
    pub fn parse(text: &str, what: &str) -> Result<Exports, ImportError> {
        let mut m = BTreeMap::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim_end_matches('\r');
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let (hash, name) = line.split_once(char::is_whitespace).unwrap_or((line, ""));
            let lower = hash.len() == 64
                && hash
                    .bytes()
                    .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
            let parsed = if lower { Hash32::from_hex(hash) } else { None };
            let Some(h) = parsed else {
                return Err(ImportError::new(
                    Kind::Usage,
                    format!(
                        "{what} line {}: not the SHA-256 of an export (64 lowercase hex digits, then its name)",
                        i + 1
                    ),
                    "list each export production sent as sha256sum prints it: sha256sum entries-*.jsonl > exports.sha256",
                ));
            };
            m.insert(h, name.trim().trim_start_matches('*').to_string());
        }
        Ok(Exports(m))
    }

    /// Whether production sent the export of SHA-256 `h`.
    #[must_use]
    pub fn contains(&self, h: &Hash32) -> bool {
        self.0.contains_key(h)
    }

    /// The name production's list gives the export `h`.
    #[must_use]
    pub fn name(&self, h: &Hash32) -> Option<&str> {
        self.0.get(h).map(String::as_str)
    }

    /// How many exports are listed.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether the list is empty.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const A: &str = "4219ce2a0d422719e3288cf9603b4732d516544f05f8b0ba090426be0025f410";

    #[test]
    fn a_sha256sum_listing_reads_and_anything_else_is_refused() {
        let e = Exports::parse(&format!("# sent\n\n{A}  entries-2018-12-01.jsonl\n"), "x").unwrap();
        assert_eq!(e.len(), 1);
        let h = Hash32::from_hex(A).unwrap();
        assert!(e.contains(&h));
        assert_eq!(e.name(&h), Some("entries-2018-12-01.jsonl"));
        for bad in [&A[..63], &A.to_uppercase(), "not a hash", &format!("{A}0")] {
            let err = Exports::parse(bad, "x").unwrap_err();
            assert_eq!(err.kind, Kind::Usage, "{bad}");
        }
    }
}
