#!/usr/bin/env python3
"""Every input through one gate (issue 38): cases that need more than a file in a folder (links,
FIFOs, several flags naming one file, a volume and its session, a device of less memory, a
signal during a batch). Each case builds its own small inputs, runs gvflab and checks what it
must: refused with one "gvflab: " line naming the file (never a signal's exit code, never past
the time limit, nothing overwritten) or, for the cases that must run, exit 0 with the result.

Usage: input_gate.py GVFLAB WORKDIR [-k SUBSTRING]
"""
import argparse
import os
import shutil
import signal
import struct
import subprocess
import sys
import time
import zlib

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import corpus_dicom as dcm  # noqa: E402
from malformed_inputs import nifti1, run_measured  # noqa: E402

LIMIT_S = 60  # a hang, not speed: a refusal takes well under a second on an idle machine
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what)


def png(width, height, value=0):
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    row = b"\0" + bytes((value + x * 7) % 256 for x in range(width))
    raw = zlib.compress(row * height, 9)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", raw) + chunk(b"IEND", b""))


def blob_png(side):
    """A bright disc on dark: something for a snake to find."""
    rows = b""
    for y in range(side):
        rows += b"\0" + bytes(220 if (x - side / 2) ** 2 + (y - side / 2) ** 2 < (side / 4) ** 2 else 20
                              for x in range(side))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def write(path, data):
    with open(path, "wb") as f:
        f.write(data.encode() if isinstance(data, str) else data)


def read(path):
    with open(path, "rb") as f:
        return f.read()


def mhd(folder, name, dims, data_name, data, kind="MET_UCHAR", channels=1):
    extra = "ElementNumberOfChannels = %d\n" % channels if channels > 1 else ""
    write(os.path.join(folder, name),
          "ObjectType = Image\nNDims = %d\nDimSize = %s\nElementType = %s\n%sElementDataFile = %s\n"
          % (len(dims), " ".join(map(str, dims)), kind, extra, data_name))
    write(os.path.join(folder, data_name), data)


def nifti(dims, datatype, bitpix, data):
    """A NIfTI-1 single file (.nii)."""
    return nifti1(dims, datatype, bitpix, data=data)


def fresh(work, name):
    base = os.path.join(work, name)
    shutil.rmtree(base, ignore_errors=True)
    os.makedirs(base)
    return base


def run(gvflab, args, env=None, timeout=LIMIT_S):
    """rc (None after the limit), stdout, stderr, seconds and the run's own peak memory in MiB."""
    return run_measured([gvflab, "--headless", *args], dict(os.environ, **(env or {})), timeout)


def refused(name, gvflab, args, expect, env=None, untouched=(), max_line=None):
    before = {p: read(p) for p in untouched}
    rc, out, err, seconds, peak = run(gvflab, args, env)
    lines = err.splitlines()
    check(peak < 1024, "%s: took %d MiB before its refusal" % (name, peak))
    check(rc is not None, "%s: ran past %d s" % (name, LIMIT_S))
    if rc is None:
        return
    check(rc != 0, "%s: exit 0 (stdout %r)" % (name, out[:300]))
    check(0 < rc < 128, "%s: killed or crashed (exit %d): %r" % (name, rc, err[:300]))
    check(len(lines) == 1 and lines[0].startswith("gvflab: "),
          "%s: expected one 'gvflab: ' line, got %r" % (name, err[:600]))
    check(any(expect in line for line in lines), "%s: no line names %r: %r" % (name, expect, err[:600]))
    if max_line:
        check(all(len(line) <= max_line for line in lines + out.splitlines()),
              "%s: a line longer than %d characters" % (name, max_line))
    for p, content in before.items():
        check(os.path.exists(p) and read(p) == content, "%s: %s was changed" % (name, p))


def ran(name, gvflab, args, env=None):
    rc, out, err, _, _ = run(gvflab, args, env)
    check(rc == 0, "%s: exit %s: %r" % (name, rc, err[:600]))
    return out, err


