//! A PKCS#11 error in the words of urne's errors: what failed, and what to do about it.

use crate::error::{Error, Kind};
use crate::msg::catalogue::edge as m;
use cryptoki::error::{Error as P11Error, RvError};

/// `e`, returned by the token while doing `what` (a catalogue message, filled), as urne's
/// error (exit 3).
#[expect(
    clippy::needless_pass_by_value,
    reason = "an error conversion, as `map_err` hands the error over: by value, like `From`"
)]
pub(super) fn hsm_err(what: String, e: P11Error) -> Error {
    let (kind, msg, hint) = match &e {
        P11Error::Pkcs11(RvError::PinIncorrect, _) => (
            Kind::PinIncorrect,
            crate::msg!(m::ERR_HSM_PIN_INCORRECT),
            crate::msg!(m::REC_HSM_PIN_INCORRECT),
        ),
        P11Error::Pkcs11(RvError::PinLocked, _) => (
            Kind::PinLocked,
            crate::msg!(m::ERR_HSM_PIN_LOCKED),
            crate::msg!(m::REC_HSM_PIN_LOCKED),
        ),
        P11Error::Pkcs11(RvError::PinLenRange, _) => (
            Kind::PinIncorrect,
            crate::msg!(m::ERR_HSM_PIN_LENGTH),
            crate::msg!(m::REC_HSM_PIN_LENGTH),
        ),
        P11Error::Pkcs11(RvError::DeviceMemory, f) => (
            Kind::HsmUnavailable,
            crate::msg!(m::ERR_HSM_TOKEN_FULL, what = what, function = f),
            crate::msg!(m::REC_HSM_TOKEN_FULL),
        ),
        P11Error::Pkcs11(rv, f) => (
            Kind::HsmUnavailable,
            crate::msg!(m::ERR_HSM_RETURNED, what = what, rv = rv, function = f),
            crate::msg!(m::REC_HSM_CHECK_TOKEN),
        ),
        other => (
            Kind::HsmUnavailable,
            crate::msg!(m::ERR_HSM_FAILED, what = what, e = other),
            crate::msg!(m::REC_HSM_CHECK_TOKEN),
        ),
    };
    Error::new(kind, msg, hint)
}
