//! The export target's reference reader on its own: it accepts every valid seed and refuses
//! every broken one, for the reason the seed was made for, so that the differential target
//! compares urne's reader with something that reads the SPEC (spec/formats.md §4.1.1).

#![forbid(unsafe_code)]

use urne_fuzz_targets::export::oracle::{self, ExcludedRule, Mode, Rules, Verdict};
use urne_fuzz_targets::export::{self, MODE};
use urne_fuzz_targets::keys;
use urne_fuzz_targets::seeds::exports::seeds;
use urne_verify::crypto::keys::key_id;
use urne_verify::rules::draw::CHANCEUX_NOEL_2018;

fn verdict(name: &str, mode: Mode) -> Verdict {
    let (_, bytes) = seeds()
        .into_iter()
        .find(|(n, _)| n == name)
        .expect("a seed");
    let id = key_id(&keys::public(keys::producer()));
    oracle::read(&bytes, &id, &Rules::from_json(CHANCEUX_NOEL_2018), mode)
}

const VALID: [&str; 8] = [
    "deep-64",
    "empty-day",
    "usual-p1",
    "usual-p4",
    "last-day",
    "exclusions",
    "excluded-retail-only",
    "unusual-forms",
];

#[test]
fn the_reference_accepts_the_valid_seeds_and_refuses_the_broken_ones() {
    for (name, _) in seeds() {
        let v = verdict(&name, MODE);
        match name.as_str() {
            n if VALID.contains(&n) => assert!(matches!(v, Verdict::Accept(_)), "{n}: {v:?}"),
            "big-number" => assert!(matches!(v, Verdict::Undefined(_)), "{name}: {v:?}"),
            "crlf" | "cr-inside" if export::ENTRIES_FIXES_PENDING => {
                assert!(matches!(v, Verdict::Undefined(_)), "{name}: {v:?}");
            }
            n => assert!(matches!(v, Verdict::Refuse(_)), "{n}: {v:?}"),
        }
    }
}

#[test]
fn the_reference_tallies_as_the_spec_says() {
    let Verdict::Accept(t) = verdict("usual-p1", MODE) else {
        panic!("usual-p1 is valid")
    };
    // A: 2500 + 600 web and mobile = 3 entries (cap 3); B: retail, then a subscription inside
    // the period = 1 entry; C: 99,999 cents = 9 tranches, capped at 3.
    assert_eq!(t.plays, [5, 4, 1, 0]);
    assert_eq!(t.entries.iter().map(|e| e.1).collect::<Vec<_>>(), [3, 1, 3]);
    assert_eq!(t.total_entries, 7);
    let strict = Mode {
        cr_refused: true,
        excluded: ExcludedRule::AnyPlay,
    };
    // The excluded retail-only account counts under spec/formats.md §4.7's rule, not under the old one.
    let Verdict::Accept(spec) = verdict("excluded-retail-only", strict) else {
        panic!("valid")
    };
    assert_eq!(spec.excluded_accounts_with_plays, [1, 0, 1]);
    assert_eq!(spec.plays, [2, 0, 1, 1]);
    assert!(matches!(verdict("cr-inside", strict), Verdict::Refuse(_)));
}
