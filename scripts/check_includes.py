#!/usr/bin/env python3
"""Include-direction check: every `#include "..."` runs along an allowed arrow.

The project is a house of rooms (folders); ROOMS below says which rooms each
room may include. A link dependency only catches a wrong arrow when the code
behind it needs linking: a header-only include (an inline function, a
template, a struct) against the arrows compiles and links, so this check reads
the includes themselves, headers included (docs/architecture.md).

Rules:
  1. Every product source file belongs to a room: the longest key of ROOMS
     that is a folder prefix of its path ("adapters/*" stands for any one
     folder under adapters/ that has no row of its own). A product file in no
     room fails (give its folder a row).
  2. A product file may include files of its own room and of the rooms its
     row names; anything else fails, naming the file, the line and the arrow.
  3. Test code is a leaf: it may include any room, and no product file may
     include it. Test code is everything under tests/, bench/ or a testdata/
     folder, and files named *_test.*, *_bench.*, test_*.* (the suites beside
     what they test, linked only into test executables).
  4. Product code does not include GoogleTest or Google Benchmark.
  5. No cycle between rooms: neither in ROOMS (checked first) nor in the
     includes found (each edge of a cycle shown with one file:line).

Includes are resolved as the compiler does for quotes: beside the including
file first, then from the project root (every target's include directory),
then from include/ (the plugin SDK's). An include that resolves to no file in
the tree (a generated or system header) is not checked.

Usage: scripts/check_includes.py [--root DIR] [--verbose]
Exit: 0 no wrong include; 1 wrong includes or cycles (listed on stderr);
2 bad usage or a cyclic table.
"""

import argparse
import os
import re
import sys

# The allowed arrows, room -> rooms it may include. Derived from the includes
# as they are and docs/architecture.md: engines/ and include/ (the plugin ABI)
# are standalone and use nothing of ours; common/ uses nothing; everything
# else may use common/.
ADAPTER = ["adapters", "adapters/support", "adapters/record_layer", "common"]
ROOMS = {
    "common": [],
    "include": [],                       # the plugin ABI: plain C, nothing of ours
    "engines/*": [],                     # our engines: standalone libraries
    "powerloss": ["common"],             # the FUSE layer and its daemon
    "adapters": ["common"],              # the contract, options, registry, records
    "adapters/support": ["adapters", "common"],
    "adapters/record_layer": ["adapters", "adapters/support", "common"],
    "adapters/lsm": ADAPTER,             # shared by the leveldb and rocksdb bindings
    "adapters/leveldb": ADAPTER + ["adapters/lsm"],
    "adapters/rocksdb": ADAPTER + ["adapters/lsm"],
    "adapters/pbtree": ADAPTER + ["engines/pbtree"],
    "adapters/native": ADAPTER + ["engines/native"],
    "adapters/plugin": ADAPTER + ["include"],
    "adapters/*": ADAPTER,               # one folder per engine; never each other
    "datasets": ["adapters", "common"],  # adapters/ for the record types only
    "results": ["common"],
    "results/history": ["results", "common"],
    # runner/ is the phase engine (the core); its rooms use it, it never uses them.
    "runner": ["adapters", "adapters/plugin", "datasets", "results", "common"],
    "runner/crash": ["runner", "adapters", "results", "common"],  # kvbench crash's trials
    "runner/ycsb": ["runner", "adapters", "common"],   # YCSB's files; PlanRun over either kind
    "runner/shard": ["runner", "results", "common"],  # units, costs, assignment
    "conformance": ["runner", "adapters", "datasets", "common"],
    "reports": ["results", "common"],
    "app": ["runner", "runner/crash", "runner/ycsb", "runner/shard", "conformance", "reports",
            "results", "results/history", "datasets", "adapters", "adapters/plugin", "common"],
    "examples": ["include"],             # plugins built out of tree, on the SDK only
}

SOURCE_EXTENSIONS = (".h", ".hh", ".hpp", ".hxx", ".inc", ".ipp", ".c", ".cc", ".cpp", ".cxx")
TEST_FOLDERS = {"tests", "bench", "testdata"}
TEST_NAME = re.compile(r"(_test|_tests|_bench)(_[A-Za-z0-9_]+)?\.[a-z]+$|^test_")
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
TEST_FRAMEWORK = re.compile(r'^\s*#\s*include\s*[<"](gtest|gmock|benchmark)/')


def is_test_code(rel):
  parts = rel.split("/")
  return any(p in TEST_FOLDERS for p in parts[:-1]) or bool(TEST_NAME.search(parts[-1]))


def room_of(rel, rooms):
  """The room of a file (path relative to the root), or None."""
  folders = rel.split("/")[:-1]
  for n in range(len(folders), 0, -1):
    prefix = "/".join(folders[:n])
    if prefix in rooms:
      return prefix
    wildcard = "/".join(folders[:n - 1] + ["*"])
    if wildcard in rooms:
      return prefix
  return None


def allowed_targets(room, rooms):
  if room in rooms:
    return rooms[room]
  return rooms["/".join(room.split("/")[:-1] + ["*"])]


