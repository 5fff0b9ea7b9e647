#!/usr/bin/env python3
"""Issue 41's Dask figure: `python3 -m gvflab.batch` over COUNT seeded volumes, first with one
worker pinned to the first device, then with one worker per device (the GPUs, or every device
where there is none), the same inputs and flags; each run's throughput, their ratio, and
whether both runs wrote the same outputs. Run by scripts/gpu-dask-run.sh (on the GPU machine,
and here on two PoCL devices); needs gvflab.batch and distributed on PYTHONPATH, GVFLAB_EXE,
and no numpy (the inputs are made with bytes alone, so it runs under any Python from 3.9).

Usage: dask_throughput.py OUT.json WORK
  COUNT (default 16) volumes of SIZE^3 voxels (default 384), Euler for ITERATIONS (default
  2000), one sphere surface each (--save-surfaces, --report). WORK holds the inputs and outputs.
Each input is a noisy ellipsoid (uint8 NRRD) whose radii and centre come from its seed.
"""
import json
import multiprocessing
import os
import random
import shutil
import subprocess
import sys
import time

from gvflab.batch import STATE_FOLDER, find_gvflab, pinned_devices

COUNT = int(os.environ.get("COUNT", "16"))
SIZE = int(os.environ.get("SIZE", "384"))
ITERATIONS = int(os.environ.get("ITERATIONS", "2000"))
FLAGS = ["--solver", "euler", "--iterations", str(ITERATIONS),
         "--surface", f"sphere:{SIZE / 2},{SIZE / 2},{SIZE / 2},{SIZE / 8}",
         "--save-surfaces", "s.ply", "--report", "r.json"]
OUTSIDE, INSIDE, NOISE = 30, 170, 48  # grey levels: background, object, noise amplitude


