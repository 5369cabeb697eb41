//! A sitting (spec/appliance.md §9): the work done in one process in front of the *commissaire de
//! justice* (`urne ceremony`), recorded in the trail as it happens (`sitting.opened`, then the
//! work's own events, `sitting.resumed` after each interruption, `sitting.closed`) and published
//! as one signed output, `sitting.json` with the minutes `minutes.html`. Everything the minutes
//! state is read from the trail, so the minutes of a sitting interrupted by a crash are rebuilt
//! from it: the process that writes them need not be the one that opened the sitting.

use crate::audit::history::History;
use crate::crypto::Hash32;
use crate::manifest::Listed;
use serde::{Deserialize, Serialize};

/// The `format` of `sitting.json` (spec/formats.md §9.3).
pub const FORMAT: &str = "urne-sitting";
/// Its only version (sittings exist from version 2 on, spec/rationale.md §7.3).
pub const VERSION: u32 = 2;
/// The output's primary file, which also lists the output's other files (spec/formats.md §9.3).
pub const FILE_NAME: &str = "sitting.json";
/// The minutes (informative: a verifier checks their signature and hash, not their wording).
pub const MINUTES: &str = "minutes.html";

/// What a sitting is for (spec/appliance.md §9.1).
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "kebab-case")]
pub enum SittingKind {
    /// Draws, block generations and reveals, voids: the operation's work.
    Sitting,
    /// The key ceremony: the token's keys generated, the trail created, the public keys exported.
    KeyCeremony,
}

/// A person present, with their role (`opérateur`, `représentant de la société`…).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Person {
    /// Name as it is to appear in the minutes.
    pub name: String,
    /// Role or title.
    pub role: String,
}

/// The commissaire de justice who attends the sitting.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Commissaire {
    /// Name (e.g. `Maître Claire Dupont`).
    pub name: String,
    /// Office (`étude`), e.g. `SELARL Dupont & Associés, commissaires de justice à Paris`.
    pub office: String,
}

/// One step of a sitting's work, as planned (spec/appliance.md §9.1): `action` is `draw` (subject a day),
/// `generate` (subject a block's canonical id), `reveal` (subject a block, `detail` the time its
/// sales closed, RFC 3339), or `void` (subject a day or a block, `detail` the reason).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Step {
    /// `draw`, `generate`, `reveal` or `void`.
    pub action: String,
    /// The day (`YYYY-MM-DD`) or block (canonical id) it acts on.
    pub subject: String,
    /// The sales' close of a reveal, the reason of a void; else empty.
    pub detail: String,
}

/// The `sitting.opened` record (spec/formats.md §6.2, spec/appliance.md §9.1): who, where, what is planned. Opened only
/// when no sitting is open; `number` is one more than the trail's last sitting's.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct OpenedRecord {
    /// The sitting's number on this trail, from 1.
    pub number: u32,
    /// What the sitting is for.
    pub kind: SittingKind,
    /// The place of the sitting, as the minutes state it.
    pub place: String,
    /// The town the minutes are made in (`Fait à <town>`), asked apart from the place's
    /// address; absent (empty) in a trail recorded before it was asked.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub town: String,
    /// The commissaire de justice.
    pub commissaire: Commissaire,
    /// The other persons present, in the order given.
    pub present: Vec<Person>,
    /// The language of the minutes and the screens: `fr` or `en`.
    pub lang: String,
    /// The work planned, in order.
    pub plan: Vec<Step>,
}

/// The `sitting.resumed` record (spec/appliance.md §9.1): the open sitting `number` taken up again by a
/// new process after an interruption, with the work still planned.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ResumedRecord {
    /// The open sitting's number.
    pub number: u32,
    /// The work planned from now on, in order.
    pub plan: Vec<Step>,
}

/// The `sitting.closed` record (spec/appliance.md §9.1): the end of the sitting's work. Its minutes are
/// then written and published (`output.published` of `sitting.json`).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct ClosedRecord {
    /// The open sitting's number.
    pub number: u32,
}

/// An output published during the sitting, as `sitting.json` lists it (spec/formats.md §9.3).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SittingOutput {
    /// The event that recorded its publication.
    pub audit_seq: u64,
    /// Its primary file's name (`bundle.json`, `S.commit.json`, `S.reveal.json`,
    /// `void-notice.json`).
    pub file: String,
    /// That file's SHA-256.
    pub sha256: Hash32,
}

/// `sitting.json` (spec/formats.md §9.3), members in this order.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct SittingFile {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// The sitting's number on its trail.
    pub number: u32,
    /// What the sitting was for.
    pub kind: SittingKind,
    /// Where it was held.
    pub place: String,
    /// The commissaire de justice.
    pub commissaire: Commissaire,
    /// The other persons present.
    pub present: Vec<Person>,
    /// The `sitting.opened` event.
    pub opened_seq: u64,
    /// Its time (RFC 3339 UTC, the appliance's clock).
    pub opened_at: String,
    /// The `sitting.closed` event.
    pub closed_seq: u64,
    /// Its time.
    pub closed_at: String,
    /// Every output published between the two, in the trail's order.
    pub outputs: Vec<SittingOutput>,
    /// The output's other files: `checkpoint.note` and `minutes.html`, sorted by name.
    pub files: Vec<Listed>,
    /// The signed audit checkpoint (spec/formats.md §6.3) covering the `sitting.closed` event.
    pub audit_checkpoint: String,
    /// Key id of the result key that signs the output.
    pub result_key_id: String,
    /// Key id of the audit key that signs the checkpoints.
    pub audit_key_id: String,
    /// The output's place in the trail's history (spec/formats.md §6.7).
    pub history: History,
}

/// The folder a sitting's output goes into by default, under the publications folder:
/// `sitting-<number>` (three digits at least), e.g. `sitting-007`.
pub fn default_folder(number: u32) -> String {
    format!("sitting-{number:03}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sitting_opened_names_its_town_or_says_nothing_of_it() {
        // spec/formats.md §6.2: `town` is optional, absent from a trail recorded before it was
        // asked, and never written empty.
        let old = r#"{"number":1,"kind":"sitting","place":"Paris","commissaire":{"name":"Me Martin","office":"Paris"},"present":[],"lang":"fr","plan":[]}"#;
        let r: OpenedRecord = serde_json::from_str(old).unwrap();
        assert_eq!(r.town, "");
        assert_eq!(serde_json::to_string(&r).unwrap(), old);
        let new = old.replace(r#""place":"Paris","#, r#""place":"Paris","town":"Lyon","#);
        let r: OpenedRecord = serde_json::from_str(&new).unwrap();
        assert_eq!(r.town, "Lyon");
        assert_eq!(serde_json::to_string(&r).unwrap(), new);
    }
}
