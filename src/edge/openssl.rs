//! OpenSSL's libcrypto, told before anyone else uses it to load nothing by name (issue 22,
//! "A clean process"). urne links libcrypto (the core's SHA-512), and the PKCS#11 module
//! (SoftHSM) uses the same copy, loaded once in the process: what urne sets here holds for the
//! module too. Two doors are closed:
//!
//! - **Configuration.** `OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG)` marks the
//!   configuration as done without reading any file: the later `OPENSSL_INIT_LOAD_CONFIG` of
//!   SoftHSM's `C_Initialize` (and of urne's own first hash) is then a no-op. Neither the file
//!   `OPENSSL_CONF` names (refused anyway, `edge::process`) nor the system's `openssl.cnf` (a
//!   file the insider can write) is read, so no provider or engine they name is loaded.
//! - **Engines by id.** SoftHSM 2.6 asks for the engine `rdrand` at every `C_Initialize`
//!   (`ENGINE_by_id`). OpenSSL 3 no longer builds it in, so `ENGINE_by_id` falls back to the
//!   built-in `dynamic` engine, which opens `rdrand.so` from `OPENSSL_ENGINES` or the system's
//!   `engines-3/` folder, configuration or not. Two engines that implement nothing are
//!   registered first under the ids `rdrand` (SoftHSM finds it, initialises it and sets it as the
//!   default for nothing: it has no method) and `dynamic` (the built-in loader of shared objects
//!   is then never registered: its registration under a taken id fails quietly, and a lookup of
//!   any other id that is not built in finds no loader).
//!
//! Measured on SoftHSM 2.6.1 with OpenSSL 3.0: `C_Initialize`, `C_GenerateRandom` and every
//! signature work as before, and no file of OpenSSL's is opened (tests/it/planted.rs).

use std::ffi::{CStr, c_char, c_int, c_void};

/// `OPENSSL_INIT_NO_LOAD_CONFIG` (openssl/crypto.h).
const OPENSSL_INIT_NO_LOAD_CONFIG: u64 = 0x0000_0080;

#[link(name = "crypto")]
unsafe extern "C" {
    fn OPENSSL_init_crypto(opts: u64, settings: *const c_void) -> c_int;
    fn ENGINE_new() -> *mut c_void;
    fn ENGINE_set_id(e: *mut c_void, id: *const c_char) -> c_int;
    fn ENGINE_set_name(e: *mut c_void, name: *const c_char) -> c_int;
    fn ENGINE_add(e: *mut c_void) -> c_int;
    fn ENGINE_free(e: *mut c_void) -> c_int;
}

/// The engines registered in place of those OpenSSL would look for as shared objects.
const PLACEHOLDERS: [(&CStr, &CStr); 2] = [
    (
        c"dynamic",
        c"urne: no engine is loaded from a shared object",
    ),
    (
        c"rdrand",
        c"urne: no rdrand engine (OpenSSL's own generator is used)",
    ),
];

/// What [`initialise`] did: whether the configuration was marked done, and which placeholder
/// engines were registered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Initialised {
    /// `OPENSSL_init_crypto` accepted `OPENSSL_INIT_NO_LOAD_CONFIG`: no configuration file is read.
    pub no_config: bool,
    /// How many of the placeholder engines were registered.
    pub placeholders: usize,
}

impl Initialised {
    /// Both doors closed: no configuration, and both placeholders registered.
    pub fn is_complete(&self) -> bool {
        self.no_config && self.placeholders == PLACEHOLDERS.len()
    }
}

/// Initialises libcrypto with no configuration and registers the placeholder engines. Called
/// once by `edge::process::clean`, first thing in `main`, before any other use of libcrypto.
pub fn initialise() -> Initialised {
    // SAFETY: OPENSSL_init_crypto takes option bits and a NULL settings pointer; it is called
    // before any other thread exists.
    let no_config = unsafe { OPENSSL_init_crypto(OPENSSL_INIT_NO_LOAD_CONFIG, std::ptr::null()) };
    let mut placeholders = 0;
    for (id, name) in PLACEHOLDERS {
        // SAFETY: the engine is created, named with strings of static lifetime (ENGINE_set_id and
        // ENGINE_set_name keep the pointers), added to OpenSSL's list (which takes its own
        // reference), and this function's reference is released; a NULL engine is never used.
        unsafe {
            let e = ENGINE_new();
            if e.is_null() {
                continue;
            }
            if ENGINE_set_id(e, id.as_ptr()) == 1
                && ENGINE_set_name(e, name.as_ptr()) == 1
                && ENGINE_add(e) == 1
            {
                placeholders += 1;
            }
            ENGINE_free(e);
        }
    }
    Initialised {
        no_config: no_config == 1,
        placeholders,
    }
}
