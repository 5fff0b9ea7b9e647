#!/usr/bin/env python3
"""The snakes' outputs end to end through the headless CLI (issue 28 item 5):

  - --save-mask of the region snake holds exactly the target its report counts (n_target),
    as NIfTI (read here from the header's own fields) and as PNG (decoded here, no library);
  - --save-mask of parametric snakes labels snake k with k, and each label covers about the
    area of its contour in --save-contours;
  - --save-contours F.svg --svg-image draws the image beneath, in the forces' colours with a
    legend; .geojson says its coordinates;
  - conflicting or repeated outputs are refused before anything runs, naming the flags, and
    nothing is written.

Usage: mask_outputs.py GVFLAB WORKDIR
"""
import json
import os
import shutil
import struct
import sys
import zlib

from cli_checks import check, failures, refused, run, succeeded


def nifti_labels(path):
    """(width, height, datatype, labels) of an uncompressed NIfTI-1 2D image."""
    with open(path, "rb") as f:
        data = f.read()
    assert struct.unpack_from("<i", data, 0)[0] == 348, "not a little-endian NIfTI-1 file"
    dim = struct.unpack_from("<8h", data, 40)
    datatype = struct.unpack_from("<h", data, 70)[0]
    offset = int(struct.unpack_from("<f", data, 108)[0])
    w, h = dim[1], dim[2]
    size = 1 if datatype == 2 else 2  # NIFTI_TYPE_UINT8 = 2, UINT16 = 512
    fmt = "<%d%s" % (w * h, "B" if size == 1 else "H")
    return w, h, datatype, list(struct.unpack_from(fmt, data, offset))


