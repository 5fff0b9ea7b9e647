"""python3 -m gvflab.batch (issue 41): many inputs over a Dask cluster of two local workers.

CTest runs these with PYTHONPATH=<build>/python and GVFLAB_EXE=<build>/app/gvflab; by hand:
PYTHONPATH=build/python GVFLAB_EXE=build/app/gvflab /usr/bin/python3 -m pytest tests/dask
"""
import json
import os
import signal
import stat
import subprocess
import sys
import time

import numpy as np
import pytest

FLAGS = ["--iterations", "5", "--save-magnitude", "mag.png", "--report", "r.json",
         "--save-field", "{stem}.mha"]
PNG = b"\x89PNG\r\n\x1a\n"


@pytest.fixture(scope="module")
def gvflab_exe():
    exe = os.environ.get("GVFLAB_EXE")
    if not exe:
        pytest.skip("GVFLAB_EXE is not set (the CLI is built only with GVFLAB_BUILD_APP)")
    return exe


def square_pgm(path, size=16, lo=20, hi=200, inset=5):
    img = np.full((size, size), lo, dtype=int)
    img[inset:size - inset, inset:size - inset] = hi
    rows = "\n".join(" ".join(map(str, r)) for r in img)
    path.write_text(f"P2\n{size} {size}\n255\n{rows}\n")


def inputs(folder, bad=True):
    folder.mkdir()
    square_pgm(folder / "a.pgm")
    square_pgm(folder / "c.pgm", inset=4)
    if bad:
        (folder / "b.pgm").write_text("P2\n16 16\n255\n1 2 3\n")  # truncated
    return folder


def run_batch(args, env=None, timeout=600):
    return subprocess.run([sys.executable, "-m", "gvflab.batch", *map(str, args)],
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})})


def read_field(path):
    raw = path.read_bytes()
    end = raw.index(b"ElementDataFile = LOCAL\n") + len(b"ElementDataFile = LOCAL\n")
    return np.frombuffer(raw[end:], dtype="<f4")


def visible(folder):
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("."))


def test_two_workers_write_what_gvflab_batch_writes(tmp_path, gvflab_exe):
    src = inputs(tmp_path / "in")
    ref, out = tmp_path / "ref", tmp_path / "out"
    ref.mkdir()
    out.mkdir()
    want = subprocess.run([gvflab_exe, "--headless", "--quiet", "--batch", str(src / "*.pgm"),
                           "--output-dir", str(ref), *FLAGS], capture_output=True, text=True,
                          timeout=600)
    assert want.returncode == 1, want.stderr
    done = run_batch([src / "*.pgm", "--output-dir", out, "--workers", 2, *FLAGS])
    assert done.returncode == 1, done.stderr
    # The same names as gvflab's own batch, the same fields; the bad input leaves nothing.
    assert visible(out) == visible(ref) == ["a-mag.png", "a-r.json", "a.mha", "c-mag.png",
                                            "c-r.json", "c.mha"]
    for name in ("a.mha", "c.mha"):
        np.testing.assert_allclose(read_field(out / name), read_field(ref / name), atol=1e-6)
    # The summary names the failed input with gvflab's own reason; a run's lines are prefixed.
    lines = done.stdout.splitlines()
    assert lines[-2] == "batch: 2 of 3 inputs done, 1 failed:"
    head = f"  {src / 'b.pgm'}: "
    assert lines[-1].startswith(head) and "b.pgm" in lines[-1][len(head):]
    assert any(ln.startswith(f"{src / 'a.pgm'}: ") and "5 iterations on 16x16" in ln
               for ln in lines)
    assert not (out / ".gvflab-batch" / "stage").exists() or \
        not any((out / ".gvflab-batch" / "stage").iterdir())
    # Resumed: the inputs whose outputs exist are skipped, left untouched; the bad one is tried.
    before = {n: (out / n).stat().st_mtime_ns for n in visible(out)}
    again = run_batch([src / "*.pgm", "--output-dir", out, "--workers", 2, *FLAGS])
    assert again.returncode == 1, again.stderr
    assert "batch: 0 of 1 inputs done, 2 skipped (their outputs exist), 1 failed:" in again.stdout
    assert {n: (out / n).stat().st_mtime_ns for n in visible(out)} == before
    # Other flags are other work: nothing is skipped.
    other = run_batch([src / "a.pgm", "--output-dir", out, "--workers", 1, *FLAGS[2:],
                       "--iterations", "6"])
    assert other.returncode == 0, other.stderr
    assert "batch: 1 of 1 inputs done\n" in other.stdout


