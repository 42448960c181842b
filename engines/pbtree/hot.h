// PBTREE_HOT marks the functions a one-key commit runs (DB::Put through the
// log append) so that the compiler places them together (GCC and Clang put
// `hot` functions in .text.hot, which the linker keeps in one run).
//
// Why: that path calls ~40 functions, and where the linker happens to place
// them decides how many of their cache lines share one of the instruction
// cache's 64 sets (32 KiB, 8 ways). Callgrind's cache model of the same
// harness run gave 33 instruction-cache misses per commit with one build and
// 63 with the next, which differed only in an unrelated helper
// (docs/reproductions.md, "eleventh round"). In one run of their own, the hot
// functions' lines spread over consecutive sets instead.
//
// Only what (nearly) every one-key commit runs is marked. Since commits change
// their leaf in place (pager.h, "In place"), the copy path (MergeIntoNode,
// MakeLeafWritable, Pager::MakeWritable, CopyPage, PageCache::AddVersion) runs
// only for the commits that split; left marked, it spread the hot run and the
// harness's simulated misses per insert went from 31 to 84 (twelfth round).
#pragma once

#if defined(__GNUC__)
#define PBTREE_HOT __attribute__((hot))
#else
#define PBTREE_HOT
#endif
