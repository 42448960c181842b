#!/usr/bin/env python3
"""kvbench's HdrHistogram files read by HdrHistogram's own Java code (Debian's
libhdrhistogram-java): every .hlog decodes with HistogramLogReader (through
HistogramLogProcessor), its intervals' counts and the total are results.json's,
and kvbench's .hgrm is byte for byte what HistogramLogProcessor prints for the
same log. Both ways of asking for the files are covered: a TOML workload's
[measurement] hdrhistogram = true, and `kvbench ycsb` with
measurementtype=hdrhistogram and hdrhistogram.output.path.

Usage: hdrhistogram_java_test.py KVBENCH SOURCE_DIR JAVA HDRHISTOGRAM_JAR
"""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import script_tests  # noqa: E402

for arg, what in ((sys.argv[3], "java"), (sys.argv[4], "/usr/share/java/hdrhistogram.jar")):
    if not os.path.exists(arg):
        sys.exit(f"hdrhistogram_java: {what} not found (got {arg!r}); "
                 "scripts/install-deps.sh --tests installs openjdk-17-jre-headless "
                 "and libhdrhistogram-java")
KVBENCH, SRC, JAVA, JAR = (os.path.abspath(a) for a in sys.argv[1:5])
WORK = tempfile.mkdtemp(prefix="kvbench-hdr-test-")
PROCESSOR = [JAVA, "-cp", JAR, "org.HdrHistogram.HistogramLogProcessor"]


def run(*args):
    p = subprocess.run(args, capture_output=True, text=True, cwd=WORK)
    assert p.returncode == 0, f"{' '.join(args)}: exit {p.returncode}\n{p.stdout}\n{p.stderr}"
    return p.stdout


def bucket_width(ns):
    """The width of the log-linear bucket holding `ns` (1 below 256)."""
    return 1 if ns < 256 else 1 << (ns.bit_length() - 8)


def check_log(hlog, rep, op_name):
    series = next(o for o in rep["time_series"]["ops"] if o["op"] == op_name)
    figures = next(o for o in rep["ops"] if o["op"] == op_name)
    out = os.path.join(WORK, "decoded")
    run(*PROCESSOR, "-i", hlog, "-o", out, "-outputValueUnitRatio", "1000")
    # "TIME: I:COUNT ( 50% 90% MAX ) T:TOTAL ( ... )", one line per interval.
    line = re.compile(r"^\s*[\d.]+: I:(\d+) \(\s*([\d.]+)\s+[\d.]+\s+([\d.]+) \) T:(\d+) ")
    with open(out) as f:
        rows = [m.groups() for m in map(line.match, f) if m]
    ran = [i for i, n in enumerate(series["count"]) if n > 0]
    assert [int(r[0]) for r in rows] == [series["count"][i] for i in ran], f"{hlog}: interval counts"
    assert int(rows[-1][3]) == figures["ops"] == figures["latency"]["count"], f"{hlog}: total"
    for r, i in zip(rows, ran):
        # Java reports a bucket's highest value; kvbench clamps to the exact
        # extremes, which lie in the same bucket.
        for java_us, ours in ((float(r[1]), series["p50_ns"][i]), (float(r[2]), series["max_ns"][i])):
            java = round(java_us * 1000)
            assert ours <= java <= ours + bucket_width(ours), f"{hlog} interval {i}: {java} vs {ours}"
    # The whole repetition's distribution: kvbench's .hgrm is Java's output.
    with open(out + ".hgrm") as f:
        java = "".join(l for l in f if not l.startswith(("#[Overall", "#[StartTime")))
    with open(hlog[:-len(".hlog")] + ".hgrm") as f:
        ours = f.read()
    assert ours == java, f"{hlog}: .hgrm differs from HistogramLogProcessor's\n{ours}\n{java}"


def check_dir(files, results):
    checked = 0
    for run_ in results["runs"]:
        for r, rep in enumerate(run_["repetitions"]):
            for series in rep["time_series"]["ops"]:
                stem = f"{run_['engine']}-{run_['phase']}"
                if len(run_["repetitions"]) > 1:
                    stem += f"-rep{r + 1}"
                name = files + stem + "-" + series["op"].replace(" ", "_") + ".hlog"
                assert os.path.exists(name), f"{name} missing (have {glob.glob(files + '*')})"
                check_log(name, rep, series["op"])
                checked += 1
    return checked


def test_toml_measurement_hdrhistogram():
    toml = os.path.join(WORK, "hdr.toml")
    with open(toml, "w") as f:
        f.write('name = "hdr"\n[dataset]\nkind = "sequential"\ncount = 20000\n'
                '[measurement]\nhdrhistogram = true\n'
                '[[phase]]\nname = "load"\nop = "insert"\ncount = 20000\nbatch = 100\n'
                'repetitions = 1\n'
                '[[phase]]\nname = "mix"\nop = "mix"\ncount = 60000\nthreads = 2\nrepetitions = 2\n'
                'proportions = { read = 0.6, update = 0.2, rmw = 0.2 }\n')
    run(KVBENCH, "run", toml, "--engines", "lmdb,sqlite", "--out", f"{WORK}/toml", "--quiet")
    with open(f"{WORK}/toml/results.json") as f:
        results = json.load(f)
    n = check_dir(f"{WORK}/toml/hdrhistogram/", results)
    assert n >= 2 * (3 + 2 * 4), n  # load: all insert commit; mix x 2: all get update rmw


def test_ycsb_measurementtype_hdrhistogram():
    run(KVBENCH, "ycsb", "-load", "-run", "-db", "lmdb", "-P",
        os.path.join(SRC, "workloads", "ycsb", "workloada"), "-p", "recordcount=5000",
        "-p", "operationcount=20000", "-p", "measurementtype=hdrhistogram",
        "-p", f"hdrhistogram.output.path={WORK}/ycsb-hdr/run1-", "-p", f"kvbench.dir={WORK}/d",
        "--out", f"{WORK}/ycsb", "-q")
    with open(f"{WORK}/ycsb/results.json") as f:
        results = json.load(f)
    assert check_dir(f"{WORK}/ycsb-hdr/run1-", results) == 2 + 3  # INSERT; READ, UPDATE


script_tests.run_tests(globals(), WORK)
