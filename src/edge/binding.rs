//! The token's side of the trail (spec/appliance.md §6.6): its `urne-trail` object (the trail's identity,
//! written once by `urne keys init`) and its marks, read after login. The pure formats and the
//! check are urne-ceremony's (`urne_ceremony::token`); the objects are read and created through
//! `edge::hsm`.

use crate::edge::hsm::{Hsm, KeyRole};
use crate::error::{Error, Kind, Result};
use urne_ceremony::token::{MARK_LABEL, Mark, TRAIL_LABEL, TrailObject, current_trail, last_mark};

/// What the token holds of its trail.
#[derive(Debug, Clone)]
pub struct TokenTrail {
    /// The `urne-trail` object of the current trail.
    pub object: TrailObject,
    /// Every `urne-trail` object (the current trail and those it replaced, spec/appliance.md §6.8).
    pub objects: Vec<TrailObject>,
    /// Every mark in the token (of every trail), in no particular order.
    pub marks: Vec<Mark>,
    /// The audit public key, read from the token.
    pub audit_key: [u8; 32],
    /// The origin of its checkpoints, by what the token is (spec/formats.md §6.10).
    pub origin: urne_verify::audit::chain::Origin,
}

impl TokenTrail {
    /// The last mark (`None` before the first), or a refusal if the token records a fork.
    pub fn last_mark(&self) -> Result<Option<Mark>> {
        last_mark(&self.object.trail, &self.marks).map_err(|_| {
            Error::new(Kind::TrailFork, format!(
                    "the token holds two different marks of one size for the trail {}: two histories were written under it (a fork)",
                    self.object.trail
                ),
                "stop: keep the token and the database as evidence and investigate (docs/threat-model.md)",
            )
        })
    }

    /// One line for the operator: the trail and what the token marked.
    pub fn describe(&self) -> String {
        match self.last_mark() {
            Ok(Some(m)) => format!(
                "trail {} (the token's last mark: {} events, root {})",
                self.object.trail, m.size, m.root
            ),
            _ => format!("trail {} (no mark yet)", self.object.trail),
        }
    }
}

fn bad_object(e: impl std::fmt::Display) -> Error {
    Error::new(
        Kind::TokenTampered,
        e.to_string(),
        "someone with the PIN wrote into the token outside urne: stop, keep the token and the database as evidence, and investigate",
    )
}

/// The token's trail, after login: `None` if it has no `urne-trail` object.
pub fn read(hsm: &Hsm) -> Result<Option<TokenTrail>> {
    let objects = hsm
        .data_objects(TRAIL_LABEL)?
        .iter()
        .map(|v| TrailObject::parse(v).map_err(bad_object))
        .collect::<Result<Vec<_>>>()?;
    if objects.is_empty() {
        return Ok(None);
    }
    // One per trail: the first, then one per witnessed restart, each naming the one it replaces.
    let object = current_trail(&objects).cloned().ok_or_else(|| {
        bad_object(format!(
            "the token's {} {TRAIL_LABEL:?} objects do not form one chain of trails",
            objects.len()
        ))
    })?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    if urne_verify::crypto::keys::key_id(&audit_key) != object.audit_key_id {
        return Err(bad_object(format!(
            "the token's trail names the audit key {} but the token's audit key is {}",
            object.audit_key_id,
            urne_verify::crypto::keys::key_id(&audit_key)
        )));
    }
    let marks = hsm
        .data_objects(MARK_LABEL)?
        .iter()
        .map(|v| Mark::parse(v).map_err(bad_object))
        .collect::<Result<Vec<Mark>>>()?;
    Ok(Some(TokenTrail {
        object,
        objects,
        marks,
        audit_key,
        origin: hsm.origin(),
    }))
}
