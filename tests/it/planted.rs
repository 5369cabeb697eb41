//! Nothing an insider plants runs (issue 22, "A clean process"): code brought into urne's
//! process through a library's configuration. A shared object that only writes a marker file
//! when it is loaded is planted the ways an insider with the machine's files would plant it: as
//! an OpenSSL provider named by `OPENSSL_CONF`, or by an `openssl.cnf` at the system's path; as
//! `rdrand.so`, the engine SoftHSM asks OpenSSL for at every `C_Initialize`, in
//! `OPENSSL_ENGINES` or in the system's `engines-3/` folder. The system's paths are replaced in a
//! private mount namespace (`unshare -m`, as root), so nothing changes on the machine. Every
//! plant is first shown to work (the `openssl` command loads it: the marker appears), then
//! every command of urne run under it, the key ceremony included, leaves no marker. Also: a
//! module that loads a library it does not declare is refused after `C_Initialize`, and urne's
//! process is non-dumpable, for a user who is not root too.

use crate::common::*;
use crate::draws::{seal, simulate};
use crate::native::{faketime_urne, forwarding_module_undeclared, hiding_library, urne_needing};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The marker library: its constructor appends a line to `marker`.
fn marker_library(dir: &Path, marker: &Path) -> PathBuf {
    let src = dir.join("marker.c");
    std::fs::write(
        &src,
        format!(
            "#include <stdio.h>\n__attribute__((constructor)) static void mark(void) {{ FILE *f = fopen(\"{}\", \"a\"); if (f) {{ fputs(\"loaded\\n\", f); fclose(f); }} }}\n",
            marker.display()
        ),
    )
    .unwrap();
    let so = dir.join("marker.so");
    let st = Command::new("cc")
        .args(["-shared", "-fPIC", "-o"])
        .arg(&so)
        .arg(&src)
        .status()
        .expect("cc: install gcc (scripts/lib.sh ensure_deps does)");
    assert!(st.success());
    so
}

/// An OpenSSL configuration that loads `provider` (and the default provider) at start.
fn provider_conf(dir: &Path, provider: &Path) -> PathBuf {
    let p = dir.join("openssl.cnf");
    std::fs::write(
        &p,
        format!(
            "openssl_conf = init\n[init]\nproviders = providers\n[providers]\nplanted = planted\ndefault = default\n[planted]\nmodule = {}\nactivate = 1\n[default]\nactivate = 1\n",
            provider.display()
        ),
    )
    .unwrap();
    p
}

/// A copy of the system's engines folder with `rdrand.so` = `library` added.
fn engines_folder(dir: &Path, library: &Path) -> PathBuf {
    let engines = dir.join("engines-3");
    std::fs::create_dir_all(&engines).unwrap();
    if let Ok(rd) = std::fs::read_dir(system_engines()) {
        for e in rd.flatten() {
            let _ = std::fs::copy(e.path(), engines.join(e.file_name()));
        }
    }
    std::fs::copy(library, engines.join("rdrand.so")).unwrap();
    engines
}

fn system_engines() -> PathBuf {
    PathBuf::from(format!(
        "/usr/lib/{}-linux-gnu/engines-3",
        std::env::consts::ARCH
    ))
}

/// The system's `openssl.cnf`, where OpenSSL looks without `OPENSSL_CONF` (OPENSSLDIR).
const SYSTEM_CONF: &str = "/usr/lib/ssl/openssl.cnf";

/// `inner` run in a private mount namespace where each `(file, over)` is bind-mounted over
/// `over` first: the same program, arguments, variables and folder.
fn in_namespace(inner: &Command, binds: &[(PathBuf, PathBuf)]) -> Command {
    let mut script = String::new();
    for i in 0..binds.len() {
        let _ = write!(
            script,
            "mount --bind \"${}\" \"${}\" || exit 97; ",
            2 * i + 1,
            2 * i + 2
        );
    }
    let _ = write!(script, "shift {}; exec \"$@\"", 2 * binds.len());
    let mut c = Command::new("unshare");
    c.args([
        "-m",
        "--propagation",
        "private",
        "--",
        "sh",
        "-c",
        &script,
        "sh",
    ]);
    for (file, over) in binds {
        c.arg(file).arg(over);
    }
    c.arg(inner.get_program()).args(inner.get_args());
    for (k, v) in inner.get_envs() {
        match v {
            Some(v) => c.env(k, v),
            None => c.env_remove(k),
        };
    }
    if let Some(d) = inner.get_current_dir() {
        c.current_dir(d);
    }
    c
}

