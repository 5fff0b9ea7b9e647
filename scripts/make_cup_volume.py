#!/usr/bin/env python3
"""Writes a cup volume as uncompressed 8-bit MetaImage: the lower half of a hollow sphere at 200
on a background of 30. The 3D analogue of the U phantom: GVF must reach into the cavity from
the open top. Procedural, so it carries no licence of its own.

Usage: make_cup_volume.py [OUT.mha [N]]
  default: assets/volumes/cup64.mha, N = 64 (shell radii 18..24 voxels, open above z = c - 2);
  other N (a multiple of 16, e.g. 256 for the GPU viewer benchmark) scale the cup with N.

Integer arithmetic on doubled coordinates (exact, so N = 64 gives the asset bit for bit), and
per row of voxels the shell's x-intervals from integer square roots: 256^3 takes seconds."""
import math
import pathlib
import sys

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "assets/volumes/cup64.mha")
N = int(sys.argv[2]) if len(sys.argv) > 2 else 64
if N < 16 or N % 16:
    sys.exit(f"make_cup_volume.py: N must be a multiple of 16 (>= 16), not {N}.")
M = N - 1          # doubled centre: 2c
lo = (9 * N // 16) ** 2   # (2 * 18 * N / 64)^2: inner radius, doubled, squared
hi = (12 * N // 16) ** 2  # (2 * 24 * N / 64)^2: outer radius
z_open = M - N // 16      # 2z >= 2c - 2 * (2 * N / 64): the cup's open top


def shell_x(q):
    """The x whose (2x - M)^2 + q lies in [lo, hi], as (start, stop) ranges."""
    if q > hi:
        return []
    b = math.isqrt(hi - q)                      # |2x - M| <= b
    a = 0 if q >= lo else math.isqrt(lo - q - 1) + 1  # |2x - M| >= a
    if a > b:
        return []
    # 2x - M in [a, b]  <=>  x in [ceil((M + a) / 2), floor((M + b) / 2)], and mirrored.
    right = ((M + a + 1) // 2, (M + b) // 2 + 1)
    left = ((M - b + 1) // 2, (M - a) // 2 + 1)
    if left[1] > right[0]:
        return [(left[0], right[1])]
    return [left, right]


voxels = bytearray([30]) * (N * N * N)
for z in range(N):
    if 2 * z < z_open:
        continue
    dz = (2 * z - M) ** 2
    for y in range(N):
        base = (z * N + y) * N
        for x0, x1 in shell_x(dz + (2 * y - M) ** 2):
            x0, x1 = max(x0, 0), min(x1, N)
            if x1 > x0:
                voxels[base + x0:base + x1] = b"\xc8" * (x1 - x0)
header = (
    "ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
    f"DimSize = {N} {N} {N}\nElementSpacing = 1 1 1\nElementType = MET_UCHAR\n"
    "ElementDataFile = LOCAL\n"
)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_bytes(header.encode() + bytes(voxels))
print(f"wrote {out} ({N}^3)")
