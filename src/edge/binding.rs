//! The token's side of the trail (spec/appliance.md §6.6): its `urne-trail` object (the trail's identity,
//! written once by `urne keys init`) and its marks, read after login. The pure formats and the
//! check are urne-ceremony's (`urne_ceremony::token`); the objects are read and created through
//! `edge::hsm`.

use crate::edge::hsm::{Hsm, KeyRole};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use urne_ceremony::token::{Mark, TRAIL_LABEL, TrailObject, current_trail, last_mark};

/// What the token holds of its trail.
#[derive(Debug, Clone)]
pub struct TokenTrail {
    /// The `urne-trail` object of the current trail.
    pub object: TrailObject,
    /// Every `urne-trail` object (the current trail and those it replaced, spec/appliance.md §6.8).
    pub objects: Vec<TrailObject>,
    /// Every mark in the token (of every trail), in no particular order.
    pub marks: Vec<Mark>,
    /// The marks the token keeps (non-destroyable: the anchors), also among `marks`.
    pub anchors: Vec<Mark>,
    /// The audit public key, read from the token.
    pub audit_key: [u8; 32],
    /// The origin of its checkpoints, by what the token is (spec/formats.md §6.10).
    pub origin: urne_verify::audit::chain::Origin,
}

impl TokenTrail {
    /// The last mark (`None` before the first), or a refusal if the token records a fork.
    pub fn last_mark(&self) -> Result<Option<Mark>> {
        last_mark(&self.object.trail, &self.marks).map_err(|_| {
            Error::new(
                Kind::TrailFork,
                crate::msg!(m::ERR_TOKEN_FORK, trail = self.object.trail),
                crate::msg!(m::REC_TOKEN_FORK),
            )
        })
    }

    /// One line for the operator: the trail and what the token marked.
    pub fn describe(&self) -> String {
        match self.last_mark() {
            Ok(Some(mark)) => crate::msg!(
                m::SCR_TOKEN_TRAIL,
                trail = self.object.trail,
                size = mark.size,
                root = mark.root
            ),
            _ => crate::msg!(m::SCR_TOKEN_TRAIL_NO_MARK, trail = self.object.trail),
        }
    }
}

fn bad_object(e: impl std::fmt::Display) -> Error {
    Error::new(
        Kind::TokenTampered,
        e.to_string(),
        crate::msg!(m::REC_TOKEN_TAMPERED),
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
        bad_object(crate::msg!(
            m::ERR_TOKEN_TRAILS_NO_CHAIN,
            count = objects.len(),
            label = format_args!("{TRAIL_LABEL:?}")
        ))
    })?;
    let audit_key = hsm.public_key(KeyRole::Audit)?;
    if urne_verify::crypto::keys::key_id(&audit_key) != object.audit_key_id {
        return Err(bad_object(crate::msg!(
            m::ERR_TOKEN_TRAIL_AUDIT_KEY,
            named = object.audit_key_id,
            key = urne_verify::crypto::keys::key_id(&audit_key)
        )));
    }
    let (marks, anchors) = hsm.marks_and_anchors()?;
    let parse = |values: Vec<Vec<u8>>| {
        values
            .iter()
            .map(|v| Mark::parse(v).map_err(bad_object))
            .collect::<Result<Vec<Mark>>>()
    };
    Ok(Some(TokenTrail {
        object,
        objects,
        marks: parse(marks)?,
        anchors: parse(anchors)?,
        audit_key,
        origin: hsm.origin(),
    }))
}
