#!/usr/bin/env python3
"""A long headless run (10^7 iterations): Ctrl+C (SIGINT) stops it cleanly, exit code 130, one
line on stderr, no output file left; on a terminal it shows progress (iterations, error, rate,
time left), and nothing with --quiet or when stderr is not a terminal (issue 18).

Usage: interrupt_progress.py GVFLAB WORKDIR
"""
import os
import shutil
import signal
import subprocess
import sys
import time

from pty_stderr import PtyStderr

failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def long_run(gvflab, out, extra=()):
    return [gvflab, "--headless", "--phantom", "u", "--phantom-size", "64", "--iterations", "10000000",
            "--snake", "circle:32,32,28", "--save-contours", os.path.join(out, "c.json"),
            "--save-field", os.path.join(out, "f.mha"), "--save-magnitude", os.path.join(out, "m.png"),
            "--report", os.path.join(out, "r.json"), *extra]


# Limits that only a hang reaches: the events are waited for, not timed (a loaded machine can
# take a minute to compile the kernels and start iterating).
EVENT_LIMIT_S = 240
STOP_LIMIT_S = 120


def catches_sigint(p):
    """Whether p has installed its SIGINT handler (bit 2 of SigCgt in /proc/PID/status): from
    then on Ctrl+C is the run's to handle, however slowly it started."""
    try:
        with open("/proc/%d/status" % p.pid) as f:
            for line in f:
                if line.startswith("SigCgt:"):
                    return bool(int(line.split()[1], 16) & (1 << (signal.SIGINT - 1)))
    except OSError:
        pass
    return False


def interrupt_when(p, ready, what, drain=None):
    """Lets p run until ready() (a logical event, not a time), sends SIGINT, waits for p to
    end; drain(t) reads a pty meanwhile."""
    end = time.monotonic() + EVENT_LIMIT_S
    while p.poll() is None and not ready() and time.monotonic() < end:
        drain(0.1) if drain else time.sleep(0.1)
    check(p.poll() is None, "the 10^7-iteration run ended by itself before %s" % what)
    check(ready(), "no %s within %d s" % (what, EVENT_LIMIT_S))
    p.send_signal(signal.SIGINT)
    end = time.monotonic() + STOP_LIMIT_S
    while p.poll() is None and time.monotonic() < end:
        drain(0.1) if drain else time.sleep(0.1)
    if p.poll() is None:
        p.kill()
        check(False, "SIGINT did not stop the run within %d s" % STOP_LIMIT_S)
    return p.wait()


def leftovers(out):
    return sorted(os.listdir(out))


def main():
    gvflab, work = sys.argv[1], sys.argv[2]
    shutil.rmtree(work, ignore_errors=True)

    # 1. stderr is a pipe: no progress; SIGINT -> 130, one line, nothing written.
    out = os.path.join(work, "pipe")
    os.makedirs(out)
    p = subprocess.Popen(long_run(gvflab, out), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL)
    rc = interrupt_when(p, lambda: catches_sigint(p), "SIGINT handler")
    err = p.stderr.read().decode(errors="replace")
    lines = err.splitlines()
    check(rc == 130, "exit code after SIGINT is %s, not 130" % rc)
    check(len(lines) == 1 and lines[0].startswith("gvflab: Interrupted after") and
          "nothing was written" in lines[0], "stderr after SIGINT: %r" % err)
    check("it/s" not in err, "progress printed although stderr is not a terminal: %r" % err)
    check(not leftovers(out), "an interrupted run left %s" % leftovers(out))

    # 2. stderr is a terminal: the progress line, then the same clean stop.
    for quiet in (False, True):
        out = os.path.join(work, "tty_quiet" if quiet else "tty")
        os.makedirs(out)
        tty = PtyStderr()
        p = subprocess.Popen(long_run(gvflab, out, ["--quiet"] if quiet else []),
                             stdout=subprocess.PIPE, stderr=tty.slave, stdin=subprocess.DEVNULL)
        tty.child_started()
        drain = tty.drain

        def progress_shown():
            text = tty.text()
            return all(w in text for w in ("/10000000 iterations", "it/s", "left"))

        handled_since = []

        def quiet_long_enough():
            # The run handles SIGINT, and has had 3 s to show a line it must not show. (On a
            # slow machine the check is weaker, never wrong: no time is asserted.)
            if not handled_since and catches_sigint(p):
                handled_since.append(time.monotonic())
            return bool(handled_since) and time.monotonic() - handled_since[0] >= 3

        # With progress: SIGINT once the line shows; quiet: once it would have shown.
        ready = quiet_long_enough if quiet else progress_shown
        rc = interrupt_when(p, ready, "SIGINT handler" if quiet else "progress line", drain)
        drain(0.2)
        tty.close()
        text = tty.text()
        has_progress = all(w in text for w in ("iterations", "error", "it/s", "left"))
        if quiet:
            check(not has_progress and "it/s" not in text, "--quiet still showed progress: %r" % text)
        else:
            check(has_progress and "/10000000 iterations" in text,
                  "no progress line (iterations, error, rate, time left) on a terminal: %r" % text[-400:])
        check(rc == 130, "exit code after SIGINT on a terminal is %s, not 130" % rc)
        check("Interrupted after" in text, "no 'Interrupted after' sentence on the terminal: %r" % text[-300:])
        check(not leftovers(out), "an interrupted run left %s" % leftovers(out))

    print("interrupt and progress: %d failure(s)" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
