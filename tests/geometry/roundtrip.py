#!/usr/bin/env python3
"""World geometry end to end (issue 28 item 2), checked by third-party readers from Debian.

A field saved from an input with a world geometry must overlay that input: nibabel reads the
same shape and affine back from NIfTI, teem's `unu head` shows the space directions and origin
of NRRD, and the MetaImage header has ElementSpacing, Offset and TransformMatrix (ITK's reader
is 29 Debian packages and a heavy compile: its header fields are checked instead). Inputs are
NIfTI (sform), NRRD (space, space directions), compressed MetaImage and a 2D NRRD; a phantom
(no geometry) still writes what it wrote before. Exits 77 (CTest: skipped) without nibabel
(python3-nibabel) or unu (teem-apps).

Usage: roundtrip.py GVFLAB WORK
"""
import os
import re
import shutil
import subprocess
import sys
import zlib

import numpy as np

try:
    import nibabel as nib
except ImportError:
    print("skipped: nibabel is not installed (Debian: python3-nibabel)")
    sys.exit(77)

UNU = shutil.which("teem-unu") or shutil.which("unu")  # Debian names it teem-unu
if not UNU:
    print("skipped: teem's unu is not installed (Debian: teem-apps, as teem-unu)")
    sys.exit(77)

GVFLAB, WORK = sys.argv[1], sys.argv[2]
RAS_TO_LPS = np.diag([-1.0, -1.0, 1.0])  # NIfTI's world is RAS, NRRD and MetaImage's here LPS
failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def run(*args):
    done = subprocess.run([GVFLAB, "--headless", *map(str, args), "--iterations", "10"],
                          capture_output=True, text=True, timeout=300)
    if done.returncode != 0:
        sys.exit(f"gvflab {' '.join(map(str, args))} failed ({done.returncode}):\n{done.stderr}")


def rotation(ax, az):
    cx, sx, cz, sz = np.cos(ax), np.sin(ax), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ rx


def ball(shape):
    grids = np.meshgrid(*[np.arange(n) - n / 2 for n in shape], indexing="ij")
    return (sum(g * g for g in grids) < (min(shape) / 3) ** 2).astype(np.float32)


def unu_head(path):
    text = subprocess.run([UNU, "head", str(path)], capture_output=True, text=True,
                          check=True).stdout
    fields = dict(line.split(": ", 1) for line in text.splitlines() if ": " in line)
    vectors = lambda s: [[float(v) for v in m.split(",")] for m in re.findall(r"\(([^)]+)\)", s)]
    return fields, vectors


def mha_header(path):
    head = open(path, "rb").read().split(b"ElementDataFile", 1)[0].decode()
    return {k.strip(): v.strip() for k, v in (l.split("=", 1) for l in head.splitlines() if "=" in l)}


def numbers(s):
    return np.array([float(v) for v in s.split()])


os.makedirs(WORK, exist_ok=True)
for f in os.listdir(WORK):
    os.remove(os.path.join(WORK, f))
w = lambda name: os.path.join(WORK, name)

# 1. NIfTI in (40x50x30, 0.8/0.5/2 mm, rotated and shifted), fields out in all three formats.
zooms = np.array([0.8, 0.5, 2.0])
affine = np.eye(4)
# Array axes i, j, k run mostly along z, x and y (the file came back transposed).
permute = np.array([[0, 1, 0], [0, 0, 1], [1, 0, 0]])
affine[:3, :3] = rotation(0.35, 0.2) @ permute @ np.diag(zooms)
affine[:3, 3] = [-31.5, 12.25, 40.0]
img = nib.Nifti1Image(ball((40, 50, 30)), affine)
img.set_sform(affine, code=1)
img.set_qform(affine, code=1)
nib.save(img, w("in.nii.gz"))
for out in ("vf.nii.gz", "vf.nrrd", "vf.mha"):
    run(w("in.nii.gz"), "--save-field", w(out))

vf = nib.load(w("vf.nii.gz"))
check(vf.shape == (40, 50, 30, 1, 3), f"NIfTI field keeps the input's shape: {vf.shape}")
check(np.allclose(vf.affine, affine, atol=1e-4), "NIfTI field has the input's affine")
check(int(vf.header["sform_code"]) > 0 and int(vf.header["qform_code"]) > 0,
      "NIfTI field sets sform and qform codes")
check(np.allclose(vf.get_qform(), affine, atol=1e-4), "NIfTI field's qform is the affine")
check(np.allclose(vf.header.get_zooms()[:3], zooms, atol=1e-6), "NIfTI field's pixdim")

lps = RAS_TO_LPS @ affine[:3, :3]
origin = RAS_TO_LPS @ affine[:3, 3]
fields, vectors = unu_head(w("vf.nrrd"))
check(fields.get("space") == "left-posterior-superior", "NRRD field has an LPS space")
check(fields.get("sizes") == "3 40 50 30", f"NRRD field keeps the input's shape: {fields.get('sizes')}")
directions = fields.get("space directions", "")
check(directions.startswith("none ") and np.allclose(vectors(directions), lps.T, atol=1e-5),
      "NRRD field's space directions are the input's axes")
found = vectors(fields.get("space origin", ""))
check(len(found) == 1 and np.allclose(found[0], origin, atol=1e-5),
      "NRRD field's space origin is the input's")

h = mha_header(w("vf.mha"))
check(h.get("DimSize") == "40 50 30", f"MetaImage field keeps the shape: {h.get('DimSize')}")
check(np.allclose(numbers(h.get("ElementSpacing", "")), zooms, atol=1e-6),
      "MetaImage field's ElementSpacing")
