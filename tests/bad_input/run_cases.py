#!/usr/bin/env python3
"""kvbench's bad-input suite: every case in cases.tsv, each in a fresh folder.

    run_cases.py KVBENCH SOURCE_DIR [CASE_ID_REGEX]

A case is one line of cases.tsv (tab-separated; '#' starts a comment line):

    ID  EXIT  STDERR_REGEX  ARGUMENTS  [FILES]

ARGUMENTS is split like a shell command line (shlex) and run as `kvbench
ARGUMENTS` in the case's own folder, with HOME, XDG_DATA_HOME and TMPDIR
inside it and KVBENCH_STORE unset. In ARGUMENTS and FILES, {W} is a small
valid workload (engine null), {GOOD} a results.json of it, {SRC} the source
tree and {NL} a newline.

FILES sets up the folder before the run: entries separated by ' ;; ', each
    NAME=TEXT      a file; in TEXT, \\n is a newline, \\t a tab, \\\\ a
                   backslash, {HEAD} a workload's name and engines (null),
                   {DATA} its dataset (100 sequential keys), {BASE} both and
                   {LOAD} a phase inserting them
    NAME<SIZE      a sparse file of SIZE bytes (suffix K, M, G)
    NAME/          a folder
    NAME|fifo      a FIFO
    NAME->TARGET   a symbolic link
    NAME@KEY=JSON  {GOOD} with top-level field KEY set to the JSON text

Each case passes when kvbench
  - exits with EXIT (bad input: 2), not by a signal, within TIME_LIMIT s;
  - prints a message matching STDERR_REGEX (the option, field or file it
    names) and no "terminate called", sanitizer report or core dump notice,
    in at most MAX_STDERR_LINES lines;
  - changed nothing: the case folder holds exactly what the set-up made
    (no --out, store or data folder appeared; nothing in them changed), no
    kvbench object appeared in /dev/shm, and the shared fixtures are intact.
"""
import concurrent.futures
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile

TIME_LIMIT = 20  # seconds per case: bad input is refused before any work
MAX_STDERR_LINES = 5
CRASH_SIGNS = re.compile(r"terminate called|AddressSanitizer|runtime error:|core dumped|"
                         r"Segmentation fault|Aborted|std::length_error|what\(\):")

HEAD = 'name = "t"\nengines = ["null"]\n'
DATA = '[dataset]\nkind = "sequential"\ncount = 100\n'
BASE = HEAD + DATA
LOAD = '[[phase]]\nname = "load"\nop = "insert"\ncount = 100\n'


def parse_cases(path):
    cases = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) not in (4, 5):
                raise SystemExit(f"{path}:{number}: expected 4 or 5 tab-separated columns, "
                                 f"got {len(cols)}")
            cases.append({"id": cols[0], "exit": int(cols[1]), "stderr": cols[2],
                          "args": cols[3], "files": cols[4] if len(cols) == 5 else "",
                          "line": number})
    ids = [c["id"] for c in cases]
    duplicates = {i for i in ids if ids.count(i) > 1}
    if duplicates:
        raise SystemExit(f"{path}: case ids used twice: {sorted(duplicates)}")
    return cases


def expand(text, fixtures):
    return (text.replace("{W}", fixtures["W"]).replace("{GOOD}", fixtures["GOOD"])
            .replace("{SRC}", fixtures["SRC"]).replace("{NL}", "\n"))


def size_of(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def set_up(work, files, fixtures):
    for entry in filter(None, (e.strip() for e in files.split(" ;; "))):
        if "->" in entry:
            name, target = entry.split("->", 1)
            os.symlink(expand(target, fixtures), os.path.join(work, name))
        elif entry.endswith("|fifo"):
            os.mkfifo(os.path.join(work, entry[:-5]))
        elif entry.endswith("/") and "=" not in entry:
            os.makedirs(os.path.join(work, entry), exist_ok=True)
        elif "<" in entry and "=" not in entry.split("<", 1)[0]:
            name, size = entry.split("<", 1)
            with open(os.path.join(work, name), "wb") as f:
                f.truncate(size_of(size))
        elif "@" in entry and "=" in entry and entry.index("@") < entry.index("="):
            name, rest = entry.split("@", 1)
            key, value = rest.split("=", 1)
            with open(fixtures["GOOD"], encoding="utf-8") as f:
                doc = f.read()
            # Raw text replacement keeps JSON literals json.loads would change
            # (99999999999, 2.5, 1e400) exactly as written.
            doc, n = re.subn(r'("' + re.escape(key) + r'"\s*:\s*)("[^"]*"|[^,}\s]+)',
                             lambda m: m.group(1) + value, doc, count=1)
            if n != 1:
                raise SystemExit(f"{name}: no top-level '{key}' in {fixtures['GOOD']}")
            with open(os.path.join(work, name), "w", encoding="utf-8") as f:
                f.write(doc)
        elif "=" in entry:
            name, text = entry.split("=", 1)
            text = re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)),
                          text)
            text = (text.replace("{BASE}", BASE).replace("{HEAD}", HEAD).replace("{DATA}", DATA)
                    .replace("{LOAD}", LOAD))
            path = os.path.join(work, name)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", encoding="utf-8") as f:
                f.write(expand(text, fixtures))
        else:
            raise SystemExit(f"cannot read set-up entry '{entry}'")


