//! Fuzz target `tickets`: the body is `urne_fuzz_targets::tickets::tickets` (tools/fuzz-targets).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| urne_fuzz_targets::tickets::tickets(data));
