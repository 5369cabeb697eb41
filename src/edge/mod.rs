//! The appliance's edges: everything that touches the world outside the pure core. PKCS#11
//! (`hsm`), the SQLite audit trail (`store`), the one clock (`clock`), files (`fsio`; folders
//! held by a descriptor, `dir`; outputs staged whole, `staging`), signed output files
//! (`publish`), the configuration and PIN (`config`), the running executable (`identity`), and
//! the dynamic loader (`loader`: what code runs in the process).

pub mod binding;
pub mod clock;
pub mod config;
pub mod dir;
pub mod folder;
pub mod fsio;
pub mod hsm;
pub mod identity;
pub mod loader;
pub mod publish;
pub mod staging;
pub mod store;
