//! The attempts of one day or one block (spec/formats.md §4.6): numbered from 1, the last one current,
//! a new one opened by each void. Shared by [`super::day`] and [`super::block`].

use urne_verify::values::Attempt;

/// The attempts from `first` (1, or the one a restart carried), `first + i` at index `i`; never
/// empty. The attempts before `first` were voided under the trail a restart replaced: nothing of
/// them is in this trail, so none is held (a carried attempt costs nothing, however high).
#[derive(Debug)]
pub(super) struct Attempts<A> {
    first: Attempt,
    list: Vec<A>,
    /// "day" or "block", for the messages.
    of: &'static str,
}

impl<A: Default> Attempts<A> {
    /// Attempt 1, nothing recorded yet.
    pub(super) fn new(of: &'static str) -> Attempts<A> {
        Attempts {
            first: Attempt::FIRST,
            list: vec![A::default()],
            of,
        }
    }

    /// A void: the next attempt becomes the current one.
    pub(super) fn open_next(&mut self) {
        self.list.push(A::default());
    }

    /// A trail restarted (spec/appliance.md §6.8): attempt `a` becomes the current one, the ones before it
    /// having been voided under the trail replaced; `Err` unless nothing is recorded yet.
    pub(super) fn carry_to(&mut self, a: Attempt) -> Result<&mut A, String> {
        if self.list.len() != 1 || self.first != Attempt::FIRST {
            return Err(format!("the {} is carried twice", self.of));
        }
        self.first = a;
        Ok(self.list.last_mut().expect("never empty"))
    }
}

impl<A> Attempts<A> {
    /// The current attempt's number.
    pub(super) fn number(&self) -> Attempt {
        u32::try_from(self.list.len() - 1)
            .ok()
            .and_then(|k| self.first.get().checked_add(k))
            .and_then(Attempt::new)
            .expect("never empty, and a void opens the next attempt only below u32::MAX")
    }

    /// The current attempt, which an event of attempt `a` that decides something must name.
    pub(super) fn current(&mut self, a: Attempt) -> Result<&mut A, String> {
        let cur = self.number();
        if a != cur {
            return Err(self.not_current(a));
        }
        Ok(self.list.last_mut().expect("never empty"))
    }

    /// Attempt `a`, current or voided, which a record of a fact (a publication, a proof) may
    /// name after a void.
    pub(super) fn any(&mut self, a: Attempt) -> Result<&mut A, String> {
        if a > self.number() || a < self.first {
            return Err(self.not_current(a));
        }
        Ok(&mut self.list[(a.get() - self.first.get()) as usize])
    }

    /// The current attempt, to read.
    pub(super) fn last(&self) -> &A {
        self.list.last().expect("never empty")
    }

    /// Every attempt, in order.
    pub(super) fn all(&self) -> &[A] {
        &self.list
    }

    fn not_current(&self, a: Attempt) -> String {
        format!(
            "it names attempt {a}, and the {}'s current attempt is {}",
            self.of,
            self.number()
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A restart carrying a high attempt holds no entry for the attempts voided before it:
    /// attempt 4,000,000,000 costs one entry, and those before it are not this trail's.
    #[test]
    fn a_carried_attempt_costs_one_entry_however_high() {
        let mut t: Attempts<Option<u8>> = Attempts::new("day");
        let high = Attempt::new(4_000_000_000).unwrap();
        *t.carry_to(high).unwrap() = Some(1);
        assert_eq!((t.number(), t.all().len()), (high, 1));
        assert_eq!(t.current(high).unwrap(), &mut Some(1));
        assert!(t.any(Attempt::new(3_999_999_999).unwrap()).is_err());
        assert!(t.carry_to(high).is_err(), "carried twice");
        t.open_next();
        assert_eq!(t.number(), high.next().unwrap());
        assert_eq!(t.any(high).unwrap(), &mut Some(1));
        let mut one: Attempts<Option<u8>> = Attempts::new("block");
        one.open_next();
        assert!(
            one.carry_to(high).is_err(),
            "a trail with a void is not carried into"
        );
    }
}
