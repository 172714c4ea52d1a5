//! What the CLI's process tests (and the several-nodes benchmark, which includes this file)
//! share: a real `ostrov serve` process with a clock file, and small helpers around it.
#![allow(dead_code)] // each test file uses its own part

use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde_json::Value;

/// 2026-12-01 10:00 Moscow: day 1 opens at the start, before the 13:00 stage.
pub const T0: i64 = 1_796_108_400;
/// Its deadline, 21:00 Moscow.
pub const DEADLINE: i64 = 1_796_148_000;

/// A running `ostrov serve` (any sign-ups allowed from loopback), killed with SIGKILL
/// when dropped: no shutdown, no flush.
pub struct Node {
    child: Child,
    pub addr: SocketAddr,
}

impl Node {
    /// The `ostrov` binary cargo built for this test, on `db` (a SQLite file or a
    /// PostgreSQL URL), its time read from the file `clock` ([`set_clock`]). (In the
    /// tests only: cargo names the binary to integration tests, not to examples.)
    #[cfg(test)]
    pub fn start(db: impl AsRef<OsStr>, clock: &Path) -> Node {
        Node::start_with(Path::new(env!("CARGO_BIN_EXE_ostrov")), db, clock)
    }

    /// [`Node::start`] with the binary `bin`; it answers once it has printed its address.
    pub fn start_with(bin: &Path, db: impl AsRef<OsStr>, clock: &Path) -> Node {
        Node::start_args(bin, db, clock, &[])
    }

    /// [`Node::start_with`] with more arguments of `ostrov serve` (`--lease-seconds 1`).
    pub fn start_args(bin: &Path, db: impl AsRef<OsStr>, clock: &Path, more: &[&str]) -> Node {
        let mut cmd = Command::new(bin);
        cmd.args(["serve", "--bind", "127.0.0.1:0", "--signups-per-hour", "0", "--db"]).arg(db).args(more);
        Node::spawn(cmd, clock)
    }

    /// `ostrov demo` (the practice server), a day lasting `day_minutes`, on `db`, its time
    /// read from the file `clock`.
    #[cfg(test)]
    pub fn demo(db: impl AsRef<OsStr>, clock: &Path, day_minutes: u32) -> Node {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_ostrov"));
        cmd.args(["demo", "--bind", "127.0.0.1:0", "--day-minutes", &day_minutes.to_string(), "--db"]).arg(db);
        Node::spawn(cmd, clock)
    }

    /// Runs `cmd` with the clock file `clock`; it answers once the server has printed its
    /// address.
    fn spawn(mut cmd: Command, clock: &Path) -> Node {
        let bin = cmd.get_program().to_owned();
        let mut child = cmd
            .arg("--clock-file")
            .arg(clock)
            .env("LANG", "ru_RU.UTF-8")
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap_or_else(|e| panic!("{}: {e}", Path::new(&bin).display()));
        let mut line = String::new();
        BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the first line");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|r| r.split('/').next())
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| panic!("no address in {line:?}"));
        Node { child, addr }
    }

    /// The process's id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends the process signal `sig` (SIGSTOP, SIGCONT …).
    pub fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on the id of a child this value owns and has not waited for.
        let r = unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
        assert_eq!(r, 0, "kill({sig})");
    }

    /// SIGTERM (a drain), and wait for the process to end: whether it ended well.
    pub fn terminate(mut self) -> bool {
        self.signal(libc::SIGTERM);
        self.child.wait().expect("wait").success()
    }

    /// SIGKILL now, and wait for the process to be gone.
    pub fn kill(mut self) {
        self.child.kill().expect("kill");
        self.child.wait().expect("wait");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The JSON of a 2xx reply, or a panic that says what failed.
pub fn ok(r: std::io::Result<ostrov_server::client::Reply>, what: &str) -> Value {
    let r = r.unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!((200..300).contains(&r.status), "{what}: {} {}", r.status, r.body);
    r.json()
}

/// One account per name (the password `password-123`) signed up and joined to the game of
/// `invite`, all at once, player `i` on the node at `addr(i)`: (i, its client, its account id).
pub fn join_all(
    names: &[String],
    invite: &str,
    addr: impl Fn(usize) -> SocketAddr + Sync,
) -> Vec<(usize, ostrov_server::client::Client, i64)> {
    std::thread::scope(|s| {
        let hs: Vec<_> = (0..names.len())
            .map(|i| {
                let (name, addr) = (&names[i], addr(i));
                s.spawn(move || {
                    let mut c = ostrov_server::client::Client::new(addr);
                    let body = serde_json::json!({"name": name, "password": "password-123"});
                    let v = ok(c.post("/api/signup", body), "signup");
                    ok(c.post(&format!("/api/invites/{invite}/join"), serde_json::json!({})), "join");
                    (i, c, v["id"].as_i64().unwrap())
                })
            })
            .collect();
        hs.into_iter().map(|h| h.join().unwrap()).collect()
    })
}

/// Sets the servers' clock file to `t` (written whole: a reader never sees half of it).
pub fn set_clock(path: &Path, t: i64) {
    let tmp = path.with_extension("tmp");
    std::fs::write(&tmp, t.to_string()).unwrap();
    std::fs::rename(&tmp, path).unwrap();
}

/// A new empty folder under the system's temp dir.
pub fn temp_dir(tag: &str) -> PathBuf {
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("ostrov-{tag}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}
