//! What the server asks of the kernel for its own process.

/// Turns transparent huge pages off for this process (Linux; elsewhere nothing to do).
///
/// mimalloc asks the kernel for huge pages for its arenas (`MADV_HUGEPAGE`), and on a
/// kernel that grants them, the first touch of each new 2 MiB page is one fault that zeroes
/// the whole page while the thread waits. On a virtual machine, where the host backs the
/// guest's memory as it is first touched, one such fault took 5–6 ms; it stalled whichever
/// thread met it — the store's writer, and with it every order waiting for a sync — and
/// alone made the slowest percent of 100 clients' orders twice as slow (README, "Server
/// performance"). With 4 KiB pages the same memory is touched in steps of about 10 µs.
/// The server holds little memory (tens of KiB a running game), so it gains
/// nothing from huge pages that is worth those pauses. mimalloc does the same when its
/// `allow_thp` option is off; it is set here, once at start, because that option is read
/// from the environment before `main` runs.
pub fn small_pages() -> std::io::Result<()> {
    #[cfg(target_os = "linux")]
    rustix::thread::disable_transparent_huge_pages(true)?;
    Ok(())
}

/// The process's descriptor limit (the soft one, what it may open now); `None` where it is
/// not known (not Linux) or unlimited.
pub fn descriptor_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    return rustix::process::getrlimit(rustix::process::Resource::Nofile).current;
    #[cfg(not(target_os = "linux"))]
    None
}

/// Raises the process's descriptor limit to its hard limit (issue 28, point 13): every
/// connection is a descriptor, and the usual soft limit of 1,024 is soon spent. `Ok` with
/// the limit before and after; `Err` with what stands in the way: the hard limit itself
/// (raise it with `LimitNOFILE=` in the systemd unit, docs/DEPLOY.md) or the call's error.
pub fn raise_descriptor_limit() -> Result<(u64, u64), String> {
    #[cfg(target_os = "linux")]
    {
        use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
        let now = getrlimit(Resource::Nofile);
        let (Some(soft), hard) = (now.current, now.maximum) else { return Ok((u64::MAX, u64::MAX)) };
        // The kernel refuses more than `fs.nr_open` even where the hard limit says unlimited.
        let target = hard.unwrap_or(1 << 20);
        if target <= soft {
            return if soft >= WANTED_DESCRIPTORS {
                Ok((soft, soft))
            } else {
                Err(format!("жёсткий предел — {soft} дескрипторов"))
            };
        }
        setrlimit(Resource::Nofile, Rlimit { current: Some(target), maximum: hard }).map_err(|e| e.to_string())?;
        Ok((soft, target))
    }
    #[cfg(not(target_os = "linux"))]
    Err("не Linux: предел дескрипторов не поднимается сервером".into())
}

/// Descriptors a server should be able to open: below this, a warning at start.
pub const WANTED_DESCRIPTORS: u64 = 8192;
