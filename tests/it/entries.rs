//! Entry export tests (to be written).
