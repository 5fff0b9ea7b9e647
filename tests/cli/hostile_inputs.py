#!/usr/bin/env python3
"""Hostile inputs that the corpus (malformed_inputs.py) cannot express (issue 25): FIFOs, devices,
/proc files, links, sparse files, and files that must load. Each case runs
`gvflab --headless` with a pipe on stdin that is never written nor closed, and checks
  - the exit (a refusal: non-zero, one "gvflab: " line naming the file and the true reason;
    or success),
  - that it ends: a run past HANG_S is a hang (a blocked open or read), not slowness,
  - its peak memory (ru_maxrss), where a case is about reading no more than the header promises.
The limits are generous and load-independent: the fixed reader answers in well under a second
and a few MB; the failures they catch take minutes or gigabytes.

Usage: hostile_inputs.py GVFLAB WORKDIR [-k SUBSTRING]
"""
import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from corpus_readers import jpeg_grey, mhd, nrrd_detached  # noqa: E402

HANG_S = 60
GIB = 1 << 30


class Case:
    def __init__(self, name, setup, expect, ok=False, max_rss_mb=None):
        self.name = name
        self.setup = setup      # setup(folder) -> arguments after --headless
        self.expect = expect    # texts the one line must contain (refusals)
        self.ok = ok            # True: the run must succeed
        self.max_rss_mb = max_rss_mb


def write(path, data):
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def sparse(path, head, size):
    """head, then zeros up to size bytes, without using the disk for them."""
    with open(path, "wb") as f:
        f.write(head)
        f.truncate(size)


def fifo(path):
    os.mkfifo(path)


def run_args(image, *extra):
    return [image, "--iterations", "5", "--quiet", *extra]


def cases():
    c = []

    def refused(name, setup, *expect, **kw):
        c.append(Case(name, setup, list(expect), **kw))

    def fifo_image(d):
        fifo(d + "/x.png")
        return run_args(d + "/x.png")
    refused("fifo_image", fifo_image, "x.png' is a FIFO, not a file")

    def fifo_nrrd(d):
        fifo(d + "/x.nrrd")
        return run_args(d + "/x.nrrd")
    refused("fifo_nrrd_image", fifo_nrrd, "x.nrrd' is a FIFO, not a file")

    def fifo_nifti(d):
        fifo(d + "/x.nii")
        return run_args(d + "/x.nii")
    refused("fifo_nifti", fifo_nifti, "x.nii' is a FIFO, not a file")

    def fifo_nifti_header(d):  # nifti_clib looks for p.hdr beside p.img by opening it
        write(d + "/p.img", bytes(512))
        fifo(d + "/p.hdr")
        return run_args(d + "/p.img")
    refused("fifo_nifti_pair_header", fifo_nifti_header, "p.hdr' is a FIFO, not a file")

    def fifo_mhd_data(d):
        write(d + "/h.mhd", mhd("d.raw"))
        fifo(d + "/d.raw")
        return run_args(d + "/h.mhd")
    refused("fifo_mhd_data_file", fifo_mhd_data, "h.mhd", "'d.raw' is a FIFO, not a file")

    def fifo_nhdr_data(d):
        write(d + "/h.nhdr", nrrd_detached("d.raw"))
        fifo(d + "/d.raw")
        return run_args(d + "/h.nhdr")
    refused("fifo_nhdr_data_file", fifo_nhdr_data, "h.nhdr", "'d.raw' is a FIFO, not a file")

    def fifo_nhdr_list(d):
        write(d + "/h.nhdr", nrrd_detached("LIST", "4 4 2") + "a.raw\nb.raw\n")
        write(d + "/a.raw", bytes(16))
        fifo(d + "/b.raw")
        return run_args(d + "/h.nhdr")
    refused("fifo_nhdr_list_file", fifo_nhdr_list, "h.nhdr", "'b.raw' is a FIFO, not a file")

    def stdin_image(d):
        return run_args("/dev/stdin")
    refused("image_dev_stdin", stdin_image, "'/dev/stdin' is a FIFO, not a file")

    def session_stdin(d):
        write(d + "/s.json", json.dumps({"gvflab_session": 1, "image": "/dev/stdin"}))
        return ["--session", d + "/s.json", "--iterations", "5", "--quiet"]
    refused("session_image_dev_stdin", session_stdin, "'/dev/stdin' is a FIFO, not a file")

    def session_fifo(d):
        fifo(d + "/s.json")
        return ["--session", d + "/s.json", "--iterations", "5"]
    refused("session_file_fifo", session_fifo, "s.json' is a FIFO, not a file")

    refused("image_dev_zero", lambda d: run_args("/dev/zero"), "'/dev/zero' is a character device")
    refused("image_proc_file", lambda d: run_args("/proc/self/status"), "is in /proc")

    def link_out(d):
        write(d + "/h.mhd", mhd("d.raw"))
        os.symlink("/etc/passwd", d + "/d.raw")
        return run_args(d + "/h.mhd")
    refused("mhd_data_link_outside", link_out, "h.mhd", "outside the header's folder")

    def sparse_pgm(d):
        head = b"P5\n20000 20000\n255\n"
        sparse(d + "/p.pgm", head, len(head) + 20000 * 20000)
        return run_args(d + "/p.pgm")
    refused("sparse_pgm_20000", sparse_pgm, "p.pgm", "16384", max_rss_mb=1024)

    def sparse_mhd(d):  # reads the 256 bytes DimSize promises, not the 4 GiB file
        write(d + "/h.mhd", mhd("d.raw", "16 16"))
        sparse(d + "/d.raw", bytes(range(256)), 4 * GIB)
        return run_args(d + "/h.mhd", "--save-field", d + "/f.mha")
    c.append(Case("sparse_mhd_4gib_data", sparse_mhd, [], ok=True, max_rss_mb=1024))

    def link_inside(d):
        os.mkdir(d + "/data")
        write(d + "/data/d.raw", bytes(range(256)))
        os.symlink("data/d.raw", d + "/d.raw")
        write(d + "/h.mhd", mhd("d.raw", "16 16"))
        return run_args(d + "/h.mhd")
    c.append(Case("mhd_data_link_inside", link_inside, [], ok=True))

    def allowed_outside(d):
        os.mkdir(d + "/a")
        os.mkdir(d + "/b")
        write(d + "/b/d.raw", bytes(range(256)))
        write(d + "/a/h.mhd", mhd("../b/d.raw", "16 16"))
        return run_args(d + "/a/h.mhd", "--allow-data-outside")
    c.append(Case("mhd_data_outside_allowed", allowed_outside, [], ok=True))

    def nhdr_pattern(d):  # a valid pattern still reads: expanded by us, never by teem
        write(d + "/v.nhdr", nrrd_detached("s%02d.raw 1 2 1", "16 16 2"))
        write(d + "/s01.raw", bytes(range(256)))
        write(d + "/s02.raw", bytes(range(256)))
        return run_args(d + "/v.nhdr")
    c.append(Case("nhdr_pattern_valid", nhdr_pattern, [], ok=True))

    def nhdr_list(d):
        write(d + "/v.nhdr", nrrd_detached("LIST", "16 16 2") + "a.raw\nb.raw\n")
        write(d + "/a.raw", bytes(range(256)))
        write(d + "/b.raw", bytes(range(256)))
        return run_args(d + "/v.nhdr")
    c.append(Case("nhdr_list_valid", nhdr_list, [], ok=True))

    def jpeg_whole(d):  # the truncation check refuses no complete file
        write(d + "/g.jpg", jpeg_grey(256, 256))
        return run_args(d + "/g.jpg")
    c.append(Case("jpeg_complete_loads", jpeg_whole, [], ok=True))
    return c


