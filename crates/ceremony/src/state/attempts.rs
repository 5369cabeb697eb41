//! The attempts of one day or one block (spec/formats.md §4.6): numbered from 1, the last one current,
//! a new one opened by each void. Shared by [`super::day`] and [`super::block`].

use urne_verify::values::Attempt;

/// The attempts, `n` at index `n - 1`; never empty.
#[derive(Debug)]
pub(super) struct Attempts<A> {
    list: Vec<A>,
    /// "day" or "block", for the messages.
    of: &'static str,
}

impl<A: Default> Attempts<A> {
    /// Attempt 1, nothing recorded yet.
    pub(super) fn new(of: &'static str) -> Attempts<A> {
        Attempts {
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
        if self.list.len() != 1 {
            return Err(format!("the {} is carried twice", self.of));
        }
        while self.number() < a {
            self.list.push(A::default());
        }
        Ok(self.list.last_mut().expect("never empty"))
    }
}

impl<A> Attempts<A> {
    /// The current attempt's number.
    pub(super) fn number(&self) -> Attempt {
        u32::try_from(self.list.len())
            .ok()
            .and_then(Attempt::new)
            .expect("never empty, numbered by u32")
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
        if a > self.number() {
            return Err(self.not_current(a));
        }
        Ok(&mut self.list[a.get() as usize - 1])
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