# --------------------------------------------------------------------------- overwrites

def outputs_onto_inputs(gvflab, work):
    base = fresh(work, "onto_inputs")
    img = os.path.join(base, "a.png")
    write(img, png(32, 32))
    edge = os.path.join(base, "edge.png")
    write(edge, png(32, 32, 5))
    field = os.path.join(base, "v0.mha")
    write(field, "ObjectType = Image\nNDims = 2\nDimSize = 32 32\nElementType = MET_FLOAT\n"
          "ElementNumberOfChannels = 2\nElementDataFile = LOCAL\n" + "\0" * (32 * 32 * 8))
    common = [img, "--iterations", "5"]
    refused("save_field_onto_v0", gvflab, common + ["--v0", field, "--save-field", field], "--v0",
            untouched=[field])
    refused("save_magnitude_onto_edge_map", gvflab,
            common + ["--edge-map", edge, "--save-magnitude", edge], "--edge-map", untouched=[edge])
    # A MetaImage's and a NRRD's detached data files.
    mhd(base, "m.mhd", (32, 32), "m.raw", bytes(32 * 32))
    raw = os.path.join(base, "m.raw")
    refused("report_onto_mhd_data_file", gvflab,
            [os.path.join(base, "m.mhd"), "--iterations", "5", "--report", raw], "data file",
            untouched=[raw])
    write(os.path.join(base, "n.nhdr"), "NRRD0004\ntype: uchar\ndimension: 2\nsizes: 32 32\n"
          "encoding: raw\ndata file: n.dat\n")
    write(os.path.join(base, "n.dat"), bytes(32 * 32))
    dat = os.path.join(base, "n.dat")
    refused("report_onto_nrrd_data_file", gvflab,
            [os.path.join(base, "n.nhdr"), "--iterations", "5", "--report", dat], "data file",
            untouched=[dat])
    refused("report_onto_edge_map_data_file", gvflab,
            [os.path.join(base, "n.nhdr"), "--edge-map", os.path.join(base, "m.mhd"),
             "--iterations", "5", "--report", raw], "--edge-map", untouched=[raw])
    # A DICOM series member.
    series = os.path.join(base, "series")
    os.makedirs(series)
    for i in range(3):
        write(os.path.join(series, "s%d.dcm" % i), dcm.meta(dcm.EXPLICIT) + dcm.image() + dcm.pixels())
    member = os.path.join(series, "s1.dcm")
    refused("report_onto_series_member", gvflab, [series, "--iterations", "5", "--report", member],
            "series", untouched=[member])
    # The --batch list.
    write(os.path.join(base, "l.png"), png(32, 32))
    lst = os.path.join(base, "l.txt")
    write(lst, "l.png\n")
    refused("batch_report_onto_list", gvflab,
            ["--batch", "@" + lst, "--output-dir", base, "--iterations", "5", "--report", "{stem}.txt"],
            "list", untouched=[lst])


# ----------------------------------------------------------------------------- batch lists

