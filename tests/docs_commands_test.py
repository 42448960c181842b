#!/usr/bin/env python3
"""Issue 31: the test commands docs/adding-an-adapter.md gives really run tests.

The doc marks each shell block a reader is told to run to test an engine with
a line `<!-- docs_commands_test: KIND ... -->` right above its fence. This
script runs every marked block as the doc writes it, with `my-engine` /
`my_engine` replaced by a real engine's name:
  in-tree   a built-in engine with a hyphen in its name (bdb-btree, else the
            first such engine kvbench lists), from a folder whose `build` is
            the build folder;
  template  as written (the template adapter's own test binary);
  plugin    `abi-ref` from adapters/plugin's test plugin, from a plugin
            project's folder whose build/ holds libkvbench-abi-ref.so, with
            kvbench on the PATH.
Each command that runs tests must succeed and run at least one: a gtest
binary's "[==========] N tests from ... ran." line, `kvbench conformance`'s
"N passed, M failed, K skipped" (passed + failed), ctest's count. Build
commands (`cmake --build`) are not run: ctest runs after the build. ctest
commands are run with -N (list, do not run): the same tests are run by the
block's other commands, and a ctest inside ctest would share its Testing/
logs. Every --gtest_filter='...' the doc gives after a binary's path
elsewhere (section 5's debugger line) must match a test of that binary.
A shell block with a test command but no mark fails the test, so a new
command cannot skip it. Before all that, a block with the hyphenated filter
the doc once gave is run to show that this test sees 0 tests as a failure.

Usage: docs_commands_test.py DOC BUILD_DIR PLUGIN [ENGINE]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

MARK = re.compile(r"^<!-- docs_commands_test: (in-tree|template|plugin)\b.*-->$")
FENCE = re.compile(r"^```(\w*)$")
# A command that runs tests (a gtest binary, kvbench conformance, ctest).
RUNNER = re.compile(r"(_test\b|\bkvbench conformance\b|\bctest\b)")
TRACE = "@@docs_commands_test@@ "
TRACE_LINE = re.compile(r"^@*" + re.escape(TRACE[1:]) + r"(.*)$")
GTEST_RAN = re.compile(r"^\[==========\] (\d+) tests? from .* ran\.", re.M)
CONFORMANCE = re.compile(r"^(\d+) passed, (\d+) failed, (\d+) skipped$", re.M)
CTEST_TOTAL = re.compile(r"^Total Tests: (\d+)$", re.M)
PLUGIN_ENGINE = "abi-ref"


def shell_blocks(doc):
  """Every sh block of the doc: (kind or None, first line number, lines)."""
  lines = doc.splitlines()
  blocks = []
  i = 0
  while i < len(lines):
    m = FENCE.match(lines[i])
    if not m or m.group(1) not in ("sh", "bash"):
      i += 1
      continue
    kind = None
    j = i - 1
    while j >= 0 and not lines[j].strip():
      j -= 1
    if j >= 0:
      mark = MARK.match(lines[j].strip())
      kind = mark.group(1) if mark else None
    end = i + 1
    while end < len(lines) and not lines[end].startswith("```"):
      end += 1
    blocks.append((kind, i + 1, lines[i + 1:end]))
    i = end + 1
  return blocks


def commands(block_lines):
  """The block's commands, continuation lines joined."""
  out, current = [], ""
  for line in block_lines:
    if line.rstrip().endswith("\\"):
      current += line.rstrip()[:-1] + " "
      continue
    out.append(current + line)
    current = ""
  if current:
    out.append(current)
  return out


def script_of(block_lines, engine):
  """The shell script that follows the block for `engine`, and the build steps left out."""
  left_out, kept = [], []
  for command in commands(block_lines):
    text = command.replace("my-engine", engine).replace("my_engine", re.sub(r"\W", "_", engine))
    if text.strip().startswith("cmake --build"):
      left_out.append(text.strip())
      continue
    kept.append(re.sub(r"\bctest ", "ctest -N ", text))
  return "\n".join(kept) + "\n", left_out


def run_block(script, cwd, env):
  """Runs `script` under bash -e, tracing each command; returns (exit code, [(command, output)])."""
  # PS4 set inside: bash running as root does not take it from the environment.
  script = f"PS4='{TRACE}'\nset -x\n" + script
  p = subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, text=True,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=300)
  steps = []
  for line in p.stdout.splitlines():
    m = TRACE_LINE.match(line)
    if m:
      steps.append([m.group(1), ""])
    elif steps:
      steps[-1][1] += line + "\n"
  return p.returncode, steps


def tests_run(command, output):
  """How many tests a runner command ran, from its own summary; None without one."""
  if re.search(r"\bctest\b", command):
    m = CTEST_TOTAL.search(output)
    return int(m.group(1)) if m else None
  if re.search(r"\bkvbench conformance\b", command):
    m = CONFORMANCE.search(output)
    return int(m.group(1)) + int(m.group(2)) if m else None
  counts = [int(n) for n in GTEST_RAN.findall(output)]
  return sum(counts) if counts else None


