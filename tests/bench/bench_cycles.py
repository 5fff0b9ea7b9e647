"""gvflab-bench multigrid's schedules side by side (--mg-cycle as a list) on --phantom and --snr
inputs: one JSON line per schedule, auto resolved by dims, each at Euler's error or below, and
bad values refused with a sentence naming the flag.

Usage: bench_cycles.py BENCH
"""
import json
import subprocess
import sys

BENCH = sys.argv[1]


def run(*args):
    return subprocess.run([BENCH, "multigrid", *map(str, args)], capture_output=True, text=True,
                          timeout=600)


def lines(*args):
    done = run(*args, "--json", "--repeats", 1)
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


# 3D: a noisy cup, every schedule and auto (two-grid in 3D).
rows = lines("--phantom", "cup", "--snr", 8, "--size", 24, "--depth", 24, "--iterations", 48,
             "--mg-cycle", "fmg,vcycles,twogrid,auto")
assert [r["cycle"] for r in rows] == ["fmg", "vcycles", "twogrid", "twogrid"], rows
for r in rows:
    assert r["phantom"] == "cup" and r["snr"] == 8 and r["size"] == "24x24x24", r
    assert r["mg_error"] <= r["euler_error"] and r["mg_iterations"] >= 1, r
# Another schedule, another field: the same input, the same Euler error, not all one error.
assert len({r["euler_error"] for r in rows}) == 1
assert len({r["mg_error"] for r in rows[:3]}) > 1, rows

# 2D: the U, auto is the paper's full multigrid; numbers name the choices too (3: twogrid).
rows = lines("--phantom", "u", "--size", 32, "--iterations", 32, "--mg-cycle", "auto,3")
assert [r["cycle"] for r in rows] == ["fmg", "twogrid"], rows
assert rows[0]["snr"] is None

for bad, words in [(["--mg-cycle", "wcycle"], "cycle is one of auto, fmg, vcycles, twogrid"),
                   (["--phantom", "cup", "--size", 24, "--depth", 12], "--depth 24"),
                   (["--phantom", "teapot", "--size", 24], "teapot"),
                   (["--snr", 0], "--snr")]:
    done = run(*bad, "--iterations", 8)
    assert done.returncode != 0 and words in done.stderr, (bad, done.stderr)
print("bench cycles: ok")