/// Whether this test can make private mount namespaces (root, `unshare`).
fn can_plant() -> bool {
    let ok = Command::new("unshare")
        .args(["-m", "--propagation", "private", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("no private mount namespace here (root and unshare are needed): skipped");
    }
    ok
}

/// One way of planting the marker: the variables to set and the files to mount.
struct Plant {
    name: &'static str,
    vars: Vec<(&'static str, PathBuf)>,
    binds: Vec<(PathBuf, PathBuf)>,
    /// The `openssl` command that shows the plant works.
    control: Vec<&'static str>,
}

fn run(c: &mut Command) -> Output {
    let o = c.output().unwrap();
    assert_ne!(o.status.code(), Some(97), "the bind mount failed");
    o
}

#[test]
fn a_library_planted_in_openssls_configuration_or_engines_never_loads_in_any_command() {
    if !can_plant() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let marker = dir.path().join("marker");
    let lib = marker_library(dir.path(), &marker);
    let conf = provider_conf(dir.path(), &lib);
    let engines = engines_folder(dir.path(), &lib);
    let plants = [
        Plant {
            name: "OPENSSL_CONF",
            vars: vec![("OPENSSL_CONF", conf.clone())],
            binds: vec![],
            control: vec!["version"],
        },
        Plant {
            name: "the system's openssl.cnf",
            vars: vec![],
            binds: vec![(conf.clone(), PathBuf::from(SYSTEM_CONF))],
            control: vec!["version"],
        },
        Plant {
            name: "OPENSSL_ENGINES",
            vars: vec![("OPENSSL_ENGINES", engines.clone())],
            binds: vec![],
            control: vec!["engine", "rdrand"],
        },
        Plant {
            name: "the system's engines-3/",
            vars: vec![],
            binds: vec![(engines.clone(), system_engines())],
            control: vec!["engine", "rdrand"],
        },
    ];
    let env = Env::new();
    let export = simulate(&env, "2018-12-01", 300, 1, &[]);
    seal(&env, &export);
    let out = env.path("out-1");
    env.draw_ok("2018-12-01", out.to_str().unwrap());
    for plant in &plants {
        // The plant works: OpenSSL's own command loads the marker.
        let _ = std::fs::remove_file(&marker);
        let mut control = Command::new("openssl");
        control.args(&plant.control);
        for (k, v) in &plant.vars {
            control.env(k, v);
        }
        run(&mut in_namespace(&control, &plant.binds));
        assert!(marker.exists(), "{}: the plant does not work", plant.name);
        std::fs::remove_file(&marker).unwrap();

        let refused = !plant.vars.is_empty();
        let seal_args: Vec<String> = crate::module::seal_args(&export);
        let seal_args: Vec<&str> = seal_args.iter().map(String::as_str).collect();
        let commands: Vec<Vec<&str>> = vec![
            vec!["hsm", "info"],
            vec!["status"],
            vec!["audit", "verify", "--keys", "audit-keys"],
            seal_args,
            vec![
                "verify",
                out.to_str().unwrap(),
                "--keys",
                out.to_str().unwrap(),
            ],
        ];
        for args in &commands {
            let mut c = env.command_for(args);
            for (k, v) in &plant.vars {
                c.env(k, v);
            }
            let o = run(&mut in_namespace(&c, &plant.binds));
            // `verify` and `audit verify` never open the token: they run, with nothing loaded.
            if refused && args[0] != "verify" && args[0] != "audit" {
                let said = assert_fails(&o, 3, "unsafe-process");
                assert_names(&said, &[plant.vars[0].0]);
            }
            assert!(
                !marker.exists(),
                "{}: urne {args:?} loaded the planted library",
                plant.name
            );
        }
        // A draw, typed at the terminal as at a sitting (refused: the day is drawn; what counts
        // is that the token was opened under the plant).
        let mut c = env.command_for(&["draw", "--day", "2018-12-01", "--out", "x"]);
        for (k, v) in &plant.vars {
            c.env(k, v);
        }
        run(&mut in_namespace(&c, &plant.binds));
        assert!(!marker.exists(), "{}: urne draw loaded it", plant.name);

        // The key ceremony on a new token, from the PIN to its signed minutes.
        let fresh = Env::without_keys();
        let publ = fresh.path("pub");
        let who = [
            ("Lieu de la séance", "Étude Dupont, Paris"),
            ("Ville où le procès-verbal", "Paris"),
            ("Nom du commissaire", "Maître Claire Dupont"),
            ("Office", "SELARL Dupont"),
            ("ligne vide pour finir", ""),
            ("exactes", "oui"),
        ];
        let args = ["--key-ceremony", "--out", publ.to_str().unwrap()];
        let mut c = crate::ceremony::sitting_command(&fresh, "2018-12-10 09:00:00", &who, &args);
        for (k, v) in &plant.vars {
            c.env(k, v);
        }
        let o = run(&mut in_namespace(&c, &plant.binds));
        assert!(
            !marker.exists(),
            "{}: the key ceremony loaded it",
            plant.name
        );
        if !refused {
            assert!(
                o.status.success(),
                "{}: the key ceremony failed:\n{}",
                plant.name,
                String::from_utf8_lossy(&o.stdout)
            );
            assert!(publ.join("sitting-001/minutes.html").is_file());
        }
    }
    // Under every plant, urne's outputs still verify and the trail is whole.
    env.ok(&["audit", "verify", "--keys", "audit-keys"]);
    env.ok(&[
        "verify",
        out.to_str().unwrap(),
        "--keys",
        out.to_str().unwrap(),
    ]);
}

/// A variable of the code-loading kind, set at all, refuses every command that opens the token
/// (exit 3) before anything is recorded; only what the configuration names reaches the module.
#[test]
fn code_loading_variables_are_refused_and_others_never_reach_the_module() {
    let env = Env::new();
    let before = event_total(&env);
    for (var, value) in [
        ("OPENSSL_CONF", "/nonexistent.cnf"),
        ("OPENSSL_MODULES", ""),
        ("GCONV_PATH", "/tmp"),
        ("GLIBC_TUNABLES", "glibc.malloc.check=3"),
        ("TMPDIR", "/tmp"),
        ("LD_BIND_NOW", "1"),
    ] {
        let out = env
            .cmd()
            .args(["hsm", "info"])
            .env(var, value)
            .output()
            .unwrap();
        let err = assert_fails(&out, 3, "unsafe-process");
        assert_names(&err, &[var]);
    }
    assert_eq!(event_total(&env), before, "nothing was recorded");
    // SOFTHSM2_CONF reaches SoftHSM only because the configuration names it: without it in
    // `module_env`, SoftHSM reads its default configuration and does not find urne's token.
    let cfg = env.path("urne.json");
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&cfg).unwrap()).unwrap();
    v["module_env"] = serde_json::json!([]);
    let other = env.path("urne-no-module-env.json");
    std::fs::write(&other, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = env
        .cmd()
        .args(["hsm", "info"])
        .env("URNE_CONFIG", &other)
        .output()
        .unwrap();
    assert_fails(&out, 3, "token-not-found");
    assert_names(&hint_of(&out), &["\"module_env\"", "SOFTHSM2_CONF"]);
    // A configuration that names a code-loading variable for the module is refused.
    v["module_env"] = serde_json::json!(["SOFTHSM2_CONF", "OPENSSL_CONF"]);
    std::fs::write(&other, serde_json::to_vec(&v).unwrap()).unwrap();
    let out = env
        .cmd()
        .args(["hsm", "info"])
        .env("URNE_CONFIG", &other)
        .output()
        .unwrap();
    let err = assert_fails(&out, 3, "unsafe-process");
    assert_names(&err, &["module_env", "OPENSSL_CONF"]);
    env.ok(&["hsm", "info"]);
}

/// A module that loads, at `C_GetFunctionList`, a library its dynamic section does not name
/// (the forwarding module built to `dlopen` SoftHSM without declaring it) is refused after
/// `C_Initialize`, before any PIN is read: exit 3, the undeclared library named.
#[test]
fn a_library_the_module_does_not_declare_is_refused_after_c_initialize() {
    let env = Env::forwarding(true);
    let undeclared = env.path("undeclared.so");
    std::fs::copy(forwarding_module_undeclared(), &undeclared).unwrap();
    let before = event_total(&env);
    let out = env
        .cmd()
        .args(["hsm", "info"])
        .env("URNE_HSM_MODULE", &undeclared)
        .output()
        .unwrap();
    let err = assert_fails(&out, 3, "unsafe-process");
    // The library that came in after the module was initialised.
    assert_names(&err, &["libsofthsm2.so"]);
    assert_eq!(event_total(&env), before);
    // The same module declaring SoftHSM (a DT_NEEDED and a run path) works.
    env.ok(&["hsm", "info"]);
}

/// urne's process is non-dumpable from its start: its `/proc` files belong to root, and a
/// process of the same user cannot read its environment; and it still loads its module (from
/// `/proc/self/fd`) and works, as a user who is not root.
#[test]
fn urne_is_non_dumpable_and_works_as_a_user_who_is_not_root() {
    if !nix_root() {
        eprintln!("not root: cannot run urne as another user here: skipped");
        return;
    }
    let env = Env::new();
    // urne itself, the token, the trail and the configuration, handed to `nobody` (a copy of
    // the executable in the environment's folder: the build's folder may be closed to others).
    let urne = env.path("urne");
    std::fs::copy(URNE, &urne).unwrap();
    let st = Command::new("chown")
        .args(["-R", "65534:65534"])
        .arg(env.path(""))
        .status()
        .unwrap();
    assert!(st.success());
    let fifo = env.path("pin.fifo");
    let st = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(st.success());
    let st = Command::new("chown")
        .args(["65534:65534"])
        .arg(&fifo)
        .status()
        .unwrap();
    assert!(st.success());
    let mut c = env.cmd_of(Path::new("setpriv"));
    c.args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .arg(&urne)
        .args(["--pin-file", fifo.to_str().unwrap(), "hsm", "info"])
        .env_remove("URNE_PIN")
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = c.spawn().unwrap();
    let pid = child.id();
    // The command waits at the PIN (a FIFO nobody writes yet): the module is loaded by then.
    std::thread::sleep(std::time::Duration::from_millis(1500));
    assert!(
        child.try_wait().unwrap().is_none(),
        "urne as nobody stopped before reading its PIN"
    );
    let md = std::fs::metadata(format!("/proc/{pid}/environ"));
    let owner = md.as_ref().map(std::os::unix::fs::MetadataExt::uid);
    let read = Command::new("setpriv")
        .args(["--reuid=65534", "--regid=65534", "--clear-groups", "--"])
        .args(["cat", &format!("/proc/{pid}/environ")])
        .output()
        .unwrap();
    let pin = env.pin();
    std::thread::spawn(move || std::fs::write(&fifo, format!("{pin}\n")));
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "urne as nobody failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        owner.ok(),
        Some(0),
        "the process's /proc files are root's: non-dumpable"
    );
    assert!(
        !read.status.success(),
        "a process of the same user read urne's environment"
    );
}

