//! The clean process (issue 22, "Nothing an insider plants runs"): what urne does first, before
//! any library it links or loads reads its environment or its configuration.
//!
//! [`clean`], the first call of `main` (the token's mark reader included, which is the same
//! executable), in this order:
//!
//! 1. takes the [`Start`]: the environment the process was started with (`/proc/self/environ`,
//!    which a non-dumpable process that is not root can no longer read), the auxiliary vector,
//!    and the files mapped before anything else ran;
//! 2. reduces the environment to [`KEPT`] (what urne reads, the locale, the terminal,
//!    libfaketime's `FAKETIME*`): every other variable is removed and its value kept aside in
//!    this process, to be given back only to the PKCS#11 module, only when the configuration
//!    names it in `module_env` and it is not of the code-loading kind ([`module_env`]);
//! 3. makes the process non-dumpable (`PR_SET_DUMPABLE` 0: no core file, no `ptrace` by another
//!    process of the same user, no reading of its memory through `/proc`), before any PIN is read;
//! 4. initialises OpenSSL's libcrypto (linked by urne, and shared with the PKCS#11 module) so
//!    that it loads no configuration file at all (`OPENSSL_INIT_NO_LOAD_CONFIG`: neither the file
//!    `OPENSSL_CONF` names nor the system's `openssl.cnf`, either of which can name a provider or
//!    an engine to load), and registers two engines that do nothing under the ids `dynamic` and
//!    `rdrand`, so that `ENGINE_by_id` (SoftHSM asks for `rdrand` at every `C_Initialize`) finds
//!    them instead of opening a shared object from `OPENSSL_ENGINES` or the system's
//!    `engines-3/` folder.
//!
//! A variable that would load code or configuration ([`is_code_loading`]: glibc's list of those
//! it ignores in secure mode, every `LD_*`, `MALLOC_*` and `OPENSSL_*`) is not only removed: a
//! command that opens the token refuses to start (exit 3, [`check_started_clean`]), since what
//! the loader did with it before `main` cannot be undone. What each library in the process
//! could load, and what closes it, is written down in docs/threat-model.md, "The clean process".

use crate::error::{Error, Kind, Result};
use crate::msg::catalogue::edge as m;
use std::ffi::{OsStr, OsString};
use std::os::unix::ffi::OsStrExt;
use std::sync::{Mutex, OnceLock};

/// What is kept in the environment, by exact name or (ending in `*`) by prefix: urne's own
/// variables, the locale, the terminal, and the clock's: `TZ` (the zone the C library and
/// libfaketime read times in) and libfaketime's `FAKETIME*` (the clock is the insider's anyway,
/// and libfaketime reads `FAKETIME` again about every 10 s: removing it would move the clock).
pub const KEPT: [&str; 15] = [
    "URNE_CONFIG",
    "URNE_DB",
    "URNE_PIN",
    "URNE_HSM_MODULE",
    "URNE_HSM_TOKEN",
    "URNE_QUIET_BLOCKS",
    "LANG",
    "LANGUAGE",
    "LC_*",
    "TERM",
    "COLUMNS",
    "LINES",
    "TZ",
    "FAKETIME",
    "FAKETIME_*",
];

/// glibc's list of the variables it removes from the environment of a set-user-id program
/// (`UNSECURE_ENVVARS`, sysdeps/generic/unsecvars.h, glibc 2.36, with `GLIBC_TUNABLES`): each
/// makes glibc load code, read a file of someone's choosing or change how it allocates. The
/// floor of [`is_code_loading`].
pub const GLIBC_UNSECURE: [&str; 24] = [
    "GCONV_PATH",
    "GETCONF_DIR",
    "GLIBC_TUNABLES",
    "HOSTALIASES",
    "LD_AUDIT",
    "LD_DEBUG",
    "LD_DEBUG_OUTPUT",
    "LD_DYNAMIC_WEAK",
    "LD_HWCAP_MASK",
    "LD_LIBRARY_PATH",
    "LD_ORIGIN_PATH",
    "LD_PRELOAD",
    "LD_PROFILE",
    "LD_SHOW_AUXV",
    "LD_USE_LOAD_BIAS",
    "LOCALDOMAIN",
    "LOCPATH",
    "MALLOC_TRACE",
    "NIS_PATH",
    "NLSPATH",
    "RESOLV_HOST_CONF",
    "RES_OPTIONS",
    "TMPDIR",
    "TZDIR",
];

