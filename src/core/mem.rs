//! Memory for the large tables (the search's transposition table, the solvers' tables and the
//! Kalah endgame database): one helper that asks Linux for transparent huge pages. The crate's
//! audited `unsafe` for it lives here, and only here.

/// Asks Linux for transparent huge pages on the `bytes` bytes at `start`, which must lie inside
/// one live allocation (a vector's spare capacity included: the advice is best given before the
/// first touch). 2 MiB pages mean 512 times fewer page faults when a table is first touched and
/// far fewer TLB misses on random probes (the machine's THP mode is `madvise`). Elsewhere, or if
/// refused, 4 KiB pages are used: the advice never changes what the program computes.
#[allow(unsafe_code)]
pub fn advise_huge_pages(start: usize, bytes: usize) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let end = start + bytes;
        let a = start.next_multiple_of(HUGE);
        if a < end {
            // SAFETY: madvise only changes the paging policy of [a, end), which lies inside
            // the caller's live allocation; it never reads or writes the memory.
            unsafe {
                libc::madvise(a as *mut libc::c_void, end - a, libc::MADV_HUGEPAGE);
            }
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = (start, bytes);
}
