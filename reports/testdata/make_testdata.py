#!/usr/bin/env python3
"""Writes the fixed results files the report tests read (run_a.json,
truncated.json, schema_version_99.json).

The figures are invented but shaped like a real run: five engines, one of
them crashing mid-run (later phases skipped) and one unable to scan; a cold
and a hot query phase; a YCSB phase over a threads x target-rate matrix; three
repetitions with a few percent of spread. Deterministic: re-running it writes
the same bytes. Run it only to change the fixtures, then regenerate the golden
files (see reports/README.md).
"""
import hashlib
import json
import os
import random

HERE = os.path.dirname(os.path.abspath(__file__))
rng = random.Random(20261122)

ENGINES = [
    # name, version, ordered, in_memory, rss MiB, bytes per key on disk
    ("sqlite", "3.40.1", True, False, 38, 260),
    ("lmdb", "0.9.24", True, False, 22, 410),
    ("bdb-hash", "5.3.28", False, False, 30, 330),
    ("tc-btree", "1.4.48", True, False, 26, 190),
    ("stdmap", "libstdc++ 12", True, True, 64, 0),
]
KEYS = 10000
REPS = 3

# Unthrottled single-thread throughput (ops/s) per phase and engine.
RATE = {
    "load": {"sqlite": 182000, "lmdb": 421000, "bdb-hash": 263000, "tc-btree": 301000,
             "stdmap": 2140000},
    "get_cold": {"sqlite": 45100, "lmdb": 61800, "bdb-hash": 38400, "stdmap": 3050000},
    "get_hot": {"sqlite": 612000, "lmdb": 2480000, "bdb-hash": 905000, "stdmap": 4010000},
    "scan": {"sqlite": 21400, "lmdb": 88200, "stdmap": 61500},
    "ycsb_a": {"sqlite": 151000, "lmdb": 702000, "bdb-hash": 288000, "stdmap": 1650000},
}
# How throughput grows from 1 to 4 threads.
SCALING = {"sqlite": 1.3, "lmdb": 3.1, "bdb-hash": 1.8, "stdmap": 0.9}


def digest(*parts):
    return hashlib.sha256("/".join(map(str, parts)).encode()).hexdigest()[:16]


def jitter(x, pct=3.0):
    return x * (1 + rng.uniform(-pct, pct) / 100)


