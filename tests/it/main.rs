//! All integration tests in one binary (one link, shared helpers). Each module protects one area.

mod blocks;
mod entries;
