"""Checks that merged shards hold exactly the rows of an unsharded run of the
same plan, with the same work: per row (engine, phase, threads, target, cache)
the status and, repetition by repetition and operation type by operation type,
the operation count, the found / not found / scanned-row / byte / error counts
and the stream digest. Timings differ and are not compared.

Usage: compare_shard_rows.py UNSHARDED/results.json MERGED/results.json SHARDS
Exit 0 when they agree, 1 (with every difference printed) when not."""
import json
import sys


def rows(path):
    doc = json.load(open(path))
    out = {}
    for r in doc["runs"]:
        key = (r["engine"], r["phase"], r["threads"], r["target_ops"], r["cache"])
        work = [[(o["op"], o["ops"], o["work"]) for o in rep["ops"]] for rep in r["repetitions"]]
        if key in out:
            raise SystemExit(f"{path}: row {key} appears twice")
        out[key] = (r["status"], work, r.get("shard"))
    return doc, out


def main():
    unsharded_path, merged_path, shard_count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    _, unsharded = rows(unsharded_path)
    merged_doc, merged = rows(merged_path)
    problems = []
    shards = merged_doc.get("shards", [])
    if [s["index"] for s in shards] != list(range(shard_count)):
        problems.append(f"merged shards are {[s['index'] for s in shards]}, not 0..{shard_count - 1}")
    for s in shards:
        if "environment" not in s or not s.get("finished"):
            problems.append(f"shard {s['index']}: no environment or not finished")
    for key in sorted(set(unsharded) | set(merged), key=str):
        a, b = unsharded.get(key), merged.get(key)
        if a is None or b is None:
            problems.append(f"{key}: only in {'merged' if a is None else 'unsharded'}")
            continue
        if b[2] is None:
            problems.append(f"{key}: merged row has no shard")
        if a[0] != b[0]:
            problems.append(f"{key}: status {a[0]} unsharded, {b[0]} merged")
        if a[1] != b[1]:
            problems.append(f"{key}: work differs:\n  unsharded {a[1]}\n  merged    {b[1]}")
    used = sorted({v[2] for v in merged.values() if v[2] is not None})
    for p in problems:
        print(p)
    print(f"{len(unsharded)} unsharded rows, {len(merged)} merged rows from shards {used}: "
          f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
