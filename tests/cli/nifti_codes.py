#!/usr/bin/env python3
"""NIfTI's space codes kept (issue 44 item 3), through the headless CLI.

A NIfTI input names its space with sform_code and qform_code (1 scanner, 2 aligned, 3 Talairach,
4 MNI 152); a field saved from it (.nii and .nii.gz) must carry the same codes and the same
transform, so that an MNI or aligned input does not come back labelled "scanner". The header is
read with struct here (NIfTI-1: qform_code at byte 252, sform_code at 254, srow_* at 280).

Usage: nifti_codes.py GVFLAB WORKDIR
"""
import gzip
import os
import shutil
import struct
import sys

from cli_checks import check, failures, run, succeeded

SIDE = 12
SROW = [(1.5, 0.0, 0.0, -10.0), (0.0, 1.5, 0.0, 20.0), (0.0, 0.0, 2.0, 5.0)]


def write_nifti(path, qform_code, sform_code):
    """A bright cube in a dark box, uint8, voxels 1.5 x 1.5 x 2 mm, both transforms set alike."""
    h = bytearray(352)
    struct.pack_into("<i", h, 0, 348)
    struct.pack_into("<8h", h, 40, 3, SIDE, SIDE, SIDE, 1, 1, 1, 1)
    struct.pack_into("<hh", h, 70, 2, 8)  # DT_UINT8, 8 bits
    struct.pack_into("<8f", h, 76, 1.0, 1.5, 1.5, 2.0, 0, 0, 0, 0)  # qfac, then spacing
    struct.pack_into("<f", h, 108, 352.0)  # vox_offset
    struct.pack_into("<B", h, 123, 2)  # mm
    struct.pack_into("<hh", h, 252, qform_code, sform_code)
    struct.pack_into("<6f", h, 256, 0, 0, 0, SROW[0][3], SROW[1][3], SROW[2][3])
    for row, values in enumerate(SROW):
        struct.pack_into("<4f", h, 280 + 16 * row, *values)
    h[344:348] = b"n+1\0"
    data = bytes(200 if all(3 <= v < SIDE - 3 for v in (x, y, z)) else 20
                 for z in range(SIDE) for y in range(SIDE) for x in range(SIDE))
    with open(path, "wb") as f:
        f.write(bytes(h) + data)


def header(path):
    with open(path, "rb") as f:
        data = f.read()
    if path.endswith(".gz"):
        data = gzip.decompress(data)
    qform, sform = struct.unpack_from("<hh", data, 252)
    srow = [struct.unpack_from("<4f", data, 280 + 16 * r) for r in range(3)]
    qoffset = struct.unpack_from("<3f", data, 268)
    return qform, sform, srow, qoffset


def main():
    exe, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    # (qform_code, sform_code): MNI sform over an aligned qform, aligned sform alone, a
    # Talairach qform alone.
    for qform, sform in [(2, 4), (0, 2), (3, 0)]:
        name = "in_q%d_s%d.nii" % (qform, sform)
        write_nifti(os.path.join(work, name), qform, sform)
        for out in ("f_q%d_s%d.nii" % (qform, sform), "f_q%d_s%d.nii.gz" % (qform, sform)):
            label = "%s -> %s" % (name, out)
            if not succeeded(run([exe, "--headless", "--quiet", name, "--iterations", "5",
                                  "--save-field", out], work), label):
                continue
            got_q, got_s, srow, qoffset = header(os.path.join(work, out))
            check((got_q, got_s) == (qform, sform),
                  "%s: qform_code %d, sform_code %d; the input's are %d, %d"
                  % (label, got_q, got_s, qform, sform))
            if sform:
                check(all(abs(a - b) < 1e-4 for r in range(3) for a, b in zip(srow[r], SROW[r])),
                      "%s: srow %r, the input's %r" % (label, srow, SROW))
            if qform:
                want = tuple(SROW[r][3] for r in range(3))
                check(all(abs(a - b) < 1e-4 for a, b in zip(qoffset, want)),
                      "%s: qoffset %r, the input's %r" % (label, qoffset, want))
    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("ok: the input's sform/qform codes on every field written")


if __name__ == "__main__":
    main()