def batch_lists(gvflab, work):
    base = fresh(work, "batch_lists")
    out = os.path.join(base, "out")
    os.makedirs(out)
    write(os.path.join(base, "a.png"), png(16, 16))
    common = ["--output-dir", out, "--iterations", "5", "--report", "r.json"]
    fifo = os.path.join(base, "fifo.txt")
    os.mkfifo(fifo)
    refused("batch_list_fifo", gvflab, ["--batch", "@" + fifo] + common, "fifo.txt")
    refused("batch_list_device", gvflab, ["--batch", "@/dev/zero"] + common, "/dev/zero")
    nul = os.path.join(base, "nul.txt")
    write(nul, b"a.png\0../../x.png\n")
    refused("batch_list_nul", gvflab, ["--batch", "@" + nul] + common, "NUL")
    long_line = os.path.join(base, "long.txt")
    write(long_line, "a" * (4 << 20) + "\n")
    refused("batch_list_long_line", gvflab, ["--batch", "@" + long_line] + common, "line 1",
            max_line=400)
    sparse = os.path.join(base, "sparse.txt")
    with open(sparse, "wb") as f:
        f.truncate(1 << 30)
    refused("batch_list_sparse", gvflab, ["--batch", "@" + sparse] + common, "sparse.txt")
    check(not os.listdir(out), "batch lists: left behind %s" % os.listdir(out))
    # A series folder given with a trailing slash writes under the folder's name.
    series = os.path.join(base, "ser")
    os.makedirs(series)
    for i in range(2):
        write(os.path.join(series, "s%d.dcm" % i), dcm.meta(dcm.EXPLICIT) + dcm.image() + dcm.pixels())
    ran("batch_series_folder", gvflab, ["--batch", series + "/", "--output-dir", out,
                                        "--iterations", "5", "--report", "r.json"])
    check(sorted(os.listdir(out)) == ["ser-r.json"],
          "batch_series_folder: wrote %s, not ser-r.json" % sorted(os.listdir(out)))


# ------------------------------------------------------------------------- files not named

def series_link_out(gvflab, work):
    base = fresh(work, "series_link")
    series = os.path.join(base, "series")
    os.makedirs(series)
    write(os.path.join(series, "a.dcm"), dcm.meta(dcm.EXPLICIT) + dcm.image() + dcm.pixels())
    write(os.path.join(base, "secret.dcm"), dcm.meta(dcm.EXPLICIT) + dcm.image() + dcm.pixels())
    os.symlink(os.path.join(base, "secret.dcm"), os.path.join(series, "b.dcm"))
    refused("series_link_outside", gvflab, [series, "--iterations", "5"], "links outside")


# --------------------------------------------------------------------------- shapes first

def shapes_before_data(gvflab, work):
    base = fresh(work, "shapes")
    img = os.path.join(base, "a.png")
    write(img, png(32, 32))
    # Headers that promise much more than the file holds: a reader would fail on the data, the
    # gate on the shape, before a sample is read.
    big = os.path.join(base, "big.nii")
    write(big, nifti((1024, 1024, 512), 16, 32, b""))
    vol = os.path.join(base, "v.nii")
    write(vol, nifti((16, 16, 8), 2, 8, bytes(16 * 16 * 8)))
    refused("edge_map_shape_first", gvflab, [vol, "--iterations", "5", "--edge-map", big],
            "1024x1024x512")
    write(os.path.join(base, "f.mhd"), "ObjectType = Image\nNDims = 2\nDimSize = 16384 16384\n"
          "ElementType = MET_FLOAT\nElementNumberOfChannels = 2\nElementDataFile = f.raw\n")
    write(os.path.join(base, "f.raw"), b"")
    refused("v0_shape_first", gvflab, [img, "--iterations", "5", "--v0", os.path.join(base, "f.mhd")],
            "16384x16384")


# ------------------------------------------------------------------------------------ values

def values(gvflab, work):
    base = fresh(work, "values")
    out = os.path.join(base, "out")
    os.makedirs(out)
    # DICOM PixelSpacing 0\0: the geometry is unknown, never a known 1 mm.
    write(os.path.join(base, "z.dcm"), dcm.meta(dcm.EXPLICIT) + dcm.image(8, 8, spacing="0\\0")
          + dcm.pixels(8, 8))
    field = os.path.join(out, "z.nrrd")
    ran("dicom_zero_spacing", gvflab, [os.path.join(base, "z.dcm"), "--iterations", "5",
                                       "--save-field", field])
    header = read(field).split(b"\n\n")[0] if os.path.exists(field) else b""
    check(not any(k in header for k in (b"space directions", b"space dimension", b"spacings")),
          "dicom_zero_spacing: the field claims a geometry: %r" % header[:400])
    # NaN and infinity in a NIfTI: refused naming the file and the voxel, never made 0.
    for name, v in (("nan", float("nan")), ("inf", float("inf"))):
        data = struct.pack("<%df" % (4 * 4 * 2), *([1.0] * 5 + [v] + [0.5] * 26))
        path = os.path.join(base, "%s.nii" % name)
        write(path, nifti((4, 4, 2), 16, 32, data))
        refused("nifti_" + name, gvflab, [path, "--iterations", "5", "--save-field",
                                           os.path.join(out, "f.nii")], "voxel (1, 1, 0)")


