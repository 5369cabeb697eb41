//! One linear history (spec/formats.md §6.7, §8.4): the outputs of one trail, each naming its
//! predecessor and proving its checkpoint extends the predecessor's, must form one chain. Two
//! outputs naming the same predecessor, two checkpoints of one size with different roots, or a
//! predecessor whose checkpoint is not the one named, are a fork. A checkpoint held outside the
//! appliance (copied into the minutes) must lie on that chain.

use super::{FailureClass, VResult, fail};
use crate::audit::chain::Checkpoint;
pub use crate::audit::history::Output;
use crate::audit::history::{self, History};
use crate::crypto::Hash32;
use std::collections::BTreeMap;

fn fork(what: impl Into<String>) -> super::Failure {
    fail(FailureClass::Fork, what)
}

/// Checks the `history` of an output of `version` (1: none; 2: required, and it must lead to
/// its checkpoint) and returns the output for the checks across outputs (`malformed`, `fork`).
///
/// # Errors
/// A history missing, unexpected, or that does not lead to the checkpoint.
pub fn versioned_output(
    name: &str,
    version: u32,
    bytes: &[u8],
    history: Option<&History>,
    checkpoint: &Checkpoint,
) -> VResult<Option<Output>> {
    match (version, history) {
        (1, None) => Ok(None),
        (2, Some(h)) => {
            let o = Output {
                subject: None,
                name: name.to_string(),
                sha256: crate::crypto::sha256(bytes),
                history: h.clone(),
                checkpoint: checkpoint.clone(),
            };
            check_output(&o)?;
            Ok(Some(o))
        }
        (1, Some(_)) => Err(fail(
            FailureClass::Malformed,
            format!("{name}: a version-1 output has no history"),
        )),
        (2, None) => Err(fail(
            FailureClass::Malformed,
            format!("{name}: a version-2 output must state its history"),
        )),
        (v, _) => Err(fail(
            FailureClass::Malformed,
            format!("{name}: version {v} is not one this verifier knows (1, 2)"),
        )),
    }
}

/// Checks an output's own history against its checkpoint (spec/formats.md §6.7) (`fork`).
///
/// # Errors
/// The proof does not lead from the predecessor's checkpoint to the output's.
pub fn check_output(o: &Output) -> VResult<()> {
    history::check_own(&o.history, o.checkpoint.size, &o.checkpoint.root)
        .map_err(|why| fork(format!("{}: {why}", o.name)))
}

/// Checks that `outputs` (each already checked alone with [`check_output`]) are one linear
/// history of one trail (spec/formats.md §8.4). With `complete`, every predecessor must be among them (a whole
/// operation's publications); otherwise a predecessor not present is a note. Returns the notes.
///
/// # Errors
/// The first fork found (`fork`), or a gap when `complete` (`inconsistent`).
pub fn check_linear(outputs: &[Output], complete: bool) -> VResult<Vec<String>> {
    let mut notes = vec![];
    if outputs.is_empty() {
        return Ok(notes);
    }
    check_trails(outputs)?;
    let by_hash: BTreeMap<Hash32, &Output> = outputs.iter().map(|o| (o.sha256, o)).collect();
    let mut by_subject: BTreeMap<&super::Publishes, &Output> = BTreeMap::new();
    for o in outputs {
        if let Some(subject) = o.subject.as_ref()
            && let Some(other) = by_subject.insert(subject, o)
            && other.sha256 != o.sha256
        {
            return Err(fork(format!(
                "{} and {} both publish {subject}: what is done once was done twice in one history",
                other.name, o.name
            )));
        }
    }
    let mut by_predecessor: BTreeMap<(Hash32, Option<Hash32>), &Output> = BTreeMap::new();
    let mut by_size: BTreeMap<(Hash32, u64), &Output> = BTreeMap::new();
    for o in outputs {
        let named = o.history.predecessor.map(|p| p.sha256);
        if let Some(other) = by_predecessor.insert((o.history.trail, named), o)
            && other.sha256 != o.sha256
        {
            return Err(fork(match named {
                Some(p) => format!(
                    "{} and {} both name {p} as the output before them: two histories (a fork)",
                    other.name, o.name
                ),
                None => format!(
                    "{} and {} both say they are the trail's first output: two histories (a fork)",
                    other.name, o.name
                ),
            }));
        }
        if let Some(other) = by_size.insert((o.history.trail, o.checkpoint.size), o)
            && other.checkpoint.root != o.checkpoint.root
        {
            return Err(fork(format!(
                "{} and {} carry checkpoints of {} events with different roots: two histories (a fork)",
                other.name, o.name, o.checkpoint.size
            )));
        }
        check_named_point(outputs, o)?;
        match o.history.predecessor {
            None => {}
            Some(p) => match by_hash.get(&p.sha256) {
                Some(before)
                    if before.checkpoint.size != p.checkpoint_size
                        || before.checkpoint.root != p.checkpoint_root =>
                {
                    return Err(fork(format!(
                        "{} names {} as the output before it with a checkpoint ({} events) that is not the one {} carries",
                        o.name, before.name, p.checkpoint_size, before.name
                    )));
                }
                Some(_) => {}
                None if complete => {
                    return Err(fail(
                        FailureClass::Inconsistent,
                        format!(
                            "{}: the output before it ({}) is not among these outputs, so one linear history cannot be shown",
                            o.name, p.sha256
                        ),
                    ));
                }
                None => notes.push(format!(
                    "{}: the output before it ({}) is not here",
                    o.name, p.sha256
                )),
            },
        }
    }
    Ok(notes)
}

