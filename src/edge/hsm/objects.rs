//! urne's data objects in the token (SPEC.md §6.6): the trail's identity and its marks, private,
//! non-modifiable and non-destroyable; and the [`Token`] side of every append.

use super::{Hsm, KeyRole, hsm_err};
use crate::edge::store::Token;
use crate::error::{Error, Exit, Result};
use cryptoki::object::{Attribute, AttributeType, ObjectClass};
use urne_core::audit::token::{APPLICATION, MARK_LABEL, Mark};

impl Hsm {
    /// The values of urne's data objects labelled `label` (SPEC.md §6.6): private token objects
    /// of application `urne`, which only a logged-in session can create or read. Each must be
    /// non-modifiable and non-destroyable, as urne creates them; one that is not was written by
    /// someone else with the PIN, and is refused rather than believed.
    pub fn data_objects(&self, label: &str) -> Result<Vec<Vec<u8>>> {
        let hits = self
            .s()
            .find_objects(&[
                Attribute::Class(ObjectClass::DATA),
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Label(label.as_bytes().to_vec()),
            ])
            .map_err(|e| hsm_err("C_FindObjects failed", e))?;
        let mut out = Vec::with_capacity(hits.len());
        // urne's objects cannot change or go away: one read (and check) per object and session
        // is enough, so reading the marks back after every append stays cheap as they grow.
        let mut cache = self
            .objects
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        for h in hits {
            if let Some((_, v)) = cache.iter().find(|(k, _)| *k == h) {
                out.push(v.clone());
                continue;
            }
            let attrs = self
                .s()
                .get_attributes(
                    h,
                    &[
                        AttributeType::Application,
                        AttributeType::Private,
                        AttributeType::Modifiable,
                        AttributeType::Destroyable,
                        AttributeType::Value,
                    ],
                )
                .map_err(|e| hsm_err("cannot read a data object", e))?;
            let (mut app, mut private, mut fixed, mut kept, mut value) =
                (false, false, true, true, None);
            for a in attrs {
                match a {
                    Attribute::Application(v) => app = v == APPLICATION.as_bytes(),
                    Attribute::Private(v) => private = v,
                    Attribute::Modifiable(v) => fixed = !v,
                    Attribute::Destroyable(v) => kept = !v,
                    Attribute::Value(v) => value = Some(v),
                    _ => {}
                }
            }
            if !(app && private && fixed && kept) {
                return Err(Error::trail(
                    Exit::Refused,
                    format!(
                        "the token holds a {label:?} data object that urne did not create (application {}, private {private}, modifiable {}, destroyable {})",
                        if app { "urne" } else { "not urne" },
                        !fixed,
                        !kept
                    ),
                    "someone with the PIN wrote into the token outside urne: stop, keep the token and the database as evidence, and investigate",
                ));
            }
            let value = value.unwrap_or_default();
            cache.push((h, value.clone()));
            out.push(value);
        }
        Ok(out)
    }

    /// Creates one of urne's data objects: a private token object of application `urne`,
    /// non-modifiable and non-destroyable (SPEC.md §6.6), then reads it back: a token that does
    /// not keep those attributes is refused (it could not keep the trail's marks).
    pub fn create_data_object(&self, label: &str, value: &[u8]) -> Result<()> {
        let h = self
            .s()
            .create_object(&[
                Attribute::Class(ObjectClass::DATA),
                Attribute::Token(true),
                Attribute::Private(true),
                Attribute::Modifiable(false),
                Attribute::Destroyable(false),
                Attribute::Label(label.as_bytes().to_vec()),
                Attribute::Application(APPLICATION.as_bytes().to_vec()),
                Attribute::Value(value.to_vec()),
            ])
            .map_err(|e| hsm_err(&format!("cannot create the token object {label:?}"), e))?;
        let attrs = self
            .s()
            .get_attributes(
                h,
                &[
                    AttributeType::Modifiable,
                    AttributeType::Destroyable,
                    AttributeType::Value,
                ],
            )
            .map_err(|e| hsm_err("cannot read a data object back", e))?;
        let ok = attrs.iter().all(|a| match a {
            Attribute::Modifiable(v) | Attribute::Destroyable(v) => !v,
            Attribute::Value(v) => v == value,
            _ => true,
        }) && attrs.len() == 3;
        if !ok {
            return Err(Error::trail(
                Exit::Hsm,
                format!(
                    "the token did not keep the object {label:?} non-modifiable and non-destroyable as asked"
                ),
                "use a token that honours CKA_MODIFIABLE=false and CKA_DESTROYABLE=false (SoftHSM 2.6 does): the trail's marks depend on it",
            ));
        }
        Ok(())
    }
}

impl Token for Hsm {
    fn sign_checkpoint(&self, body: &[u8]) -> Result<[u8; 64]> {
        self.sign(KeyRole::Audit, body)
    }

    fn create_mark(&self, mark: &Mark) -> Result<()> {
        self.create_data_object(MARK_LABEL, &mark.encode())
    }

    fn marks(&self) -> Result<Vec<Mark>> {
        self.data_objects(MARK_LABEL)?
            .iter()
            .map(|v| {
                Mark::parse(v).map_err(|e| {
                    Error::trail(
                        Exit::Refused,
                        e.to_string(),
                        "someone with the PIN wrote into the token outside urne: stop and investigate",
                    )
                })
            })
            .collect()
    }
}
