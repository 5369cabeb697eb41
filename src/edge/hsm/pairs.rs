//! urne's key pairs in the token (spec/appliance.md §6.6): each role's pair generated in one
//! `C_GenerateKeyPair` with one `CKA_ID` in both templates, and what a kill inside that
//! generation can leave under the role's label, told from a whole pair, for `keys init`.

use super::{ED25519_OID, Hsm, KeyInfo, KeyRole, ed25519_from_ec_point, hsm_err};
use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use cryptoki::mechanism::Mechanism;
use cryptoki::object::{Attribute, AttributeType, KeyType, ObjectClass, ObjectHandle};

/// One object labelled as a role's key (a public or a private key), as
/// [`Hsm::role_objects`] reads it.
#[derive(Debug, Clone)]
pub struct KeyHalf {
    /// A public key (else a private key).
    pub public: bool,
    /// Its `CKA_ID` (the pair's: both halves get the same in their generation's templates).
    pub id: Vec<u8>,
    /// Its generation finished: a public key holding an Ed25519 point, a private key of type
    /// `EC_EDWARDS` with `CKA_LOCAL` (both written by the token's last write of the half).
    pub whole: bool,
    handle: ObjectHandle,
}

/// What the token holds under one role's label.
#[derive(Debug, Clone)]
pub struct RoleObjects {
    /// The role whose label was searched.
    pub role: KeyRole,
    /// The label searched (the configuration's for that role).
    pub label: String,
    /// Every public and private key object under the label.
    pub halves: Vec<KeyHalf>,
}

/// What [`RoleObjects`] are, for `keys init` on a token with no trail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RoleState {
    /// No object under the label.
    Absent,
    /// One whole public key and one whole private key of one generation (the same `CKA_ID`).
    Whole,
    /// At most one public and one private key, not a whole pair: what a kill inside the
    /// token's generation of the pair leaves (a public key alone, whole or not; a public key
    /// and a private key not yet whole), or a half whose partner a kill lost.
    Cut,
    /// More than one public or private key under the label: no `keys init` leaves it so.
    Other,
}

impl RoleObjects {
    fn count(&self, public: bool) -> usize {
        self.halves.iter().filter(|h| h.public == public).count()
    }

    /// What the objects under the label amount to: absent, a whole pair, a cut pair or other.
    pub fn state(&self) -> RoleState {
        let (publics, privates) = (self.count(true), self.count(false));
        if publics == 0 && privates == 0 {
            RoleState::Absent
        } else if publics > 1 || privates > 1 {
            RoleState::Other
        } else if publics == 1
            && privates == 1
            && self.halves.iter().all(|h| h.whole)
            && self.halves[0].id == self.halves[1].id
        {
            RoleState::Whole
        } else {
            RoleState::Cut
        }
    }

    /// The objects in words, e.g. "a public key (whole) and a private key (its generation
    /// not finished), of one generation".
    pub fn describe(&self) -> String {
        if let [h] = self.halves.as_slice() {
            // One half alone: said with the half it lacks.
            return crate::msg!(match (h.public, h.whole) {
                (true, true) => &m::SCR_KEY_PUBLIC_ALONE,
                (true, false) => &m::SCR_KEY_PUBLIC_CUT_ALONE,
                (false, true) => &m::SCR_KEY_PRIVATE_ALONE,
                (false, false) => &m::SCR_KEY_PRIVATE_CUT_ALONE,
            });
        }
        if self.halves.is_empty() {
            return crate::msg!(m::SCR_KEY_NOTHING);
        }
        let one = |h: &KeyHalf| {
            crate::msg!(match (h.public, h.whole) {
                (true, true) => &m::SCR_KEY_PUBLIC,
                (true, false) => &m::SCR_KEY_PUBLIC_CUT,
                (false, true) => &m::SCR_KEY_PRIVATE,
                (false, false) => &m::SCR_KEY_PRIVATE_CUT,
            })
        };
        let mut words: Vec<String> = self.halves.iter().map(one).collect();
        let (publics, privates) = (self.count(true), self.count(false));
        if publics == 1 && privates == 1 && self.halves[0].id != self.halves[1].id {
            words.push(crate::msg!(m::SCR_KEY_NOT_ONE_GENERATION));
        }
        words.join(", ")
    }
}

