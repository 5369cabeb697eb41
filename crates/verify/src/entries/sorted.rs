//! Merging the workers' sorted lists: the tally's results do not depend on how lines fell into
//! chunks and threads because every list is sorted before it is merged.

/// The items of sorted `lists`, in ascending order (a k-way merge; k is the number of workers,
/// so a linear look at the heads is enough).
pub(super) fn merged<T: Copy + Ord>(lists: &[Vec<T>]) -> impl Iterator<Item = T> + '_ {
    let mut heads = vec![0usize; lists.len()];
    std::iter::from_fn(move || {
        let mut best: Option<(usize, T)> = None;
        for (i, l) in lists.iter().enumerate() {
            if let Some(&x) = l.get(heads[i])
                && best.is_none_or(|(_, b)| x < b)
            {
                best = Some((i, x));
            }
        }
        let (i, x) = best?;
        heads[i] += 1;
        Some(x)
    })
}
