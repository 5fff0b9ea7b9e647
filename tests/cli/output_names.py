#!/usr/bin/env python3
"""Output names with early dots and long tails (issue 44 item 1), through the headless CLI.

Every output format is written under a dotted name (``my.result-field.nii.gz``, whose tail after
the first dot is longer than the atomic writer's old 16-character limit): fields (.mha, .nii,
.nii.gz, .nrrd), the magnitude PNG, the JSON report, contours (.json, .geojson, .csv, .svg), masks
(.png, .nrrd, .nii, .nii.gz) from ``scan.2024-01-05.png``, a volume's field and surfaces (.ply,
.obj, .stl), and ``--batch`` on ``scan.2024-01-05.png``. Each run must exit 0 and leave exactly its
outputs, each in its format, and no hidden temporary.

Usage: output_names.py GVFLAB WORKDIR
"""
import gzip
import json
import os
import shutil
import struct
import sys
import zlib

from cli_checks import check, failures, run, succeeded

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def write_png(path, side):
    """A bright disc on a dark ground, 8-bit grey."""
    rows = []
    for y in range(side):
        rows.append(b"\0" + bytes(220 if (x - side / 2) ** 2 + (y - side / 2) ** 2 < (side / 4) ** 2
                                  else 30 for x in range(side)))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    with open(path, "wb") as f:
        f.write(PNG_SIGNATURE + chunk(b"IHDR", struct.pack(">IIBBBBB", side, side, 8, 0, 0, 0, 0)) +
                chunk(b"IDAT", zlib.compress(b"".join(rows))) + chunk(b"IEND", b""))


def write_volume(path, side):
    """A bright ball in a dark box, MetaImage with its data inline."""
    c, r = side / 2, side / 4
    data = bytes(200 if (x + 0.5 - c) ** 2 + (y + 0.5 - c) ** 2 + (z + 0.5 - c) ** 2 < r * r else 20
                 for z in range(side) for y in range(side) for x in range(side))
    header = ("ObjectType = Image\nNDims = 3\nDimSize = %d %d %d\nElementType = MET_UCHAR\n"
              "ElementDataFile = LOCAL\n" % (side, side, side))
    with open(path, "wb") as f:
        f.write(header.encode() + data)


def in_format(path):
    """Whether the file's bytes are what its name promises (its magic, or JSON that parses)."""
    with open(path, "rb") as f:
        data = f.read()
    name = path.lower()
    if not data:
        return False
    if name.endswith(".nii.gz"):
        data = gzip.decompress(data)
    if name.endswith((".nii", ".nii.gz")):
        return len(data) > 352 and struct.unpack("<i", data[:4])[0] == 348 and data[344:347] == b"n+1"
    if name.endswith(".nrrd"):
        return data.startswith(b"NRRD")
    if name.endswith(".mha"):
        return data.startswith(b"ObjectType")
    if name.endswith(".png"):
        return data.startswith(PNG_SIGNATURE)
    if name.endswith((".json", ".geojson")):
        json.loads(data)
        return True
    if name.endswith(".svg"):
        return b"<svg" in data
    if name.endswith(".ply"):
        return data.startswith(b"ply")
    if name.endswith(".obj"):
        return b"\nv " in data or data.startswith(b"v ")
    if name.endswith(".stl"):
        return len(data) > 84
    return len(data) > 0  # .csv


def check_folder(folder, expected, label):
    """The folder holds exactly expected (names), each in its format: no temporary left."""
    got = set(os.listdir(folder))
    check(got == set(expected), "%s: the folder holds %s, expected %s"
          % (label, sorted(got), sorted(expected)))
    for name in expected:
        path = os.path.join(folder, name)
        if os.path.exists(path):
            check(in_format(path), "%s: %s is not a well-formed file of its format" % (label, name))


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def main():
    exe, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    os.makedirs(work, exist_ok=True)
    image = "scan.2024-01-05.png"
    fields = [".mha", ".nii", ".nii.gz", ".nrrd"]
    contours = [".json", ".geojson", ".csv", ".svg"]
    masks = [".png", ".nrrd", ".nii", ".nii.gz"]
    for i, (field, contour, mask) in enumerate(zip(fields, contours, masks)):
        d = fresh(work, "image%d" % i)
        write_png(os.path.join(d, image), 48)
        outputs = ["my.result-field" + field, "my.result-magnitude.png", "my.result-report.json",
                   "my.result-contours" + contour, "my.result-mask" + mask]
        cmd = [exe, "--headless", "--quiet", image, "--iterations", "20", "--snake",
               "circle:24,24,16", "--snake-iterations", "20", "--save-field", outputs[0],
               "--save-magnitude", outputs[1], "--report", outputs[2], "--save-contours",
               outputs[3], "--save-mask", outputs[4]]
        label = "image with %s, %s, %s" % (field, contour, mask)
        if succeeded(run(cmd, d), label):
            check_folder(d, [image] + outputs, label)

    d = fresh(work, "volume")
    volume = "vol.2024-01-05.mha"
    write_volume(os.path.join(d, volume), 20)
    surfaces = ["my.result-surface.ply", "my.result-surface.obj", "my.result-surface.stl"]
    for surface in surfaces:
        cmd = [exe, "--headless", "--quiet", volume, "--iterations", "10", "--surface",
               "sphere:10,10,10,7", "--snake-iterations", "5", "--save-surfaces", surface,
               "--save-field", "my.result-volume-field.nii.gz"]
        succeeded(run(cmd, d), "volume with " + surface)
    # One file per surface, numbered: my.result-surface-1.ply.
    written = [name.replace("surface.", "surface-1.") for name in surfaces]
    check_folder(d, [volume, "my.result-volume-field.nii.gz"] + written, "volume")

    d = fresh(work, "batch")
    write_png(os.path.join(d, image), 48)
    os.makedirs(os.path.join(d, "out"))
    cmd = [exe, "--headless", "--quiet", "--batch", image, "--output-dir", "out", "--iterations",
           "20", "--save-field", "field.nii.gz", "--save-magnitude", "magnitude.png", "--report",
           "report.json"]
    if succeeded(run(cmd, d), "--batch on " + image):
        check_folder(os.path.join(d, "out"),
                     ["scan.2024-01-05-field.nii.gz", "scan.2024-01-05-magnitude.png",
                      "scan.2024-01-05-report.json"], "--batch")

    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("ok: every output format under a dotted name, and --batch")


if __name__ == "__main__":
    main()
