//! Fuzz target `checkpoint`: the body is `urne_fuzz_targets::checkpoint::checkpoint` (tools/fuzz-targets).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| urne_fuzz_targets::checkpoint::checkpoint(data));