def run_case(gvflab, work, case):
    folder = os.path.join(work, case.name)
    shutil.rmtree(folder, ignore_errors=True)
    os.makedirs(folder)
    args = case.setup(folder)
    problems = []
    # stdin: a pipe that stays open and empty, as a terminal or a stalled producer would.
    read_end, write_end = os.pipe()
    err_path = folder + ".stderr"
    with open(err_path, "wb") as err_file:  # a file, not a pipe: nothing can block on it
        p = subprocess.Popen([gvflab, "--headless", *args], stdin=read_end,
                             stdout=subprocess.DEVNULL, stderr=err_file)
    os.close(read_end)
    t0 = time.monotonic()
    status = usage = None
    while True:
        pid, status, usage = os.wait4(p.pid, os.WNOHANG)
        if pid:
            break
        if time.monotonic() - t0 > HANG_S:
            p.send_signal(signal.SIGKILL)
            _, status, usage = os.wait4(p.pid, 0)
            problems.append("still running after %d s: it hangs" % HANG_S)
            break
        time.sleep(0.05)
    p.returncode = os.waitstatus_to_exitcode(status)
    with open(err_path, "rb") as f:
        err = f.read().decode(errors="replace")
    os.remove(err_path)
    os.close(write_end)
    rc, lines, rss_mb = p.returncode, err.splitlines(), usage.ru_maxrss / 1024
    if not problems:
        if case.ok and rc != 0:
            problems.append("exit %d, expected success: %r" % (rc, err[:400]))
        elif not case.ok:
            if rc == 0 or rc < 0 or rc >= 128:
                problems.append("exit code %d, expected a refusal" % rc)
            if len(lines) != 1 or not lines[0].startswith("gvflab: "):
                problems.append("expected one 'gvflab: ' line on stderr, got %r" % err[:400])
            else:
                for text in case.expect:
                    if text not in lines[0]:
                        problems.append("the line does not say %r: %s" % (text, lines[0]))
    if case.max_rss_mb and rss_mb > case.max_rss_mb:
        problems.append("peak memory %.0f MB, at most %d MB expected" % (rss_mb, case.max_rss_mb))
    shutil.rmtree(folder, ignore_errors=True)
    return problems, time.monotonic() - t0, rss_mb, (lines[0] if lines else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gvflab")
    ap.add_argument("work")
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    ap.add_argument("-v", action="store_true", help="print every case's line")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    failures = 0
    selected = [c for c in cases() if a.k in c.name]
    for case in selected:
        problems, seconds, rss, line = run_case(a.gvflab, a.work, case)
        if a.v:
            print("%-28s %5.2f s %6.0f MB  %s" % (case.name, seconds, rss, line))
        if problems:
            failures += 1
            print("FAIL %s" % case.name)
            for p in problems:
                print("     " + p)
    print("hostile inputs: %d cases, %d failed" % (len(selected), failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
