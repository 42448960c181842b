#!/usr/bin/env python3
"""Issue 31: several writing client threads on an engine that declares no
concurrent writers are serialised, and the plan says so once per phase,
naming the workload file and line, the phase and the engines (and only those
engines). Reads with several threads and one writing thread say nothing.
Usage: serialised_writers_test.py KVBENCH"""
import os
import subprocess
import sys
import tempfile

WORKLOAD = """name = "serialised-writers"
engines = ["stdmap", "null"]
[dataset]
kind = "sequential"
count = 100
[[phase]]
name = "load-one"
op = "insert"
count = 100
[[phase]]
name = "load-two"
op = "insert"
count = 100
threads = [1, 2]
[[phase]]
name = "read-two"
op = "get"
count = 100
threads = 2
[[phase]]
name = "mix-reads"
op = "mix"
count = 100
threads = 2
proportions = {read = 1.0}
[[phase]]
name = "mix-writes"
op = "mix"
count = 100
threads = 4
proportions = {read = 0.5, update = 0.5}
"""


def main():
  kvbench = sys.argv[1]
  failures = []
  with tempfile.TemporaryDirectory() as tmp:
    path = os.path.join(tmp, "w.toml")
    with open(path, "w") as f:
      f.write(WORKLOAD)
    p = subprocess.run([kvbench, "validate", path], capture_output=True, text=True, timeout=120)
    if p.returncode != 0:
      failures.append(f"validate: exit {p.returncode}: {p.stderr}")
    notes = [l for l in p.stderr.splitlines() if "declare no concurrent writers" in l]
    noted = {phase: [n for n in notes if f"phase '{phase}'" in n]
             for phase in ["load-one", "load-two", "read-two", "mix-reads", "mix-writes"]}
    for phase in ["load-two", "mix-writes"]:
      if len(noted[phase]) != 1:
        failures.append(f"{phase}: expected one note, got {noted[phase]}")
        continue
      note = noted[phase][0]
      for part in [path + ":", "'stdmap'", "serialised"]:
        if part not in note:
          failures.append(f"{phase}: note lacks {part!r}: {note}")
      if "'null'" in note:
        failures.append(f"{phase}: names null, which declares concurrent writers: {note}")
    if "up to 4 writing client threads" not in "".join(noted["mix-writes"]):
      failures.append(f"mix-writes: the thread count is not named: {noted['mix-writes']}")
    for phase in ["load-one", "read-two", "mix-reads"]:
      if noted[phase]:
        failures.append(f"{phase}: no writer is serialised, yet: {noted[phase]}")
  for f in failures:
    print("FAIL:", f, file=sys.stderr)
  if not failures:
    print("serialised writers: every note as expected")
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