fn nix_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| o.stdout.starts_with(b"0\n"))
}

/// The faketime copy of urne (a library added to its own `DT_NEEDED` by path) works: a library
/// the executable declares is part of its closure.
#[test]
fn a_library_the_executable_declares_by_path_is_accepted() {
    let env = Env::new();
    let out = env
        .cmd_of(faketime_urne())
        .args(["hsm", "info"])
        .env("FAKETIME", "@2018-12-02 09:00:00")
        .env("TZ", "UTC")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// A library that copies its code into anonymous memory and leaves `/proc/self/maps` (as one
/// planted before `main` would, to pass the check of the mapped files) is refused: executable
/// memory that no file backs, exit 3, before the PIN. The control: the same copy of urne made to
/// need a library that does not hide (libfaketime) works.
#[test]
fn code_that_leaves_the_maps_for_anonymous_memory_is_refused() {
    let env = Env::new();
    let hiding = env.path("urne-hiding");
    urne_needing(hiding_library(), &hiding);
    let before = event_total(&env);
    let out = env.cmd_of(&hiding).args(["hsm", "info"]).output().unwrap();
    assert_fails(&out, 3, "unsafe-process");
    let out = env
        .cmd_of(&hiding)
        .args(["seal", "--help"])
        .output()
        .unwrap();
    assert!(out.status.success(), "a command that opens no token runs");
    assert_eq!(event_total(&env), before);
}

/// A process traced from its start (a tracer attached before urne made itself non-dumpable
/// keeps its hold) is refused before the PIN: exit 3, naming the tracer.
#[test]
fn urne_under_a_tracer_is_refused() {
    if Command::new("strace").arg("-V").output().is_err() {
        eprintln!("strace is not installed (scripts/lib.sh ensure_deps installs it): skipped");
        return;
    }
    let env = Env::new();
    let mut c = env.cmd_of(Path::new("strace"));
    c.args(["-f", "-o", "/dev/null", URNE, "hsm", "info"]);
    let out = c.output().unwrap();
    assert_fails(&out, 3, "unsafe-process");
}

/// urne in a user namespace of its own (where whoever made it bind-mounts any file over the
/// system's libraries, without root) is refused: exit 3.
#[test]
fn urne_in_a_user_namespace_of_its_own_is_refused() {
    let ok = Command::new("unshare")
        .args(["-U", "-r", "true"])
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        eprintln!("no user namespace here: skipped");
        return;
    }
    let env = Env::new();
    let mut c = env.cmd_of(Path::new("unshare"));
    c.args(["-U", "-r", "--", URNE, "hsm", "info"]);
    let out = c.output().unwrap();
    assert_fails(&out, 3, "unsafe-process");
}