# ------------------------------------------------------------------ sessions and batch runs

def sessions_and_pages(gvflab, work):
    base = fresh(work, "sessions")
    vol = os.path.join(base, "v.nii")
    write(vol, nifti((16, 16, 16), 2, 8, bytes(range(256)) * 16))
    session = os.path.join(base, "s.json")
    write(session, '{"gvflab_session": 1, "image": "v.nii"}')
    ran("session_without_solver_on_volume", gvflab, ["--session", session, "--iterations", "5"])
    # --page 0 of a stack too large as a volume (65536 pages of 182x182 sharing one strip).
    side, pages = 182, 65536
    entries = [(256, 3, 1, side), (257, 3, 1, side), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 1),
               (273, 4, 1, 8), (277, 3, 1, 1), (278, 3, 1, side), (279, 4, 1, side * side)]
    ifd_size = 2 + 12 * len(entries) + 4
    first = 8 + side * side
    parts = [b"II*\0" + struct.pack("<I", first), bytes(side * side)]
    for p in range(pages):
        at = first + p * ifd_size
        ifd = struct.pack("<H", len(entries))
        for tag, kind, count, value in entries:
            packed = struct.pack("<HH", value, 0) if kind == 3 else struct.pack("<I", value)
            ifd += struct.pack("<HHI", tag, kind, count) + packed
        parts.append(ifd + struct.pack("<I", at + ifd_size if p + 1 < pages else 0))
    stack = os.path.join(base, "stack.tif")
    write(stack, b"".join(parts))
    ran("page_of_a_large_stack", gvflab, [stack, "--page", "0", "--iterations", "5"])


def capture_unasked(gvflab, work):
    base = fresh(work, "capture")
    img = os.path.join(base, "b.png")
    write(img, blob_png(64))
    out, _ = ran("capture_unasked", gvflab, [img, "--iterations", "20", "--snake", "circle:32,32,24",
                                             "--snake-iterations", "10"])
    check("capture area" not in out, "capture_unasked: computed without an output asking: %r" % out)
    out, _ = ran("capture_asked", gvflab, [img, "--iterations", "20", "--snake", "circle:32,32,24",
                                           "--snake-iterations", "10", "--report",
                                           os.path.join(base, "r.json")])
    check("capture area" in out, "capture_asked: no capture area with --report: %r" % out)


def device_limits(gvflab, work):
    base = fresh(work, "device")
    img = os.path.join(base, "big.png")
    write(img, png(16384, 16384))
    refused("largest_image_small_device", gvflab, [img, "--iterations", "5"], "big.png",
            env={"GVFLAB_TEST_DEVICE_MIB": "512,128"})


def device_surfaces(gvflab, work):
    # A 64^3 volume: its field (about 14 MB) fits a 32 MiB device, four surfaces at their
    # vertex budgets (about 10 MB each) beside it do not: refused before anything is written.
    base = fresh(work, "device_surfaces")
    mhd(base, "v.mhd", (64, 64, 64), "v.raw", bytes((x * 7) % 256 for x in range(64 ** 3)))
    vol, report = os.path.join(base, "v.mhd"), os.path.join(base, "r.json")
    surface = ["--surface", "sphere:32,32,32,12"]
    env = {"GVFLAB_TEST_DEVICE_MIB": "32"}
    refused("surfaces_do_not_fit", gvflab, [vol, "--iterations", "2", *surface * 4, "--report",
                                            report], "4 surfaces", env=env)
    check(not os.path.exists(report), "surfaces_do_not_fit: the report was written")
    ran("one_surface_fits", gvflab, [vol, "--iterations", "2", *surface, "--snake-iterations",
                                     "2", "--report", report], env=env)