def write_volume(path, seed):
    """A noisy ellipsoid: bytes summed as big integers (no sum reaches 256, so no carries)."""
    rnd = random.Random(seed)
    n = SIZE
    centre = [n / 2 + rnd.uniform(-0.05, 0.05) * n for _ in range(3)]
    radii = [rnd.uniform(0.25, 0.4) * n for _ in range(3)]
    noise_of = bytes(b * NOISE // 256 for b in range(256))
    with open(path, "wb") as f:
        f.write(f"NRRD0004\ntype: uint8\ndimension: 3\nsizes: {n} {n} {n}\n"
                "encoding: raw\n\n".encode())
        for z in range(n):
            rows = []
            for y in range(n):
                rest = 1 - ((z + 0.5 - centre[2]) / radii[2]) ** 2 - (
                    (y + 0.5 - centre[1]) / radii[1]) ** 2
                lo = hi = 0
                if rest > 0:
                    half = radii[0] * rest ** 0.5
                    lo = min(n, max(0, round(centre[0] - half)))
                    hi = min(n, max(lo, round(centre[0] + half)))
                rows.append(bytes([OUTSIDE]) * lo + bytes([INSIDE]) * (hi - lo) +
                            bytes([OUTSIDE]) * (n - hi))
            plane = b"".join(rows)
            noise = rnd.randbytes(n * n).translate(noise_of)
            total = int.from_bytes(plane, "little") + int.from_bytes(noise, "little")
            f.write(total.to_bytes(n * n, "little"))


def make_input(folder, seed):
    path = os.path.join(folder, f"vol{seed:03d}-{SIZE}.nrrd")  # a rerun at another SIZE remakes
    if not os.path.exists(path):
        write_volume(path + ".tmp", seed)
        os.replace(path + ".tmp", path)
    return path


def make_inputs(folder):
    os.makedirs(folder, exist_ok=True)
    with multiprocessing.Pool() as pool:  # a few seconds a 384^3 volume in Python: in parallel
        return pool.starmap(make_input, [(folder, seed) for seed in range(COUNT)])


def warm_up(exe, devices, volume, folder):
    """One run on each device first (NVIDIA keeps the built kernels in its cache): its seconds."""
    seconds = {}
    for device in devices:
        out = os.path.join(folder, "warm-" + device)
        shutil.rmtree(out, ignore_errors=True)
        os.makedirs(out)
        start = time.monotonic()
        done = subprocess.run([exe, "--headless", "--quiet", volume, *FLAGS, "--device", device],
                              cwd=out, capture_output=True, text=True)
        seconds[device] = round(time.monotonic() - start, 3)
        if done.returncode != 0:
            sys.exit(f"warm-up on {device} failed: {done.stderr.strip()}")
    return seconds


def run_batch(inputs, out, workers):
    """The whole command's wall time (cluster start included), and the devices that ran."""
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    extra = ["--workers", str(workers)] if workers else []
    start = time.monotonic()
    done = subprocess.run([sys.executable, "-m", "gvflab.batch", *inputs, "--output-dir", out,
                           *extra, *FLAGS], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if done.returncode != 0:
        sys.exit(f"gvflab.batch failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
    records = os.path.join(out, STATE_FOLDER, "done")
    used = {}
    for name in os.listdir(records):
        with open(os.path.join(records, name)) as f:
            device = json.load(f)["device"]
        used[device] = used.get(device, 0) + 1
    return {"seconds": round(seconds, 3), "inputs_per_s": round(len(inputs) / seconds, 4),
            "inputs_by_device": used, "summary": done.stdout.strip().splitlines()[-1]}


def without_times(value):
    """A report less its wall and OpenCL milliseconds, which differ from run to run."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if not k.endswith("_ms")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def differences(a, b):
    """Output names in one folder only, or whose contents differ (reports: less their times,
    with each run's folder as DIR)."""
    names_a = sorted(n for n in os.listdir(a) if not n.startswith("."))
    names_b = sorted(n for n in os.listdir(b) if not n.startswith("."))
    found = [f"only in one run: {n}" for n in sorted(set(names_a) ^ set(names_b))]
    for name in sorted(set(names_a) & set(names_b)):
        with open(os.path.join(a, name), "rb") as fa, open(os.path.join(b, name), "rb") as fb:
            da, db = fa.read(), fb.read()
        if name.endswith(".json"):  # the files a report names are in its own run's folder
            da, db = (without_times(json.loads(d.decode().replace(json.dumps(f)[1:-1], "DIR")))
                      for d, f in ((da, a), (db, b)))
        if da != db:
            found.append(f"differs: {name}")
    return names_a, found


def save(path, result):
    """The result so far: a run stopped at its time limit still leaves what it measured."""
    with open(path + ".tmp", "w") as f:
        json.dump(result, f, indent=1)
    os.replace(path + ".tmp", path)


def main():
    out_json, work = sys.argv[1], sys.argv[2]
    exe = find_gvflab()
    devices = pinned_devices(exe)
    if len(devices) < 2:
        sys.exit(f"one worker per device needs two devices; gvflab lists {devices}.")
    start = time.monotonic()
    inputs = make_inputs(os.path.join(work, "inputs"))
    result = {"inputs": COUNT, "size": SIZE, "iterations": ITERATIONS, "flags": FLAGS,
              "input_bytes": os.path.getsize(inputs[0]),
              "inputs_made_s": round(time.monotonic() - start, 1), "devices": devices}
    print(f"{COUNT} volumes {SIZE}^3 made in {result['inputs_made_s']} s; Euler {ITERATIONS} "
          f"iterations + a surface each; warming up {devices}", flush=True)
    result["one_run_s_by_device"] = warm_up(exe, devices, inputs[0], work)
    save(out_json, result)
    print(f"one run, by device: {result['one_run_s_by_device']} s", flush=True)
    runs = (("one_worker", "out-one", 1), ("worker_per_device", "out-every", None))
    for key, folder, workers in runs:
        r = result[key] = run_batch(inputs, os.path.join(work, folder), workers)
        save(out_json, result)
        print(f"{len(r['inputs_by_device'])} device(s): {r['seconds']} s, {r['inputs_per_s']} "
              f"inputs/s, inputs by device {r['inputs_by_device']}", flush=True)
    names, found = differences(os.path.join(work, "out-one"), os.path.join(work, "out-every"))
    result.update(speedup=round(result["worker_per_device"]["inputs_per_s"] /
                                result["one_worker"]["inputs_per_s"], 3),
                  outputs=len(names), outputs_same=not found, output_differences=found[:20])
    save(out_json, result)
    print(f"speed-up {result['speedup']}; {len(names)} outputs each, "
          f"{'the same' if not found else 'DIFFERENT: ' + ', '.join(found[:5])}")
    return 0 if not found else 1


if __name__ == "__main__":
    sys.exit(main())