def check_block(name, script, cwd, env, failures):
  """Runs one block; every runner command must succeed and run a test. Returns tests run."""
  rc, steps = run_block(script, cwd, env)
  runners = 0
  total = 0
  for command, output in steps:
    if not RUNNER.search(command) or command.startswith("for "):
      continue
    runners += 1
    n = tests_run(command, output)
    if n is None:
      failures.append(f"{name}: `{command}` printed no test count:\n{output[-2000:]}")
    elif n == 0:
      failures.append(f"{name}: `{command}` ran 0 tests")
    else:
      print(f"  {n:4d} tests: {command}")
      total += n
  if rc != 0:
    last = steps[-1] if steps else ["(nothing ran)", ""]
    failures.append(f"{name}: exit {rc} at `{last[0]}`:\n{last[1][-2000:]}")
  if runners == 0:
    failures.append(f"{name}: no command of the block ran tests:\n{script}")
  return total


def pick_engine(kvbench, wanted):
  p = subprocess.run([kvbench, "engines"], capture_output=True, text=True, timeout=60)
  names = [l.split()[0] for l in p.stdout.splitlines() if l and not l[0].isspace()]
  if wanted in names:
    return wanted
  hyphenated = [n for n in names if "-" in n]
  return hyphenated[0] if hyphenated else None


def main():
  doc_path, build, plugin = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
  wanted = sys.argv[4] if len(sys.argv) > 4 else "bdb-btree"
  kvbench = os.path.join(build, "kvbench")
  failures = []
  with open(doc_path) as f:
    doc = f.read()
  blocks = shell_blocks(doc)
  for kind, line, body in blocks:
    if kind is None and any(RUNNER.search(l) for l in body):
      failures.append(f"{doc_path}:{line}: a shell block with a test command has no "
                      "`<!-- docs_commands_test: KIND -->` mark above it")
  marked = [(kind, line, body) for kind, line, body in blocks if kind]
  for kind in ("in-tree", "template", "plugin"):
    if not any(k == kind for k, _, _ in marked):
      failures.append(f"{doc_path}: no block marked '{kind}'")

  engine = pick_engine(kvbench, wanted)
  if engine is None:
    failures.append("kvbench lists no engine with a hyphen in its name to follow the doc with")
  with tempfile.TemporaryDirectory(prefix="kvbench-docs-") as tmp:
    # Where a reader stands: a checkout whose build folder is `build`.
    checkout = os.path.join(tmp, "checkout")
    os.mkdir(checkout)
    os.symlink(build, os.path.join(checkout, "build"))
    # A plugin project whose build made libkvbench-abi-ref.so; kvbench on the PATH.
    project = os.path.join(tmp, "plugin-project")
    os.makedirs(os.path.join(project, "build"))
    os.symlink(plugin, os.path.join(project, "build", f"libkvbench-{PLUGIN_ENGINE}.so"))
    bin_dir = os.path.join(tmp, "bin")
    os.mkdir(bin_dir)
    os.symlink(kvbench, os.path.join(bin_dir, "kvbench"))
    env = dict(os.environ, PATH=bin_dir + os.pathsep + os.environ.get("PATH", ""))
    env.pop("KVBENCH_PLUGIN_PATH", None)
    env.pop("GTEST_FILTER", None)

    # The control: the filter the doc once gave, on a hyphenated engine, runs
    # 0 tests and exits 0; this test must call that a failure.
    if engine:
      control = []
      check_block("control", f"./build/tests/conformance_test --gtest_filter='*{engine}*'\n",
                  checkout, env, control)
      if not any("ran 0 tests" in c for c in control):
        failures.append(f"control: a filter on the hyphenated name was not caught: {control}")

    for kind, line, body in marked:
      name = f"{os.path.basename(doc_path)}:{line} ({kind})"
      if kind == "in-tree" and not engine:
        continue
      run_as = {"in-tree": engine, "template": "my-engine", "plugin": PLUGIN_ENGINE}[kind]
      script, left_out = script_of(body, run_as)
      print(f"{name}, engine {run_as if kind != 'template' else 'template'}:")
      for c in left_out:
        print(f"  not run (built before ctest): {c}")
      cwd = project if kind == "plugin" else checkout
      check_block(name, script, cwd, env, failures)

    # Filters given elsewhere (`gdb --args ./build/tests/X --gtest_filter='...'`).
    flat = re.sub(r"\s+", " ", doc)
    for binary, pattern in re.findall(r"(\./build/[\w/.-]+) --gtest_filter='([^']+)'", flat):
      if engine is None:
        break
      pattern = pattern.replace("my_engine", re.sub(r"\W", "_", engine))
      p = subprocess.run([binary, f"--gtest_filter={pattern}", "--gtest_list_tests"],
                         cwd=checkout, env=env, capture_output=True, text=True, timeout=60)
      listed = [l for l in p.stdout.splitlines() if l.startswith("  ")]
      if p.returncode != 0 or not listed:
        failures.append(f"{binary} --gtest_filter='{pattern}' matches no test "
                        f"(exit {p.returncode})")
      else:
        print(f"  {len(listed):4d} tests listed: {binary} --gtest_filter='{pattern}'")

  for f in failures:
    print("FAIL:", f, file=sys.stderr)
  if not failures:
    print("docs commands: every marked command ran tests")
  return 1 if failures else 0


if __name__ == "__main__":
  sys.exit(main())