def snapshot(root):
    """Every path under root with its type, size and modification time."""
    state = {}
    for folder, dirs, names in os.walk(root):
        for name in dirs + names:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            state[os.path.relpath(path, root)] = (st.st_mode, st.st_size if not
                                                  os.path.isdir(path) else 0, st.st_mtime_ns)
    return state


def shm_names():
    try:
        return {n for n in os.listdir("/dev/shm") if "kvbench" in n}
    except OSError:
        return set()


def run_case(case, kvbench, fixtures, root):
    folder = os.path.join(root, re.sub(r"[^A-Za-z0-9_.-]", "_", case["id"]))
    work, home, tmp = (os.path.join(folder, d) for d in ("work", "home", "tmp"))
    for d in (work, home, tmp):
        os.makedirs(d)
    set_up(work, case["files"], fixtures)
    args = [expand(a, fixtures) for a in shlex.split(case["args"])]
    env = {k: v for k, v in os.environ.items() if k != "KVBENCH_STORE"}
    env.update(HOME=home, XDG_DATA_HOME=os.path.join(home, "data"), TMPDIR=tmp, LC_ALL="C")
    before, shm_before = snapshot(folder), shm_names()
    problems = []
    # Its own session, so a hang is ended with every process it started.
    p = subprocess.Popen([kvbench] + args, cwd=work, env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True)
    try:
        _, err = p.communicate(timeout=TIME_LIMIT)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
        return [f"no answer within {TIME_LIMIT} s (hang)"], err.decode("utf-8", "replace")
    stderr = err.decode("utf-8", "replace")
    if p.returncode < 0:
        problems.append(f"killed by signal {-p.returncode}")
    elif p.returncode != case["exit"]:
        problems.append(f"exit code {p.returncode}, expected {case['exit']}")
    if CRASH_SIGNS.search(stderr):
        problems.append("a crash on stderr")
    if not re.search(case["stderr"], stderr):
        problems.append(f"stderr does not match /{case['stderr']}/")
    if len(stderr.splitlines()) > MAX_STDERR_LINES:
        problems.append(f"{len(stderr.splitlines())} lines on stderr (at most "
                        f"{MAX_STDERR_LINES}: one message)")
    after = snapshot(folder)
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    changed = sorted(k for k in set(before) & set(after) if before[k] != after[k])
    for what, paths in (("appeared", added), ("disappeared", removed), ("changed", changed)):
        if paths:
            problems.append(f"{what} in the case folder: {', '.join(paths[:5])}")
    if shm_names() - shm_before:
        problems.append(f"appeared in /dev/shm: {sorted(shm_names() - shm_before)}")
    return problems, stderr


def make_fixtures(kvbench, source, root):
    fixtures = {"SRC": source}
    shared = os.path.join(root, "_fixtures")
    os.makedirs(shared)
    fixtures["W"] = os.path.join(shared, "valid.toml")
    with open(fixtures["W"], "w", encoding="utf-8") as f:
        f.write('name = "valid"\nengines = ["null"]\n[dataset]\nkind = "sequential"\n'
                'count = 100\n' + LOAD + '[[phase]]\nname = "read"\nop = "get"\ncount = 100\n')
    out = os.path.join(shared, "good")
    p = subprocess.run([kvbench, "run", fixtures["W"], "--repeat", "1", "--out", out, "--quiet"],
                       cwd=shared, capture_output=True, timeout=120)
    if p.returncode != 0:
        raise SystemExit("the fixture run failed:\n" + p.stderr.decode("utf-8", "replace"))
    fixtures["GOOD"] = os.path.join(out, "results.json")
    return fixtures


def digest(folder):
    h = hashlib.sha256()
    for path in sorted(snapshot(folder)):
        full = os.path.join(folder, path)
        h.update(path.encode())
        if os.path.isfile(full) and not os.path.islink(full):
            with open(full, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


def main():
    if len(sys.argv) < 3:
        raise SystemExit(__doc__)
    kvbench, source = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    only = re.compile(sys.argv[3]) if len(sys.argv) > 3 else None
    cases = parse_cases(os.path.join(os.path.dirname(os.path.abspath(__file__)), "cases.tsv"))
    if only:
        cases = [c for c in cases if only.search(c["id"])]
    root = tempfile.mkdtemp(prefix="kvbench-bad-input-")
    try:
        fixtures = make_fixtures(kvbench, source, root)
        fixture_digest = digest(os.path.join(root, "_fixtures"))
        failures = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda c: (c, *run_case(c, kvbench, fixtures, root)), cases))
        for case, problems, stderr in results:
            if problems:
                failures += 1
                print(f"FAIL {case['id']} (cases.tsv:{case['line']}): {'; '.join(problems)}")
                print("     kvbench " + case["args"])
                for line in stderr.splitlines()[:8]:
                    print("     | " + line)
        if digest(os.path.join(root, "_fixtures")) != fixture_digest:
            failures += 1
            print("FAIL: the shared fixtures changed (a case wrote outside its folder)")
        failed_cases = sum(1 for _, problems, _ in results if problems)
        print(f"{len(cases) - failed_cases}/{len(cases)} bad-input cases passed")
        return 1 if failures else 0
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
