#!/usr/bin/env python3
"""Writes assets/volumes/cup64.mha: a 64^3 cup (the lower half of a hollow sphere, shell
radii 18..24 voxels) at 200 on a background of 30, as uncompressed 8-bit MetaImage. The 3D
analogue of the U phantom: GVF must reach into the cavity from the open top. Procedural, so
it carries no licence of its own; run again to regenerate."""
import math
import pathlib
import sys

N = 64
out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "assets/volumes/cup64.mha")
c = (N - 1) / 2
voxels = bytearray(N * N * N)
for z in range(N):
    for y in range(N):
        for x in range(N):
            r = math.dist((x, y, z), (c, c, c))
            inside_shell = 18 <= r <= 24 and z >= c - 2
            voxels[(z * N + y) * N + x] = 200 if inside_shell else 30
header = (
    "ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
    f"DimSize = {N} {N} {N}\nElementSpacing = 1 1 1\nElementType = MET_UCHAR\n"
    "ElementDataFile = LOCAL\n"
)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_bytes(header.encode() + bytes(voxels))
print(f"wrote {out} ({N}^3)")
