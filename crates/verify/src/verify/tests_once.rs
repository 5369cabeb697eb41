//! One history publishes each thing once, every version (spec/formats.md §8.4), and voided attempts
//! are said.

use super::{FailureClass, Published, Publishes, check_once, void_of};
use crate::audit::chain::Checkpoint;
use crate::crypto::Hash32;
use crate::void_notice::Subject as Of;

fn p(subject: Publishes, size: u64, root: u8) -> Published {
    Published {
        name: format!("{subject} @{size}"),
        subject,
        checkpoint: Checkpoint {
            size,
            root: Hash32([root; 32]),
        },
    }
}

fn draw(day: &str, attempt: u32) -> Publishes {
    Publishes::Draw {
        operation: "op".into(),
        day: day.into(),
        attempt,
    }
}

fn commitment(block: &str) -> Publishes {
    Publishes::Commitment {
        block: block.into(),
        attempt: 1,
    }
}

fn void(of: Of) -> Publishes {
    Publishes::Void {
        of,
        attempt: crate::values::Attempt::FIRST,
    }
}

#[test]
fn one_thing_under_two_checkpoints_is_a_fork_and_under_one_the_same_output() {
    let d = || draw("2018-12-05", 1);
    assert!(check_once(&[p(d(), 5, 1), p(d(), 5, 1)]).is_ok());
    assert!(check_once(&[p(d(), 5, 1), p(draw("2018-12-06", 1), 6, 2)]).is_ok());
    for other in [p(d(), 6, 1), p(d(), 5, 2)] {
        let e = check_once(&[p(d(), 5, 1), other]).unwrap_err();
        assert_eq!(e.class, FailureClass::Fork, "{}", e.what);
        assert!(
            e.what
                .contains("both publish the draw of op day 2018-12-05 attempt 1, under"),
            "{}",
            e.what
        );
    }
}

#[test]
fn a_draw_or_commitment_whose_attempt_a_notice_voids_is_said() {
    let all = [
        p(draw("2018-12-05", 1), 5, 1),
        p(draw("2018-12-05", 2), 9, 2),
        p(void(Of::Day("2018-12-05".parse().unwrap())), 7, 3),
        p(commitment("g/100/e/1"), 3, 4),
        p(void(Of::Block("g/100/e/1".parse().unwrap())), 4, 5),
        p(commitment("g/100/e/2"), 3, 4),
        // A block's void voids only that block's attempt.
        p(void(Of::Block("g/100/e/3".parse().unwrap())), 8, 6),
    ];
    let voided: Vec<(String, String)> = all
        .iter()
        .filter_map(|o| void_of(&o.subject, &all).map(|v| (o.subject.to_string(), v.to_string())))
        .collect();
    assert_eq!(
        voided,
        [
            (
                "the draw of op day 2018-12-05 attempt 1".to_string(),
                "the void of day 2018-12-05 attempt 1".to_string()
            ),
            (
                "the commitment of block g/100/e/1 attempt 1".to_string(),
                "the void of block g/100/e/1 attempt 1".to_string()
            ),
        ]
    );
}

#[test]
fn every_subject_is_said_in_the_words_of_the_messages() {
    let h = Hash32([0xab; 32]);
    for (s, words) in [
        (
            draw("2018-12-05", 2),
            "the draw of op day 2018-12-05 attempt 2",
        ),
        (
            commitment("g/100/e/1"),
            "the commitment of block g/100/e/1 attempt 1",
        ),
        (
            Publishes::Reveal {
                block: "g/100/e/1".into(),
                seed_commitment: h,
            },
            &format!(
                "the reveal of block g/100/e/1 seed commitment {}",
                "ab".repeat(32)
            ),
        ),
        (
            void(Of::Day("2018-12-05".parse().unwrap())),
            "the void of day 2018-12-05 attempt 1",
        ),
        (
            void(Of::Block("g/100/e/1".parse().unwrap())),
            "the void of block g/100/e/1 attempt 1",
        ),
        (
            Publishes::Sitting {
                number: 3,
                trail: h,
            },
            &format!("sitting 3 of the trail {}", "ab".repeat(32)),
        ),
    ] {
        assert_eq!(s.to_string(), words);
    }
}
