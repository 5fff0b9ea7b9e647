#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora: tests/fuzz/corpus/<reader>/, small valid and near-valid
files. Near-valid ones are the malformed-input corpus' own (tests/cli/malformed_inputs.py and
its corpus_*.py modules: every input file of at most 8 KiB, and every --snake spec); valid
ones are built here with the same builders. Names are content hashes, as libFuzzer names what
it adds, so running this again changes nothing unless a builder changed.

Usage: make_corpus.py [OUT]   (default: corpus/ beside this file)
"""
import gzip
import hashlib
import json
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in tests/cli
sys.path.insert(0, os.path.join(HERE, "..", "cli"))
import malformed_inputs as mi  # noqa: E402

MAX_SEED = 8 * 1024

# Extension of a malformed case's input file -> the harness that reads it.
READER_OF = {".png": "image", ".jpg": "image", ".bmp": "image", ".tif": "image", ".md": "image",
             ".pgm": "pnm", ".ppm": "pnm", ".mha": "metaimage", ".mhd": "metaimage",
             ".nrrd": "nrrd", ".nhdr": "nrrd", ".nii": "nifti", ".gz": "nifti", ".hdr": "nifti",
             ".json": "session"}


def valid_seeds():
    ramp = bytes(range(256))
    s = {"image": [], "pnm": [], "metaimage": [], "nrrd": [], "nifti": [], "session": [],
         "snake": []}
    s["image"] += [mi.png(), mi.png(8, 8, 16, 0, rows=b"".join(b"\0" + b"\x12\x34" * 8 for _ in range(8))),
                   mi.tiff(), mi.tiff(bits=16, strip=bytes(128)), mi.bmp(), mi.bmp(bpp=24, data=bytes(8 * 24)),
                   mi.jpeg_sof(8, 8), b"P5\n4 4\n255\n" + ramp[:16]]
    s["pnm"] += [b"P5\n4 4\n255\n" + ramp[:16], b"P5\n2 2\n65535\n" + ramp[:8],
                 b"P6\n2 2\n255\n" + ramp[:12], b"P2\n# comment\n3 2\n9\n0 1 2\n3 4 9\n",
                 b"P3\n1 2\n255\n1 2 3\n4 5 6\n"]
    head = "ObjectType = Image\nNDims = %d\nDimSize = %s\nElementType = %s\n"
    s["metaimage"] += [
        mi.mha(head % (2, "4 4", "MET_UCHAR") + "ElementDataFile = LOCAL\n", ramp[:16]),
        mi.mha(head % (3, "2 2 2", "MET_SHORT") + "ElementSpacing = 1 1 2\nBinaryDataByteOrderMSB = True\n"
               "ElementDataFile = LOCAL\n", ramp[:16]),
        mi.mha(head % (2, "2 2", "MET_FLOAT") + "ElementNumberOfChannels = 2\nElementDataFile = LOCAL\n",
               struct.pack("<8f", *range(8))),
        mi.mha(head % (3, "1 1 2", "MET_FLOAT") + "ElementNumberOfChannels = 3\nElementDataFile = LOCAL\n",
               struct.pack("<6f", *range(6))),
        mi.mha(head % (3, "16 16 16", "MET_USHORT") + "ElementDataFile = data.raw\n"),
        mi.mha(head % (2, "8 8", "MET_DOUBLE") + "HeaderSize = 16\nElementDataFile = data.raw\n")]
    nrrd = "NRRD0004\ntype: %s\ndimension: %d\nsizes: %s\nencoding: %s\nendian: little\n"
    s["nrrd"] += [
        (nrrd % ("uchar", 2, "4 4", "raw") + "\n").encode() + ramp[:16],
        (nrrd % ("short", 3, "2 2 2", "raw") + "space directions: (1,0,0) (0,1,0) (0,0,2)\n\n").encode() + ramp[:16],
        (nrrd % ("float", 3, "2 2 2", "raw") + "kinds: 2-vector domain domain\n\n").encode() + struct.pack("<8f", *range(8)),
        (nrrd % ("uchar", 2, "4 4", "gzip") + "\n").encode() + gzip.compress(ramp[:16]),
        (nrrd % ("uchar", 2, "3 2", "ascii") + "\n").encode() + b"1 2 3\n4 5 6\n",
        (nrrd % ("ushort", 3, "16 16 16", "raw") + "data file: data.raw\n").encode(),
        (nrrd % ("uchar", 3, "4 4 2", "raw") + "byte skip: 4\ndata file: LIST\ndata.raw\ndata.raw\n").encode()]
    s["nifti"] += [mi.nifti1([4, 4, 4], data=ramp[:64]), mi.nifti1([2, 2, 2], 16, 32, data=bytes(32)),
                   mi.nifti1([8, 8, 8], 4, 16, vox_offset=0, magic=b"ni1\0"),
                   gzip.compress(mi.nifti1([4, 4, 2], data=ramp[:32]))]
    sq = [[10, 10], [40, 10], [40, 40], [10, 40]]
    s["session"] += [
        mi.session(), mi.session(snakes=[{"points": sq, "force": "gvf", "pressure": 0.1}]),
        mi.session(solver={"name": "multigrid", "mu": 0.1, "sigma": 1.0},
                   snake_params={"dmin": 0.5, "dmax": 2}, display={"colormap": "inferno", "log": True},
                   snakes=[{"points": sq, "initial_points": sq, "force": "traditional"}]),
        json.dumps({"gvflab_session": 1, "image": "img.png", "frame_budget_ms": 8})]
    # Closed meshes inside a 32^3 volume (fuzz_session_surfaces), and one open and one outside.
    tet = {"vertices": [[10, 10, 10], [20, 10, 10], [10, 20, 10], [10, 10, 20]],
           "faces": [[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]]}
    octa = {"vertices": [[16, 16, 8], [24, 16, 16], [16, 24, 16], [8, 16, 16], [16, 8, 16],
                         [16, 16, 24]],
            "faces": [[0, 2, 1], [0, 3, 2], [0, 4, 3], [0, 1, 4], [5, 1, 2], [5, 2, 3], [5, 3, 4],
                      [5, 4, 1]]}
    s["session_surfaces"] = [
        mi.session(surfaces=[tet]), mi.session(surfaces=[dict(octa, force="traditional", pressure=0.2)]),
        mi.session(surfaces=[tet, dict(octa, initial_vertices=octa["vertices"],
                                       initial_faces=octa["faces"])]),
        mi.session(surfaces=[dict(tet, faces=tet["faces"][:3])]),
        mi.session(surfaces=[dict(tet, vertices=[[v * 4 for v in p] for p in tet["vertices"]])])]
    s["snake"] += ["circle:128,128,40", "polygon:10,10,60,10,60,60,10,60@traditional",
                   "circle:100,100,30@gvf\n--dmin 0.5\n--dmax 2\n--pressure 0.1",
                   "--snake-force traditional\ncircle:50,60,20\npolygon:1,1,100,1,50,90"]
    return s


def malformed_seeds():
    s = {}
    for case in mi.corpus():
        for name, content in case.files.items():
            data = content.encode() if isinstance(content, str) else content
            reader = READER_OF.get(os.path.splitext(name)[1])
            if reader and len(data) <= MAX_SEED:
                s.setdefault(reader, []).append(data)
        for i, arg in enumerate(case.args[:-1]):
            if arg == "--snake":
                s.setdefault("snake", []).append(case.args[i + 1])
    return s


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    counts = {}
    for seeds in (valid_seeds(), malformed_seeds()):
        for reader, items in seeds.items():
            folder = os.path.join(out, reader)
            os.makedirs(folder, exist_ok=True)
            for item in items:
                data = item.encode() if isinstance(item, str) else item
                with open(os.path.join(folder, hashlib.sha1(data).hexdigest()), "wb") as f:
                    f.write(data)
                counts[reader] = counts.get(reader, 0) + 1
    for reader in sorted(counts):
        print("%-10s %3d seeds" % (reader, len(os.listdir(os.path.join(out, reader)))))


if __name__ == "__main__":
    main()