def allows(room, target, rooms):
  if target == room:
    return True
  for pattern in allowed_targets(room, rooms):
    if pattern == target or (pattern.endswith("/*") and target.startswith(pattern[:-1])):
      return True
  return False


def find_cycle(graph):
  """One cycle of a graph {node: iterable of nodes} as a list of nodes, or None."""
  state = {}
  stack = []

  def visit(node):
    state[node] = "open"
    stack.append(node)
    for nxt in sorted(graph.get(node, ())):
      if state.get(nxt) == "open":
        return stack[stack.index(nxt):] + [nxt]
      if nxt not in state:
        found = visit(nxt)
        if found:
          return found
    stack.pop()
    state[node] = "done"
    return None

  for node in sorted(graph):
    if node not in state:
      found = visit(node)
      if found:
        return found
  return None


def table_graph(rooms):
  """ROOMS as a graph over its keys, wildcards expanded against the other keys."""
  graph = {}
  for room, targets in rooms.items():
    edges = set()
    for t in targets:
      if t.endswith("/*"):
        edges |= {k for k in rooms if k.startswith(t[:-1])}
      else:
        edges.add(t)
    graph[room] = edges - {room}
  return graph


def source_files(root):
  for folder, dirs, files in os.walk(root):
    # Skip hidden folders and build trees (any folder CMake configured).
    dirs[:] = sorted(d for d in dirs if not d.startswith(".") and
                     not os.path.exists(os.path.join(folder, d, "CMakeCache.txt")))
    for name in sorted(files):
      if name.endswith(SOURCE_EXTENSIONS):
        yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def resolve(root, rel, include):
  for base in (os.path.dirname(rel), "", "include"):
    candidate = os.path.normpath(os.path.join(base, include)).replace(os.sep, "/")
    if not candidate.startswith("../") and os.path.isfile(os.path.join(root, candidate)):
      return candidate
  return None


def check(root, rooms, verbose=False):
  """Lists of problems (strings) for the tree at root."""
  problems = []
  edges = {}  # (room, room) -> first "file:line"
  for rel in source_files(root):
    test = is_test_code(rel)
    room = room_of(rel, rooms)
    if room is None and not test:
      problems.append(f"{rel}: folder {os.path.dirname(rel) or '.'} is in no room of the table "
                      f"in scripts/check_includes.py (add a row)")
      continue
    with open(os.path.join(root, rel), encoding="utf-8", errors="replace") as f:
      for number, line in enumerate(f, 1):
        if not test and TEST_FRAMEWORK.match(line):
          problems.append(f"{rel}:{number}: product code includes a test framework: "
                          f"{line.strip()}")
          continue
        m = INCLUDE.match(line)
        if not m:
          continue
        target = resolve(root, rel, m.group(1))
        if target is None:
          if verbose:
            print(f"{rel}:{number}: not in the tree, not checked: {m.group(1)}", file=sys.stderr)
          continue
        if test:
          continue  # a leaf: may include anything
        if is_test_code(target):
          problems.append(f"{rel}:{number}: product code includes test code "
                          f"\"{m.group(1)}\" ({room} -> {target})")
          continue
        target_room = room_of(target, rooms)
        if target_room is None or target_room == room:
          continue  # a file in no room is reported on its own
        edges.setdefault((room, target_room), f"{rel}:{number}")
        if not allows(room, target_room, rooms):
          may = ", ".join(allowed_targets(room, rooms)) or "nothing of ours"
          problems.append(f"{rel}:{number}: forbidden include \"{m.group(1)}\": "
                          f"{room} -> {target_room} ({room} may include: {may})")
  graph = {}
  for a, b in edges:
    graph.setdefault(a, set()).add(b)
  cycle = find_cycle(graph)
  if cycle:
    steps = "; ".join(f"{a} -> {b} at {edges[(a, b)]}" for a, b in zip(cycle, cycle[1:]))
    problems.append(f"cycle between rooms: {' -> '.join(cycle)} ({steps})")
  return problems, edges


def main(argv):
  parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  parser.add_argument("--root", default=os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                     ".."),
                      help="the project's top folder (default: this script's parent)")
  parser.add_argument("--verbose", action="store_true",
                      help="also list the arrows found and the includes not checked")
  args = parser.parse_args(argv)
  root = os.path.abspath(args.root)
  if not os.path.isdir(root):
    print(f"check_includes: {root}: not a folder", file=sys.stderr)
    return 2
  cycle = find_cycle(table_graph(ROOMS))
  if cycle:
    print(f"check_includes: the table in scripts/check_includes.py has a cycle: "
          f"{' -> '.join(cycle)}", file=sys.stderr)
    return 2
  problems, edges = check(root, ROOMS, args.verbose)
  if args.verbose:
    for (a, b), where in sorted(edges.items()):
      print(f"{a} -> {b}  (e.g. {where})")
  for p in problems:
    print(p, file=sys.stderr)
  if problems:
    print(f"check_includes: {len(problems)} wrong include(s); the allowed arrows are the table "
          f"at the top of scripts/check_includes.py (docs/architecture.md)", file=sys.stderr)
    return 1
  print(f"check_includes: {len(edges)} arrows between rooms, all allowed, no cycle")
  return 0


if __name__ == "__main__":
  sys.exit(main(sys.argv[1:]))
