//! What the token keeps of the trail (spec/appliance.md §6.6): the trail's identity (one `urne-trail` data
//! object, written once by `urne keys init`) and its marks (`urne-mark` data objects, one before
//! each act: the trail's size and root at that moment). Both are created private (readable,
//! creatable and destroyable only after login) and non-modifiable, so someone with every file but
//! the token cannot write, change or remove them. The `urne-trail` object and the anchors (the
//! marks over a sitting's close) are non-destroyable; any other mark is destroyed by urne once a
//! later mark of the same history replaces it.
//!
//! This file is pure: the objects' byte formats and the check a command makes before it acts
//! ([`check_against_marks`]). Reading and creating the objects is the appliance's
//! (`src/edge/hsm.rs`).

use urne_verify::crypto::{Hash32, parse_hex32, tagged_hash};

/// The label of the trail's identity object in the token.
pub const TRAIL_LABEL: &str = "urne-trail";
/// The label of every mark object in the token.
pub const MARK_LABEL: &str = "urne-mark";
/// The `CKA_APPLICATION` of urne's data objects.
pub const APPLICATION: &str = "urne";
/// The tagged-hash label of a trail's identity (spec/appliance.md §6.6).
pub const TRAIL_ID_LABEL: &str = "urne/v2/trail-id";

/// The identity of a new trail: `H("urne/v2/trail-id", audit public key, nonce, created)`, the
/// nonce being 32 bytes of the token's generator.
pub fn trail_id(audit_key: &[u8; 32], nonce: &[u8], created: &str) -> Hash32 {
    tagged_hash(TRAIL_ID_LABEL, &[audit_key, nonce, created.as_bytes()])
}

/// The content of the `urne-trail` object.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrailObject {
    /// The trail's identity.
    pub trail: Hash32,
    /// The key id of the audit key that signs its checkpoints.
    pub audit_key_id: urne_verify::values::KeyId,
    /// When it was created (RFC 3339 UTC).
    pub created: String,
    /// The trail it replaces, for a trail made by a witnessed restart (spec/appliance.md §6.8).
    pub previous: Option<Hash32>,
}

/// One mark: the trail's size and tree root as the appliance last vouched for them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mark {
    /// The trail the mark belongs to.
    pub trail: Hash32,
    /// The number of events.
    pub size: u64,
    /// The RFC 6962 root over their hashes (spec/formats.md §6.3).
    pub root: Hash32,
}

/// Why an object's value is not one urne writes.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("the token object {label:?} does not hold what urne writes: {reason}")]
pub struct ObjectError {
    /// The object's label.
    pub label: &'static str,
    /// What is wrong.
    pub reason: String,
}

fn lines<'a>(
    label: &'static str,
    value: &'a [u8],
    keys: &[&str],
) -> Result<Vec<&'a str>, ObjectError> {
    let bad = |reason: &str| ObjectError {
        label,
        reason: reason.into(),
    };
    let text = std::str::from_utf8(value).map_err(|_| bad("not UTF-8"))?;
    let body = text
        .strip_suffix('\n')
        .ok_or_else(|| bad("no final line feed"))?;
    let mut out = vec![];
    let mut it = body.split('\n');
    if it.next() != Some(&format!("{label} v2")) {
        return Err(bad("wrong first line"));
    }
    for key in keys {
        let line = it.next().ok_or_else(|| bad("too few lines"))?;
        let v = line
            .strip_prefix(key)
            .and_then(|r| r.strip_prefix(' '))
            .ok_or_else(|| bad(&format!("expected the line {key:?}")))?;
        out.push(v);
    }
    if it.next().is_some() {
        return Err(bad("too many lines"));
    }
    Ok(out)
}

fn hash_field(label: &'static str, s: &str) -> Result<Hash32, ObjectError> {
    parse_hex32(s).map(Hash32).ok_or(ObjectError {
        label,
        reason: format!("{s:?} is not 64 lowercase hex digits"),
    })
}

impl TrailObject {
    /// The object's value: `urne-trail v2`, then `trail <hex>`, `audit-key <id>`, `created <ts>`,
    /// `previous <hex>|none`, one per line, each ending in LF.
    pub fn encode(&self) -> Vec<u8> {
        format!(
            "{TRAIL_LABEL} v2\ntrail {}\naudit-key {}\ncreated {}\nprevious {}\n",
            self.trail,
            self.audit_key_id,
            self.created,
            self.previous
                .map_or_else(|| "none".to_string(), |p| p.to_string())
        )
        .into_bytes()
    }

