// nativedb's Status as kvbench's, shared by the native adapter's files.
#pragma once

#include "common/status.h"
#include "engines/native/status.h"

namespace kvbench {

// OK stays OK (and costs nothing); NotFound keeps nativedb's message; every
// other error is prefixed with "native: ". Full (out of arena space, the
// in-memory engine's "disk full") becomes IOError.
Status FromNative(const nativedb::Status& s);

}  // namespace kvbench
