//! The void notice (spec/formats.md §4.6, §5.B9): the signed output a void writes, an output of its own
//! with its place in the trail's history (spec/appliance.md §6.7), announcing that a day's or a block's attempt
//! was annulled: its format and subject. What it states is read from the trail by the appliance
//! (`urne_ceremony::void_statement`).

use crate::audit::history::History;
use crate::block::files::stem;
use serde::{Deserialize, Deserializer, Serialize};

/// The `format` of a void notice (spec/formats.md §4.6).
pub const FORMAT: &str = "urne-void-notice";
/// The notice's file name in its folder: the output's primary file (spec/formats.md §6.7).
pub const FILE_NAME: &str = "void-notice.json";
/// The only version of the notice: it exists from version 2 on (spec/rationale.md §7.3).
pub const VERSION: u32 = 2;

/// `void-notice.json` (spec/formats.md §4.6). Of `day` and `block` exactly one is non-null; both
/// members are always present.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct VoidNotice {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// For a day, the rules' operation (from the voided attempt's seal); for a block, its game.
    pub operation: String,
    /// The day whose attempt was voided (`YYYY-MM-DD`), or `null` for a block.
    #[serde(deserialize_with = "present")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<String>")
    )]
    pub day: Option<String>,
    /// The block whose attempt was voided (canonical id, spec/formats.md §5.B2), or `null` for a day.
    #[serde(deserialize_with = "present")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<String>")
    )]
    pub block: Option<String>,
    /// The attempt voided.
    pub attempt: u32,
    /// The reason recorded with the void.
    pub reason: String,
    /// What the attempt had reached when it was voided.
    pub stage: String,
    /// The sequence number of the `draw.void` or `block.void` event (spec/formats.md §6.1).
    pub void_seq: u64,
    /// That event's time (RFC 3339 UTC, from the appliance's clock).
    pub voided_at: String,
    /// The signed audit checkpoint (spec/formats.md §6.3), covering the void event.
    pub audit_checkpoint: String,
    /// Key id (spec/formats.md §1.3) of the result key that signs the notice.
    pub result_key_id: String,
    /// Key id (spec/formats.md §1.3) of the audit key that signs the checkpoints.
    pub audit_key_id: String,
    /// The notice's place in the trail's history (spec/formats.md §6.7).
    pub history: History,
}

/// A nullable member that must be present (`null` or a string), unlike serde's default for
/// `Option`, which lets it be missing.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    Option::<String>::deserialize(d)
}

pub use crate::subject::Voided as Subject;

impl Subject {
    /// The folder a void of `attempt` writes its notice into by default:
    /// `void-<day>-attempt-<n>`, or `void-<block stem>-attempt-<n>` (spec/formats.md §4.6).
    pub fn default_folder(&self, attempt: crate::values::Attempt) -> String {
        match self {
            Subject::Day(d) => format!("void-{d}-attempt-{attempt}"),
            Subject::Block(b) => format!("void-{}-attempt-{attempt}", stem(&b.canonical())),
        }
    }

    /// The `file` the trail records the notice of this void under (`output.published`,
    /// spec/formats.md §6.7): its default path, which names the void wherever the notice was written.
    pub fn recorded_name(&self, attempt: crate::values::Attempt) -> String {
        format!("{}/{FILE_NAME}", self.default_folder(attempt))
    }

    /// `day D` or `block B`, for messages.
    pub fn describe(&self) -> String {
        self.to_string()
    }
}

impl VoidNotice {
    /// The notice's subject: exactly one of `day` and `block` non-null, a day `YYYY-MM-DD` or a
    /// canonical block id (spec/formats.md §4.6 step 2).
    ///
    /// # Errors
    /// Both are null, or both are set, or the one set is not a day or a canonical block id.
    pub fn subject(&self) -> Result<Subject, String> {
        match (&self.day, &self.block) {
            (Some(d), None) => d
                .parse::<crate::values::Day>()
                .map(Subject::Day)
                .map_err(|_| format!("day {d:?} is not YYYY-MM-DD")),
            (None, Some(b)) => crate::values::BlockId::parse(b)
                .map(Subject::Block)
                .map_err(|_| format!("block {b:?} is not a canonical block id")),
            (None, None) => Err("neither day nor block is set".into()),
            (Some(_), Some(_)) => Err("both day and block are set".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_folders_and_recorded_names_name_the_void() {
        let b = Subject::Block(crate::values::BlockId::parse("g/100/e1/3").unwrap());
        assert_eq!(
            b.default_folder(crate::values::Attempt::new(2).unwrap()),
            "void-g_100_e1_3-attempt-2"
        );
        assert_eq!(
            Subject::Day("2018-12-04".parse().unwrap())
                .recorded_name(crate::values::Attempt::new(1).unwrap()),
            "void-2018-12-04-attempt-1/void-notice.json"
        );
    }
}