/// Prefixes of variables that load code or configuration: the dynamic loader's (`LD_`, all of
/// them, whether glibc lists them or not), glibc's allocator's (read before `main`), and
/// OpenSSL's (`OPENSSL_CONF`, `OPENSSL_ENGINES`, `OPENSSL_MODULES`, `OPENSSL_CONF_INCLUDE`, …).
pub const CODE_LOADING_PREFIXES: [&str; 3] = ["LD_", "MALLOC_", "OPENSSL_"];

/// True for a variable that loads code or configuration into the process: refused, not only
/// removed.
pub fn is_code_loading(name: &str) -> bool {
    GLIBC_UNSECURE.contains(&name) || CODE_LOADING_PREFIXES.iter().any(|p| name.starts_with(p))
}

/// True for a variable [`clean`] keeps in the environment.
pub fn is_kept(name: &str) -> bool {
    KEPT.iter().any(|k| match k.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => name == *k,
    })
}

/// What the process was started with, taken by [`clean`] before anything else ran.
#[derive(Debug, Default)]
pub struct Start {
    /// The names in `/proc/self/environ` (the environment as the kernel handed it to the
    /// process) and in the process's own copy, in that order, each once.
    pub environ_names: Vec<String>,
    /// `/proc/self/auxv`, read before the process is made non-dumpable (it is then the root's).
    pub auxv: Vec<u8>,
    /// `/proc/self/maps` at the start: every file mapped before urne's own code ran.
    pub maps: String,
    /// Whether the process was made non-dumpable.
    pub non_dumpable: bool,
    /// The process tracing this one (`TracerPid` of `/proc/self/status`, read once it was made
    /// non-dumpable: a tracer attached before that keeps its hold), `None` when none is, or when
    /// the status could not be read (`Some(u32::MAX)`).
    pub tracer: Option<u32>,
    /// `/proc/self/uid_map`: the initial user namespace maps every id to itself; a process in a
    /// namespace of its own sees system files its creator bind-mounted there.
    pub uid_map: String,
    /// What `edge::openssl::initialise` did.
    pub openssl: crate::edge::openssl::Initialised,
}

static START: OnceLock<Start> = OnceLock::new();

/// The values of the variables [`clean`] removed, kept for [`module_env`] only (never written
/// anywhere, never logged).
static SET_ASIDE: Mutex<Vec<(OsString, OsString)>> = Mutex::new(Vec::new());

/// What the process was started with: taken by [`clean`] in urne's executable, or now (in a test
/// process that links urne's library and never called [`clean`]).
pub fn start() -> &'static Start {
    START.get_or_init(|| {
        let environ = std::fs::read("/proc/self/environ").unwrap_or_default();
        let auxv = std::fs::read("/proc/self/auxv").unwrap_or_default();
        let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
        let uid_map = std::fs::read_to_string("/proc/self/uid_map").unwrap_or_default();
        let non_dumpable = make_non_dumpable();
        Start {
            environ_names: environ_names(&environ),
            auxv,
            maps,
            non_dumpable,
            tracer: tracer(),
            uid_map,
            openssl: crate::edge::openssl::initialise(),
        }
    })
}

/// The process tracing this one, from `/proc/self/status` (`Some(u32::MAX)` if unreadable).
fn tracer() -> Option<u32> {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let pid = status
        .lines()
        .find_map(|l| l.strip_prefix("TracerPid:"))
        .and_then(|v| v.trim().parse::<u32>().ok());
    match pid {
        Some(0) => None,
        Some(p) => Some(p),
        None => Some(u32::MAX),
    }
}

/// A neutral `HOME` for the libraries in the process: without one, SoftHSM (when no
/// `SOFTHSM2_CONF` is given) looks the user up through NSS (`getpwuid`), which loads the modules
/// `/etc/nsswitch.conf` names. This folder does not exist, so SoftHSM reads its system
/// configuration. The configuration may give the module the real `HOME` (`module_env`).
pub const NEUTRAL_HOME: &str = "/nonexistent";

