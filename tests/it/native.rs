//! Shared objects the tests build from C (`tests/fixtures/pkcs11/`), as an insider would bring
//! them to the appliance: the forwarding PKCS#11 module (`forward.c`: SoftHSM underneath,
//! `C_GenerateRandom` answered by a policy of the test's choosing, `C_Sign` failing on demand)
//! and an `LD_PRELOAD` stub of OpenSSL's `RAND_bytes` (`rand_stub.c`). They are compiled once per
//! test run with `cc -shared -fPIC $(pkg-config --cflags p11-kit-1)` (Debian `gcc`,
//! `libp11-kit-dev`, `pkg-config`: `scripts/lib.sh` installs them) into cargo's
//! `CARGO_TARGET_TMPDIR`, under a name that carries the source's hash.

use crate::common::*;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The real module the forwarding module passes everything to.
pub(crate) const SOFTHSM: &str = "/usr/lib/softhsm/libsofthsm2.so";

/// Compiles `tests/fixtures/pkcs11/<source>` into a shared object (once per test process; a
/// changed source gets a new file) and returns its path.
fn build(source: &str) -> PathBuf {
    build_with(source, &link_flags(source))
}

/// [`build`], linked with `flags`.
fn build_with(source: &str, flags: &[String]) -> PathBuf {
    let src = root().join("tests/fixtures/pkcs11").join(source);
    let mut text = std::fs::read(&src).unwrap();
    text.extend(flags.join(" ").bytes());
    let tag = &hex::encode(urne_verify::crypto::sha256(&text))[..16];
    let stem = source.trim_end_matches(".c");
    let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("{stem}-{tag}.so"));
    if out.is_file() {
        return out;
    }
    let cflags = Command::new("pkg-config")
        .args(["--cflags", "p11-kit-1"])
        .output()
        .expect("pkg-config: install it (scripts/lib.sh ensure_deps does)");
    assert!(
        cflags.status.success(),
        "pkg-config --cflags p11-kit-1 failed: install libp11-kit-dev (scripts/lib.sh ensure_deps does)"
    );
    let cflags = String::from_utf8(cflags.stdout).unwrap();
    let tmp = out.with_extension(format!("so.{}", std::process::id()));
    let cc = Command::new("cc")
        .args(["-shared", "-fPIC", "-O2", "-Wall", "-Wextra"])
        .args(cflags.split_whitespace())
        .arg("-o")
        .arg(&tmp)
        .arg(&src)
        .args(flags)
        .arg("-ldl")
        .output()
        .expect("cc: install gcc (scripts/lib.sh ensure_deps does)");
    assert!(
        cc.status.success(),
        "cc {source} failed:\n{}",
        String::from_utf8_lossy(&cc.stderr)
    );
    // Several test processes may build it at once: each writes its own file, the rename is atomic.
    std::fs::rename(&tmp, &out).unwrap();
    out
}

/// What a fixture links besides libdl: the forwarding module needs SoftHSM, and says so in its
/// dynamic section (`DT_NEEDED` and a run path), as a vendor's module names the libraries it
/// loads: urne refuses a process in which a library is mapped that neither it nor its module
/// needs (`src/edge/closure.rs`), so a module that loaded SoftHSM by `dlopen` alone would be
/// refused at `C_Initialize`.
fn link_flags(source: &str) -> Vec<String> {
    if source != "forward.c" {
        return vec![];
    }
    let dir = Path::new(SOFTHSM).parent().unwrap().display().to_string();
    vec![
        format!("-L{dir}"),
        "-Wl,--no-as-needed".into(),
        "-l:libsofthsm2.so".into(),
        format!("-Wl,-rpath,{dir}"),
        "-Wl,--as-needed".into(),
    ]
}

/// The forwarding module built without declaring SoftHSM, which it still loads (`dlopen`) at
/// `C_GetFunctionList`: a module that brings in code its dynamic section does not name.
pub(crate) fn forwarding_module_undeclared() -> &'static Path {
    static SO: OnceLock<PathBuf> = OnceLock::new();
    SO.get_or_init(|| build_with("forward.c", &[]))
}

/// The forwarding PKCS#11 module (`tests/fixtures/pkcs11/forward.c`), built for this run.
pub(crate) fn forwarding_module() -> &'static Path {
    static SO: OnceLock<PathBuf> = OnceLock::new();
    SO.get_or_init(|| build("forward.c"))
}

