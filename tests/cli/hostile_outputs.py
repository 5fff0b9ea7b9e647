#!/usr/bin/env python3
"""Outputs that cannot damage (issue 25 item 3; issue 26 item 5), through the headless CLI:

  - a full disk: RLIMIT_FSIZE in the child (SIGXFSZ ignored: writes fail with EFBIG) for the
    field formats (.mha, .nii, .nii.gz, .nrrd; several MB, as PoCL itself writes ~1 MB files),
    and as root a full 4 MB tmpfs for PNG, the JSON report and .nii.gz: exit 1, one "gvflab: "
    line, the earlier file byte-identical, no temporary (the writer's own RLIMIT_FSIZE test for
    small files is in tests/unit/test_atomic_file.cpp);
  - symbolic links planted at every name the old temporary scheme could pick change nothing;
    a FIFO, a link to /dev/null (made here; /dev/null itself is never touched) or, as root, a
    character device at the output's name is refused, left as it was;
  - an output naming the input image, the --session file, or another output through a
    symbolically linked folder is refused before running, naming both;
  - an over-long output name is refused before running; a late failure (the size limit hitting
    the field after the capture map was written) puts back the earlier files, removes new ones;
  - --record writes the other outputs too, and --record-tail ends it after the snakes stopped
    (needs an X server: $DISPLAY, or xvfb-run, else skipped);
  - --region-snake with --save-field or --snake, and a flag given twice, are refused.

Usage: hostile_outputs.py GVFLAB WORKDIR
"""
import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import time
import zlib

from cli_checks import check, failures, refused, run, succeeded


def read(path):
    """The file's bytes; None when it is missing (a failed check, not a crash of the test)."""
    try:
        with open(path, "rb") as f:
            return f.read()
    except FileNotFoundError:
        return None


def png(width, height):
    raw = b"".join(b"\0" + bytes(((x * 7 + y * 3) % 256) for x in range(width))
                   for y in range(height))
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data)))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def base(gvflab, iterations):
    return [gvflab, "--headless", "--quiet", "--phantom", "u", "--phantom-size", "96",
            "--iterations", str(iterations)]


# ------------------------------------------------------------------------------------ cases

def noise_png(path, side):
    """Grey noise: its GVF field compresses badly, so even .nii.gz and .nrrd files are large."""
    import random
    rng = random.Random(1)
    raw = b"".join(b"\0" + rng.randbytes(side) for _ in range(side))
    write_png(path, side, side, raw)


def write_png(path, width, height, raw):
    def chunk(kind, data):
        return (struct.pack(">I", len(data)) + kind + data +
                struct.pack(">I", zlib.crc32(kind + data)))
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n" +
                chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


# PoCL writes a preprocessed kernel source of ~1 MB on every run (even from its cache), so a
# file-size limit must stay above that: the files limited here are several MB.
MIN_LIMIT = 2 << 20


def full_disk_limit(gvflab, work):
    """The field formats under a file-size limit below their size (EFBIG, as a full disk)."""
    d = fresh(work, "full_limit")
    noise_png(os.path.join(d, "noise.png"), 1024)
    for name in ["f.mha", "f.nii", "f.nii.gz", "f.nrrd"]:
        cmd = [gvflab, "--headless", "--quiet", "noise.png", "--save-field", name]
        # The earlier file (this run also fills PoCL's kernel cache).
        if not succeeded(run(cmd + ["--iterations", "10"], d), "full disk %s: first run" % name):
            continue
        earlier = read(os.path.join(d, name))
        before = sorted(os.listdir(d))
        limit = len(earlier) // 2
        if not check(limit >= MIN_LIMIT, "full disk %s: only %d bytes" % (name, len(earlier))):
            continue
        result = run(cmd + ["--iterations", "30"], d, fsize=limit)
        refused(result, "full disk %s (limit %d bytes)" % (name, limit), name)
        check(read(os.path.join(d, name)) == earlier,
              "full disk %s: the earlier file was changed" % name)
        check(sorted(os.listdir(d)) == before,
              "full disk %s: files left: %s" % (name, sorted(os.listdir(d))))


def fill(folder):
    """Fills the file system of folder to the last byte."""
    for name, size in [("filler", 65536), ("filler2", 1)]:
        fd = os.open(os.path.join(folder, name), os.O_WRONLY | os.O_CREAT, 0o644)
        try:
            while True:
                os.write(fd, b"\0" * size)
        except OSError:
            pass
        finally:
            os.close(fd)


