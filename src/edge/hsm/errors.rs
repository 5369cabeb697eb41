//! A PKCS#11 error in the words of urne's errors: what failed, and what to do about it.

use crate::error::{Error, Kind};
use cryptoki::error::{Error as P11Error, RvError};

/// `e`, returned by the token while doing `what`, as urne's error (exit 3).
#[expect(
    clippy::needless_pass_by_value,
    reason = "an error conversion, as `map_err` hands the error over: by value, like `From`"
)]
pub(super) fn hsm_err(what: &str, e: P11Error) -> Error {
    let (kind, msg, hint) = match &e {
        P11Error::Pkcs11(RvError::PinIncorrect, _) => (
            Kind::PinIncorrect,
            "the HSM refused the PIN (CKR_PIN_INCORRECT)".to_string(),
            "check the user PIN; repeated failures lock the token".to_string(),
        ),
        P11Error::Pkcs11(RvError::PinLocked, _) => (
            Kind::PinLocked,
            "the token's user PIN is locked (CKR_PIN_LOCKED)".to_string(),
            "the security officer must unlock the token".to_string(),
        ),
        P11Error::Pkcs11(RvError::PinLenRange, _) => (
            Kind::PinIncorrect,
            "the HSM refused the PIN: wrong length (CKR_PIN_LEN_RANGE)".to_string(),
            "check the user PIN".to_string(),
        ),
        P11Error::Pkcs11(rv, f) => (
            Kind::HsmUnavailable,
            format!("{what}: the HSM returned {rv} in {f}"),
            "check the token is present and initialised (`urne hsm info`)".to_string(),
        ),
        other => (
            Kind::HsmUnavailable,
            format!("{what}: {other}"),
            "check the token is present and initialised (`urne hsm info`)".to_string(),
        ),
    };
    Error::new(kind, msg, hint)
}
