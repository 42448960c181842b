#!/usr/bin/env python3
"""Issue 31: several writing client threads on an engine that declares no
concurrent writers are serialised, and the plan says so once per phase,
naming the workload file and line, the phase and the engines (and only those
engines). Reads with several threads and one writing thread say nothing.
A run records it on exactly those rows (results.json's writers_serialised,
valid against docs/results.schema.json), and report.md and report.html name
the engines and thread counts under the phase's table, for a built-in engine
and for a plugin engine (the plugin host serialises those); `kvbench report`
says the same from the file, and a file without the field (older kvbench)
still renders, without the note.
Usage: serialised_writers_test.py KVBENCH [PLUGIN]
PLUGIN: adapters/plugin's test plugin (engine abi-serial: no concurrent writers)."""
import json
import os
import re
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


# The rows a run must mark: (phase, threads) with several writing threads.
SERIALISED = {("load-two", 2), ("mix-writes", 4)}


def section(report, phase, html):
  """The text of `phase`'s section in a report, up to the next phase's."""
  start = report.find(f"<code>{phase}</code>" if html else f"### `{phase}`")
  if start < 0:
    return ""
  end = report.find("<section class=\"phase\"" if html else "\n### ", start + 1)
  return report[start:] if end < 0 else report[start:end]


VALIDATE = """
import json, sys, jsonschema
with open(sys.argv[1]) as f:
  validator = jsonschema.Draft202012Validator(json.load(f))
with open(sys.argv[2]) as f:
  for e in list(validator.iter_errors(json.load(f)))[:3]:
    print("/".join(map(str, e.absolute_path)) + ": " + e.message)
"""


def schema_errors(schema, results):
  """The first errors of `results` against `schema`, with Debian's python3-jsonschema
  (as the results_schema test: /usr/bin/python3, whatever python3 runs this)."""
  p = subprocess.run(["/usr/bin/python3", "-c", VALIDATE, schema, results], capture_output=True,
                     text=True, timeout=60)
  if p.returncode != 0:
    return [f"could not validate (python3-jsonschema, scripts/install-deps.sh): {p.stderr[-500:]}"]
  return p.stdout.splitlines()


def check_run(kvbench, tmp, path, name, engine, extra, failures):
  """Runs the workload on `engine` beside null and checks results.json and both reports."""
  out = os.path.join(tmp, name)
  p = subprocess.run([kvbench, "run", path, "--engines", engine + ",null", "--repeat", "1",
                      "--out", out, "--quiet"] + extra, capture_output=True, text=True, timeout=120)
  if p.returncode != 0:
    failures.append(f"{name}: run: exit {p.returncode}: {p.stderr}")
    return
  with open(os.path.join(out, "results.json")) as f:
    results = json.load(f)
  schema = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "docs",
                        "results.schema.json")
  for error in schema_errors(schema, os.path.join(out, "results.json")):
    failures.append(f"{name}: results.json against docs/results.schema.json: {error}")
  marked = {(r["phase"], r["engine"], r["threads"]) for r in results["runs"]
            if r.get("writers_serialised") is True}
  expected = {(phase, engine, threads) for phase, threads in SERIALISED}
  if marked != expected:
    failures.append(f"{name}: writers_serialised on {sorted(marked)}, expected {sorted(expected)}")
  if any("writers_serialised" in r and r["writers_serialised"] is not True for r in results["runs"]):
    failures.append(f"{name}: writers_serialised written as something other than true")
  reports = {}
  for file in ["report.md", "report.html"]:
    with open(os.path.join(out, file)) as f:
      reports[file] = f.read()
  regenerated = os.path.join(tmp, name + "-again.md")
  p = subprocess.run([kvbench, "report", os.path.join(out, "results.json"), "--format", "md",
                      "-o", regenerated], capture_output=True, text=True, timeout=60)
  if p.returncode != 0:
    failures.append(f"{name}: kvbench report: exit {p.returncode}: {p.stderr}")
  else:
    with open(regenerated) as f:
      reports["kvbench report"] = f.read()
  for file, text in reports.items():
    html = file.endswith(".html")
    if text.count("Serialised writers:") != len(SERIALISED):
      failures.append(f"{name}: {file}: {text.count('Serialised writers:')} notes, expected "
                      f"{len(SERIALISED)}")
    for phase, threads in SERIALISED:
      want = (f"{engine} ({threads} threads) declares no concurrent writers "
              "(capabilities.concurrent_writers = false): its writing client threads ran one "
              "writer at a time")
      if want not in section(text, phase, html):
        failures.append(f"{name}: {file}: phase {phase} lacks {want!r}")
    if re.search(r"Serialised writers:[^\n]*\bnull\b", text):
      failures.append(f"{name}: {file}: names null, which declares concurrent writers")

  # Written by a kvbench from before the field: loads, and says nothing of it.
  for r in results["runs"]:
    r.pop("writers_serialised", None)
  old = os.path.join(tmp, name + "-old.json")
  with open(old, "w") as f:
    json.dump(results, f)
  p = subprocess.run([kvbench, "report", old, "--format", "md", "-o", old + ".md"],
                     capture_output=True, text=True, timeout=60)
  if p.returncode != 0:
    failures.append(f"{name}: kvbench report on a file without the field: exit {p.returncode}: "
                    f"{p.stderr}")
  else:
    with open(old + ".md") as f:
      if "Serialised writers" in f.read():
        failures.append(f"{name}: a file without writers_serialised got the note")


def main():
  kvbench = sys.argv[1]
  plugin = sys.argv[2] if len(sys.argv) > 2 else ""
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
    check_run(kvbench, tmp, path, "built-in", "stdmap", [], failures)
    if plugin:
      check_run(kvbench, tmp, path, "plugin", "abi-serial", ["--plugin", plugin], failures)
  for f in failures:
    print("FAIL:", f, file=sys.stderr)
  if not failures:
    print("serialised writers: every note as expected" +
          ("" if plugin else " (no plugin given: the plugin engine was not run)"))
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
