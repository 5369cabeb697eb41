//! The appliance's edges: everything that touches the world outside the pure core. PKCS#11
//! (`hsm`), the SQLite audit trail (`store`), the one clock (`clock`), files (`fsio`; folders
//! held by a descriptor, `dir`; outputs staged whole, `staging`), signed output files
//! (`publish`), one command at a time on a trail (`lock`), the configuration and PIN
//! (`config`), the running executable (`identity`), and what code runs in the process: the
//! environment and libcrypto set first (`process`, `openssl`), the dynamic loader (`loader`),
//! and the files that may be mapped (`closure`, from their ELF dynamic sections, `elf`); the
//! console's size, to pace the screen (`tty`).

pub mod binding;
pub mod clock;
pub mod closure;
pub mod config;
pub mod dir;
pub mod elf;
pub mod folder;
pub mod fsio;
pub mod hsm;
pub mod identity;
pub mod loader;
pub mod lock;
pub mod maps;
pub mod openssl;
pub mod process;
pub mod publish;
pub mod staging;
pub mod store;
pub mod tty;
