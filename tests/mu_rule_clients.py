#!/usr/bin/env python3
"""One mu rule (issue 27): every client of the engine gives the same verdict on the same mu.

The same mu values go, for each solver and in 2D and 3D, through the headless CLI
(`gvflab --headless ... --mu`), the Python module (`gvflab.gvf(..., mu=)`), a session file
(`gvflab --headless --session`), the viewer's model (Session::setMu, test_viewer's
"mu verdicts" case) and `gvflab-bench`. A verdict is "ok" (the solver runs that mu as asked)
or "refused" (an error, or the viewer's clamp to the bound). All clients must agree, and a
refusal must be a sentence naming mu. The inputs are the same everywhere: the 64x64 blob
phantom (the bench's euler2d input) and one small volume; in 3D the bench makes its own blob
volume, which is why the 3D values are ones whose verdict holds on any input (Euler's 3D bound,
(2 - max|V0|^2) / 12 with |V0|^2 <= 3/4, lies in [0.104, 1/6]).

Usage: mu_rule_clients.py --gvflab EXE --bench EXE --viewer-test EXE --work DIR
(PYTHONPATH must reach the gvflab module).
"""
import argparse
import json
import math
import os
import shutil
import subprocess
import sys

import numpy as np

import gvflab

VALUES = ["0", "0.1", "0.2", "0.25", "0.3", "0.5", "-1", "nan"]
SOLVERS = ["euler", "multigrid"]
ITERATIONS = "2"
# Verdicts that hold on any input (the rest, Euler's 0.2 in 2D, depend on max|V0|^2 and are
# only compared between clients).
EXPECTED = {
    (2, "euler"): {"0": "ok", "0.1": "ok", "0.25": "refused", "0.3": "refused",
                   "0.5": "refused", "-1": "refused", "nan": "refused"},
    (3, "euler"): {"0": "ok", "0.1": "ok", "0.2": "refused", "0.25": "refused",
                   "0.3": "refused", "0.5": "refused", "-1": "refused", "nan": "refused"},
    (2, "multigrid"): {"0": "refused", "0.1": "ok", "0.2": "ok", "0.25": "ok", "0.3": "ok",
                       "0.5": "ok", "-1": "refused", "nan": "refused"},
}
EXPECTED[(3, "multigrid")] = EXPECTED[(2, "multigrid")]


def run(cmd, **kw):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, timeout=300, **kw)
    return p.returncode, (p.stderr.strip() or p.stdout.strip()).splitlines()


def verdict(rc, lines):
    return ("ok", "") if rc == 0 else ("refused", lines[-1] if lines else "(no message)")


def blob_volume():
    """A small volume (a bright box), the 3D input of every client but the bench."""
    v = np.zeros((12, 14, 16), np.float32)
    v[3:9, 4:10, 5:12] = 1
    return v


def write_mha(path, volume):
    d, h, w = volume.shape
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              f"DimSize = {w} {h} {d}\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n")
    with open(path, "wb") as f:
        f.write(header.encode() + volume.astype("<f4").tobytes())


CLI_SEEN = {}


def cli(args, dims, solver, mu, volume_path):
    key = (dims, solver, mu)
    if key not in CLI_SEEN:
        CLI_SEEN[key] = cli_run(args, dims, solver, mu, volume_path)
    return CLI_SEEN[key]


def cli_run(args, dims, solver, mu, volume_path):
    source = [volume_path] if dims == 3 else ["--phantom", "blob", "--phantom-size", "64"]
    return verdict(*run([args.gvflab, "--headless", *source, "--solver", solver, "--mu", mu,
                         "--iterations", ITERATIONS, "--quiet"]))


def python(dims, solver, mu, volume):
    data = volume if dims == 3 else gvflab.phantom("blob", 64)
    try:
        gvflab.gvf(data, solver=solver, mu=float(mu), iterations=int(ITERATIONS))
        return "ok", ""
    except gvflab.Error as e:
        return "refused", str(e)


def session_file(args, dims, solver, mu, volume_path):
    if mu == "nan":
        return None  # JSON holds no NaN: not a value a session file can carry
    session = {"gvflab_session": 1, "solver": {"name": "euler", "mu": float(mu)}}
    if dims == 3:
        session["image"] = os.path.abspath(volume_path)
    else:
        session.update({"phantom": "blob", "phantom_size": 64})
    path = os.path.join(args.work, f"s{dims}_{solver}_{mu}.json")
    with open(path, "w") as f:
        json.dump(session, f)
    return verdict(*run([args.gvflab, "--headless", "--session", path, "--solver", solver,
                         "--iterations", ITERATIONS, "--quiet"]))


