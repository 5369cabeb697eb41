//! Serde helpers for the members of urne's JSON formats (spec/formats.md §1.5: every member present,
//! and members of one version only absent from the other): used by every output and record
//! format, so they sit below all of them.

use serde::Deserialize;

/// Reads an output's optional member that only one format version has (`history`, and the
/// version-2 members `entropy_commitment`, `contribution`, `entropy_refused`, `fixed`, `pkcs11`),
/// for `#[serde(default, deserialize_with = "crate::json::present")]`: absent is `None`
/// (the other version), present it must be a value of the member's type. `"history": null` is
/// not absent: a version-1 output has no such member at all, and a version-2 output states it
/// (spec/formats.md §8.2 step 5, spec/formats.md §5.B10 step 2, spec/formats.md §1.5).
///
/// # Errors
/// The member is not a value of its type (`null` included).
pub fn present<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    T::deserialize(d).map(Some)
}

/// Deserialises a member that must be present and may be `null` (spec/formats.md §1.5: every member
/// present): without it, serde takes a missing `Option` for `None`.
///
/// # Errors
/// The member is neither `null` nor a value of its type.
pub fn nullable<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(
    d: D,
) -> Result<Option<T>, D::Error> {
    Option::<T>::deserialize(d)
}