    /// Parses a value written by [`TrailObject::encode`].
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(value: &[u8]) -> Result<TrailObject, ObjectError> {
        let f = lines(
            TRAIL_LABEL,
            value,
            &["trail", "audit-key", "created", "previous"],
        )?;
        let t = TrailObject {
            trail: hash_field(TRAIL_LABEL, f[0])?,
            audit_key_id: f[1].parse().map_err(|e| ObjectError {
                label: TRAIL_LABEL,
                reason: format!("{e}"),
            })?,
            created: f[2].to_string(),
            previous: match f[3] {
                "none" => None,
                h => Some(hash_field(TRAIL_LABEL, h)?),
            },
        };
        (t.encode() == value).then_some(t).ok_or(ObjectError {
            label: TRAIL_LABEL,
            reason: "not in canonical form".into(),
        })
    }
}

impl Mark {
    /// The object's value: `urne-mark v2`, then `trail <hex>`, `size <n>`, `root <hex>`.
    pub fn encode(&self) -> Vec<u8> {
        format!(
            "{MARK_LABEL} v2\ntrail {}\nsize {}\nroot {}\n",
            self.trail, self.size, self.root
        )
        .into_bytes()
    }

    /// Parses a value written by [`Mark::encode`].
    ///
    /// # Errors
    /// Anything else.
    pub fn parse(value: &[u8]) -> Result<Mark, ObjectError> {
        let f = lines(MARK_LABEL, value, &["trail", "size", "root"])?;
        let size = f[1].parse::<u64>().map_err(|_| ObjectError {
            label: MARK_LABEL,
            reason: format!("{:?} is not a size", f[1]),
        })?;
        let m = Mark {
            trail: hash_field(MARK_LABEL, f[0])?,
            size,
            root: hash_field(MARK_LABEL, f[2])?,
        };
        (m.encode() == value).then_some(m).ok_or(ObjectError {
            label: MARK_LABEL,
            reason: "not in canonical form".into(),
        })
    }
}

/// The token's current trail among its `urne-trail` objects: they form one chain (each restart
/// names the trail it replaces), and the current one is the one no other names. `None` if the
/// objects do not form one chain (two trails replacing one, or a cycle).
pub fn current_trail(objects: &[TrailObject]) -> Option<&TrailObject> {
    let named: Vec<Hash32> = objects.iter().filter_map(|o| o.previous).collect();
    let heads: Vec<&TrailObject> = objects
        .iter()
        .filter(|o| !named.contains(&o.trail))
        .collect();
    let firsts = objects.iter().filter(|o| o.previous.is_none()).count();
    let distinct_previous = {
        let mut n = named.clone();
        n.sort();
        n.dedup();
        n.len() == named.len()
    };
    (heads.len() == 1 && firsts == 1 && distinct_previous).then(|| heads[0])
}

/// Why a database is not the token's trail as the token last marked it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MarkFailure {
    /// The database's first event names another trail (or none: a version-1 trail).
    OtherTrail {
        /// The identity the database's first event names, if any.
        found: Option<Hash32>,
    },
    /// The database holds fewer events than the token's last mark: an older copy, or events
    /// removed from its end.
    Older {
        /// Events in the database.
        events: u64,
        /// The last mark's size.
        marked: u64,
    },
    /// The database's first `size` events are not the ones the token marked: another history
    /// of the same trail (a fork).
    Diverged {
        /// The last mark's size.
        marked: u64,
    },
    /// Two marks of the same size with different roots: the token itself records a fork.
    ConflictingMarks {
        /// Their size.
        size: u64,
    },
    /// A mark of the trail that the database, which extends the last mark, does not hold: the
    /// token holds marks of two histories of the trail (commands mark before they act, not
    /// after every event, so two copies used at once may mark different sizes).
    OffHistory {
        /// Its size.
        size: u64,
    },
}

/// The last mark of `trail` among `marks` (those of other trails are ignored), or the fork the
/// token records (two marks of one size, different roots).
///
/// # Errors
/// [`MarkFailure::ConflictingMarks`].
pub fn last_mark(trail: &Hash32, marks: &[Mark]) -> Result<Option<Mark>, MarkFailure> {
    let mut mine: Vec<&Mark> = marks.iter().filter(|m| &m.trail == trail).collect();
    mine.sort_by_key(|m| m.size);
    for w in mine.windows(2) {
        if w[0].size == w[1].size && w[0].root != w[1].root {
            return Err(MarkFailure::ConflictingMarks { size: w[0].size });
        }
    }
    Ok(mine.last().map(|m| **m))
}

