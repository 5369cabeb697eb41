//! Fuzz target `folder`: the body is `urne_fuzz_targets::folder::folder` (tools/fuzz-targets).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| urne_fuzz_targets::folder::folder(data));
