//! Block tests (to be written).
