//! The manifest of a version-2 output (spec/formats.md §4.7, §5.B9): a signed list, written last, of
//! every file of one output with its size and SHA-256, naming the operation, the day or block,
//! and the attempt. It binds the files of one output together: a file of another output, or a
//! file missing, is seen; an output is complete when its manifest is.
//!
//! A draw folder's manifest is `manifest.json`; a block's is `S.manifest.json` beside
//! `S.commit.json`, and lists the secret production file (on its own medium) by name, size and
//! SHA-256 only.

use crate::crypto::{Hash32, sha256};
use serde::{Deserialize, Serialize};

/// The `format` of a manifest.
pub const FORMAT: &str = "urne-manifest";
/// The only version of the manifest (version-2 outputs have one; version 1 none).
pub const VERSION: u32 = 2;
/// A draw folder's manifest.
pub const DRAW_FILE: &str = "manifest.json";

/// Who a listed file is for.
#[derive(Debug, Clone, Copy, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(rename_all = "lowercase")]
pub enum Audience {
    /// Published: a public copy of the output has it.
    Public,
    /// For production only (`result.json` names accounts; a block's production file is secret
    /// until the reveal): a public copy of the output does not have it.
    Production,
}

/// One listed file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Listed {
    /// The file's name in its output's folder.
    pub name: String,
    /// Its size in bytes.
    pub size: u64,
    /// SHA-256 of its bytes.
    pub sha256: Hash32,
    /// Who it is for.
    pub audience: Audience,
}

impl Listed {
    /// The entry of a file of these bytes.
    pub fn of(name: &str, bytes: &[u8], audience: Audience) -> Self {
        Listed {
            name: name.to_string(),
            size: bytes.len() as u64,
            sha256: sha256(bytes),
            audience,
        }
    }
}

/// `manifest.json` / `S.manifest.json` (members in this order).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
#[cfg_attr(test, derive(schemars::JsonSchema))]
#[serde(deny_unknown_fields)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// [`VERSION`].
    pub version: u32,
    /// A draw's operation, or a block's game.
    pub operation: String,
    /// The day drawn (`YYYY-MM-DD`), or null for a block.
    #[serde(deserialize_with = "crate::json::nullable")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<String>")
    )]
    pub day: Option<String>,
    /// The block's canonical id, or null for a draw.
    #[serde(deserialize_with = "crate::json::nullable")]
    #[cfg_attr(
        test,
        schemars(required, schema_with = "crate::schemas::nullable::<String>")
    )]
    pub block: Option<String>,
    /// The attempt (spec/formats.md §4.6).
    pub attempt: u32,
    /// Every file of the output but the manifest, the signatures and the public keys, sorted
    /// by name (bytewise), each once.
    pub files: Vec<Listed>,
    /// Key id (spec/formats.md §1.3) of the result key that signs the output.
    pub result_key_id: String,
}

/// The files a draw's manifest lists, with their audience (spec/formats.md §4.7), sorted by name.
pub const DRAW_FILES: [(&str, Audience); 6] = [
    ("bundle.json", Audience::Public),
    ("checkpoint.note", Audience::Public),
    ("leaves.bin", Audience::Public),
    ("pv.html", Audience::Public),
    ("result.json", Audience::Production),
    ("rules.json", Audience::Public),
];

/// A block's manifest's name for the block of file stem `stem` (spec/formats.md §5.B9).
pub fn block_file(stem: &str) -> String {
    format!("{stem}.manifest.json")
}

/// The files a block's manifest lists (spec/formats.md §5.B9): its commitment, the rules file, its
/// production file, sorted by name.
pub fn block_files(stem: &str) -> Vec<(String, Audience)> {
    let mut v = vec![
        (format!("{stem}.commit.json"), Audience::Public),
        ("rules.json".to_string(), Audience::Public),
        (format!("{stem}.tickets.csv"), Audience::Production),
    ];
    v.sort_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
    v
}

impl Manifest {
    /// A manifest of `files` (sorted here), for the draw of `day` or the block `block`.
    pub fn new(
        operation: &str,
        subject: (Option<&str>, Option<&str>),
        attempt: u32,
        mut files: Vec<Listed>,
        result_key_id: &str,
    ) -> Self {
        files.sort_by(|a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
        Manifest {
            format: FORMAT.into(),
            version: VERSION,
            operation: operation.into(),
            day: subject.0.map(str::to_string),
            block: subject.1.map(str::to_string),
            attempt,
            files,
            result_key_id: result_key_id.into(),
        }
    }

    /// The entry of `name`, if listed.
    pub fn get(&self, name: &str) -> Option<&Listed> {
        self.files.iter().find(|l| l.name == name)
    }

    /// Whether the manifest lists exactly `expected` (names and audiences, in order).
    pub fn lists_exactly(&self, expected: &[(String, Audience)]) -> bool {
        self.files.len() == expected.len()
            && self
                .files
                .iter()
                .zip(expected)
                .all(|(l, (n, a))| l.name == *n && l.audience == *a)
    }
}
