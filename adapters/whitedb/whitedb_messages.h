// WhiteDB's own messages, kept off the user's stderr and quoted in the
// adapter's statuses instead.
//
// libwgdb writes its diagnostics with fprintf(stderr, ...): "new index created
// on rec field N ..." on every successful wg_create_index, "db memory
// allocation error: ..." and "wg data handling error: ..." when the database
// is full, "wg_set_new_field called on field that contains data", "query
// error: ...". Neither switch its sources offer works on Debian's build:
// WG_NO_ERRPRINT is compile-time (and not set: the strings are in
// libwgdb.so.0), and wg_set_error_callback (USE_ERROR_CALLBACK, set) adds a
// callback without stopping the print (its LOG_ERROR macro prints first; the
// allocator's messages do not go through it at all). Redirecting file
// descriptor 2 around each call would cost two system calls per Put and
// swallow other threads' output.
//
// So the adapter redirects libwgdb's one reference to the C library's
// `stderr` variable (its GLOB_DAT relocation slot, found from its dynamic
// section) to a stream of its own, once per process: what libwgdb prints
// lands in a buffer of the printing thread, and nothing else in the process
// is touched. A status built after a failed WhiteDB call quotes the last
// lines (TakeWhitedbMessages); the rest is dropped. It costs nothing per call.
//
// Thread-safety: every function may be called from any thread; a thread sees
// only the messages WhiteDB printed on that thread.
#pragma once

#include <string>

namespace kvbench {

// Makes libwgdb print into per-thread buffers. The first call does the work
// (under a once-flag); every call returns its answer: false when libwgdb is
// not a loaded shared object (linked statically) or its relocation slot was
// not found, in which case WhiteDB's messages still reach stderr.
bool ContainWhitedbMessages();

// " (WhiteDB: <line>; <line>)" quoting the last lines WhiteDB wrote on this
// thread since the previous Take or Discard (at most two, each cut to 160
// bytes), or "" when it wrote none. Clears them.
std::string TakeWhitedbMessages();

// Drops what WhiteDB wrote on this thread (after a call that succeeded but
// printed, or an error the adapter reports in its own words).
void DiscardWhitedbMessages();

}  // namespace kvbench
