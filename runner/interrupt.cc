#include "runner/interrupt.h"

#include <signal.h>

namespace kvbench::runner {

namespace {

volatile sig_atomic_t g_count = 0;
volatile sig_atomic_t g_signal = 0;

extern "C" void OnInterrupt(int sig) {
  if (g_signal == 0) g_signal = sig;
  // SIGTERM asks as the first SIGINT does; repeated SIGINTs escalate.
  g_count = sig == SIGTERM && g_count > 0 ? g_count : g_count + 1;
}

}  // namespace

void InstallInterruptHandlers() {
  struct sigaction sa {};
  sa.sa_handler = OnInterrupt;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

int InterruptCount() { return g_count; }
int InterruptSignal() { return g_signal; }

}  // namespace kvbench::runner
