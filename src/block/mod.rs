//! Instant-game blocks (G-1 … G-8): shuffle, grids, commitments. (to be written)
