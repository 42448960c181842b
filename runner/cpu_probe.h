// The CPU probe: a fixed piece of issue-bound work, timed before and after
// every repetition (outside its timed span), so a report can tell which
// repetitions ran while the machine gave the measuring thread less CPU.
//
// The time is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), not the wall
// clock's: a thread that waited for a CPU (another runnable thread, the
// engine's own background work, a preempted vCPU, whose steal time Linux
// leaves out of a task's runtime) shows nothing here. What shows is a CPU
// that ran the probe for longer to do the same work.
//
// The work is eight independent chains of integer adds, xors and shifts in
// registers: no memory, no branches to mispredict, about four instructions a
// cycle on a quiet core. On a shared host it is the kind of work that shows
// the neighbours: a busy SMT sibling of another guest on the same physical
// core takes half the issue slots (the probe then takes ~1.6x as long), and
// nothing in the guest shows it (no steal time, no context switch). A
// latency-bound loop (one dependent chain) would not show it either. Engines whose operations are
// issue-bound (a B-tree's in-cache insert) slow the same way, so a repetition measured beside a
// slow probe is the machine's figure as much as the engine's. docs/reading-the-report.md, "The CPU
// probe", has what it found on our machines.
#pragma once

namespace kvbench::runner {

// Microseconds of the calling thread's CPU time the probe's work took (about
// 2 ms on a quiet 2020s x86 core). Touches no memory and changes nothing.
double CpuProbeMicros();

}  // namespace kvbench::runner