/// The check before acting (spec/appliance.md §6.6): the database's trail (`first_trail`: the identity its first
/// event names; `root_at(s)`: the root over its first `s` events; `events`: its size) must be the
/// token's trail and extend the token's last mark. Returns that mark (`None`: the trail has none
/// yet, which only an initialisation interrupted before its first mark leaves).
///
/// # Errors
/// The [`MarkFailure`] that applies.
pub fn check_against_marks(
    token_trail: &Hash32,
    marks: &[Mark],
    first_trail: Option<Hash32>,
    events: u64,
    root_at: impl Fn(u64) -> Hash32,
) -> Result<Option<Mark>, MarkFailure> {
    if first_trail.as_ref() != Some(token_trail) {
        return Err(MarkFailure::OtherTrail { found: first_trail });
    }
    let last = last_mark(token_trail, marks)?;
    if let Some(m) = last {
        if events < m.size {
            return Err(MarkFailure::Older {
                events,
                marked: m.size,
            });
        }
        if root_at(m.size) != m.root {
            return Err(MarkFailure::Diverged { marked: m.size });
        }
    }
    // Every mark of the trail on the database's history: a mark of another history at any
    // size is a fork the token records.
    if let Some(m) = marks
        .iter()
        .filter(|m| &m.trail == token_trail)
        .find(|m| root_at(m.size) != m.root)
    {
        return Err(MarkFailure::OffHistory { size: m.size });
    }
    Ok(last)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mark(size: u64, root: u8) -> Mark {
        Mark {
            trail: Hash32([7; 32]),
            size,
            root: Hash32([root; 32]),
        }
    }

    #[test]
    fn objects_round_trip_and_refuse_anything_else() {
        let t = TrailObject {
            trail: Hash32([1; 32]),
            audit_key_id: "0123456789abcdef".parse().unwrap(),
            created: "2026-12-01T10:00:00.000000Z".into(),
            previous: None,
        };
        assert_eq!(TrailObject::parse(&t.encode()), Ok(t.clone()));
        let restarted = TrailObject {
            previous: Some(Hash32([2; 32])),
            ..t.clone()
        };
        assert_eq!(TrailObject::parse(&restarted.encode()), Ok(restarted));
        let m = mark(12, 3);
        assert_eq!(Mark::parse(&m.encode()), Ok(m));
        let good = m.encode();
        for bad in [
            &good[..good.len() - 1],
            b"urne-mark v1\n".as_slice(),
            &[good.as_slice(), b"x\n"].concat(),
            String::from_utf8(good.clone())
                .unwrap()
                .replace("size 12", "size 012")
                .as_bytes(),
            String::from_utf8(good.clone())
                .unwrap()
                .replace("size 12", "size  12")
                .as_bytes(),
        ] {
            assert!(
                Mark::parse(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
        assert!(TrailObject::parse(&good).is_err());
        assert!(Mark::parse(&t.encode()).is_err());
    }

    #[test]
    fn the_database_must_be_the_tokens_trail_and_extend_its_last_mark() {
        let trail = Hash32([7; 32]);
        let marks = [mark(3, 3), mark(5, 5), mark(4, 4)];
        let root_at = |s: u64| Hash32([u8::try_from(s).unwrap(); 32]);
        assert_eq!(
            check_against_marks(&trail, &marks, Some(trail), 6, root_at),
            Ok(Some(mark(5, 5)))
        );
        assert_eq!(
            check_against_marks(&trail, &marks, Some(trail), 4, root_at),
            Err(MarkFailure::Older {
                events: 4,
                marked: 5
            })
        );
        assert_eq!(
            check_against_marks(&trail, &marks, Some(trail), 6, |_| Hash32([0; 32])),
            Err(MarkFailure::Diverged { marked: 5 })
        );
        assert_eq!(
            check_against_marks(&trail, &marks, Some(Hash32([8; 32])), 6, root_at),
            Err(MarkFailure::OtherTrail {
                found: Some(Hash32([8; 32]))
            })
        );
        assert_eq!(
            check_against_marks(&trail, &marks, None, 6, root_at),
            Err(MarkFailure::OtherTrail { found: None })
        );
        // A mark of a smaller size that the database, extending the last mark, does not hold:
        // another history was marked (two copies used at once, marking different sizes).
        assert_eq!(
            check_against_marks(
                &trail,
                &[mark(3, 9), mark(5, 5), mark(4, 4)],
                Some(trail),
                6,
                root_at
            ),
            Err(MarkFailure::OffHistory { size: 3 })
        );
        // Marks of other trails are not this trail's; two roots for one size are a fork.
        let other = Mark {
            trail: Hash32([9; 32]),
            ..mark(100, 1)
        };
        assert_eq!(
            check_against_marks(&trail, &[other, mark(2, 2)], Some(trail), 2, root_at),
            Ok(Some(mark(2, 2)))
        );
        assert_eq!(
            check_against_marks(&trail, &[mark(2, 2), mark(2, 9)], Some(trail), 2, root_at),
            Err(MarkFailure::ConflictingMarks { size: 2 })
        );
        assert_eq!(
            check_against_marks(&trail, &[], Some(trail), 0, root_at),
            Ok(None)
        );
    }
}