def bench(args, dims, solver, mu):
    # The bench has no multigrid-only case: `multigrid` runs Euler, then multigrid, on one mu,
    # so its verdict is both solvers'; `euler2d` / `euler3d` is Euler's alone.
    if solver == "euler":
        case = ["euler2d" if dims == 2 else "euler3d", "--size", "64" if dims == 2 else "16"]
    else:
        case = ["multigrid", "--size", "64" if dims == 2 else "16", "--sigma", "1"]
        if dims == 3:
            case += ["--depth", "16"]
    return verdict(*run([args.bench, *case, "--iterations", ITERATIONS, "--repeats", "1",
                         "--mu", mu]))


def viewer(args, dims, volume_path):
    env = dict(os.environ, GVFLAB_MU_CASES=";".join(f"{s} {v}" for s in SOLVERS for v in VALUES))
    if dims == 3:
        env["GVFLAB_MU_VOLUME"] = os.path.abspath(volume_path)
    p = subprocess.run([args.viewer_test, "-tc=mu verdicts of the viewer*"], env=env,
                       capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        sys.exit(f"the viewer's mu case failed:\n{p.stdout}\n{p.stderr}")
    out = {}
    for line in p.stdout.splitlines():
        if line.startswith("MU "):
            _, solver, mu, v, *why = line.split(" ")
            out[(solver, mu)] = (v, " ".join(why))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--gvflab", required=True)
    ap.add_argument("--bench", required=True)
    ap.add_argument("--viewer-test", required=True)
    ap.add_argument("--work", required=True)
    args = ap.parse_args()
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    volume = blob_volume()
    volume_path = os.path.join(args.work, "blob.mha")
    write_mha(volume_path, volume)

    failures = []
    for dims in (2, 3):
        from_viewer = viewer(args, dims, volume_path)
        for solver in SOLVERS:
            for mu in VALUES:
                verdicts = {
                    "cli": cli(args, dims, solver, mu, volume_path),
                    "python": python(dims, solver, mu, volume),
                    "session": session_file(args, dims, solver, mu, volume_path),
                    "viewer": from_viewer.get((solver, mu), ("missing", "")),
                }
                b = bench(args, dims, solver, mu)
                # The bench's multigrid case runs both solvers: ok only where both are.
                if solver == "multigrid":
                    both = verdicts["cli"][0] == "ok" and cli(args, dims, "euler", mu,
                                                              volume_path)[0] == "ok"
                    verdicts["bench"] = b
                    expect_bench = "ok" if both else "refused"
                    if b[0] != expect_bench:
                        failures.append(f"{dims}D {solver} mu={mu}: bench (Euler then multigrid) "
                                        f"says {b[0]}, the CLI's two verdicts {expect_bench}")
                else:
                    verdicts["bench"] = b
                got = {k: v for k, v in verdicts.items() if v is not None}
                kinds = {k: v[0] for k, v in got.items()
                         if not (solver == "multigrid" and k == "bench")}
                expected = EXPECTED[(dims, solver)].get(mu)
                line = f"{dims}D {solver:9} mu={mu:5}: " + ", ".join(
                    f"{k} {v}" for k, v in kinds.items())
                if solver == "multigrid":
                    line += f" (bench, Euler then multigrid: {b[0]})"
                print(line)
                if len(set(kinds.values())) != 1:
                    failures.append(line + "  <- the clients disagree: " + " | ".join(
                        f"{k}: {v[1]}" for k, v in got.items() if v[1]))
                elif expected and kinds["cli"] != expected:
                    failures.append(f"{line}  <- expected {expected}")
                for k, (v, why) in got.items():
                    if v == "refused" and "mu" not in why:
                        failures.append(f"{dims}D {solver} mu={mu}: {k}'s refusal does not name "
                                        f"mu: {why!r}")
    if failures:
        print("\nFAILED:\n" + "\n".join(failures))
        return 1
    print("all clients agree")
    return 0


if __name__ == "__main__":
    sys.exit(main())
