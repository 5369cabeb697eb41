//! One history publishes each thing once, every version (spec/formats.md §8.4), and voided attempts
//! are said.

use super::{FailureClass, Published, check_once, voided_notes};
use crate::audit::chain::Checkpoint;
use crate::crypto::Hash32;

fn p(subject: &str, size: u64, root: u8) -> Published {
    Published {
        subject: subject.into(),
        checkpoint: Checkpoint {
            size,
            root: Hash32([root; 32]),
        },
        name: format!("{subject} @{size}"),
    }
}

#[test]
fn one_thing_under_two_checkpoints_is_a_fork_and_under_one_the_same_output() {
    let d = "the draw of op day 2018-12-05 attempt 1";
    assert!(check_once(&[p(d, 5, 1), p(d, 5, 1)]).is_ok());
    assert!(
        check_once(&[
            p(d, 5, 1),
            p("the draw of op day 2018-12-06 attempt 1", 6, 2)
        ])
        .is_ok()
    );
    for other in [p(d, 6, 1), p(d, 5, 2)] {
        let e = check_once(&[p(d, 5, 1), other]).unwrap_err();
        assert_eq!(e.class, FailureClass::Fork, "{}", e.what);
    }
}

#[test]
fn a_draw_or_commitment_whose_attempt_a_notice_voids_is_said() {
    let all = [
        p("the draw of op day 2018-12-05 attempt 1", 5, 1),
        p("the draw of op day 2018-12-05 attempt 2", 9, 2),
        p("the void of day 2018-12-05 attempt 1", 7, 3),
        p("the commitment of block g/100/e/1 attempt 1", 3, 4),
        p("the void of block g/100/e/1 attempt 1", 4, 5),
        p("the commitment of block g/100/e/2 attempt 1", 3, 4),
    ];
    let notes = voided_notes(&all);
    assert_eq!(notes.len(), 2, "{notes:?}");
    assert!(notes[0].starts_with("the draw of op day 2018-12-05 attempt 1 "));
    assert!(notes[1].starts_with("the commitment of block g/100/e/1 attempt 1 "));
}
