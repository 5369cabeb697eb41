//! The limits of an export (SPEC.md, file limits), in one place: the largest file, the longest
//! line, the deepest nesting, the most accounts with entries. Each is a rule of the format: a file
//! beyond one is refused, by every reader, wherever in the file it is crossed.

/// Largest export accepted, in bytes (2^34, 16 GiB).
pub const MAX_EXPORT_BYTES: u64 = 1 << 34;

/// Longest line accepted, its LF not counted (2^20 bytes; a valid record is a few hundred).
pub const MAX_LINE: usize = 1 << 20;

/// Deepest nesting of objects and arrays in a line, the line's top-level object being level 1
/// (valid records nest 2 levels).
pub const MAX_DEPTH: usize = 64;

/// Most accounts with entries one day may have: the leaves one `leaves.bin` holds (2^24).
pub const MAX_ACCOUNTS_WITH_ENTRIES: u64 = 1 << 24;