def signalled(name, argv, ready, signals):
    """Starts gvflab, waits (at most 240 s) until ready() holds, sends `signals` (none when it
    never did) and returns (whether it was ready, rc, stdout, stderr)."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL)
    deadline = time.monotonic() + 240
    seen = False
    while time.monotonic() < deadline and p.poll() is None and not seen:
        seen = ready()
    for s in signals if seen else ():
        p.send_signal(s)
    try:
        stdout, stderr = p.communicate(timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        p.kill()
        stdout, stderr = p.communicate()
        check(False, "%s: still running %d s after the signal" % (name, LIMIT_S))
    return seen, p.returncode, stdout, stderr


def batch_interrupted(gvflab, work):
    base = fresh(work, "batch_signal")
    out = os.path.join(base, "out")
    os.makedirs(out)
    inputs = []
    for i in range(3):
        inputs.append(os.path.join(base, "i%d.png" % i))
        write(inputs[-1], png(128, 128, i))
    # Signalled once gvflab has opened the first input (inotify: a logical event, no timing),
    # so the signal lands while that input is read, prepared or iterated (10M iterations).
    from signals import OpenWatch
    watch = OpenWatch(inputs[0])
    seen, rc, stdout, stderr = signalled(
        "batch_interrupted", [gvflab, "--headless", "--batch", *inputs, "--output-dir", out,
                              "--iterations", "10000000", "--report", "r.json"],
        lambda: watch.opened(0.05), [signal.SIGINT])
    watch.close()
    check(seen, "batch_interrupted: the first input was never opened (exit %s)" % rc)
    check(rc == 130, "batch_interrupted: exit %s" % rc)
    check(b"batch: 0 of 3 inputs done, interrupted at " in stdout,
          "batch_interrupted: no interrupted summary on stdout: %r / %r" % (stdout[:300], stderr[:300]))


def second_signal(gvflab, work):
    """SIGINT and SIGTERM once the field's temporary exists: the second ends the process at once and
    must undo as the first would (no temporary, no .kept file, the earlier output intact)."""
    base = fresh(work, "second_signal")
    out = os.path.join(base, "out")
    os.makedirs(out)
    img = os.path.join(base, "big.png")
    write(img, png(2048, 2048))
    earlier = b"an earlier output, which an interrupted run must leave as it was\n"
    field = os.path.join(out, "f.nrrd")
    write(field, earlier)

    def temporary():
        time.sleep(0.005)
        return any(n.startswith(".gvflab-") and n.endswith(".nrrd") for n in os.listdir(out))
    # Two kinds, so that the kernel cannot merge them into one pending signal.
    seen, rc, _, stderr = signalled(
        "second_signal", [gvflab, "--headless", img, "--iterations", "1", "--save-field", field],
        temporary, [signal.SIGINT, signal.SIGTERM])
    check(seen, "second_signal: never saw the temporary (exit %s)" % rc)
    if not seen:
        return
    check(rc in (130, 143), "second_signal: exit %s: %r" % (rc, stderr[-300:]))
    check(sorted(os.listdir(out)) == ["f.nrrd"], "second_signal: left %s" % sorted(os.listdir(out)))
    check(read(field) == earlier, "second_signal: the earlier output was changed")


CASES = [outputs_onto_inputs, batch_lists, series_link_out, shapes_before_data, values,
         sessions_and_pages, capture_unasked, device_limits, device_surfaces, batch_interrupted, second_signal]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gvflab")
    ap.add_argument("work")
    ap.add_argument("-k", default="")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    for case in CASES:
        if a.k in case.__name__:
            t0 = time.monotonic()
            case(a.gvflab, a.work)
            print("%-22s %5.1f s" % (case.__name__, time.monotonic() - t0))
    print("input gate: %d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
