//! The rules' standing, checked (spec/formats.md §7.4): an output binds its rules by their id (a draw's
//! `operation`, a block's game) and their SHA-256 (`rules_sha256`); the verifier recomputes the
//! standing from both with the pinned table ([`crate::rules::official`]). An official id with
//! other bytes does not verify [M-293]; a version-2 output under rules that are not an official
//! regulation MUST carry `"unofficial_rules": true`, and one under official rules MUST NOT
//! [M-294]; a version-1 output has no such member [M-295]. The ids of unofficial rules are kept
//! for the verdict's first line [M-296].

use super::{FailureClass as C, Report, VResult, fail};
use crate::block::files::CommitFile;
use crate::crypto::Hash32;
use crate::draw::files::DrawCore;
use crate::rules::official::{Standing, UnofficialRules, WORDS, standing};

/// Checks the standing of the rules the output `name` (of `version`) binds by `id` and `sha`
/// against its member `unofficial_rules`; records an unofficial id in `r`.
pub(super) fn check(
    name: &str,
    (id, sha): (&str, &Hash32),
    version: u32,
    member: Option<UnofficialRules>,
    r: &mut Report,
) -> VResult<Standing> {
    if version == 1 && member.is_some() {
        return Err(fail(
            C::Malformed,
            format!("{name}: unofficial_rules is a member of version 2 only"),
        ));
    }
    let s = standing(id, sha);
    match s {
        Standing::Doctored(pinned) => {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{name}: {id} is an official regulation whose rules file has SHA-256 {pinned}, and the output was made under other rules (rules_sha256 {sha})"
                ),
            ));
        }
        Standing::Unofficial if version >= 2 && member.is_none() => {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{name}: {id} is not an official regulation, and the output does not say so (no \"unofficial_rules\": true)"
                ),
            ));
        }
        Standing::Official if member.is_some() => {
            return Err(fail(
                C::Inconsistent,
                format!(
                    "{name}: says unofficial_rules, but {id} with rules_sha256 {sha} is the official regulation"
                ),
            ));
        }
        Standing::Unofficial => {
            if !r.unofficial.iter().any(|u| u == id) {
                r.unofficial.push(id.to_string());
            }
            r.checks.push(format!(
                "rules {id}: not an official regulation ({WORDS}), as the output says"
            ));
        }
        Standing::Official => r.checks.push(format!(
            "rules {id}: the official regulation (pinned SHA-256)"
        )),
    }
    Ok(s)
}

/// spec/formats.md §8.2 step 7's end: the standing of the rules a draw binds (`operation`, `rules_sha256`) agrees
/// with its member `unofficial_rules`.
pub(super) fn of_draw(name: &str, core: &DrawCore, version: u32, r: &mut Report) -> VResult<()> {
    let bound = (core.operation.as_str(), &core.rules_sha256);
    check(name, bound, version, core.unofficial_rules, r).map(|_| ())
}

/// spec/formats.md §5.B10 step 2: the standing of the rules a block commitment binds (its `game`,
/// `rules_sha256`) agrees with its member `unofficial_rules`.
pub(super) fn of_commitment(name: &str, c: &CommitFile, r: &mut Report) -> VResult<()> {
    let bound = (c.game.as_str(), &c.rules_sha256);
    check(name, bound, c.version, c.unofficial_rules, r).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::official::OFFICIAL;

    fn pinned(i: usize) -> (&'static str, Hash32) {
        (OFFICIAL[i].0, Hash32::from_hex(OFFICIAL[i].1).unwrap())
    }

    #[test]
    fn the_member_agrees_with_the_standing_the_verifier_recomputes() {
        let mut r = Report::default();
        let (id, sha) = pinned(0);
        let other = Hash32([7; 32]);
        let m = Some(UnofficialRules);
        assert!(check("x", (id, &sha), 2, None, &mut r).is_ok());
        assert!(check("x", (id, &sha), 1, None, &mut r).is_ok());
        let e = |id, sha, v, m| {
            check("x", (id, sha), v, m, &mut Report::default())
                .unwrap_err()
                .class
        };
        assert_eq!(e(id, &sha, 2, m), C::Inconsistent, "official, said not");
        assert_eq!(e(id, &other, 2, None), C::Inconsistent, "doctored");
        assert_eq!(e(id, &other, 1, None), C::Inconsistent, "doctored, v1");
        assert_eq!(
            e("noel-de-la-chance-20l5", &other, 2, None),
            C::Inconsistent
        );
        assert_eq!(e("noel-de-la-chance-20l5", &other, 1, m), C::Malformed);
        assert!(check("x", ("noel-de-la-chance-20l5", &other), 2, m, &mut r).is_ok());
        assert!(check("y", ("noel-de-la-chance-20l5", &other), 1, None, &mut r).is_ok());
        assert_eq!(r.unofficial, vec!["noel-de-la-chance-20l5".to_string()]);
    }
}