def png_grey8(path):
    """(width, height, values) of an 8-bit grey, non-interlaced PNG."""
    with open(path, "rb") as f:
        data = f.read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack_from(">I4s", data, pos)
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and colour == 0 and interlace == 0, (depth, colour, interlace)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, rows, prev = zlib.decompress(idat), [], bytes(w)
    for y in range(h):
        line = raw[y * (w + 1):(y + 1) * (w + 1)]
        kind, cur = line[0], bytearray(line[1:])
        for x in range(w):
            a = cur[x - 1] if x else 0
            b, c = prev[x], prev[x - 1] if x else 0
            if kind == 1:
                cur[x] = (cur[x] + a) & 255
            elif kind == 2:
                cur[x] = (cur[x] + b) & 255
            elif kind == 3:
                cur[x] = (cur[x] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                cur[x] = (cur[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(cur))
        prev = bytes(cur)
    return w, h, list(b"".join(rows))


def area(points):
    return abs(sum(p[0] * q[1] - q[0] * p[1]
                   for p, q in zip(points, points[1:] + points[:1]))) / 2


def perimeter(points):
    return sum(((p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2) ** 0.5
               for p, q in zip(points, points[1:] + points[:1]))


def fresh(work, name):
    d = os.path.join(work, name)
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    return d


def region_masks(gvflab, work):
    d = fresh(work, "region")
    region = [gvflab, "--headless", "--quiet", "--phantom", "blob", "--phantom-size", "64",
              "--region-snake", "--d-max", "8"]
    if not succeeded(run(region + ["--save-mask", "m.nii", "--report", "r.json"], d), "region"):
        return
    with open(os.path.join(d, "r.json")) as f:
        report = json.load(f)
    w, h, datatype, labels = nifti_labels(os.path.join(d, "m.nii"))
    check((w, h, datatype) == (64, 64, 2), "region mask: %dx%d, datatype %d" % (w, h, datatype))
    check(set(labels) <= {0, 1}, "region mask labels: %s" % sorted(set(labels)))
    check(labels.count(1) == report["n_target"],
          "region mask: %d pixels inside, the report's n_target is %d"
          % (labels.count(1), report["n_target"]))
    if succeeded(run(region + ["--save-mask", "m.png"], d), "region png"):
        pw, ph, values = png_grey8(os.path.join(d, "m.png"))
        check((pw, ph) == (64, 64) and values == labels, "region mask: the PNG differs from NIfTI")


def snake_masks(gvflab, work):
    d = fresh(work, "snakes")
    cmd = [gvflab, "--headless", "--quiet", "--phantom", "u", "--phantom-size", "64",
           "--iterations", "20", "--snake", "circle:20,20,8", "--snake",
           "polygon:40,40,56,40,56,56,40,56@traditional", "--snake-iterations", "3",
           "--save-mask", "s.nii", "--save-contours", "s.json"]
    if not succeeded(run(cmd, d), "snakes"):
        return
    _, _, _, labels = nifti_labels(os.path.join(d, "s.nii"))
    with open(os.path.join(d, "s.json")) as f:
        contours = json.load(f)["contours"]
    check(set(labels) == {0, 1, 2}, "snake mask labels: %s" % sorted(set(labels)))
    for k, c in enumerate(contours, 1):
        pts = c["points"]
        n = labels.count(k)
        check(abs(n - area(pts)) <= perimeter(pts) / 2 + 4,
              "snake %d: %d pixels labelled, its contour encloses %.1f" % (k, n, area(pts)))


def svg_and_geojson(gvflab, work):
    d = fresh(work, "svg")
    cmd = [gvflab, "--headless", "--quiet", "--phantom", "u", "--phantom-size", "48",
           "--iterations", "10", "--snake", "circle:24,24,10", "--snake",
           "circle:12,12,4@traditional", "--snake-iterations", "3"]
    if succeeded(run(cmd + ["--save-contours", "c.svg", "--svg-image"], d), "svg"):
        with open(os.path.join(d, "c.svg")) as f:
            svg = f.read()
        check('<image x="0" y="0" width="48" height="48"' in svg, "svg: no image beneath")
        check('stroke="#ff4dd9"' in svg and 'stroke="#40e6ff"' in svg,
              "svg: not in the forces' colours")
        check(">GVF</text>" in svg and ">grad f</text>" in svg, "svg: no legend")
    if succeeded(run(cmd + ["--save-contours", "c.geojson", "--contour-coordinates",
                            "pixel-y-up"], d), "geojson"):
        with open(os.path.join(d, "c.geojson")) as f:
            geo = json.load(f)
        check(geo.get("gvflab:coordinates", {}).get("system") == "pixel-y-up",
              "geojson: coordinates not stated: %r" % geo.get("gvflab:coordinates"))


def refusals(gvflab, work):
    d = fresh(work, "refused")
    with open(os.path.join(d, "in.nrrd"), "wb") as f:  # an input with a mask's extension
        f.write(b"NRRD0004\ntype: uchar\ndimension: 2\nsizes: 16 16\nencoding: raw\n\n" +
                bytes(range(256)))
    base = [gvflab, "--headless", "--quiet", "in.nrrd", "--iterations", "5",
            "--snake", "circle:8,8,4"]
    cases = [
        (["--save-mask", "a.png", "--save-mask", "b.png"], "--save-mask", "twice"),
        (["--composite", "a.png", "--composite", "b.png"], "--composite", "twice"),
        (["--save-mask", "f.nrrd", "--save-field", "f.nrrd"], "--save-mask", "--save-field",
         "same file"),
        (["--save-mask", "x.png", "--save-contours", "c.json", "--capture-map", "x.png"],
         "--save-mask", "--capture-map", "same file"),
        (["--save-mask", "in.nrrd"], "--save-mask", "in.nrrd", "same file"),
        (["--save-mask", "m.jpg"], "--save-mask", "m.jpg"),
        (["--svg-image", "--save-contours", "c.json"], "--svg-image", ".svg"),
        (["--contour-coordinates", "world", "--save-contours", "c.svg"],
         "--contour-coordinates", "pixels"),
        (["--contour-coordinates", "world"], "--contour-coordinates", "--save-contours"),
        (["--contour-coordinates", "metres", "--save-contours", "c.json"],
         "--contour-coordinates", "metres"),
    ]
    for extra, *words in cases:
        refused(run(base + extra, d), " ".join(extra), *words)
    refused(run([gvflab, "--headless", "--quiet", "in.nrrd", "--save-mask", "m.png"], d),
            "--save-mask without snakes", "--save-mask needs")
    check(sorted(os.listdir(d)) == ["in.nrrd"], "refusals: files written: %s" % os.listdir(d))


def main():
    gvflab, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    for case in [refusals, region_masks, snake_masks, svg_and_geojson]:
        case(gvflab, work)
    if failures:
        print("%d failure(s)" % len(failures))
        return 1
    print("all mask and contour output cases passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
