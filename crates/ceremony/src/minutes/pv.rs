//! The minutes `pv.html` of a draw made alone (spec/formats.md §4.7, spec/appliance.md §9.2): the same minutes as a
//! sitting's (`minutes`), for one draw, read from the trail, with what only the drawing
//! process holds (the rules, the sealed set's pseudonyms, the entropy, the hashes of the other
//! files of the folder, the checkpoint). Also the D-8 judgement of a ceremony's date, which the
//! draw command records and prints ([`DrawDay`], [`anomalies`]).

use crate::minutes::{self, Context, Minutes, MinutesError};
use chrono::NaiveDate;
use std::collections::BTreeMap;
use urne_verify::audit::Event;
use urne_verify::crypto::Hash32;
use urne_verify::draw::SealedSet;
use urne_verify::draw::files::VoidedAttempt;
use urne_verify::rules::draw::DrawRules;
use urne_verify::rules::game::GameRules;

/// What the drawing process gives the minutes beyond the trail.
pub struct LoneDraw<'a> {
    /// The rules sealed with the day.
    pub rules: &'a DrawRules,
    /// The sealed set's blob hash (the seal's `set_sha256`) and the set.
    pub set: (Hash32, &'a SealedSet),
    /// The HSM's entropy, hex (the trail keeps it sealed).
    pub entropy: &'a str,
    /// The SHA-256 of the folder's other files (the minutes cannot hold their own, nor the
    /// manifest's, which lists them).
    pub files: BTreeMap<String, Hash32>,
    /// The checkpoint the draw's outputs carry.
    pub checkpoint: &'a str,
}

impl Context for LoneDraw<'_> {
    fn draw_rules(&self, sha256: &Hash32) -> Option<&DrawRules> {
        (self.rules.sha256() == sha256.0).then_some(self.rules)
    }

    fn game_rules(&self, _: &Hash32) -> Option<&GameRules> {
        None
    }

    fn pseudonym(&self, set_sha256: &Hash32, leaf: u64) -> Option<Hash32> {
        let (sha, set) = self.set;
        if *set_sha256 != sha {
            return None;
        }
        let leaf = usize::try_from(leaf).ok()?;
        set.leaves.get(leaf).map(|l| l.pseudonym)
    }

    fn checkpoint(&self) -> Option<&str> {
        Some(self.checkpoint)
    }

    fn draw_entropy(&self, _: &Hash32) -> Option<String> {
        Some(self.entropy.to_string())
    }
}

/// The minutes `pv.html` of `day`'s `attempt`, from the trail `events` (up to the draw's result
/// at least), in French.
pub fn render(
    events: &[Event],
    day: urne_verify::values::Day,
    attempt: urne_verify::values::Attempt,
    lone: &LoneDraw,
) -> Result<String, MinutesError> {
    let mut m = Minutes::for_draw(events, day, attempt, lone)?;
    for d in &mut m.draws {
        d.entropy = Some(lone.entropy.to_string());
        d.files.clone_from(&lone.files);
    }
    Ok(minutes::html::render(&m, minutes::Lang::Fr))
}

/// The date of a ceremony against its period's draw date (D-8), as the minutes judge it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawDay {
    /// The ceremony's date in the rules' time zone (read from the appliance's clock).
    pub today: NaiveDate,
    /// The draw date of the day's period.
    pub draw_date: NaiveDate,
    /// Days of grace after the draw date (the rules' `draw_grace_days`).
    pub grace_days: u32,
}

impl DrawDay {
    /// Drawn after the draw date plus its days of grace (D-8).
    pub fn is_late(&self) -> bool {
        self.today > self.draw_date + chrono::Days::new(u64::from(self.grace_days))
    }

    /// Drawn before the draw date (D-8).
    pub fn is_early(&self) -> bool {
        self.today < self.draw_date
    }
}

/// The minutes' anomalies, in order: a draw late or early against its draw date (D-8), then
/// every voided attempt of the day.
pub fn anomalies(when: &DrawDay, voided: &[VoidedAttempt]) -> Vec<String> {
    let mut anomalies = vec![];
    if when.is_late() {
        anomalies.push(format!(
            "Tirage effectué le {}, au-delà de la date prévue ({}) augmentée du délai de {} jours (D-8).",
            when.today, when.draw_date, when.grace_days
        ));
    } else if when.is_early() {
        anomalies.push(format!(
            "Tirage effectué le {}, avant la date prévue du {} (D-8).",
            when.today, when.draw_date
        ));
    }
    for v in voided {
        anomalies.push(format!(
            "Tentative n° {} annulée (événement d'audit n° {}) : {}",
            v.attempt, v.audit_seq, v.reason
        ));
    }
    anomalies
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_draw_is_late_only_after_its_days_of_grace() {
        let d = |s: &str| chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap();
        let when = |today: &str| super::DrawDay {
            today: d(today),
            draw_date: d("2018-12-10"),
            grace_days: 2,
        };
        let voided = [super::VoidedAttempt {
            attempt: 1,
            reason: "wrong export".into(),
            audit_seq: 7,
        }];
        for (today, late, early) in [
            ("2018-12-09", false, true),
            ("2018-12-10", false, false),
            ("2018-12-12", false, false),
            ("2018-12-13", true, false),
        ] {
            assert_eq!(
                (when(today).is_late(), when(today).is_early()),
                (late, early)
            );
            let a = super::anomalies(&when(today), &voided);
            assert_eq!(a.len(), 1 + usize::from(late || early), "{today}");
            assert!(a.last().unwrap().starts_with("Tentative n° 1 annulée"));
        }
        assert!(super::anomalies(&when("2018-12-13"), &[])[0].contains("délai de 2 jours"));
    }
}