/// The checkpoint `o` names for its predecessor (on `o`'s trail, spec/formats.md §6.7) is a point of the history
/// too: another output of that trail whose own checkpoint, or whose predecessor's, has that size
/// and another root is a fork, whether the predecessor is among `outputs` or not [M-262].
fn check_named_point(outputs: &[Output], o: &Output) -> VResult<()> {
    let Some(p) = o.history.predecessor else {
        return Ok(());
    };
    for other in outputs
        .iter()
        .filter(|x| x.history.trail == o.history.trail)
    {
        let own = (other.checkpoint.size, other.checkpoint.root);
        let named = other
            .history
            .predecessor
            .map(|q| (q.checkpoint_size, q.checkpoint_root));
        for (size, root) in std::iter::once(own).chain(named) {
            if size == p.checkpoint_size && root != p.checkpoint_root {
                return Err(fork(format!(
                    "{} names for the output before it a checkpoint of {size} events whose root is not the one {} shows at that size: two histories (a fork)",
                    o.name, other.name
                )));
            }
        }
    }
    Ok(())
}

/// The outputs name one trail, or trails linked by witnessed restarts (spec/appliance.md §6.8): each
/// output of a trail that replaced another states the same `restart`, naming a trail that the
/// outputs also hold or that none of them could (the first one present). Two trails without
/// such a link are two histories.
fn check_trails(outputs: &[Output]) -> VResult<()> {
    let mut restarts: BTreeMap<Hash32, Option<crate::audit::history::Restart>> = BTreeMap::new();
    for o in outputs {
        match restarts.insert(o.history.trail, o.history.restart) {
            Some(prev) if prev != o.history.restart => {
                return Err(fork(format!(
                    "{}: outputs of the trail {} state different restarts",
                    o.name, o.history.trail
                )));
            }
            _ => {}
        }
    }
    let trails: Vec<Hash32> = restarts.keys().copied().collect();
    if trails.len() == 1 {
        return Ok(());
    }
    // Nothing of a replaced trail lies beyond the token's last mark of it, as the restart
    // states it: an output there is a history the restart hid.
    for r in restarts.values().flatten() {
        if let Some(o) = outputs.iter().find(|o| {
            o.history.trail == r.previous_trail
                && (o.checkpoint.size > r.previous_mark_size
                    || (o.checkpoint.size == r.previous_mark_size
                        && o.checkpoint.root != r.previous_mark_root))
        }) {
            return Err(fork(format!(
                "{} is an output of the replaced trail {} beyond the last mark its restart states ({} events): a history the restart does not account for",
                o.name, r.previous_trail, r.previous_mark_size
            )));
        }
    }
    // Trails replaced by another present, and trails not replaced by any: exactly one of the
    // latter (the newest), and every other one replaced by exactly one.
    let replaced: Vec<Hash32> = restarts
        .values()
        .filter_map(|r| r.map(|r| r.previous_trail))
        .collect();
    let newest = trails.iter().filter(|t| !replaced.contains(t)).count();
    let links_ok = trails
        .iter()
        .all(|t| replaced.iter().filter(|r| *r == t).count() <= 1);
    let rooted = restarts
        .iter()
        .filter(|(_, r)| r.is_none_or(|r| !trails.contains(&r.previous_trail)))
        .count();
    if newest == 1 && links_ok && rooted == 1 {
        return Ok(());
    }
    Err(fork(format!(
        "these outputs name {} trails that are not one chain of witnessed restarts",
        trails.len()
    )))
}

