"""YCSB's text output read as YCSB writes it, and checked figure by figure
against the results.json the same run wrote.

YCSB 0.17's TextMeasurementsExporter writes one measurement a line,
"[" + metric + "], " + measurement + ", " + value, with longs as Java prints
longs and doubles as Java's Double.toString ("2000.0", "1.0E7"); parsers of
YCSB's output split lines that way. parse() does the same and refuses any
other line, so an extra or malformed line fails the tests.
"""
import base64
import math
import re

LINE = re.compile(r"^\[(?P<metric>[^\]]+)\], (?P<measurement>[^,]+), (?P<value>.+)$")
JAVA_LONG = re.compile(r"^-?\d+$")
JAVA_DOUBLE = re.compile(r"^-?\d+\.\d+(E-?\d+)?$|^NaN$|^-?Infinity$")

# Measurements YCSB writes as doubles; every other one is a long.
DOUBLES = {"Throughput(ops/sec)", "AverageLatency(us)"}


def parse(text, allow=None):
    """Returns [(metric, measurement, value)] in order; `allow` (a regex)
    names other lines to skip (YCSB-cpp's summary lines)."""
    out = []
    for n, line in enumerate(text.splitlines(), 1):
        m = LINE.match(line)
        if not m:
            if allow and re.match(allow, line):
                continue
            raise AssertionError(f"line {n} is not YCSB's grammar: {line!r}")
        metric, measurement, value = m.group("metric", "measurement", "value")
        timeseries = re.fullmatch(r"\d+", measurement) is not None
        want = JAVA_DOUBLE if measurement in DOUBLES or timeseries else JAVA_LONG
        if not want.match(value):
            raise AssertionError(f"line {n}: {value!r} is not how Java prints a "
                                 f"{'double' if want is JAVA_DOUBLE else 'long'}")
        out.append((metric, measurement, float(value) if want is JAVA_DOUBLE else int(value)))
    return out


def us(ns):
    """ns -> whole µs, rounded to the nearest, as kvbench prints them."""
    return (ns + 500) // 1000


def ordinal(p):
    if p != int(p):
        return repr(p)
    n = int(p)
    if n % 100 in (11, 12, 13):
        return f"{n}th"
    return f"{n}" + ["th", "st", "nd", "rd", "th", "th", "th", "th", "th", "th"][n % 10]


def buckets(field):
    """[(upper_ns, count)] from results.json's packed form ("v1:" + base64 of
    LEB128 varints: each bound's step from the previous, then the count) or
    the older list of pairs."""
    if not isinstance(field, str):
        return field
    data = base64.b64decode(field[3:])
    values, v, shift = [], 0, 0
    for byte in data:
        v |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(v)
            v, shift = 0, 0
    out, upper = [], 0
    for step, count in zip(values[0::2], values[1::2]):
        upper += step
        out.append((upper, count))
    return out


def percentile(lat, p):
    stored = {50: "p50_ns", 90: "p90_ns", 95: "p95_ns", 99: "p99_ns", 99.9: "p999_ns"}
    if p in stored:
        return lat[stored[p]]
    rank = max(1, math.ceil(p / 100 * lat["count"]))
    seen = 0
    for upper, count in buckets(lat["buckets"]):
        seen += count
        if seen >= rank:
            return min(max(upper, lat["min_ns"]), lat["max_ns"])
    return lat["max_ns"]


def expected_lines(rep, percentiles=(50, 95, 99), timeseries=False):
    """Every line YCSB's output of this repetition must have, from results.json."""
    # YCSB's RunTime is the client's wall time: the repetition's wall span,
    # its "seconds" (schema 4 wrote the wall span as "wall_seconds" and the
    # time inside the engine's calls as "seconds").
    wall = rep.get("wall_seconds", rep["seconds"])
    lines = [("OVERALL", "RunTime(ms)", round(wall * 1000)),
             ("OVERALL", "Throughput(ops/sec)", rep["ops"][0]["ops"] / wall)]

    def latencies(name, lat):
        lines.append((name, "Operations", lat["count"]))
        lines.append((name, "AverageLatency(us)", lat["mean_ns"] / 1000))
        lines.append((name, "MinLatency(us)", us(lat["min_ns"])))
        lines.append((name, "MaxLatency(us)", us(lat["max_ns"])))
        for p in percentiles:
            lines.append((name, f"{ordinal(p)}PercentileLatency(us)", us(percentile(lat, p))))

    series = {o["op"]: o for o in rep.get("time_series", {}).get("ops", [])}
    for op in rep["ops"][1:]:
        if op["op"] == "commit":
            continue
        name = op["op"].upper()
        latencies(name, op["latency"])
        w = op["work"]
        lines.append((name, "Return=OK", op["ops"] - w["not_found"] - w["errors"]))
        if w["not_found"]:
            lines.append((name, "Return=NOT_FOUND", w["not_found"]))
        if w["errors"]:
            lines.append((name, "Return=ERROR", w["errors"]))
        if timeseries:
            s = series[op["op"]]
            width = rep["time_series"]["interval_s"]
            for i, n in enumerate(s["count"]):
                if n:
                    lines.append((name, str(math.floor(i * width * 1000)), s["mean_ns"][i] / 1000))
    if "session_cleanup" in rep:
        latencies("CLEANUP", rep["session_cleanup"])
        lines.append(("CLEANUP", "Return=OK", rep["session_cleanup"]["count"]))
    return lines


def check(parsed, rep, **options):
    """Every parsed line equals the one from results.json, and none is missing
    or extra. Doubles agree to the last bit Java's shortest form keeps."""
    want = expected_lines(rep, **options)
    assert len(parsed) == len(want), f"{len(parsed)} lines, expected {len(want)}:\n{parsed}\n{want}"
    for got, exp in zip(parsed, want):
        assert got[:2] == exp[:2], f"{got} where {exp} was expected"
        if isinstance(exp[2], float):
            assert math.isclose(got[2], exp[2], rel_tol=1e-15, abs_tol=0), f"{got} != {exp}"
        else:
            assert got[2] == exp[2], f"{got} != {exp}"
