//! Fuzz target `export`: the body is `urne_fuzz_targets::export::export` (tools/fuzz-targets).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| urne_fuzz_targets::export::export(data));
