//! Large tables read at random (the transposition table, the continuation history) backed
//! by 2 MB pages where Linux gives them (transparent huge pages; Stockfish asks for them too).
//! Each probe of such a table lands on a random cache line, and with 4 KB pages nearly every
//! one also misses the processor's address translation cache: before this the page walk made
//! the table's prefetch the costliest instruction of a node (docs/performance.md).

/// Asks the system to back the `len` bytes from `ptr` with huge pages where it can. Call it on
/// memory fresh from the operating system and not yet written (a large zeroed allocation), so
/// that the pages the search writes later come as huge pages. Where the system refuses, or
/// has no such pages, nothing changes but the speed: the advice never changes the contents.
#[cfg(target_os = "linux")]
#[allow(unsafe_code)]
pub fn advise(ptr: *const u8, len: usize) {
    const HUGE: usize = 2 * 1024 * 1024;
    // Only whole huge pages inside the block can be huge pages.
    let start = (ptr as usize).next_multiple_of(HUGE);
    let end = (ptr as usize).saturating_add(len) / HUGE * HUGE;
    if end <= start {
        return;
    }
    // SAFETY: [start, end) lies inside the caller's block; madvise with MADV_HUGEPAGE
    // changes how its pages are backed, never what they hold, and its failure is harmless.
    unsafe {
        libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE);
    }
}

/// Elsewhere (the browser, other systems) the tables keep the system's own pages.
#[cfg(not(target_os = "linux"))]
pub fn advise(_ptr: *const u8, _len: usize) {}