def full_disk_tmpfs(gvflab, work):
    """A really full disk (a 4 MB tmpfs, as root): PNG and JSON (too small for the file-size
    limit), and .nii.gz once more."""
    if os.geteuid() != 0:
        print("skip: the tmpfs full-disk cases need root (the file-size-limit cases ran)")
        return
    for flag, name in [("--save-field", "f.nii.gz"), ("--save-magnitude", "m.png"),
                       ("--report", "r.json")]:
        d = fresh(work, "full_tmpfs")
        disk = os.path.join(d, "disk")
        os.makedirs(disk)
        if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", disk],
                          stderr=subprocess.DEVNULL).returncode != 0:
            print("skip: cannot mount a tmpfs here")
            return
        try:
            out = os.path.join(disk, name)
            if not succeeded(run(base(gvflab, 10) + [flag, out], d),
                             "full tmpfs %s: first run" % name):
                continue
            earlier = read(out)
            fill(disk)
            before = sorted(os.listdir(disk))
            result = run(base(gvflab, 30) + [flag, out], d)
            refused(result, "full tmpfs %s" % name, name)
            check(read(out) == earlier, "full tmpfs %s: the earlier file was changed" % name)
            check(sorted(os.listdir(disk)) == before,
                  "full tmpfs %s: files left: %s" % (name, sorted(os.listdir(disk))))
        finally:
            subprocess.run(["umount", disk])


def planted_links(gvflab, work):
    """Links at every temporary name the old scheme could pick (.tmpN.NAME, N < 100000)."""
    d = fresh(work, "planted")
    victim = os.path.join(work, "planted_victim.txt")
    with open(victim, "w") as f:
        f.write("not yours\n")
    for n in range(100000):
        os.symlink(victim, os.path.join(d, ".tmp%d.r.json" % n))
    result = run(base(gvflab, 5) + ["--report", "r.json"], d)
    succeeded(result, "planted links")
    check(read(victim) == b"not yours\n", "planted links: a write went through a planted link")
    r = os.path.join(d, "r.json")
    check(os.path.isfile(r) and not os.path.islink(r), "planted links: r.json is not a file")
    names = [n for n in os.listdir(d) if not n.startswith(".tmp")]
    check(names == ["r.json"], "planted links: files left: %s" % names)
    shutil.rmtree(d)


def special_targets(gvflab, work):
    """A FIFO, a link to /dev/null, (as root) a character device: refused, left as they were."""
    d = fresh(work, "special")
    os.mkfifo(os.path.join(d, "fifo.json"))
    os.symlink("/dev/null", os.path.join(d, "null.json"))
    cases = [("fifo.json", stat.S_ISFIFO, "FIFO"), ("null.json", stat.S_ISLNK, "character device")]
    if os.geteuid() == 0:  # a device node of our own, in our folder
        os.mknod(os.path.join(d, "mynull"), 0o666 | stat.S_IFCHR, os.makedev(1, 3))
        cases.append(("mynull", stat.S_ISCHR, "character device"))
    for name, kind, word in cases:
        result = run(base(gvflab, 5) + ["--report", name], d)
        refused(result, "target %s" % name, "--report", name, word)
        check(kind(os.lstat(os.path.join(d, name)).st_mode), "target %s: it was replaced" % name)
    check(os.path.exists("/dev/null") and stat.S_ISCHR(os.stat("/dev/null").st_mode),
          "/dev/null is no longer a character device")
    left = sorted(n for n in os.listdir(d) if n.startswith("."))
    check(not left, "special targets: temporaries left: %s" % left)


def same_files(gvflab, work):
    """An output naming an input or another output (after resolving links): refused first."""
    d = fresh(work, "same")
    image = png(40, 30)
    with open(os.path.join(d, "in.png"), "wb") as f:
        f.write(image)
    os.symlink("in.png", os.path.join(d, "link.png"))
    for out in ["in.png", "link.png", "./in.png"]:
        result = run([gvflab, "--headless", "--quiet", "in.png", "--iterations", "5",
                      "--save-magnitude", out], d)
        refused(result, "input as output %s" % out, "--save-magnitude", "input")
        check(read(os.path.join(d, "in.png")) == image, "input as output %s: in.png changed" % out)

    session = {"gvflab_session": 1, "phantom": "u", "phantom_size": 64}
    text = json.dumps(session)
    with open(os.path.join(d, "s.json"), "w") as f:
        f.write(text)
    result = run([gvflab, "--headless", "--quiet", "--session", "s.json", "--iterations", "5",
                  "--report", "s.json"], d)
    refused(result, "--report on the session", "--report", "--session")
    check(read(os.path.join(d, "s.json")).decode() == text, "--report replaced the session file")

    os.makedirs(os.path.join(d, "real"))
    os.symlink("real", os.path.join(d, "alias"))
    result = run(base(gvflab, 5) + ["--save-magnitude", "real/m.png", "--capture-map",
                                    "alias/m.png"], d)
    refused(result, "two outputs through a linked folder", "--save-magnitude", "--capture-map")
    check(os.listdir(os.path.join(d, "real")) == [], "linked folder: files were written")