check(np.allclose(numbers(h.get("Offset", "")), origin, atol=1e-5), "MetaImage field's Offset")
# ITK's MetaImageIO: TransformMatrix lists axis 0's direction, then axis 1's, then axis 2's.
check(np.allclose(numbers(h.get("TransformMatrix", "")), (lps / zooms).T.ravel(), atol=1e-6),
      "MetaImage field's TransformMatrix")

# 2. NRRD in (RAS space, permuted axes), NIfTI out: nibabel sees the NRRD's RAS axes.
directions = np.array([[0, 0.5, 0], [0, 0, 2.0], [-0.8, 0, 0]])  # rows: axes 0, 1, 2
data = (ball((20, 16, 12)) * 200).astype(np.uint8)
with open(w("in.nrrd"), "wb") as f:
    f.write(b"NRRD0004\ntype: uchar\ndimension: 3\nspace: right-anterior-superior\n"
            b"sizes: 20 16 12\nspace directions: (0,0.5,0) (0,0,2) (-0.8,0,0)\n"
            b"kinds: domain domain domain\nencoding: raw\nspace origin: (5,-6,7)\n\n")
    f.write(data.tobytes(order="F"))
run(w("in.nrrd"), "--save-field", w("nrrd_vf.nii"))
want = np.eye(4)
want[:3, :3] = directions.T
want[:3, 3] = [5, -6, 7]
got = nib.load(w("nrrd_vf.nii"))
check(got.shape[:3] == (20, 16, 12), "NRRD input: NIfTI field keeps its shape")
check(np.allclose(got.affine, want, atol=1e-5), "NRRD input: NIfTI field has its affine")

# 3. Compressed MetaImage in (zlib, as ITK writes it), NIfTI out.
data = (ball((18, 14, 10)) * 1000).astype(np.int16)
packed = zlib.compress(data.tobytes(order="F"))
with open(w("in.mha"), "wb") as f:
    f.write(("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
             f"CompressedData = True\nCompressedDataSize = {len(packed)}\n"
             "TransformMatrix = 0 1 0 -1 0 0 0 0 1\nOffset = 1 2 3\n"
             "ElementSpacing = 0.7 0.9 1.5\nDimSize = 18 14 10\nElementType = MET_SHORT\n"
             "ElementDataFile = LOCAL\n").encode())
    f.write(packed)
run(w("in.mha"), "--save-field", w("mha_vf.nii.gz"))
lps = np.array([[0, -1, 0], [1, 0, 0], [0, 0, 1]]) @ np.diag([0.7, 0.9, 1.5])
want = np.eye(4)
want[:3, :3] = RAS_TO_LPS @ lps
want[:3, 3] = RAS_TO_LPS @ [1, 2, 3]
got = nib.load(w("mha_vf.nii.gz"))
check(got.shape[:3] == (18, 14, 10), "compressed MetaImage input: shape kept")
check(np.allclose(got.affine, want, atol=1e-5), "compressed MetaImage input: affine kept")

# 4. A 2D NRRD image (2 space dimensions): its field's spacing and origin in all formats.
image = (ball((32, 24)) * 255).astype(np.uint8)
with open(w("in2.nrrd"), "wb") as f:
    f.write(b"NRRD0004\ntype: uchar\ndimension: 2\nspace dimension: 2\nsizes: 32 24\n"
            b"space directions: (0.5,0) (0,0.25)\nencoding: raw\nspace origin: (3,4)\n\n")
    f.write(image.tobytes(order="F"))
# Spacing 0.5 x 0.25 makes max|V0|^2 > 2 (V0 per mm): Euler's default mu would be 0, which is
# refused (issue 44), so multigrid solves it.
for out in ("f2.nii", "f2.nrrd", "f2.mha"):
    run(w("in2.nrrd"), "--solver", "multigrid", "--save-field", w(out))
got = nib.load(w("f2.nii"))
check(got.shape[:2] == (32, 24), "2D: NIfTI field keeps the shape")
check(np.allclose(got.affine, [[-0.5, 0, 0, -3], [0, -0.25, 0, -4], [0, 0, 1, 0], [0, 0, 0, 1]]),
      "2D: NIfTI field's affine")
fields, vectors = unu_head(w("f2.nrrd"))
check(fields.get("space dimension") == "2" and
      np.allclose(vectors(fields.get("space directions", "")), [[0.5, 0], [0, 0.25]]),
      "2D: NRRD field's space directions")
h = mha_header(w("f2.mha"))
check(h.get("ElementSpacing") == "0.5 0.25" and h.get("Offset") == "3 4",
      "2D: MetaImage field's ElementSpacing and Offset")

# 5. No geometry (a phantom): what was written before: codes 0, unit pixdim, no space.
for out in ("u.nii", "u.nrrd", "u.mha"):
    run("--phantom", "u", "--phantom-size", "48", "--save-field", w(out))
u = nib.load(w("u.nii"))
check(int(u.header["sform_code"]) == 0 and int(u.header["qform_code"]) == 0 and
      np.allclose(u.header.get_zooms()[:2], [1, 1]), "phantom: NIfTI codes 0, unit pixdim")
fields, _ = unu_head(w("u.nrrd"))
check(not any(k.startswith("space") for k in fields), "phantom: NRRD has no space")
h = mha_header(w("u.mha"))
check(h.get("ElementSpacing") == "1 1" and "Offset" not in h and "TransformMatrix" not in h,
      "phantom: MetaImage has unit spacing only")

if failures:
    sys.exit(f"{len(failures)} geometry check(s) failed: " + "; ".join(failures))
print("world geometry kept end to end")
