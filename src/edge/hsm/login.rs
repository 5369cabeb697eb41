//! The user's login: the PIN asked for by the caller (from a file, `URNE_PIN` or the prompt),
//! and a PIN typed at the prompt and refused asked again, never up to the token's last try.

use super::errors::hsm_err;
use crate::error::Result;
use crate::msg::catalogue::edge as m;
use cryptoki::context::Pkcs11;
use cryptoki::error::{Error as P11Error, RvError};
use cryptoki::session::{Session, UserType};
use cryptoki::slot::Slot;
use secrecy::SecretString;

/// How many times a PIN typed at the prompt may be tried before the command stops (a token
/// locks its user PIN after a number of failures of its own: urne never makes the last one).
pub(super) const PIN_TRIES: u32 = 3;

/// What is said when the PIN typed was refused and may be typed again.
fn pin_refused_again(left: u32) -> String {
    crate::msg!(
        crate::msg::catalogue::edge::SCR_PIN_REFUSED_AGAIN,
        left = left
    )
}

/// Opens a read-write session on `slot` and logs the user in with the PIN `ask` gives; a
/// refused PIN typed at the prompt is asked again, at most [`PIN_TRIES`] times in all and never
/// once the token says its next failure locks it. Returns the session and the PIN.
pub(super) fn login(
    pkcs11: &Pkcs11,
    slot: Slot,
    mut ask: impl FnMut() -> Result<(SecretString, crate::edge::config::PinSource)>,
) -> Result<(Session, SecretString)> {
    let mut tries = 0;
    loop {
        let (pin, source) = ask()?;
        tries += 1;
        let session = pkcs11
            .open_rw_session(slot)
            .map_err(|e| hsm_err(crate::msg!(m::ERR_P11_SESSION), e))?;
        let e = match session.login(UserType::User, Some(&pin)) {
            Ok(()) | Err(P11Error::Pkcs11(RvError::UserAlreadyLoggedIn, _)) => {
                return Ok((session, pin));
            }
            Err(e) => e,
        };
        let wrong_pin = matches!(
            e,
            P11Error::Pkcs11(RvError::PinIncorrect | RvError::PinLenRange, _)
        );
        let final_try = pkcs11
            .get_token_info(slot)
            .is_ok_and(|t| t.user_pin_final_try() || t.user_pin_locked());
        if wrong_pin
            && source == crate::edge::config::PinSource::Prompt
            && tries < PIN_TRIES
            && !final_try
        {
            note!("{}", pin_refused_again(PIN_TRIES - tries));
            continue;
        }
        let mut err = hsm_err(crate::msg!(m::ERR_P11_LOGIN), e);
        if wrong_pin {
            err.hint = source.refused_hint();
        }
        return Err(err);
    }
}