/// The first call of urne's `main` (see the module's documentation). Runs while the process has
/// one thread.
pub fn clean() {
    let environ = std::fs::read("/proc/self/environ").unwrap_or_default();
    let auxv = std::fs::read("/proc/self/auxv").unwrap_or_default();
    let maps = std::fs::read_to_string("/proc/self/maps").unwrap_or_default();
    let uid_map = std::fs::read_to_string("/proc/self/uid_map").unwrap_or_default();
    let mut names = environ_names(&environ);
    let mut aside = vec![];
    for (name, value) in std::env::vars_os() {
        let text = name.to_string_lossy().into_owned();
        if !names.contains(&text) {
            names.push(text.clone());
        }
        if !is_kept(&text) || !value_kept(&text, &value) {
            aside.push((name, value));
        }
    }
    for (name, _) in &aside {
        // SAFETY: `clean` is the first thing `main` does, before any thread is started and before
        // any library reads the environment: nothing reads or writes it concurrently.
        unsafe { std::env::remove_var(name) };
    }
    *SET_ASIDE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner) = aside;
    // SAFETY: as above, one thread, no library reading the environment yet.
    unsafe { std::env::set_var("HOME", NEUTRAL_HOME) };
    let non_dumpable = make_non_dumpable();
    let tracer = tracer();
    let openssl = crate::edge::openssl::initialise();
    let _ = START.set(Start {
        environ_names: names,
        auxv,
        maps,
        non_dumpable,
        tracer,
        uid_map,
        openssl,
    });
}

/// Whether a kept variable's value is kept too: a `TZ` naming a file outside the system's zone
/// folder (an absolute path, or one with `..`: glibc reads any file it names, and ignores such a
/// `TZ` in secure mode) and libfaketime's `FAKETIME_SPAWN_*` (which start a program) are not.
fn value_kept(name: &str, value: &OsStr) -> bool {
    match name {
        "TZ" => {
            let v = value.as_bytes();
            let v = v.strip_prefix(b":").unwrap_or(v);
            !v.starts_with(b"/") && !v.windows(2).any(|w| w == b"..")
        }
        n => !n.starts_with("FAKETIME_SPAWN"),
    }
}

/// Refuses (exit 3) a process that another process traces (attached before urne made itself
/// non-dumpable: it keeps its hold, reads the PIN, changes what urne computes), one that could
/// not be made non-dumpable, and one that runs in a user namespace of its own (where whoever made
/// it bind-mounts any file over the system's libraries and configuration, no root needed).
/// Checked before the module is loaded and before any PIN is read.
pub fn check_unobserved(start: &Start) -> Result<()> {
    let refuse = |what: String, hint: String| Err(Error::new(Kind::UnsafeProcess, what, hint));
    if let Some(pid) = start.tracer {
        return refuse(
            if pid == u32::MAX {
                crate::msg!(m::ERR_PROCESS_TRACER_UNKNOWN)
            } else {
                crate::msg!(m::ERR_PROCESS_TRACED, pid = pid)
            },
            crate::msg!(m::REC_PROCESS_TRACED),
        );
    }
    if !start.non_dumpable {
        return refuse(
            crate::msg!(m::ERR_PROCESS_DUMPABLE),
            crate::msg!(m::REC_PROCESS_DUMPABLE),
        );
    }
    if !is_initial_user_namespace(&start.uid_map) {
        return refuse(
            crate::msg!(
                m::ERR_PROCESS_NAMESPACE,
                map = format_args!("{:?}", start.uid_map.trim())
            ),
            crate::msg!(m::REC_PROCESS_NAMESPACE),
        );
    }
    Ok(())
}

/// Whether `/proc/self/uid_map` is the initial namespace's: every id mapped to itself.
pub fn is_initial_user_namespace(uid_map: &str) -> bool {
    let fields: Vec<&str> = uid_map.split_whitespace().collect();
    fields == ["0", "0", "4294967295"]
}

/// `prctl(PR_SET_DUMPABLE, 0)`: no core file, and no other process of the same user may
/// `ptrace` this one or read its memory, its environment or its descriptors through `/proc`.
fn make_non_dumpable() -> bool {
    // SAFETY: PR_SET_DUMPABLE takes one integer argument and touches no memory of the caller.
    unsafe { libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0) == 0 }
}

/// `prctl(PR_SET_PDEATHSIG, SIGKILL)`: the kernel kills this process when the thread that
/// started it ends (a command killed while its token-mark reader runs: the reader goes with it,
/// and never holds the trail after it). Set by the child itself, after its exec. The caller
/// compares its parent before and after, since a parent gone in between is not signalled.
pub fn die_with_parent() -> bool {
    // SAFETY: PR_SET_PDEATHSIG takes one integer argument (a signal number) and touches no
    // memory of the caller.
    unsafe { libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0) == 0 }
}