/// The `LD_PRELOAD` stub of `RAND_bytes` (`tests/fixtures/pkcs11/rand_stub.c`), built for this
/// run.
pub(crate) fn rand_stub() -> &'static Path {
    static SO: OnceLock<PathBuf> = OnceLock::new();
    SO.get_or_init(|| build("rand_stub.c"))
}

/// A library that moves its own code into anonymous memory to leave `/proc/self/maps`
/// (`tests/fixtures/pkcs11/hide.c`), built for this run.
pub(crate) fn hiding_library() -> &'static Path {
    static SO: OnceLock<PathBuf> = OnceLock::new();
    SO.get_or_init(|| build("hide.c"))
}

/// A copy of urne that loads `library` itself (`patchelf --add-needed`), at `out`.
pub(crate) fn urne_needing(library: &Path, out: &Path) {
    std::fs::copy(URNE, out).unwrap();
    let st = Command::new("patchelf")
        .arg("--add-needed")
        .arg(library)
        .arg(out)
        .status()
        .expect("patchelf: install it (scripts/lib.sh ensure_deps does)");
    assert!(
        st.success(),
        "patchelf --add-needed {} failed",
        library.display()
    );
}

/// SHA-256 of a file, hex.
pub(crate) fn sha256_file(p: &Path) -> String {
    hex::encode(urne_verify::crypto::sha256(&std::fs::read(p).unwrap()))
}

impl Env {
    /// A token whose configuration (`module` in `urne.json`, not pinned) names a copy of the
    /// forwarding module in the environment's folder (`fwd.so`, so a test may swap or alter it);
    /// `keys`: urne's keys generated (`urne keys init` through the forwarding module). Every
    /// command of the environment, `scripts/dev-hsm`'s `keys init` included, gets the module's
    /// knobs, each naming a file of the folder that the test writes at will:
    ///
    /// - `URNE_TEST_REAL_MODULE`: SoftHSM ([`SOFTHSM`]), which answers everything else;
    /// - `URNE_TEST_FWD_RANDOM` = [`Env::fwd_random`]: a queue of answers to `C_GenerateRandom`,
    ///   one hex line each, taken in order (a line must be exactly the length asked, else the
    ///   call fails); empty or missing: SoftHSM answers ([`Env::fwd_queue_random`]);
    /// - `URNE_TEST_FWD_SIGN_FAIL` = [`Env::fwd_sign_fail`]: while this file exists, `C_Sign`
    ///   fails with `CKR_DEVICE_ERROR` ([`Env::fwd_set_sign_fail`]);
    /// - `URNE_TEST_FWD_LOG` = [`Env::fwd_log`]: one line per call, `random LEN file|cmd|real
    ///   HEX`, `sign ok|failed`, `create ok|error|full` and `destroy ok|refused`.
    ///
    /// Two more knobs are left to the test, per command (`env.cmd().env(…)`):
    /// `URNE_TEST_FWD_RANDOM_CMD`, a shell command run for every `C_GenerateRandom` with
    /// `URNE_TEST_FWD_LEN` set, printing the answer in hex (nothing: SoftHSM answers; tried
    /// before the queue): the grinding adversary, who may read every file and process on the
    /// machine; and `URNE_TEST_FWD_SWAP_FROM` / `URNE_TEST_FWD_SWAP_TO`, a rename done at
    /// `C_Initialize`. `tests/fixtures/pkcs11/forward.c` documents them all.
    pub(crate) fn forwarding(keys: bool) -> Env {
        let dir = tempfile::tempdir().unwrap();
        let module = dir.path().join("fwd.so");
        std::fs::copy(forwarding_module(), &module).unwrap();
        let p = |name: &str| dir.path().join(name).display().to_string();
        let vars = vec![
            ("URNE_TEST_REAL_MODULE".to_string(), SOFTHSM.to_string()),
            ("URNE_TEST_FWD_RANDOM".to_string(), p("fwd-random")),
            ("URNE_TEST_FWD_SIGN_FAIL".to_string(), p("fwd-sign-fail")),
            ("URNE_TEST_FWD_FULL".to_string(), p("fwd-full")),
            ("URNE_TEST_FWD_LOG".to_string(), p("fwd.log")),
        ];
        Env::make_in(dir, keys, Some(&module), vars)
    }

