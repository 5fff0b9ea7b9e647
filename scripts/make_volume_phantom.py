#!/usr/bin/env python3
"""Writes one of the engine's volume phantoms as a MetaImage the CLI and the viewer read: the
volume of gvflab.volume_phantom() (makeVolumePhantom, engine/src/volume_phantoms.cpp), so the
demo's asset and the engine's tests see one cup. Float samples in [0, 1], zlib-compressed
(mostly 0 and 1: a 64^3 cup packs into a few kB), unit spacing.

Usage: PYTHONPATH=build/python /usr/bin/python3 scripts/make_volume_phantom.py [NAME [SIZE [OUT]]]
  default: cup 64 assets/volumes/cup-well64.mha (the "surface" demo's volume).
tests/python/test_surfaces.py checks that the shipped asset is the engine's phantom."""
import pathlib
import sys
import zlib

import numpy as np

import gvflab

name = sys.argv[1] if len(sys.argv) > 1 else "cup"
size = int(sys.argv[2]) if len(sys.argv) > 2 else 64
stem = "cup-well" if name == "cup" else name
out = pathlib.Path(sys.argv[3] if len(sys.argv) > 3 else f"assets/volumes/{stem}{size}.mha")
volume = gvflab.volume_phantom(name, size)  # planes x rows x cols: x fastest, as MetaImage
packed = zlib.compress(np.ascontiguousarray(volume, dtype="<f4").tobytes(), 9)
depth, rows, cols = volume.shape
header = (
    "ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
    f"CompressedData = True\nCompressedDataSize = {len(packed)}\n"
    f"DimSize = {cols} {rows} {depth}\nElementSpacing = 1 1 1\nElementType = MET_FLOAT\n"
    "ElementDataFile = LOCAL\n"
)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_bytes(header.encode() + packed)
print(f"wrote {out} ({name}, {size}^3, {out.stat().st_size} bytes)")
