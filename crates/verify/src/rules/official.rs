//! The official rules files, pinned (issue 11, "inputs pinned"; spec/formats.md §4.4, spec/appliance.md §5.B1): the SHA-256
//! of each rules file the regulation's operations use is fixed in the appliance, so a doctored
//! file that keeps an official operation or game id (another cap, another tranche) is refused
//! rather than bound into a result. Files of other ids (reduced test games) are not official: a
//! command uses them only when told so (`--unofficial-rules`, [`Admission`]), and every output
//! made under them says so in a signed member, `"unofficial_rules": true` ([`UnofficialRules`],
//! spec/formats.md §7.4). A verifier recomputes the standing from the id and the SHA-256 an output binds
//! and requires the member to agree ([M-290] … [M-297]).
//!
//! The same table is in the Python verifier (`verifier/vofficial.py`); a test below reads it.

use crate::crypto::Hash32;

/// Official rules files: the operation or game id they declare, and the SHA-256 of their bytes.
pub const OFFICIAL: &[(&str, &str)] = &[
    (
        "chanceux-noel-2018",
        "4219ce2a0d422719e3288cf9603b4732d516544f05f8b0ba090426be0025f410",
    ),
    (
        "noel-de-la-chance-2015",
        "1a86436de6b84c4e799371906e36f27b30f2229b593196f587394127adc5274e",
    ),
];

/// What a rules file is, by the id it declares and the SHA-256 of its bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Standing {
    /// The official file of that id.
    Official,
    /// An id that no official file has (a reduced test game, say).
    Unofficial,
    /// An official id, other bytes: the pinned SHA-256 is given.
    Doctored(Hash32),
}

impl Standing {
    /// The signed member an output made under rules of this standing carries: `Some` for
    /// unofficial rules, `None` for official ones (a doctored file is never used: it is refused).
    pub fn mark(self) -> Option<UnofficialRules> {
        match self {
            Standing::Unofficial => Some(UnofficialRules),
            Standing::Official | Standing::Doctored(_) => None,
        }
    }
}

/// What the first line of a verdict, and a command's note, say of rules that are not an official
/// regulation, before their ids (spec/formats.md §7.4, §8.1 [M-296]).
pub const WORDS: &str = "règlement non officiel / unofficial rules";

/// Whether a command may use rules that are not an official regulation: only when its command
/// line says so (`--unofficial-rules`, spec/appliance.md §7.4 [M-290]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Admission {
    /// Only the pinned official regulations (the default).
    #[default]
    OfficialOnly,
    /// Rules of another id too, as the command line says (`--unofficial-rules`).
    UnofficialSaid,
}

impl Admission {
    /// The admission the option `--unofficial-rules` (given or not) makes.
    pub fn from_option(unofficial_rules: bool) -> Admission {
        if unofficial_rules {
            Admission::UnofficialSaid
        } else {
            Admission::OfficialOnly
        }
    }
}

/// The signed member `"unofficial_rules": true` of a version-2 output made under rules that are
/// not an official regulation (spec/formats.md §7.4 [M-292]): it is written `true` and only `true`; an
/// output under official rules has no such member.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UnofficialRules;

/// Its JSON Schema (schemas/, generated in the tests): `true` and only `true`.
#[cfg(test)]
impl schemars::JsonSchema for UnofficialRules {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "UnofficialRules".into()
    }

    fn json_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
        schemars::json_schema!({
            "const": true,
            "description": "Present only under rules that are not an official regulation (spec/formats.md §7.4)."
        })
    }
}

impl serde::Serialize for UnofficialRules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bool(true)
    }
}

impl<'de> serde::Deserialize<'de> for UnofficialRules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        if bool::deserialize(d)? {
            Ok(UnofficialRules)
        } else {
            Err(serde::de::Error::custom(
                "unofficial_rules is true when present (spec/formats.md §7.4)",
            ))
        }
    }
}

/// The standing of a rules file declaring `id` whose bytes hash to `sha256`.
pub fn standing(id: &str, sha256: &Hash32) -> Standing {
    match OFFICIAL.iter().find(|(i, _)| *i == id) {
        None => Standing::Unofficial,
        Some((_, h)) => match Hash32::from_hex(h) {
            Some(pinned) if pinned == *sha256 => Standing::Official,
            Some(pinned) => Standing::Doctored(pinned),
            None => Standing::Unofficial,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::crypto::sha256;

    #[test]
    fn the_shipped_rules_files_are_the_pinned_ones_and_a_changed_byte_is_doctored() {
        let draw = include_bytes!("../../../../rules/chanceux-noel-2018.json");
        let game = include_bytes!("../../../../rules/noel-de-la-chance-2015.json");
        assert_eq!(
            standing("chanceux-noel-2018", &sha256(draw)),
            Standing::Official
        );
        assert_eq!(
            standing("noel-de-la-chance-2015", &sha256(game)),
            Standing::Official
        );
        let mut other = draw.to_vec();
        other[10] ^= 1;
        assert!(matches!(
            standing("chanceux-noel-2018", &sha256(&other)),
            Standing::Doctored(_)
        ));
        assert_eq!(
            standing("test-small-game", &sha256(&other)),
            Standing::Unofficial
        );
        for (_, h) in OFFICIAL {
            assert!(Hash32::from_hex(h).is_some(), "{h}");
        }
    }

    /// The Python verifier's pinned table (verifier/vofficial.py) is this one: the same ids with
    /// the same SHA-256, no more, no fewer (spec/formats.md §7.4 [M-297]).
    #[test]
    fn the_python_verifier_pins_the_same_official_files() {
        let py = include_str!("../../../../verifier/vofficial.py");
        let rows: Vec<(String, String)> = py
            .lines()
            .filter_map(|l| {
                let l = l.trim();
                let (id, h) = l.strip_prefix('"')?.split_once("\": \"")?;
                Some((id.to_string(), h.strip_suffix("\",")?.to_string()))
            })
            .collect();
        let ours: Vec<(String, String)> = OFFICIAL
            .iter()
            .map(|(i, h)| (i.to_string(), h.to_string()))
            .collect();
        assert_eq!(rows, ours);
    }

    #[test]
    fn the_member_is_true_only_and_marks_only_unofficial_rules() {
        assert_eq!(serde_json::to_string(&UnofficialRules).unwrap(), "true");
        assert!(serde_json::from_str::<UnofficialRules>("true").is_ok());
        assert!(serde_json::from_str::<UnofficialRules>("false").is_err());
        assert!(serde_json::from_str::<UnofficialRules>("\"true\"").is_err());
        assert_eq!(Standing::Unofficial.mark(), Some(UnofficialRules));
        assert_eq!(Standing::Official.mark(), None);
        assert_eq!(Admission::from_option(true), Admission::UnofficialSaid);
        assert_eq!(Admission::from_option(false), Admission::OfficialOnly);
    }
}
