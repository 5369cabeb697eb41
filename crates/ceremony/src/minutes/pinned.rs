//! Production's keys in the minutes (spec/appliance.md §9.2, spec/formats.md §6.2): the set a seal trusts when the range
//! ends, and every change of it since the previous sitting that no sitting witnessed (a
//! `producer.keys` recorded by another process than a sitting's: `urne keys producer`), as an
//! incident for the commissaire to check against production's written statement.

use super::collect::{Parsed, Work};
use super::{Fixed, Incident, Keys};
use urne_verify::events::kinds::Record;
use urne_verify::events::payloads::ProducerKeys;

/// Adds to a range's work (up to `hi` of `all`) the keys pinned at its end, in its keys (which
/// the minutes then always have), and the changes recorded from index `from` on by another
/// process than a sitting's, in its incidents: from a sitting's opening (a pin before it is an
/// act done outside any sitting), from the previous sitting's close for a lone draw.
pub(super) fn add(w: &mut Work, all: &[Parsed], from: usize, hi: usize) {
    let pinned = in_force(&all[..=hi]);
    if pinned.is_some() || w.keys.is_some() {
        w.keys
            .get_or_insert_with(|| Keys {
                generated: None,
                exported: vec![],
                pinned: None,
            })
            .pinned = pinned;
    }
    w.incidents.extend(changes(all, from, hi));
    w.incidents.sort_by_key(|i| i.at().seq);
}

/// The set pinned by the last `producer.keys` of `upto` (the trail up to the range's end).
fn in_force(upto: &[Parsed]) -> Option<Fixed<ProducerKeys>> {
    upto.iter().rev().find_map(|p| match &p.r {
        Record::ProducerKeys(r) => Some(Fixed {
            at: p.at,
            value: r.clone(),
        }),
        _ => None,
    })
}

/// The `producer.keys` events of another process than a sitting's (`urne keys producer`: its
/// `software.start` names another command than `ceremony`), from index `from` of `all` to the
/// range's end `hi`: a pin the commissaire did not type at a sitting, even one recorded while a
/// sitting was open.
fn changes(all: &[Parsed], from: usize, hi: usize) -> Vec<Incident> {
    let mut by_sitting = false;
    let mut out = vec![];
    for (i, p) in all[..=hi].iter().enumerate() {
        match &p.r {
            Record::SoftwareStart(s) => by_sitting = s.command == "ceremony",
            Record::ProducerKeys(r) if i >= from && !by_sitting => {
                out.push(Incident::ProducerKeys {
                    at: p.at,
                    keys: r.ids(),
                    previous: r.previous.clone(),
                });
            }
            _ => {}
        }
    }
    out
}
