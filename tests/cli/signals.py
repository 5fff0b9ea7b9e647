#!/usr/bin/env python3
"""SIGINT and SIGTERM at the stages of a headless run (issue 25): reading a large session (40
snakes of 12000 points), loading a large image, iterating with a snake, moving surfaces
(issue 37). Each run must exit 130 (SIGINT) or 143
(SIGTERM) with one "gvflab: Interrupted ..." line, write nothing, and leave the output that was
there before intact.

No test here depends on timing: each waits for a logical event before it signals (gvflab has
opened the input, per inotify; or its progress line shows on a terminal). Whatever stage the
signal then lands in, the verdict must be the same; the limits (60 s to stop, 240 s for the
event) only detect hangs.

Usage: signals.py GVFLAB WORKDIR
"""
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time

from pty_stderr import PtyStderr

HANG_S = 60    # a signalled run must end within this
EVENT_S = 240  # the event must come within this (a cold PoCL cache builds kernels first)
EARLIER = b"an earlier output, which an interrupted run must leave as it was\n"
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def outputs(out):
    return ["--save-field", os.path.join(out, "f.mha"), "--report", os.path.join(out, "r.json"),
            "--save-magnitude", os.path.join(out, "m.png")]


def prepare(work, name):
    out = os.path.join(work, name, "out")
    inp = os.path.join(work, name, "in")
    os.makedirs(out)
    os.makedirs(inp)
    with open(os.path.join(out, "f.mha"), "wb") as f:  # replaced only by a finished run
        f.write(EARLIER)
    return inp, out


class OpenWatch:
    """inotify IN_OPEN on one file: the logical event "gvflab opened its input" (no polling, so
    it cannot be missed however briefly the file stays open)."""
    IN_OPEN = 0x20

    def __init__(self, path):
        import ctypes
        libc = ctypes.CDLL(None, use_errno=True)
        self.fd = libc.inotify_init1(os.O_CLOEXEC)
        if self.fd < 0 or libc.inotify_add_watch(self.fd, path.encode(), self.IN_OPEN) < 0:
            raise OSError(ctypes.get_errno(), "inotify on " + path)

    def opened(self, timeout):
        r, _, _ = select.select([self.fd], [], [], timeout)
        return bool(r)

    def close(self):
        os.close(self.fd)


def wait_for(p, event, what):
    end = time.monotonic() + EVENT_S
    while time.monotonic() < end and p.poll() is None:
        if event():
            return True
    check(False, "%s: never saw %s (exit code %s)" % (what, "the event", p.poll()))
    return False


def finish(p, sig, what, drain=None):
    end = time.monotonic() + HANG_S
    while p.poll() is None and time.monotonic() < end:
        drain(0.05) if drain else time.sleep(0.02)
    if p.poll() is None:
        p.kill()
        check(False, "%s: %s did not stop the run within %d s" % (what, sig.name, HANG_S))
    return p.wait()


def verdict(what, sig, rc, err, out):
    want = 128 + sig
    check(rc == want, "%s: exit code after %s is %s, not %d" % (what, sig.name, rc, want))
    lines = [l for l in err.replace("\r", "\n").split("\n") if l.strip() and "\x1b[K" != l.strip()]
    lines = [l.replace("\x1b[K", "") for l in lines]
    last = lines[-1] if lines else ""
    check(last.startswith("gvflab: Interrupted") and "nothing was written" in last,
          "%s: the last line after %s: %r" % (what, sig.name, err[-300:]))
    left = sorted(os.listdir(out))
    check(left == ["f.mha"], "%s: the output folder holds %s" % (what, left))
    with open(os.path.join(out, "f.mha"), "rb") as f:
        check(f.read() == EARLIER, "%s: the earlier output was changed" % what)