impl Hsm {
    /// Generates one role's key pair inside the token (sensitive, non-extractable, token
    /// objects) in one `C_GenerateKeyPair`, each half given in its template the same `CKA_ID`, 8
    /// bytes from the token's generator, and `CKA_MODIFIABLE` false: the pair's halves are named
    /// alike from their creation and never written again (no PIN holder can relabel an official
    /// key a rehearsal's or the reverse, spec/appliance.md §6.10), so a kill inside the generation leaves halves that
    /// [`Hsm::role_objects`] tells from a whole pair (spec/appliance.md §6.6). Reads back the attributes
    /// that prove where the key was made. Refuses if any object already carries the role's
    /// label.
    pub fn generate_key_pair(&self, role: KeyRole) -> Result<KeyInfo> {
        self.forget_keys();
        let label = self.label(role).to_string();
        if !self.role_objects(role)?.halves.is_empty() {
            return Err(Error::new(
                Kind::KeysExist,
                crate::msg!(m::ERR_HSM_KEYS_EXIST, label = label),
                crate::msg!(m::REC_HSM_KEYS_EXIST),
            ));
        }
        let mut id = [0u8; 8];
        self.s()
            .generate_random_slice(&mut id)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_RANDOM), e))?;
        let pub_tpl = [
            Attribute::Token(true),
            Attribute::Private(false),
            Attribute::Verify(true),
            Attribute::EcParams(ED25519_OID.to_vec()),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Id(id.to_vec()),
            Attribute::Modifiable(false),
            Attribute::Copyable(false),
        ];
        let priv_tpl = [
            Attribute::Token(true),
            Attribute::Private(true),
            Attribute::Sensitive(true),
            Attribute::Extractable(false),
            Attribute::Sign(true),
            Attribute::Label(label.as_bytes().to_vec()),
            Attribute::Id(id.to_vec()),
            Attribute::Modifiable(false),
            Attribute::Copyable(false),
        ];
        let (public, private) = self
            .s()
            .generate_key_pair(&Mechanism::EccEdwardsKeyPairGen, &pub_tpl, &priv_tpl)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_GENERATE_ED25519), e))?;
        self.kept_fixed(&label, [public, private])?;
        self.key_info(role)
    }

    /// Both halves just generated read back as asked: neither modifiable nor copyable (a key
    /// copied under another label, or relabelled, could pass an official key for a rehearsal's,
    /// spec/appliance.md §6.10). A token that did not keep them has the pair destroyed again
    /// (nothing was signed with it) and is refused: the attribute cannot be relied on there.
    fn kept_fixed(&self, label: &str, halves: [ObjectHandle; 2]) -> Result<()> {
        let fixed = |h: ObjectHandle| {
            self.s()
                .get_attributes(h, &[AttributeType::Modifiable, AttributeType::Copyable])
                .is_ok_and(|attrs| {
                    attrs.len() == 2
                        && attrs.iter().all(|a| {
                            matches!(a, Attribute::Modifiable(false) | Attribute::Copyable(false))
                        })
                })
        };
        if halves.iter().all(|h| fixed(*h)) {
            return Ok(());
        }
        for h in halves {
            let _ = self.s().destroy_object(h);
        }
        self.forget_keys();
        Err(Error::new(
            Kind::HsmMisbehaves,
            crate::msg!(m::ERR_HSM_KEY_NOT_FIXED, label = format_args!("{label:?}")),
            crate::msg!(m::REC_HSM_OBJECT_NOT_FIXED),
        ))
    }

    /// Both key pairs, the result key's then the audit key's ([`Hsm::generate_key_pair`]).
    pub fn generate_keys(&self) -> Result<Vec<KeyInfo>> {
        KeyRole::ALL
            .iter()
            .map(|r| self.generate_key_pair(*r))
            .collect()
    }

    /// Every public and private key object labelled as `role`'s key, with what a kill inside
    /// the token's generation of the pair can have left of it (spec/appliance.md §6.6).
    pub fn role_objects(&self, role: KeyRole) -> Result<RoleObjects> {
        let label = self.label(role).to_string();
        let mut halves = vec![];
        for public in [true, false] {
            let class = if public {
                ObjectClass::PUBLIC_KEY
            } else {
                ObjectClass::PRIVATE_KEY
            };
            for h in self.find(class, &label)? {
                let wanted: &[AttributeType] = if public {
                    &[AttributeType::Id, AttributeType::EcPoint]
                } else {
                    &[
                        AttributeType::Id,
                        AttributeType::KeyType,
                        AttributeType::Local,
                    ]
                };
                let attrs = self
                    .s()
                    .get_attributes(h, wanted)
                    .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_KEY_ATTRIBUTES), e))?;
                let (mut id, mut point, mut edwards, mut local) = (vec![], None, false, false);
                for a in attrs {
                    match a {
                        Attribute::Id(v) => id = v,
                        Attribute::EcPoint(p) => point = ed25519_from_ec_point(&p),
                        Attribute::KeyType(t) => edwards = t == KeyType::EC_EDWARDS,
                        Attribute::Local(v) => local = v,
                        _ => {}
                    }
                }
                halves.push(KeyHalf {
                    public,
                    id,
                    whole: if public {
                        point.is_some()
                    } else {
                        edwards && local
                    },
                    handle: h,
                });
            }
        }
        Ok(RoleObjects {
            role,
            label,
            halves,
        })
    }

    /// Destroys what a kill inside the token's generation of `role`'s key pair left
    /// ([`RoleObjects::cut`]), private half first. Only `keys init` calls it, on a token with
    /// no trail: no trail names these objects, so nothing was ever signed with them.
    pub fn destroy_cut_pair(&self, objects: &RoleObjects) -> Result<()> {
        let mut halves: Vec<&KeyHalf> = objects.halves.iter().collect();
        halves.sort_by_key(|h| h.public);
        self.forget_keys();
        for h in halves {
            self.s().destroy_object(h.handle).map_err(|e| {
                hsm_err(
                    crate::msg!(
                        m::ERR_P11_REMOVE_CUT,
                        role = objects.role.name(),
                        label = format_args!("{:?}", objects.label)
                    ),
                    e,
                )
            })?;
        }
        Ok(())
    }
}
