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