def run_until_open(gvflab, args, path, sig, what, out):
    """Starts gvflab, signals it once it has opened `path`, checks the verdict."""
    watch = OpenWatch(path)
    p = subprocess.Popen([gvflab, "--headless", *args], stdin=subprocess.DEVNULL,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if wait_for(p, lambda: watch.opened(0.05), what + " (input opened)"):
        p.send_signal(sig)
    watch.close()
    rc = finish(p, sig, what)
    verdict(what, sig, rc, p.stderr.read().decode(errors="replace"), out)


def write_pgm(path, side):
    with open(path, "wb") as f:
        f.write(b"P5\n%d %d\n255\n" % (side, side))
        row = bytes((x * 7) % 256 for x in range(side))
        for _ in range(side):
            f.write(row)


def write_ball(path, side):
    """A bright ball in a dark cube, as MetaImage (no geometry)."""
    with open(path, "wb") as f:
        f.write(b"ObjectType = Image\nNDims = 3\nDimSize = %d %d %d\nElementType = MET_UCHAR\n"
                b"ElementDataFile = LOCAL\n" % (side, side, side))
        c, r2 = side / 2.0, (side * 0.3) ** 2
        data = bytearray()
        for z in range(side):
            for y in range(side):
                for x in range(side):
                    d2 = (x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2 + (z + 0.5 - c) ** 2
                    data.append(200 if d2 < r2 else 20)
        f.write(bytes(data))


def batch(gvflab, work):
    """--batch: SIGINT once the second input is opened stops the batch; the first input's
    outputs stay, the second leaves none, and the line names the input it stopped at."""
    what = "batch"
    inp, out = os.path.join(work, "batch", "in"), os.path.join(work, "batch", "out")
    os.makedirs(inp)
    os.makedirs(out)
    write_pgm(os.path.join(inp, "a.pgm"), 16)
    write_pgm(os.path.join(inp, "b.pgm"), 2000)
    watch = OpenWatch(os.path.join(inp, "b.pgm"))
    p = subprocess.Popen([gvflab, "--headless", "--batch", os.path.join(inp, "a.pgm"),
                          os.path.join(inp, "b.pgm"), "--output-dir", out, "--quiet",
                          "--target-error", "1e-5", "--report", "r.json",
                          "--save-magnitude", "m.png"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    if wait_for(p, lambda: watch.opened(0.05), what + " (second input opened)"):
        p.send_signal(signal.SIGINT)
    watch.close()
    rc = finish(p, signal.SIGINT, what)
    err = p.stderr.read().decode(errors="replace")
    check(rc == 130, "%s: exit code after SIGINT is %s, not 130: %r" % (what, rc, err))
    last = err.strip().split("\n")[-1] if err.strip() else ""
    check(last.startswith("gvflab: Interrupted") and "nothing was written" in last,
          "%s: the last line: %r" % (what, err[-300:]))
    check("b.pgm' (input 2 of 2" in last or "while writing" in last,
          "%s: the line does not name the input: %r" % (what, last))
    left = sorted(os.listdir(out))
    check(left == ["a-m.png", "a-r.json"], "%s: the output folder holds %s" % (what, left))


def main():
    gvflab, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)
    long_run = ["--iterations", "10000000", "--quiet"]

    for sig in (signal.SIGINT, signal.SIGTERM):
        # 1. Reading and checking a large session (about 5 MB of valid JSON).
        name = "session_" + sig.name
        inp, out = prepare(work, name)
        session = os.path.join(inp, "s.json")
        filler = [{"points": [[10 + (i % 40), 10 + (i % 37)] for i in range(12000)]}] * 40
        with open(session, "w") as f:
            json.dump({"gvflab_session": 1, "phantom": "u", "phantom_size": 64,
                       "snake_params": {"dmin": 1, "dmax": 2.5}, "snakes": filler}, f)
        run_until_open(gvflab, ["--session", session, *long_run, *outputs(out)], session, sig,
                       "reading a session", out)

        # 2. Loading a large image (a 6000^2 PGM, 36 MB).
        name = "image_" + sig.name
        inp, out = prepare(work, name)
        image = os.path.join(inp, "big.pgm")
        write_pgm(image, 6000)
        run_until_open(gvflab, [image, *long_run, *outputs(out)], image, sig, "loading an image", out)

        # 3. Iterating, with snakes: signalled once the progress line shows on a terminal.
        name = "iterating_" + sig.name
        inp, out = prepare(work, name)
        tty = PtyStderr()
        p = subprocess.Popen([gvflab, "--headless", "--phantom", "u", "--phantom-size", "64",
                              "--iterations", "10000000", "--snake", "circle:32,32,28",
                              "--save-contours", os.path.join(out, "c.json"), *outputs(out)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=tty.slave)
        tty.child_started()
        drain = tty.drain

        def progress():
            drain(0.05)
            return "it/s" in tty.text()

        if wait_for(p, progress, "iterating (progress line)"):
            p.send_signal(sig)
        rc = finish(p, sig, "iterating", drain)
        drain(0.1)
        tty.close()
        verdict("iterating", sig, rc, tty.text(), out)

        # 4. Moving surfaces (issue 37): signalled once the surface stage's progress line
        # shows. The stage polls every resampling period, so it stops as the others do.
        name = "surfaces_" + sig.name
        inp, out = prepare(work, name)
        volume = os.path.join(inp, "ball.mha")
        write_ball(volume, 48)
        tty = PtyStderr()
        p = subprocess.Popen([gvflab, "--headless", volume, "--iterations", "30",
                              "--surface", "sphere:24,24,24,20", "--dmin", "0.6", "--dmax", "1.5",
                              "--snake-window", "10000", "--snake-iterations", "10000000",
                              "--save-surfaces", os.path.join(out, "s.ply"), *outputs(out)],
                             stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=tty.slave)
        tty.child_started()
        drain = tty.drain

        def surface_progress():
            drain(0.05)
            return "surfaces: " in tty.text() and "it/s" in tty.text().split("surfaces: ")[-1]

        if wait_for(p, surface_progress, "surfaces (progress line)"):
            p.send_signal(sig)
        rc = finish(p, sig, "surfaces", drain)
        drain(0.1)
        tty.close()
        verdict("surfaces", sig, rc, tty.text(), out)

    batch(gvflab, work)
    print("signals: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