/// Whether the process is non-dumpable now (`PR_GET_DUMPABLE`).
pub fn is_non_dumpable() -> bool {
    // SAFETY: PR_GET_DUMPABLE takes no argument and touches no memory of the caller.
    unsafe { libc::prctl(libc::PR_GET_DUMPABLE, 0, 0, 0, 0) == 0 }
}

/// The names of the variables in a `/proc/self/environ` image (`NAME=value` entries, NUL
/// separated).
pub fn environ_names(environ: &[u8]) -> Vec<String> {
    let mut names: Vec<String> = vec![];
    for entry in environ.split(|&b| b == 0) {
        let Some(name) = entry.split(|&b| b == b'=').next() else {
            continue;
        };
        let name = String::from_utf8_lossy(name).into_owned();
        if !name.is_empty() && !names.contains(&name) {
            names.push(name);
        }
    }
    names
}

/// Refuses (exit 3) a process started with a variable that loads code or configuration
/// ([`is_code_loading`]): called by every command that opens the token, before the module is
/// loaded and before any PIN is read.
pub fn check_started_clean(names: &[String]) -> Result<()> {
    let found: Vec<&str> = names
        .iter()
        .map(String::as_str)
        .filter(|n| is_code_loading(n))
        .collect();
    if found.is_empty() {
        return Ok(());
    }
    let unset: String = found.iter().flat_map(|n| [" -u ", n]).collect();
    Err(Error::new(
        Kind::UnsafeProcess,
        crate::msg!(m::ERR_PROCESS_ENV, names = found.join(", ")),
        if found.len() == 1 {
            crate::msg!(m::REC_PROCESS_ENV_ONE, unset = unset)
        } else {
            crate::msg!(m::REC_PROCESS_ENV_MANY, unset = unset)
        },
    ))
}

/// Refuses (exit 3) a process whose libcrypto could not be told to load no configuration and
/// no engine by name (`edge::openssl`): something used it before urne's first line, or an
/// engine already holds one of the ids.
pub fn check_openssl(start: &Start) -> Result<()> {
    if start.openssl.is_complete() {
        return Ok(());
    }
    Err(Error::new(
        Kind::UnsafeProcess,
        crate::msg!(
            m::ERR_PROCESS_OPENSSL,
            state = format_args!("{:?}", start.openssl)
        ),
        crate::msg!(m::REC_PROCESS_OPENSSL),
    ))
}

/// Gives back to the environment, for the PKCS#11 module about to be loaded, the variables the
/// configuration names in `module_env` (such as SoftHSM's `SOFTHSM2_CONF`) that the process was
/// started with. A name of the code-loading kind is refused (exit 3): the configuration is in the
/// insider's hands like the environment. Called while the process has one thread (before the
/// module is loaded, before any worker is started); a name already given back is left as is.
pub fn module_env(names: &[String]) -> Result<()> {
    if let Some(bad) = names.iter().find(|n| is_code_loading(n)) {
        return Err(Error::new(
            Kind::UnsafeProcess,
            crate::msg!(m::ERR_PROCESS_MODULE_ENV, name = bad),
            crate::msg!(m::REC_PROCESS_MODULE_ENV),
        ));
    }
    let aside = SET_ASIDE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    for name in names {
        let name = OsStr::new(name);
        if std::env::var_os(name).is_some() || name.as_bytes().contains(&b'=') {
            continue;
        }
        if let Some((_, value)) = aside.iter().find(|(n, _)| n == name) {
            // SAFETY: called before the module is loaded, while urne has started no thread (see
            // above): nothing reads the environment concurrently.
            unsafe { std::env::set_var(name, value) };
        }
    }
    Ok(())
}

