// Ctrl-C and SIGTERM for a run: the first SIGINT (or a SIGTERM) asks the run
// to stop after abandoning the current engine (its child is killed, with any
// server it started), keeping everything finished; a second SIGINT asks it to
// stop at once. The handlers only count; the run controller and the child
// supervisor (engine_process.h) poll the count.
#pragma once

namespace kvbench::runner {

// Installs the SIGINT and SIGTERM handlers (without SA_RESTART, so a blocking
// poll or wait returns EINTR and its caller looks at the count).
void InstallInterruptHandlers();
// 0: not interrupted; 1: stop after the current engine is abandoned; 2 or
// more: stop now.
int InterruptCount();
// The signal that asked first (SIGINT or SIGTERM), 0 when none.
int InterruptSignal();

}  // namespace kvbench::runner