    /// The forwarding module's file (a copy of [`forwarding_module`] in the folder).
    pub(crate) fn fwd_module(&self) -> PathBuf {
        self.path("fwd.so")
    }

    /// The queue of answers to `C_GenerateRandom` (`URNE_TEST_FWD_RANDOM`).
    pub(crate) fn fwd_random(&self) -> PathBuf {
        self.path("fwd-random")
    }

    /// Appends `answers` to the queue: the next `C_GenerateRandom` calls get them, in order.
    pub(crate) fn fwd_queue_random(&self, answers: &[&[u8]]) {
        use std::io::Write;
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(self.fwd_random())
            .unwrap();
        for a in answers {
            writeln!(f, "{}", hex::encode(a)).unwrap();
        }
    }

    /// The flag file that makes `C_Sign` fail (`URNE_TEST_FWD_SIGN_FAIL`).
    pub(crate) fn fwd_sign_fail(&self) -> PathBuf {
        self.path("fwd-sign-fail")
    }

    /// Makes `C_Sign` fail from now on (`true`) or work again (`false`).
    pub(crate) fn fwd_set_sign_fail(&self, fail: bool) {
        if fail {
            std::fs::write(self.fwd_sign_fail(), b"").unwrap();
        } else {
            let _ = std::fs::remove_file(self.fwd_sign_fail());
        }
    }

    /// What the forwarding module logged (`URNE_TEST_FWD_LOG`), empty before any call.
    pub(crate) fn fwd_log(&self) -> String {
        std::fs::read_to_string(self.path("fwd.log")).unwrap_or_default()
    }
}

/// libfaketime (Debian `faketime`), which moves the clock of the process that loads it.
pub(crate) const LIBFAKETIME: &str = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1";

/// A copy of the urne binary that loads libfaketime itself (`patchelf --add-needed`; Debian
/// `patchelf`, which `scripts/lib.sh` installs), for tests that move the appliance's clock
/// (`FAKETIME` in its environment, libfaketime's syntax). urne refuses to open the token under
/// `LD_PRELOAD`, the way `faketime(1)` brings libfaketime in; a binary patched to need a library
/// is a way in that no check inside the process refuses, as an insider with the files could
/// make one: it is another executable, whose hash `software.start` records, and libfaketime is
/// among the mapped files it records. Made once per build of urne (the copy is named by the
/// binary's hash), in cargo's `CARGO_TARGET_TMPDIR`.
pub(crate) fn faketime_urne() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let tag = &sha256_file(Path::new(URNE))[..16];
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let out = dir.join(format!("urne-faketime-{tag}"));
        if out.is_file() {
            return out;
        }
        // Copies made for earlier builds of urne go: each is as large as urne. This build's
        // copy being made by another test process (`urne-faketime-{tag}.PID`) stays.
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let name = e.file_name().to_string_lossy().into_owned();
            if name.starts_with("urne-faketime-")
                && !name.starts_with(&format!("urne-faketime-{tag}"))
            {
                let _ = std::fs::remove_file(e.path());
            }
        }
        let tmp = dir.join(format!("urne-faketime-{tag}.{}", std::process::id()));
        std::fs::copy(URNE, &tmp).unwrap();
        let st = Command::new("patchelf")
            .arg("--add-needed")
            .arg(LIBFAKETIME)
            .arg(&tmp)
            .status()
            .expect("patchelf: install it (scripts/lib.sh ensure_deps does)");
        assert!(st.success(), "patchelf --add-needed {LIBFAKETIME} failed");
        std::fs::rename(&tmp, &out).unwrap();
        out
    })
}

impl Env {
    /// What the forwarding module returned for `C_GenerateRandom` calls of `len` bytes, in
    /// order, read from its log (`URNE_TEST_FWD_LOG`, which keeps every value it returned):
    /// `(source, bytes)`, the source `real` (SoftHSM), `file` (the queue) or `cmd`.
    pub(crate) fn fwd_answers(&self, len: usize) -> Vec<(String, Vec<u8>)> {
        let head = format!("random {len} ");
        self.fwd_log()
            .lines()
            .filter_map(|l| l.strip_prefix(&head))
            .filter_map(|rest| rest.split_once(' '))
            .filter_map(|(source, h)| Some((source.to_string(), hex::decode(h).ok()?)))
            .collect()
    }
}