/// The names of the variables [`clean`] removed (for a hint: a token not found because its
/// module's variable was not named in `module_env`).
pub fn removed_names() -> Vec<String> {
    SET_ASIDE
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .iter()
        .map(|(n, _)| n.to_string_lossy().into_owned())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn glibc_list_loader_malloc_and_openssl_variables_load_code() {
        for v in GLIBC_UNSECURE {
            assert!(is_code_loading(v), "{v}");
        }
        for v in [
            "LD_PRELOAD",
            "LD_BIND_NOW",
            "LD_ANYTHING",
            "MALLOC_CHECK_",
            "OPENSSL_CONF",
            "OPENSSL_ENGINES",
            "OPENSSL_MODULES",
            "OPENSSL_CONF_INCLUDE",
            "OPENSSL_ia32cap",
        ] {
            assert!(is_code_loading(v), "{v}");
        }
        for v in [
            "SOFTHSM2_CONF",
            "HOME",
            "PATH",
            "LANG",
            "URNE_PIN",
            "FAKETIME",
            "XLD_PRELOAD",
            "OPENSSL",
        ] {
            assert!(!is_code_loading(v), "{v}");
        }
    }

    #[test]
    fn only_urne_the_locale_the_terminal_and_faketime_are_kept() {
        for v in [
            "URNE_CONFIG",
            "URNE_DB",
            "URNE_PIN",
            "URNE_HSM_MODULE",
            "URNE_HSM_TOKEN",
            "URNE_QUIET_BLOCKS",
            "LANG",
            "LANGUAGE",
            "LC_ALL",
            "LC_MESSAGES",
            "TERM",
            "COLUMNS",
            "LINES",
            "FAKETIME",
            "FAKETIME_NO_CACHE",
        ] {
            assert!(is_kept(v), "{v}");
        }
        for v in [
            "SOFTHSM2_CONF",
            "HOME",
            "PATH",
            "OPENSSL_CONF",
            "LD_PRELOAD",
            "URNE_OTHER",
            "LANGX",
            "FAKETIMEX",
            "RUST_BACKTRACE",
            "TZDIR",
        ] {
            assert!(!is_kept(v), "{v}");
        }
        // Nothing kept loads code.
        for k in KEPT {
            assert!(!is_code_loading(k.trim_end_matches('*')), "{k}");
        }
    }

    #[test]
    fn a_start_with_a_code_loading_variable_is_refused_with_exit_3() {
        assert!(check_started_clean(&["PATH".into(), "LANG".into()]).is_ok());
        for v in [
            "LD_PRELOAD",
            "OPENSSL_CONF",
            "GCONV_PATH",
            "OPENSSL_ENGINES",
        ] {
            let e = check_started_clean(&["PATH".into(), v.into()]).unwrap_err();
            assert_eq!(e.kind, Kind::UnsafeProcess);
            assert!(e.message.contains(v), "{}", e.message);
        }
    }

    #[test]
    fn environ_names_are_the_names_before_the_first_equals_sign_each_once() {
        let img = b"PATH=/bin\0LD_PRELOAD=\0X=a=b\0\0=odd\0PATH=/usr/bin\0";
        assert_eq!(environ_names(img), ["PATH", "LD_PRELOAD", "X"]);
    }

    #[test]
    fn a_traced_dumpable_or_namespaced_process_is_refused() {
        let sound = Start {
            non_dumpable: true,
            uid_map: "         0          0 4294967295\n".into(),
            ..Start::default()
        };
        assert!(check_unobserved(&sound).is_ok());
        for bad in [
            Start {
                tracer: Some(4242),
                ..sound_copy(&sound)
            },
            Start {
                tracer: Some(u32::MAX),
                ..sound_copy(&sound)
            },
            Start {
                non_dumpable: false,
                ..sound_copy(&sound)
            },
            Start {
                uid_map: "0 1000 1\n".into(),
                ..sound_copy(&sound)
            },
        ] {
            assert_eq!(
                check_unobserved(&bad).unwrap_err().kind,
                Kind::UnsafeProcess
            );
        }
        assert!(!is_initial_user_namespace(""));
    }

    fn sound_copy(s: &Start) -> Start {
        Start {
            non_dumpable: s.non_dumpable,
            uid_map: s.uid_map.clone(),
            ..Start::default()
        }
    }

    #[test]
    fn a_tz_naming_a_file_and_faketimes_spawn_are_not_kept() {
        assert!(value_kept("TZ", OsStr::new("UTC")));
        assert!(value_kept("TZ", OsStr::new("Europe/Paris")));
        assert!(!value_kept("TZ", OsStr::new(":/etc/shadow")));
        assert!(!value_kept("TZ", OsStr::new("/tmp/zone")));
        assert!(!value_kept("TZ", OsStr::new("../../tmp/zone")));
        assert!(!value_kept("FAKETIME_SPAWN_TARGET", OsStr::new("/bin/sh")));
        assert!(value_kept("FAKETIME", OsStr::new("@2018-12-01 10:00:00")));
    }

    #[test]
    fn module_env_refuses_a_code_loading_name() {
        for v in ["OPENSSL_CONF", "LD_LIBRARY_PATH", "GCONV_PATH"] {
            let e = module_env(&[v.to_string()]).unwrap_err();
            assert_eq!(e.kind, Kind::UnsafeProcess);
        }
        assert!(module_env(&["SOFTHSM2_CONF".to_string()]).is_ok());
    }
}
