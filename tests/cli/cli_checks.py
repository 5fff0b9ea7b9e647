"""What the CLI test scripts check a run with: recorded failures, a run with a time limit (and,
for the full-disk cases, a file size limit), success, and a refusal as one "gvflab:" line."""
import resource
import signal
import subprocess

TIME_LIMIT_S = 240  # generous: the suite runs with -j2 on a busy machine
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what, flush=True)
    return ok


def limit_file_size(limit):
    def set_limit():
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # write() returns EFBIG instead
    return set_limit


def run(cmd, cwd, fsize=None):
    """(exit code, stdout, stderr); fsize limits the size of every file the run writes."""
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=TIME_LIMIT_S, preexec_fn=limit_file_size(fsize) if fsize else None)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def refused(result, name, *words):
    """Exit 1 (no signal), exactly one stderr line "gvflab: ..." containing every word."""
    rc, _, err = result
    lines = [l for l in err.splitlines() if l.strip()]
    ok = check(rc == 1, "%s: exit %d, expected 1 (stderr: %r)" % (name, rc, err[-400:]))
    ok = check(len(lines) == 1 and lines[0].startswith("gvflab: "),
               "%s: expected one 'gvflab: ' line, got %r" % (name, lines)) and ok
    for w in words:
        ok = check(w in err, "%s: the message does not say %r: %r" % (name, w, err.strip())) and ok
    return ok


def succeeded(result, name):
    rc, _, err = result
    return check(rc == 0, "%s: exit %d (stderr: %r)" % (name, rc, err[-400:]))