def latency(rate, threads, ops, throttled):
    # Mean service time from the engine's capacity; a throttled run queues less.
    mean = 1e9 * threads / rate
    if throttled:
        mean *= 0.6
    q = lambda f: int(round(jitter(mean * f, 4)))
    p50, p90, p95, p99, p999 = q(0.8), q(1.5), q(2.2), q(4.0), q(12.0)
    mx = q(55.0)
    return {
        "count": ops, "mean_ns": round(mean, 1), "min_ns": int(mean * 0.3),
        "p50_ns": p50, "p90_ns": p90, "p95_ns": p95, "p99_ns": p99, "p999_ns": p999,
        "max_ns": mx,
        "buckets": [[p50, ops // 2], [p90, ops * 2 // 5], [p99, ops * 9 // 100],
                    [mx, ops - ops // 2 - ops * 2 // 5 - ops * 9 // 100]],
    }


def work(found=0, not_found=0, rows=0, value_bytes=40, stream=""):
    return {"found": found, "not_found": not_found, "rows": rows,
            "bytes_returned": (found + rows) * value_bytes, "errors": 0,
            "stream_digest": stream}


def repetition(engine, phase, ops_mix, rate, threads, target, cache):
    name, _, _, in_memory, rss_mib, per_key = engine
    total = sum(n for _, n, _ in ops_mix)
    achieved = min(jitter(rate), jitter(target, 0.4)) if target else jitter(rate)
    seconds = total / achieved
    stream = digest(phase, threads, target, cache)
    all_work = work(stream=stream)
    op_list = []
    for op, n, kind in ops_mix:
        w = work(stream=stream)
        if kind == "get":
            w = work(found=n, stream=stream)
        elif kind == "scan":
            w = work(rows=n * 100, stream=stream)
        for k in ("found", "not_found", "rows", "bytes_returned"):
            all_work[k] += w[k]
        op_list.append({"op": op, "ops": n, "ops_per_sec": n / seconds,
                        "latency": latency(rate, threads, n, bool(target)), "work": w})
    ops = [{"op": "all", "ops": total, "ops_per_sec": achieved,
            "latency": latency(rate, threads, total, bool(target)), "work": all_work}]
    if len(op_list) > 1:
        ops += op_list
    file_bytes = 0 if in_memory else KEYS * per_key + 8192
    busy = total / rate * threads  # CPU-seconds the work takes; a throttled run idles the rest
    rep = {"seconds": round(seconds, 6), "ops": ops,
           "cpu_user_s": round(jitter(busy * 0.86), 4),
           "cpu_sys_s": round(jitter(busy * (0.04 if in_memory else 0.12)), 4),
           "peak_rss_bytes": int(jitter(rss_mib, 1) * 1048576) // 4096 * 4096,
           "file_bytes": file_bytes,
           "allocated_bytes": (file_bytes + 4095) // 4096 * 4096}
    if not in_memory:
        rep["bytes_written"] = file_bytes + 4096 if phase == "load" else 0
        if cache == "cold":
            rep["cache_resident_before_pct"] = round(rng.uniform(0, 0.4), 2)
            rep["cache_resident_after_pct"] = round(rng.uniform(60, 80), 2)
            rep["open_seconds"] = round(jitter(0.0021), 6)
        elif cache == "hot":
            rep["cache_resident_before_pct"] = 100.0
            rep["cache_resident_after_pct"] = 100.0
    return rep


PHASES = [
    # name, op, params, mix, matrix [(threads, target)], cache
    ("load", "insert", {"batch": "1024", "count": str(KEYS), "order": "random"},
     [("insert", KEYS, "put")], [(1, 0)], ""),
    ("get_cold", "get", {"count": "4096", "keys": "present", "distribution": "uniform"},
     [("get", 4096, "get")], [(1, 0)], "cold"),
    ("get_hot", "get", {"count": "4096", "keys": "present", "distribution": "uniform"},
     [("get", 4096, "get")], [(1, 0)], "hot"),
    ("scan", "scan", {"count": "1000", "limit": "100", "direction": "forward"},
     [("scan", 1000, "scan")], [(1, 0)], ""),
    ("ycsb_a", "ycsb", {"workload": "a", "count": "20000", "read_proportion": "0.5",
                        "update_proportion": "0.5", "distribution": "zipfian"},
     [("READ", 10000, "get"), ("UPDATE", 10000, "put")],
     [(1, 2000), (1, 0), (4, 2000), (4, 0)], ""),
]


def build():
    runs = []
    for phase, op, params, mix, matrix, cache in PHASES:
        for threads, target in matrix:
            for engine in ENGINES:
                name = engine[0]
                run = {"phase": phase, "op": op, "engine": name, "threads": threads,
                       "target_ops": float(target), "cache": cache, "params": params,
                       "status": "ok", "reason": "", "repetitions": []}
                if name == "tc-btree" and phase == "get_cold":
                    run["status"] = "failed"
                    run["reason"] = "killed by signal 11 (SIGSEGV) after 1873 operations"
                elif name == "tc-btree" and phase not in ("load",):
                    run["status"] = "skipped"
                    run["reason"] = "engine failed in phase get_cold"
                elif name == "bdb-hash" and phase == "scan":
                    run["status"] = "unsupported"
                    run["reason"] = "bdb-hash is not ordered: scan needs an ordered engine"
                else:
                    rate = RATE[phase][name]
                    if threads > 1:
                        rate *= SCALING[name]
                    run["repetitions"] = [
                        repetition(engine, phase, mix, rate, threads, target, cache)
                        for _ in range(REPS)]
                runs.append(run)
    engines = []
    for name, version, ordered, in_memory, _, _ in ENGINES:
        e = {"name": name, "library_version": version,
             "options": {"sqlite": {"sqlite.journal_mode": "WAL", "sqlite.synchronous": "OFF",
                                    "sqlite.cache_size": "-262144"},
                         "lmdb": {"lmdb.mapsize": "1073741824", "lmdb.nosync": "true"},
                         "bdb-hash": {"bdb.cachesize": "67108864", "bdb.pagesize": "4096"},
                         "tc-btree": {"tc.lmemb": "128", "tc.nmemb": "256"},
                         "stdmap": {}}[name],
             "capabilities": {"ordered": ordered, "transactional": name != "stdmap",
                              "durable": not in_memory, "concurrent_readers": name == "lmdb",
                              "concurrent_writers": False, "native_records": name == "sqlite"},
             "status": "ok", "reason": "", "wall_seconds": round(rng.uniform(1, 4), 3)}
        if name == "tc-btree":
            e["status"] = "failed"
            e["reason"] = "killed by signal 11 (SIGSEGV) in phase get_cold"
        engines.append(e)
    source = open(os.path.join(HERE, "golden_workload.toml")).read()
    return {
        "schema": "kvbench-results", "schema_version": 1,
        "started_at": "2026-11-22T09:14:03Z", "finished_at": "2026-11-22T09:15:41Z",
        "command_line": "kvbench run workloads/golden.toml --scale 0.01",
        "environment": {
            "hostname": "bench-01", "cpu_model": "AMD EPYC 7B13 64-Core Processor", "cores": 2,
            "memory_bytes": 8331210752, "kernel": "Linux 6.1.0-27-amd64 x86_64",
            "filesystem": "ext4", "data_directory": "/tmp/kvbench-data",
            "compiler": "GCC 12.2.0", "cxx_flags": "-O3 -DNDEBUG", "build_type": "Release",
            "kvbench_version": "0.1.0", "kvbench_revision": "64f926f",
            "libraries": {n: v for n, v, *_ in ENGINES}},
        "workload": {"name": "golden", "description":
                     "Long URL keys: load, cold and hot point queries, scans, YCSB A <mixed>.",
                     "file": "workloads/golden.toml", "source": source, "scale": 0.01,
                     "dataset": {"kind": "url", "count": str(KEYS), "seed": "42",
                                 "value_size": "40"}},
        "engines": engines, "runs": runs,
    }


def main():
    doc = build()
    text = json.dumps(doc, indent=1) + "\n"
    with open(os.path.join(HERE, "run_a.json"), "w") as f:
        f.write(text)
    with open(os.path.join(HERE, "truncated.json"), "w") as f:
        f.write(text[: len(text) // 3])
    doc["schema_version"] = 99
    doc["runs"] = doc["runs"][:1]
    with open(os.path.join(HERE, "schema_version_99.json"), "w") as f:
        f.write(json.dumps(doc, indent=1) + "\n")


if __name__ == "__main__":
    main()
