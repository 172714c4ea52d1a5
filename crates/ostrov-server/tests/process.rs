//! The server's own process: transparent huge pages are off once `small_pages` has run (a
//! test binary of its own, since the setting holds for the whole process).

#[test]
fn small_pages_turns_transparent_huge_pages_off_for_the_process() {
    ostrov_server::process::small_pages().expect("the kernel takes the setting");
    #[cfg(target_os = "linux")]
    assert!(rustix::thread::transparent_huge_pages_are_disabled().expect("the kernel answers"));
    // Asked twice, the same answer (`ostrov serve` may run in a process that set it already).
    ostrov_server::process::small_pages().expect("the kernel takes the setting again");
}
