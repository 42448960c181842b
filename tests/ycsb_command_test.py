#!/usr/bin/env python3
"""`kvbench ycsb` end to end, as a YCSB user types it: load, then run in a
second invocation against the same directory; YCSB's output parsed with
YCSB's line grammar and every figure checked against results.json; YCSB-cpp's
form; -s status lines on stderr; --ycsb-output DIR from a TOML workload with
several engines; and the bad inputs the issue lists, each exiting 2 with one
message naming the file or property and touching no engine file.

Usage: ycsb_command_test.py KVBENCH SOURCE_DIR
"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_tests  # noqa: E402
import ycsb_output  # noqa: E402

KVBENCH, SRC = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
WORKLOADS = os.path.join(SRC, "workloads", "ycsb")
WORK = tempfile.mkdtemp(prefix="kvbench-ycsb-test-")
DIR = os.path.join(WORK, "lmdb-data")


def kvbench(*args, expect=0):
    p = subprocess.run([KVBENCH, *args], capture_output=True, text=True, cwd=WORK)
    assert p.returncode == expect, (f"kvbench {' '.join(args)}: exit {p.returncode}, "
                                    f"expected {expect}\n{p.stdout}\n{p.stderr}")
    return p


def results(out):
    with open(os.path.join(out, "results.json")) as f:
        return json.load(f)


def snapshot(path):
    """Every file under `path` with its size and modification time."""
    files = {}
    for root, _, names in os.walk(path):
        for n in names:
            st = os.stat(os.path.join(root, n))
            files[os.path.join(root, n)] = (st.st_size, st.st_mtime_ns)
    return files


def test_load_then_run_in_two_invocations():
    kvbench("ycsb", "load", "lmdb", "-P", f"{WORKLOADS}/workloadf", "-p", "recordcount=3000",
            "-p", f"kvbench.dir={DIR}", "--out", f"{WORK}/load", "-q")
    load = results(f"{WORK}/load")
    assert [r["phase"] for r in load["runs"]] == ["load"]
    marker = json.load(open(f"{DIR}/kvbench-ycsb.json"))
    assert marker["engine"] == "lmdb" and marker["records"] == 3000, marker

    p = kvbench("ycsb", "run", "lmdb", "-P", f"{WORKLOADS}/workloadf", "-p", "recordcount=3000",
                "-p", "operationcount=4000", "-threads", "2", "-p", f"kvbench.dir={DIR}",
                "-p", "hdrhistogram.percentiles=50,90,99,99.9,99.99", "--out", f"{WORK}/run", "-q")
    run = results(f"{WORK}/run")
    assert [r["phase"] for r in run["runs"]] == ["run"], run["runs"]
    rep = run["runs"][0]["repetitions"][0]
    ycsb_output.check(ycsb_output.parse(p.stdout), rep, percentiles=(50, 90, 99, 99.9, 99.99))
    ops = {o["op"]: o for o in rep["ops"]}
    # The run read the loaded records: no NOT_FOUND. READ-MODIFY-WRITE's parts
    # count under READ and UPDATE too (workload F has no plain update).
    assert ops["READ"]["work"]["not_found"] == 0, ops["READ"]
    assert ops["UPDATE"]["ops"] == ops["READ-MODIFY-WRITE"]["ops"]
    assert ops["READ"]["ops"] == 4000, ops["READ"]["ops"]
    assert rep["session_cleanup"]["count"] == 2  # one session per client thread
    assert "kvbench ycsb run lmdb" in run["command_line"]


def test_ycsb_cpp_form_prints_its_summary_and_ycsbs():
    p = kvbench("ycsb", "-run", "-db", "lmdb", "-P", f"{WORKLOADS}/workloadb", "-p",
                "recordcount=3000", "-p", "operationcount=2000", "-p", f"kvbench.dir={DIR}",
                "-p", "measurementtype=timeseries", "-p", "timeseries.granularity=50",
                "--out", f"{WORK}/cpp", "-q")
    rep = results(f"{WORK}/cpp")["runs"][0]["repetitions"][0]
    cpp = re.findall(r"^Run (runtime\(sec\)|operations\(ops\)|throughput\(ops/sec\)): (\S+)$",
                     p.stdout, re.M)
    assert [k for k, _ in cpp] == ["runtime(sec)", "operations(ops)", "throughput(ops/sec)"], cpp
    assert int(cpp[1][1]) == 2000
    # Results schema 5: seconds is the wall span, the in-call time beside it.
    assert "engine_seconds" in rep and rep["engine_seconds"] <= rep["seconds"], rep
    assert abs(float(cpp[0][1]) - rep["seconds"]) <= rep["seconds"] * 1e-5
    assert abs(float(cpp[2][1]) - rep["ops"][0]["ops_per_sec"]) <= rep["ops"][0]["ops_per_sec"] * 1e-5
    parsed = ycsb_output.parse(p.stdout, allow=r"^Run ")
    ycsb_output.check(parsed, rep, timeseries=True)
    assert rep["time_series"]["interval_s"] > 0.049, "timeseries.granularity=50 ms is exact"


def test_status_lines_go_to_stderr_in_ycsbs_shape():
    p = kvbench("ycsb", "run", "lmdb", "-P", f"{WORKLOADS}/workloadc", "-p", "recordcount=3000",
                "-p", "operationcount=1500", "-target", "1000", "-s", "-p", "status.interval=0.25",
                "-p", f"kvbench.dir={DIR}", "--out", f"{WORK}/status", "-q")
    shape = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d:\d{3} \d+ sec: (\d+) operations; "
                       r"(\d+(\.\d+)? current ops/sec; )?(est completion in .*?)?"
                       r"(\[READ: Count=\d+, Max=[\d.]+, Min=[\d.]+, Avg=[\d.]+, 90=[\d.]+, "
                       r"99=[\d.]+, 99\.9=[\d.]+, 99\.99=[\d.]+\] )?$")
    lines = [l for l in p.stderr.splitlines() if " sec: " in l]
    assert len(lines) >= 4, p.stderr  # 1.5 s at 0.25 s, plus the final line
    counts = [int(shape.match(l).group(1)) for l in lines]
    assert counts == sorted(counts) and counts[-1] == 1500, counts
    assert " sec: " not in p.stdout


def test_ycsb_output_dir_writes_one_file_per_engine_and_phase():
    toml = os.path.join(WORK, "two.toml")
    with open(toml, "w") as f:
        f.write('name = "two"\nrepetitions = 1\n[dataset]\nkind = "sequential"\ncount = 2000\n'
                '[[phase]]\nname = "load"\nop = "insert"\ncount = 2000\nbatch = 100\n'
                '[[phase]]\nname = "mix"\nop = "mix"\ncount = 2000\n'
                'proportions = { read = 0.5, rmw = 0.5 }\n')
    kvbench("run", toml, "--engines", "lmdb,sqlite", "--out", f"{WORK}/toml", "--quiet",
            f"--ycsb-output={WORK}/ycsb")
    r = results(f"{WORK}/toml")
    names = sorted(os.listdir(f"{WORK}/ycsb"))
    assert names == ["lmdb-load.txt", "lmdb-mix.txt", "sqlite-load.txt", "sqlite-mix.txt"], names
    for run in r["runs"]:
        with open(f"{WORK}/ycsb/{run['engine']}-{run['phase']}.txt") as f:
            ycsb_output.check(ycsb_output.parse(f.read()), run["repetitions"][0])


def bad(args, names):
    """Exit 2, one line on stderr naming `names`, nothing in DIR touched."""
    before = snapshot(WORK)
    p = kvbench(*args, expect=2)
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1, p.stderr
    assert names in lines[0], f"{names!r} not in {lines[0]!r}"
    assert snapshot(WORK) == before, "files were touched"
    assert p.stdout == "", p.stdout


def test_bad_input_exits_2_naming_it_and_touches_nothing():
    base = ["-P", f"{WORKLOADS}/workloada", "-p", f"kvbench.dir={DIR}", "-q"]
    bad(["ycsb", "load", "nosuchdb", *base], "nosuchdb")
    bad(["ycsb", "-load", "-db", "nosuchdb", *base], "nosuchdb")
    bad(["ycsb", "run", "lmdb", "-P", f"{WORK}/missing.properties", *base], "missing.properties")
    bad(["ycsb", "run", "lmdb", *base, "-p", "fieldcount=ten"], "fieldcount")
    bad(["ycsb", "run", "lmdb", *base, "-p", "lmdb.mapsize=lots"], "lmdb.mapsize")
    bad(["ycsb", "run", "lmdb", *base, "-p", "no.such.property=1"], "no.such.property")
    props = os.path.join(WORK, "bad.properties")
    with open(props, "w") as f:
        f.write("# a database property file\nlmdb.nosync=sometimes\n")
    bad(["ycsb", "run", "lmdb", *base, "-P", props], "bad.properties:2")
    empty = os.path.join(WORK, "empty")
    bad(["ycsb", "run", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", f"kvbench.dir={empty}"],
        empty)
    assert not os.path.exists(empty)
    bad(["ycsb", "load", "sqlite", *base], "lmdb")  # DIR holds lmdb's data
    bad(["ycsb", "run", "sqlite", *base], "lmdb")
    bad(["ycsb", "run", "lmdb", *base, "-p", "insertorder=ordered"], "insertorder")
    foreign = os.path.join(WORK, "foreign")
    os.makedirs(foreign)
    with open(os.path.join(foreign, "precious.txt"), "w") as f:
        f.write("not kvbench's")
    bad(["ycsb", "load", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", f"kvbench.dir={foreign}"],
        foreign)


def test_a_second_load_of_the_same_engine_replaces_the_first():
    kvbench("ycsb", "load", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", "recordcount=500",
            "-p", f"kvbench.dir={DIR}", "--out", f"{WORK}/reload", "-q")
    assert json.load(open(f"{DIR}/kvbench-ycsb.json"))["records"] == 500


def test_an_unfinished_load_is_refused_by_runs_and_replaced_by_a_load():
    # MDB_APPEND refuses YCSB's hashed (unordered) keys: the load fails.
    p = kvbench("ycsb", "load", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", "recordcount=500",
                "-p", "lmdb.append=true", "-p", f"kvbench.dir={DIR}", "--out", f"{WORK}/fail",
                expect=1)
    assert "did not finish" in p.stderr, p.stderr
    assert json.load(open(f"{DIR}/kvbench-ycsb.json"))["complete"] is False
    bad(["ycsb", "run", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", f"kvbench.dir={DIR}"],
        "did not finish")
    kvbench("ycsb", "load", "lmdb", "-P", f"{WORKLOADS}/workloada", "-p", "recordcount=500",
            "-p", f"kvbench.dir={DIR}", "--out", f"{WORK}/again", "-q")
    assert json.load(open(f"{DIR}/kvbench-ycsb.json"))["complete"] is True


script_tests.run_tests(globals(), WORK)