/// A held checkpoint (`what`: its file, for messages) must lie on the history of `outputs`: its
/// size is that of an output's checkpoint or of a predecessor's, with the same root: another
/// root at such a size is a `fork`; a size on no output is `inconsistent` (it cannot be shown).
///
/// # Errors
/// The held checkpoint is not on that history.
pub fn check_held(outputs: &[Output], what: &str, held: &Checkpoint) -> VResult<()> {
    let points = outputs.iter().flat_map(|o| {
        std::iter::once((o.checkpoint.size, o.checkpoint.root)).chain(
            o.history
                .predecessor
                .map(|p| (p.checkpoint_size, p.checkpoint_root)),
        )
    });
    let mut size_on_chain = false;
    for (size, root) in points {
        if size == held.size {
            if root == held.root {
                return Ok(());
            }
            size_on_chain = true;
        }
    }
    if size_on_chain {
        return Err(fork(format!(
            "the checkpoint {what} ({} events) has another root than these outputs' history at that size: they do not extend it (a fork)",
            held.size
        )));
    }
    Err(fail(
        FailureClass::Inconsistent,
        format!(
            "the checkpoint {what} ({} events) cannot be shown to be on the history of these outputs (no output or predecessor carries a checkpoint of that size): give the outputs published since, or check it against the exported trail",
            held.size
        ),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::history::Predecessor;

    fn out(name: &str, sha: u8, size: u64, root: u8, pred: Option<(u8, u64, u8)>) -> Output {
        Output {
            subject: None,
            name: name.into(),
            sha256: Hash32([sha; 32]),
            history: History {
                trail: Hash32([1; 32]),
                predecessor: pred.map(|(s, size, r)| Predecessor {
                    sha256: Hash32([s; 32]),
                    checkpoint_size: size,
                    checkpoint_root: Hash32([r; 32]),
                }),
                consistency: vec![],
                restart: None,
            },
            checkpoint: Checkpoint {
                size,
                root: Hash32([root; 32]),
            },
        }
    }

    #[test]
    fn a_chain_passes_and_every_kind_of_fork_fails() {
        let a = out("a", 10, 5, 50, None);
        let b = out("b", 11, 9, 90, Some((10, 5, 50)));
        let c = out("c", 12, 14, 140, Some((11, 9, 90)));
        assert_eq!(
            check_linear(&[a.clone(), b.clone(), c.clone()], true),
            Ok(vec![])
        );
        // Two outputs after the same predecessor (the restored copy drew again).
        let b2 = out("b2", 13, 9, 91, Some((10, 5, 50)));
        let e = check_linear(&[a.clone(), b.clone(), b2.clone()], true).unwrap_err();
        assert_eq!(e.class, FailureClass::Fork);
        // Two first outputs.
        let a2 = out("a2", 14, 6, 60, None);
        assert_eq!(
            check_linear(&[a.clone(), a2], false).unwrap_err().class,
            FailureClass::Fork
        );
        // One size, two roots.
        let b3 = out("b3", 15, 9, 92, Some((11, 9, 90)));
        assert_eq!(
            check_linear(&[b.clone(), b3], false).unwrap_err().class,
            FailureClass::Fork
        );
        // A predecessor named with a checkpoint it does not carry.
        let c2 = out("c2", 12, 14, 140, Some((11, 9, 99)));
        assert_eq!(
            check_linear(&[b.clone(), c2], false).unwrap_err().class,
            FailureClass::Fork
        );
        // A gap: a note, or a failure for a whole operation's publications.
        assert_eq!(
            check_linear(&[a.clone(), c.clone()], false).unwrap().len(),
            1
        );
        assert_eq!(
            check_linear(&[a.clone(), c.clone()], true)
                .unwrap_err()
                .class,
            FailureClass::Inconsistent
        );
        // The same thing published twice in one history (e.g. a day drawn twice): a fork.
        let twice = |o: &Output, n: &str| Output {
            subject: Some(crate::subject::Publishes::Draw {
                operation: "op".into(),
                day: "2018-12-05".into(),
                attempt: 1,
            }),
            name: n.into(),
            ..o.clone()
        };
        assert_eq!(
            check_linear(&[twice(&a, "a"), twice(&b, "b")], true)
                .unwrap_err()
                .class,
            FailureClass::Fork
        );
        // Held checkpoints: on the chain, or not.
        let outs = [a, b, c];
        let held = |size, root: u8| Checkpoint {
            size,
            root: Hash32([root; 32]),
        };
        assert!(check_held(&outs, "m", &held(9, 90)).is_ok());
        assert!(check_held(&outs, "m", &held(5, 50)).is_ok());
        assert_eq!(
            check_held(&outs, "m", &held(9, 91)).unwrap_err().class,
            FailureClass::Fork
        );
        assert_eq!(
            check_held(&outs, "m", &held(7, 70)).unwrap_err().class,
            FailureClass::Inconsistent
        );
    }
}
