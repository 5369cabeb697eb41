//! Fuzz target `outputs`: the body is `urne_fuzz_targets::outputs::outputs` (tools/fuzz-targets).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| urne_fuzz_targets::outputs::outputs(data));
