//! `ostrov serve` raises its descriptor limit at start (issue 28, point 13): to the hard
//! limit, with a warning when that stays small or cannot be raised at all. Every connection
//! is a descriptor, and at the usual 1,024 a thousand connections locked everyone out.

#![cfg(unix)]

use std::io::{BufRead, BufReader, Read};
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

/// Starts `ostrov serve` with the descriptor limit `soft`:`hard`; what `/proc` says its
/// limit is once it serves, and what it wrote to stderr.
fn serve_with(soft: u64, hard: u64) -> (String, String) {
    let dir = std::env::temp_dir().join(format!("ostrov-fd-{}-{soft}-{hard}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ostrov"));
    cmd.args(["--lang", "ru", "serve", "--bind", "127.0.0.1:0", "--db"]).arg(dir.join("ostrov.db"));
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    // SAFETY: only setrlimit, async-signal-safe, between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            let l = libc::rlimit { rlim_cur: soft as libc::rlim_t, rlim_max: hard as libc::rlim_t };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &l) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let mut child = cmd.spawn().unwrap();
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).unwrap();
    assert!(line.contains("http://127.0.0.1:"), "{line}");
    let limits = std::fs::read_to_string(format!("/proc/{}/limits", child.id())).unwrap();
    let open_files = limits.lines().find(|l| l.starts_with("Max open files")).unwrap().to_string();
    child.kill().unwrap();
    child.wait().unwrap();
    let mut err = String::new();
    child.stderr.take().unwrap().read_to_string(&mut err).unwrap();
    let _ = std::fs::remove_dir_all(dir);
    (open_files, err)
}

#[test]
fn serve_raises_the_descriptor_limit_and_warns_when_it_cannot() {
    // Room to raise: the soft limit goes up to the hard one.
    let (limit, err) = serve_with(1024, 16384);
    assert_eq!(limit.split_whitespace().nth(3), Some("16384"), "{limit}");
    assert!(!err.contains("LimitNOFILE"), "{err}");
    // A hard limit of 1,024: it cannot, and says so (in Russian, with what to do).
    let (limit, err) = serve_with(1024, 1024);
    assert_eq!(limit.split_whitespace().nth(3), Some("1024"), "{limit}");
    assert!(err.contains("предупреждение: не удалось поднять предел открытых файлов"), "{err}");
    assert!(err.contains("LimitNOFILE="), "{err}");
}
