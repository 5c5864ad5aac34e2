//! The module's exports: memory for a request, and the call that answers it. The host (web/js/worker.js) writes a
//! request's UTF-8 JSON into memory from `alloc`, calls `call(ptr, len)`, reads the reply from `reply_ptr()` for
//! `reply_len()` bytes, and frees the request with `dealloc`. One desk per module instance; the browser's worker
//! is single-threaded, so the thread-local below is the whole of its state.

use crate::Desk;
use std::cell::RefCell;

thread_local! {
    static DESK: RefCell<Desk> = RefCell::new(Desk::default());
    static REPLY: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Reserves `len` bytes for a request; the host frees them with [`dealloc`].
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    let mut buf = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buf.as_mut_ptr();
    std::mem::forget(buf);
    ptr
}

/// Frees what [`alloc`] reserved.
///
/// # Safety
/// `ptr` and `len` must be those of one earlier [`alloc`], freed once.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    // SAFETY: the caller gives back exactly what `alloc` made.
    drop(unsafe { Vec::from_raw_parts(ptr, 0, len.max(1)) });
}

/// Answers the request of `len` bytes at `ptr` (UTF-8 JSON); returns the reply's length in bytes, read at
/// [`reply_ptr`].
///
/// # Safety
/// `ptr` must point to `len` initialised bytes (written after an [`alloc`] of at least `len`).
#[unsafe(no_mangle)]
pub unsafe extern "C" fn call(ptr: *const u8, len: usize) -> usize {
    // SAFETY: the caller wrote `len` bytes at `ptr`.
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let reply = match std::str::from_utf8(bytes) {
        Ok(text) => DESK.with(|d| d.borrow_mut().call(text)),
        Err(_) => crate::desk::refusal(400, "the request is not UTF-8 text"),
    };
    REPLY.with(|r| {
        let mut r = r.borrow_mut();
        *r = reply.into_bytes();
        r.len()
    })
}

/// Where the last reply is (valid until the next [`call`]).
#[unsafe(no_mangle)]
pub extern "C" fn reply_ptr() -> *const u8 {
    REPLY.with(|r| r.borrow().as_ptr())
}
