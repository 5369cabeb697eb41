//! Test and demo tool (not part of the appliance): writes signed entry exports. See Cargo.toml.
fn main() {}