def test_a_report_names_its_surfaces_in_the_output_folder(tmp_path, gvflab_exe):
    src, out = tmp_path / "in", tmp_path / "out"
    src.mkdir()
    out.mkdir()
    n = 16
    z, y, x = np.mgrid[:n, :n, :n]
    ball = np.where((x - 8) ** 2 + (y - 8) ** 2 + (z - 8) ** 2 <= 25, 200, 20).astype(np.uint8)
    header = f"NRRD0004\ntype: uint8\ndimension: 3\nsizes: {n} {n} {n}\nencoding: raw\n\n"
    (src / "v.nrrd").write_bytes(header.encode() + ball.tobytes())
    done = run_batch([src / "v.nrrd", "--output-dir", out, "--workers", 1, "--iterations", "5",
                      "--surface", "sphere:8,8,8,3", "--snake-iterations", "20",
                      "--save-surfaces", "s.ply", "--report", "r.json"])
    assert done.returncode == 0, done.stderr
    # The surface's file as the report gives it is the one in DIR, not the task's staging copy.
    report = json.loads((out / "v-r.json").read_text())
    assert report["surfaces"][0]["file"] == str(out / "v-s-1.ply")
    assert (out / "v-s-1.ply").is_file()


WRAPPER = """#!{python}
# The first run of a.pgm writes half an output, says which worker runs it, and waits to be
# killed with that worker; every other call is the real gvflab.
import os, sys, time
real, markers = os.environ["REAL_GVFLAB"], os.environ["KILL_MARKERS"]
args = sys.argv[1:]
if "--batch" in args and os.path.basename(args[args.index("--batch") + 1]) == "a.pgm":
    try:
        fd = os.open(os.path.join(markers, "started"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        os.execv(real, [real] + args)
    os.close(fd)
    stage = args[args.index("--output-dir") + 1]
    with open(os.path.join(stage, "a-mag.png"), "wb") as f:
        f.write(b"half a png")
    with open(os.path.join(markers, "worker.tmp"), "w") as f:
        f.write(str(os.getppid()))
    os.replace(os.path.join(markers, "worker.tmp"), os.path.join(markers, "worker"))
    time.sleep(600)
    sys.exit(3)
os.execv(real, [real] + args)
"""


def test_a_worker_killed_mid_run_is_retried_and_leaves_nothing_half_written(tmp_path,
                                                                             gvflab_exe):
    src = inputs(tmp_path / "in", bad=False)
    out, markers = tmp_path / "out", tmp_path / "markers"
    out.mkdir()
    markers.mkdir()
    wrapper = tmp_path / "gvflab-wrapper"
    wrapper.write_text(WRAPPER.format(python=sys.executable))
    wrapper.chmod(wrapper.stat().st_mode | stat.S_IXUSR)
    env = {"REAL_GVFLAB": gvflab_exe, "KILL_MARKERS": str(markers)}
    proc = subprocess.Popen([sys.executable, "-m", "gvflab.batch", str(src / "a.pgm"),
                             str(src / "c.pgm"), "--output-dir", str(out), "--workers", "2",
                             "--gvflab", str(wrapper), *FLAGS], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env={**os.environ, **env})
    try:
        deadline = time.monotonic() + 600  # a bound on a hang, not a timing assumption
        while not (markers / "worker").exists():
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "a.pgm's first run never started"
            time.sleep(0.1)
        killed = int((markers / "worker").read_text())
        os.kill(killed, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=600)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stdout + stderr
    assert "batch: 2 of 2 inputs done\n" in stdout
    # Retried on a live worker; the half-written file never reached DIR, nor stays anywhere.
    record = json.loads((out / ".gvflab-batch" / "done" / "a.json").read_text())
    assert not record["worker"].endswith(f":{killed}")
    assert (out / "a-mag.png").read_bytes().startswith(PNG)
    assert visible(out) == ["a-mag.png", "a-r.json", "a.mha", "c-mag.png", "c-r.json", "c.mha"]
    leftovers = [p for p in (out / ".gvflab-batch").rglob("*") if p.is_file()]
    assert sorted(p.name for p in leftovers) == ["a.json", "c.json"]


def test_the_command_is_checked_before_anything_runs(tmp_path, gvflab_exe):
    src = inputs(tmp_path / "in", bad=False)
    (tmp_path / "other").mkdir()
    square_pgm(tmp_path / "other" / "a.pgm")
    for args, says in [
        ([src / "a.pgm"], "--output-dir DIR is needed"),
        ([src / "a.pgm", "--output-dir", tmp_path / "none"], "is not a folder"),
        ([src / "a.pgm", "--output-dir", tmp_path, "--device", "gpu"], "--device is set by"),
        ([src / "a.pgm", "--output-dir", tmp_path, "--workers", "0"], "not a count"),
        ([src / "*.png", "--output-dir", tmp_path], "matches no file"),
        ([src / "a.pgm", tmp_path / "other" / "a.pgm", "--output-dir", tmp_path],
         "would both write outputs named 'a'"),
        ([src / "a.pgm", "--output-dir", tmp_path, "--scheduler", "tcp://127.0.0.1:1",
          "--workers", "2"], "Give one of them"),
    ]:
        done = run_batch(args, timeout=120)
        assert done.returncode == 2, (args, done.stderr)
        assert says in done.stderr and done.stderr.count("\n") == 1, (args, done.stderr)
    assert visible(tmp_path) == ["in", "other"]