def late_failure(gvflab, work):
    """The limit lets the capture map through and stops the field: the map is put back."""
    d = fresh(work, "late")
    outs = ["--phantom-size", "1024", "--capture-map", "m.png", "--save-field", "f.mha"]
    if not succeeded(run(base(gvflab, 10) + outs, d), "late failure: first run"):
        return
    earlier = {n: read(os.path.join(d, n)) for n in ("m.png", "f.mha")}
    limit = len(earlier["f.mha"]) // 2
    if not check(4 * len(earlier["m.png"]) < limit and limit >= MIN_LIMIT,
                 "late failure: sizes %r do not suit this test" %
                 {n: len(b) for n, b in earlier.items()}):
        return
    result = run(base(gvflab, 40) + outs, d, fsize=limit)
    refused(result, "late failure", "f.mha")
    for n, data in earlier.items():
        check(read(os.path.join(d, n)) == data, "late failure: %s is not the earlier file" % n)
    check(sorted(os.listdir(d)) == ["f.mha", "m.png"],
          "late failure: files left: %s" % sorted(os.listdir(d)))
    # A new name written before the failure is removed.
    if os.path.exists(os.path.join(d, "m.png")):
        os.remove(os.path.join(d, "m.png"))
    result = run(base(gvflab, 40) + outs, d, fsize=limit)
    refused(result, "late failure, new capture map", "f.mha")
    check(sorted(os.listdir(d)) == ["f.mha"],
          "late failure: a new output was left: %s" % sorted(os.listdir(d)))

    # An over-long name among the outputs is found before anything is written.
    result = run(base(gvflab, 40) + ["--save-field", "f.mha", "--report", "r" * 300 + ".json"], d)
    refused(result, "over-long --report", "--report", "characters")
    check(read(os.path.join(d, "f.mha")) == earlier["f.mha"], "over-long --report: f.mha changed")


def refused_combinations(gvflab, work):
    d = fresh(work, "combinations")
    result = run(base(gvflab, 5) + ["--save-field", "a.mha", "--save-field", "b.mha"], d)
    refused(result, "--save-field twice", "--save-field", "twice")
    result = run(base(gvflab, 5) + ["--report", "a.json", "--report", "b.json"], d)
    refused(result, "--report twice", "--report", "twice")
    result = run(base(gvflab, 5) + ["--region-snake", "--save-field", "f.mha"], d)
    refused(result, "--region-snake with --save-field", "--region-snake", "--save-field")
    result = run(base(gvflab, 5) + ["--region-snake", "--snake", "circle:48,48,30"], d)
    refused(result, "--region-snake with --snake", "--region-snake", "--snake")
    check(os.listdir(d) == [], "refused combinations: files written: %s" % os.listdir(d))


def display_prefix():
    if os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"):
        return []
    if shutil.which("xvfb-run"):
        return ["xvfb-run", "-a", "-s", "-screen 0 640x480x24"]
    return None


def recording(gvflab, work):
    prefix = display_prefix()
    if prefix is None:
        print("skip: --record cases need an X server or xvfb-run")
        return
    d = fresh(work, "record")
    snake = ["--phantom-size", "64", "--snake", "circle:32,32,26"]
    cmd = prefix + [gvflab, "--headless", "--phantom", "u", *snake, "--record", "v.mp4",
                    "--frames", "6", "--size", "64x64", "--save-field", "f.nii",
                    "--report", "r.json", "--save-contours", "c.json", "--capture-map", "m.png",
                    "--save-magnitude", "g.png"]
    if succeeded(run(cmd, d), "--record with other outputs"):
        for n in ["v.mp4", "f.nii", "r.json", "c.json", "m.png", "g.png"]:
            check(os.path.isfile(os.path.join(d, n)) and os.path.getsize(os.path.join(d, n)) > 0,
                  "--record with other outputs: %s missing" % n)
        if os.path.isfile(os.path.join(d, "r.json")):
            report = json.load(open(os.path.join(d, "r.json")))
            check(report.get("frames") == 6, "--record report: frames %r" % report.get("frames"))
            check(len(report.get("snakes", [])) == 1, "--record report: no snake entry")
    d = fresh(work, "record_tail")
    cmd = prefix + [gvflab, "--headless", "--phantom", "u", *snake, "--record", "frames/",
                    "--record-tail", "0.2", "--fps", "10", "--frames", "3000", "--size", "32x32",
                    "--report", "r.json"]
    if succeeded(run(cmd, d), "--record-tail"):
        frames = [n for n in os.listdir(os.path.join(d, "frames")) if n.endswith(".png")]
        report = json.load(open(os.path.join(d, "r.json")))
        states = [s["state"] for s in report.get("snakes", [])]
        check(0 < len(frames) < 3000 and report.get("frames") == len(frames),
              "--record-tail: %d frames, report %r" % (len(frames), report.get("frames")))
        check(states and "moving" not in states, "--record-tail: snakes still %r" % states)
    result = run([gvflab, "--headless", "--phantom", "u", "--record-tail", "1"], d)
    refused(result, "--record-tail without --record", "--record-tail")
    result = run([gvflab, "--phantom", "u", "--record-tail", "1"], d)  # refused before Qt starts
    refused(result, "--record-tail in the viewer", "--record-tail")


def main():
    gvflab, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    only = sys.argv[3] if len(sys.argv) > 3 else ""
    for case in [refused_combinations, same_files, special_targets, full_disk_limit,
                 full_disk_tmpfs, late_failure, planted_links, recording]:
        if only and only not in case.__name__:
            continue
        start = time.monotonic()
        case(gvflab, work)
        print("case %s: %.0f s" % (case.__name__, time.monotonic() - start), flush=True)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("all hostile-output cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
