// The reason a component's AbortController is aborted with when it stops. abort() without a reason
// makes a DOMException, stack trace included (~25-40 µs each), and a server's stop aborts one per
// watch cache, controller and hook: ~2 ms of every stop. One value, made once, serves them all; it
// is an AbortError like the one abort() makes, for code that tells aborts apart by name.
export const stopReason: DOMException = new DOMException('This operation was aborted', 'AbortError');
