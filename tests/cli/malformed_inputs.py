#!/usr/bin/env python3
"""Malformed-input corpus for the headless CLI (issue 18).

Generates small malformed files for every reader (PNG, JPEG, PNM, TIFF, BMP, MetaImage, NRRD,
NIfTI .nii/.nii.gz/pairs, session JSON) and bad snake specs, numeric flags and output paths,
runs each through `gvflab --headless`, and checks that each
  - exits non-zero, within a time limit (no hang, no crash: never a signal's exit code),
  - prints exactly one line on stderr, "gvflab: ...", naming the file or flag (and no
    library noise such as libtiff's or Qt's own lines),
  - leaves no file in its output folder (nothing written, no temporary left over).

Usage: malformed_inputs.py GVFLAB WORKDIR [-j N] [-k SUBSTRING] [--shard I/N]
Exit 0 when every case passes; the failures are listed otherwise.
"""
import argparse
import concurrent.futures
import gzip
import json
import os
import shutil
import struct
import subprocess
import sys
import time
import zlib

# A case's limit detects a hang, not slowness: refusals take well under a second on an idle
# machine, but ctest -j2 beside a build can slow one a hundredfold.
TIME_LIMIT_S = 60


# ---------------------------------------------------------------------------- file builders

def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png(width=16, height=16, depth=8, colour=0, rows=None, ihdr=None):
    raw = rows if rows is not None else b"".join(b"\0" + bytes((x * 16) % 256 for x in range(width))
                                                 for _ in range(height))
    ihdr = ihdr if ihdr is not None else struct.pack(">IIBBBBB", width, height, depth, colour, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) +
            png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


def jpeg_sof(width, height):
    sof = struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00"
    return b"\xff\xd8" + b"\xff\xc0" + struct.pack(">H", len(sof) + 2) + sof + b"\xff\xd9"


def tiff(width=8, height=8, bits=8, sample_format=1, strip=None, strip_bytes=None, ifd_offset=8):
    """Little-endian, one strip of grey samples."""
    data = strip if strip is not None else bytes(width * height * max(bits // 8, 1))
    entries = [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, bits), (259, 3, 1, 1),
               (262, 3, 1, 1), (273, 4, 1, 0), (277, 3, 1, 1), (278, 4, 1, height),
               (279, 4, 1, strip_bytes if strip_bytes is not None else len(data)),
               (339, 3, 1, sample_format)]
    ifd_size = 2 + 12 * len(entries) + 4
    data_offset = 8 + ifd_size
    out = b"II*\0" + struct.pack("<I", ifd_offset) + struct.pack("<H", len(entries))
    for tag, kind, count, value in entries:
        if tag == 273:
            value = data_offset
        packed = struct.pack("<H", value) + b"\0\0" if kind == 3 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, count) + packed
    return out + struct.pack("<I", 0) + data


def bmp(width=8, height=8, bpp=8, data=None, declared_size=None):
    row = ((width * bpp + 31) // 32) * 4
    pixels = data if data is not None else bytes(row * abs(height))
    palette = b"".join(bytes((i, i, i, 0)) for i in range(256)) if bpp == 8 else b""
    offset = 14 + 40 + len(palette)
    info = struct.pack("<IiiHHIIiiII", 40, width, height, 1, bpp, 0, len(pixels), 2835, 2835, 0, 0)
    size = declared_size if declared_size is not None else offset + len(pixels)
    return b"BM" + struct.pack("<IHHI", size, 0, 0, offset) + info + palette + pixels


def nifti1(dims, datatype=2, bitpix=8, vox_offset=352.0, data=b"", pixdim=None, magic=b"n+1\0"):
    """A NIfTI-1 single file (.nii); magic ni1 for a .hdr/.img pair (vox_offset 0)."""
    dim = [len(dims)] + list(dims) + [1] * (7 - len(dims))
    pix = pixdim if pixdim is not None else [1.0] * 8
    h = struct.pack("<i", 348) + b"\0" * 36 + struct.pack("<8h", *dim)
    h += struct.pack("<fff", 0, 0, 0)                   # intent_p1..3
    h += struct.pack("<hhhh", 0, datatype, bitpix, 0)  # intent_code, datatype, bitpix, slice_start
    h += struct.pack("<8f", *pix) + struct.pack("<f", vox_offset)
    h += struct.pack("<ff", 1.0, 0.0)                   # scl_slope, scl_inter
    h += b"\0" * (344 - len(h)) + magic
    assert len(h) == 348
    return h + (b"\0" * 4 if magic == b"n+1\0" else b"") + data


def gzip_repeated(head, zeros_total):
    """A gzip stream of head then zeros_total zero bytes, built from one compressed 1 MiB
    member repeated (concatenated gzip members are one valid stream): a small gzip bomb."""
    out = gzip.compress(head)
    mib = 1 << 20
    member = gzip.compress(b"\0" * mib)
    out += member * (zeros_total // mib)
    return out + gzip.compress(b"\0" * (zeros_total % mib))


def mha(header, data=b""):
    return header.encode() + data


def session(**fields):
    doc = {"gvflab_session": 1, "phantom": "u", "phantom_size": 64}
    doc.update(fields)
    return json.dumps(doc)


# ---------------------------------------------------------------------------------- cases

class Case:
    def __init__(self, name, args, expect, files=None, env=None):
        self.name = name          # also the folder of its inputs and outputs
        self.args = args          # after --headless; {in} = its input folder, {out} = outputs
        self.expect = expect      # what the one line must contain (file name or flag)
        self.files = files or {}  # input file name -> bytes or str
        self.env = env


def corpus():
    c = []

    def bad_input(name, filename, content, expect=None, extra=()):
        c.append(Case(name, ["{in}/" + filename, "--iterations", "5", "--save-field",
                             "{out}/f.mha", "--report", "{out}/r.json", *extra],
                      expect or filename, {filename: content}))

    good = png()
    # PNG
    bad_input("png_empty", "empty.png", b"")
    bad_input("png_text", "text.png", "not an image at all\n")
    bad_input("png_truncated", "trunc.png", good[: len(good) // 2])
    bad_input("png_header_only", "head.png", good[:33])
    bad_input("png_bad_crc", "crc.png", good[:40] + bytes([good[40] ^ 0xFF]) + good[41:])
    bad_input("png_bad_idat", "idat.png",
              b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 0, 0, 0, 0)) +
              png_chunk(b"IDAT", b"this is not zlib data") + png_chunk(b"IEND", b""))
    bad_input("png_zero_width", "zero.png", png(ihdr=struct.pack(">IIBBBBB", 0, 16, 8, 0, 0, 0, 0)))
    bad_input("png_huge", "huge.png", png(ihdr=struct.pack(">IIBBBBB", 100000, 100000, 8, 0, 0, 0, 0)))
    bad_input("png_bad_depth", "depth.png", png(ihdr=struct.pack(">IIBBBBB", 16, 16, 3, 0, 0, 0, 0)))
    bad_input("png_is_jpeg", "fake.png", jpeg_sof(16, 16))
    bad_input("readme_as_input", "README.md", "# not an image\n")
    # JPEG
    bad_input("jpeg_empty", "empty.jpg", b"")
    bad_input("jpeg_soi_only", "soi.jpg", b"\xff\xd8")
    bad_input("jpeg_soi_eoi", "soieoi.jpg", b"\xff\xd8\xff\xd9")
    bad_input("jpeg_no_scan", "noscan.jpg", jpeg_sof(16, 16))
    bad_input("jpeg_huge", "huge.jpg", jpeg_sof(65000, 65000))
    bad_input("jpeg_garbage", "garbage.jpg", b"\xff\xd8\xff" + os.urandom(0) + b"\x00" * 200 + b"\xff\xd9")
    bad_input("jpeg_is_png", "fake.jpg", good)
    # PNM
    bad_input("pgm_zero", "zero.pgm", b"P5\n0 0\n255\n")
    bad_input("pgm_huge", "huge.pgm", b"P5\n100000 100000\n255\n" + b"\0" * 64)
    bad_input("pgm_truncated", "trunc.pgm", b"P5\n64 64\n255\n" + b"\0" * 100)
    bad_input("pgm_maxval_zero", "maxval.pgm", b"P5\n4 4\n0\n" + b"\0" * 16)
    bad_input("pgm_negative", "neg.pgm", b"P5\n-4 4\n255\n" + b"\0" * 16)
    bad_input("pgm_ascii_junk", "junk.pgm", b"P2\n4 4\n255\n1 2 x y\n")
    bad_input("ppm_header_only", "head.ppm", b"P6\n")
    # TIFF
    bad_input("tiff_24bit_samples", "s24.tif", tiff(bits=24, sample_format=1))
    bad_input("tiff_zero_width", "zero.tif", tiff(width=0))
    bad_input("tiff_strip_past_end", "strip.tif", tiff(strip=b"\0" * 8, strip_bytes=64 * 64))
    bad_input("tiff_bad_ifd", "ifd.tif", tiff(ifd_offset=100000))
    bad_input("tiff_huge", "huge.tif", tiff(width=100000, height=100000, strip=b"\0" * 16))
    bad_input("tiff_magic_only", "magic.tif", b"II*\0")
    # BMP
    bad_input("bmp_magic_only", "magic.bmp", b"BM")
    bad_input("bmp_truncated", "trunc.bmp", bmp()[:60])
    bad_input("bmp_huge", "huge.bmp", bmp(width=100000, height=100000, data=b"\0" * 64))
    bad_input("bmp_bad_bpp", "bpp.bmp", bmp(bpp=7, data=b"\0" * 64))
    bad_input("bmp_zero", "zero.bmp", bmp(width=0, height=0, data=b""))
    # MetaImage
    head2 = "ObjectType = Image\nNDims = 2\nElementType = MET_UCHAR\n"
    bad_input("mha_zero_size", "zero.mha", mha(head2 + "DimSize = 0 0\nElementDataFile = LOCAL\n"))
    bad_input("mha_negative_size", "neg.mha", mha(head2 + "DimSize = -5 10\nElementDataFile = LOCAL\n"))
    bad_input("mha_huge_truncated", "huge.mha",
              mha("ObjectType = Image\nNDims = 2\nElementType = MET_FLOAT\nDimSize = 60000 60000\n"
                  "ElementDataFile = LOCAL\n", b"\0" * 10))
    bad_input("mha_bad_type", "type.mha",
              mha("NDims = 2\nDimSize = 4 4\nElementType = MET_FOO\nElementDataFile = LOCAL\n", b"\0" * 16))
    bad_input("mha_no_data_line", "nodata.mha", mha(head2 + "DimSize = 4 4\n"))
    bad_input("mha_ndims_7", "ndims.mha",
              mha("NDims = 7\nDimSize = 2 2 2 2 2 2 2\nElementType = MET_UCHAR\nElementDataFile = LOCAL\n"))
    bad_input("mha_compressed", "comp.mha",
              mha(head2 + "DimSize = 4 4\nCompressedData = True\nElementDataFile = LOCAL\n", b"x" * 16))
    # Compressed MetaImage: 64 MiB (small enough for the device check) promised by 1 KiB of
    # zlib zeros is refused from the sizes, before anything is allocated.
    bad_input("mha_zlib_bomb", "bomb.mha",
              mha("NDims = 3\nDimSize = 512 512 256\nElementType = MET_UCHAR\n"
                  "CompressedData = True\nElementDataFile = LOCAL\n",
                  zlib.compress(b"\0" * 1000000)))
    bad_input("mha_zlib_cut", "cut.mha",
              mha(head2 + "DimSize = 64 64\nCompressedData = True\nElementDataFile = LOCAL\n",
                  zlib.compress(bytes(range(256)) * 16)[:40]))
    bad_input("mha_channels", "chan.mha",
              mha(head2 + "DimSize = 4 4\nElementNumberOfChannels = 99\nElementDataFile = LOCAL\n"))
    bad_input("mha_bad_spacing", "spacing.mha",
              mha(head2 + "DimSize = 4 4\nElementSpacing = nan -1\nElementDataFile = LOCAL\n", b"\0" * 16))
    bad_input("mha_nan_voxels", "nan.mha",
              mha("NDims = 2\nDimSize = 2 2\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n",
                  struct.pack("<4f", 0, float("nan"), 1, 2)), "nan.mha' contains NaN at sample 1")
    bad_input("mhd_missing_raw", "missing.mhd", head2 + "DimSize = 4 4\nElementDataFile = nowhere.raw\n")
    c.append(Case("mhd_truncated_raw", ["{in}/t.mhd", "--save-field", "{out}/f.mha"], "t.mhd",
                  {"t.mhd": "NDims = 3\nDimSize = 8 8 8\nElementType = MET_SHORT\nElementDataFile = t.raw\n",
                   "t.raw": b"\0" * 100}))
    # NRRD
    bad_input("nrrd_zero_size", "zero.nrrd", b"NRRD0004\ntype: uchar\ndimension: 2\nsizes: 0 4\nencoding: raw\nendian: little\n\n")
    bad_input("nrrd_negative_size", "neg.nrrd", b"NRRD0004\ntype: uchar\ndimension: 2\nsizes: -3 4\nencoding: raw\nendian: little\n\n")
    bad_input("nrrd_huge", "huge.nrrd",
              b"NRRD0004\ntype: float\ndimension: 3\nsizes: 9000 9000 9000\nencoding: raw\nendian: little\n\n")
    bad_input("nrrd_5d", "five.nrrd",
              b"NRRD0004\ntype: uchar\ndimension: 5\nsizes: 2 2 2 2 2\nencoding: raw\nendian: little\n\n" + b"\0" * 32)
    bad_input("nrrd_block", "block.nrrd",
              b"NRRD0004\ntype: block\nblock size: 4\ndimension: 2\nsizes: 4 4\nencoding: raw\nendian: little\n\n" + b"\0" * 64)
    bad_input("nrrd_truncated_raw", "trunc.nrrd",
              b"NRRD0004\ntype: short\ndimension: 2\nsizes: 64 64\nencoding: raw\nendian: little\n\n" + b"\0" * 10)
    bad_input("nrrd_bad_gzip", "gz.nrrd",
              b"NRRD0004\ntype: uchar\ndimension: 2\nsizes: 64 64\nencoding: gzip\n\nnot gzip data")
    bad_input("nrrd_gzip_bomb", "bomb.nrrd",
              b"NRRD0004\ntype: uchar\ndimension: 3\nsizes: 1024 1024 1024\nencoding: gzip\n\n" +
              gzip_repeated(b"", 1 << 30))  # the full 1 GiB the header promises, in 1 MiB
    bad_input("nrrd_garbage", "garbage.nrrd", b"NRRD0004\nthis is: not\na header")
    c.append(Case("nhdr_missing_data", ["{in}/v.nhdr", "--save-field", "{out}/f.mha"], "v.nhdr",
                  {"v.nhdr": "NRRD0004\ntype: uchar\ndimension: 3\nsizes: 4 4 4\nencoding: raw\nendian: little\n"
                             "data file: nowhere.raw\n"}))
    # NIfTI
    g = 1024
    bad_input("nifti_1024cube_float64_128bytes", "big.nii", nifti1([g, g, g], 64, 64, data=b"\0" * 128))
    bad_input("nifti_1024cube_float64_128bytes_gz", "big.nii.gz",
              gzip.compress(nifti1([g, g, g], 64, 64, data=b"\0" * 128)))
    bad_input("nifti_gzip_bomb_1024cube", "bomb.nii.gz",
              gzip_repeated(nifti1([g, g, g], 2, 8), 1 << 30))  # 1 GiB of zeros in 1 MiB
    bad_input("nifti_768cube_too_large_for_device", "v768.nii.gz",
              gzip_repeated(nifti1([768, 768, 768], 16, 32), 1 << 20))
    bad_input("nifti_vox_offset_1e30", "off30.nii", nifti1([8, 8, 8], vox_offset=1e30, data=b"\0" * 512))
    bad_input("nifti_vox_offset_inf", "offinf.nii", nifti1([8, 8, 8], vox_offset=float("inf"), data=b"\0" * 512))
    bad_input("nifti_vox_offset_nan", "offnan.nii", nifti1([8, 8, 8], vox_offset=float("nan"), data=b"\0" * 512))
    bad_input("nifti_vox_offset_negative", "offneg.nii", nifti1([8, 8, 8], vox_offset=-4096, data=b"\0" * 512))
    bad_input("nifti_negative_dim", "negdim.nii", nifti1([-5, 8, 8], data=b"\0" * 512))
    bad_input("nifti_zero_dim", "zerodim.nii", nifti1([8, 0, 8], data=b"\0" * 512))
    bad_input("nifti_dim0_zero", "dim0.nii", nifti1([], data=b"\0" * 512))
    bad_input("nifti_huge_dims", "hugedim.nii", nifti1([32767, 32767, 32767], data=b"\0" * 512))
    bad_input("nifti_nan_spacing", "nanpix.nii",
              nifti1([8, 8, 8], pixdim=[1, float("nan"), 1, 1, 1, 1, 1, 1], data=b"\0" * 512))
    bad_input("nifti_negative_spacing", "negpix.nii",
              nifti1([8, 8, 8], pixdim=[1, -2, 1, 1, 1, 1, 1, 1], data=b"\0" * 512))
    bad_input("nifti_huge_spacing", "hugepix.nii",
              nifti1([8, 8, 8], pixdim=[1, 1e30, 1, 1, 1, 1, 1, 1], data=b"\0" * 512))
    bad_input("nifti_rgb", "rgb.nii", nifti1([8, 8, 8], 128, 24, data=b"\0" * 1536))
    bad_input("nifti_4d", "four.nii", nifti1([4, 4, 4, 3], data=b"\0" * 192))
    bad_input("nifti_truncated", "trunc.nii", nifti1([16, 16, 16], 16, 32, data=b"\0" * 100))
    # (NaN voxels in NIfTI are not a case: nifti_clib, the reference reader, sets them to 0.)
    bad_input("nifti_text", "text.nii", "this is not a NIfTI header, nor anything else at all...")
    bad_input("nifti_empty_gz", "empty.nii.gz", gzip.compress(b""))
    bad_input("nifti_not_gzip", "notgz.nii.gz", b"\x1f\x8b this is not really gzip")
    bad_input("nifti_pair_missing_img", "lonely.hdr", nifti1([8, 8, 8], vox_offset=0, magic=b"ni1\0"))
    c.append(Case("nifti_pair_truncated_img", ["{in}/p.hdr", "--save-field", "{out}/f.mha"], "p.hdr",
                  {"p.hdr": nifti1([8, 8, 8], 4, 16, vox_offset=0, magic=b"ni1\0"), "p.img": b"\0" * 100}))
    c.append(Case("nifti_pair_gz_bomb", ["{in}/q.hdr.gz", "--save-field", "{out}/f.mha"], "q.hdr.gz",
                  {"q.hdr.gz": gzip.compress(nifti1([g, g, g], 2, 8, vox_offset=0, magic=b"ni1\0")),
                   "q.img.gz": gzip_repeated(b"", 1 << 30)}))
    # Session JSON
    def bad_session(name, text, expect="s.json"):
        c.append(Case(name, ["--session", "{in}/s.json", "--iterations", "5", "--save-field",
                             "{out}/f.mha", "--save-contours", "{out}/c.json"], expect,
                      {"s.json": text}))
    sq = [[10, 10], [40, 10], [40, 40], [10, 40]]
    bad_session("session_not_json", "{ this is not json")
    bad_session("session_empty", "")
    bad_session("session_wrong_version", json.dumps({"gvflab_session": 99}))
    bad_session("session_mu_text", session(solver={"mu": "abc"}))
    # Beyond every solver's range (mu_rule.hpp); a mu only some solver takes is judged by the
    # solver that runs it (tests/mu_rule_clients.py).
    bad_session("session_mu_huge", session(solver={"mu": 2e4}))
    bad_session("session_sigma_negative", session(solver={"sigma": -1}))
    bad_session("session_unknown_phantom", session(phantom="teapot"))
    bad_session("session_phantom_size_huge", session(phantom_size=1e9))
    bad_session("session_missing_image", json.dumps({"gvflab_session": 1, "image": "nowhere.png"}),
                "nowhere.png")
    bad_session("session_no_image", json.dumps({"gvflab_session": 1}))
    bad_session("session_snake_outside", session(snakes=[{"points": [[10, 10], [400, 10], [40, 40]]}]))
    bad_session("session_snake_collinear", session(snakes=[{"points": [[1, 1], [2, 2], [3, 3]]}]))
    bad_session("session_snake_two_points", session(snakes=[{"points": [[1, 1], [2, 2]]}]))
    bad_session("session_snake_infinite", session(snakes=[{"points": [[1e39, 1], [2, 9], [9, 3]]}]))
    bad_session("session_snake_not_pairs", session(snakes=[{"points": [1, 2, 3]}]))
    bad_session("session_snake_force", session(snakes=[{"force": "balloon", "points": sq}]))
    bad_session("session_snake_pressure", session(snakes=[{"pressure": 1e9, "points": sq}]))
    bad_session("session_snake_params", session(snake_params={"dmin": 10, "dmax": 1}, snakes=[{"points": sq}]))
    bad_session("session_colormap", session(display={"colormap": "rainbow"}))
    bad_session("session_solver", session(solver={"name": "jacobi"}))
    bad_session("session_too_many_nodes",
                session(phantom_size=1024, snake_params={"dmin": 0.1, "dmax": 0.2},
                        snakes=[{"points": [[12, 12], [1012, 12], [1012, 1012], [12, 1012]]}]))
    c.append(Case("session_no_image_with_image_argument",
                  ["{in}/missing_on_cmdline.png", "--session", "{in}/s.json", "--save-field", "{out}/f.mha"],
                  "missing_on_cmdline.png", {"s.json": json.dumps({"gvflab_session": 1})}))
    # Snake specs
    def bad_snake(name, spec, expect="--snake", extra=()):
        c.append(Case(name, ["--phantom", "u", "--phantom-size", "64", "--iterations", "5",
                             "--snake", spec, "--save-contours", "{out}/c.json", "--save-field",
                             "{out}/f.mha", *extra], expect))
    bad_snake("snake_circle_two_numbers", "circle:48,48")
    bad_snake("snake_circle_text", "circle:a,b,c")
    bad_snake("snake_circle_nan", "circle:nan,10,5")
    bad_snake("snake_circle_inf", "circle:10,inf,5")
    bad_snake("snake_circle_zero_radius", "circle:20,20,0")
    bad_snake("snake_circle_outside", "circle:100,30,10")
    bad_snake("snake_polygon_collinear", "polygon:1,1,2,2,3,3")
    bad_snake("snake_polygon_two_points", "polygon:1,1,20,20")
    bad_snake("snake_polygon_odd", "polygon:1,1,20,20,5")
    bad_snake("snake_polygon_outside", "polygon:-5,1,20,1,20,20")
    bad_snake("snake_kind", "square:1,2,3")
    bad_snake("snake_force", "circle:20,20,5@balloon")
    bad_snake("snake_empty", "")
    bad_snake("snake_too_many_nodes", "circle:512,512,500", extra=("--phantom-size", "1024", "--dmin",
                                                                    "0.1", "--dmax", "0.2"))
    c.append(Case("snake_on_volume", ["{in}/ball.mhd", "--snake", "circle:5,5,2", "--save-field",
                                      "{out}/f.mha"], "volume",
                  {"ball.mhd": "NDims = 3\nDimSize = 4 4 4\nElementType = MET_UCHAR\nElementDataFile = b.raw\n",
                   "b.raw": bytes(range(64))}))
    # Numeric flags
    def bad_flag(name, flag, value, expect=None):
        expect = expect or {"--mu": "mu", "--phantom": value, "--device": value}.get(flag)
        c.append(Case(name, ["--phantom", "u", "--phantom-size", "64", "--save-field", "{out}/f.mha",
                             flag, value], expect or flag))
    # mu 0.5 is beyond Euler's stability bound (multigrid, the default solver, takes it).
    c.append(Case("flag_mu_euler_bound", ["--phantom", "u", "--phantom-size", "64", "--save-field",
                                          "{out}/f.mha", "--solver", "euler", "--mu", "0.5"], "mu"))
    for flag, values in {"--mu": ["abc", "nan", "-1", "1e400", "20000", ""],
                         "--sigma": ["-1", "inf", "1e9"],
                         "--iterations": ["0.5", "-5", "1e12", "ten"],
                         "--phantom-size": ["10", "99999"], "--trails": ["-1", "x"],
                         "--target-error": ["0", "-1"],
                         "--alpha": ["nan"], "--dmin": ["-1"], "--snake-iterations": ["-1"],
                         "--capture-threshold": ["nan"],
                         "--mg-a": ["0"], "--mg-b": ["1.5"],
                         "--d-max": ["x"], "--fps": ["0"], "--frames": ["-1"],
                         "--steps-per-frame": ["0"], "--race-budget": ["0"]}.items():
        for i, v in enumerate(values):
            bad_flag("flag%s_%d" % (flag.replace("-", "_"), i), flag, v)
    bad_flag("flag_size_zero", "--size", "0x0")
    bad_flag("flag_size_huge", "--size", "100000x10")
    bad_flag("flag_region_rect", "--region-snake", "1,2,3")
    bad_flag("flag_solver", "--solver", "jacobi")
    bad_flag("flag_precision", "--precision", "f64")
    bad_flag("flag_memory", "--memory", "disk")
    bad_flag("flag_v0", "--v0", "laplace")
    bad_flag("flag_phantom", "--phantom", "teapot")
    bad_flag("flag_device", "--device", "no-such-device")
    bad_flag("flag_unknown", "--frobnicate", "1")
    bad_flag("flag_colormap", "--colormap", "rainbow")
    bad_flag("flag_session_start", "--session-start", "middle")
    c.append(Case("flag_missing_value", ["--phantom", "u", "--save-field", "{out}/f.mha", "--mu"], "--mu"))
    c.append(Case("flag_image_and_phantom", ["{in}/x.png", "--phantom", "u", "--save-field", "{out}/f.mha"],
                  "--phantom", {"x.png": good}))
    # Output paths (the run is fine until it would write)
    def bad_output(name, args, expect, files=None):
        c.append(Case(name, ["--phantom", "u", "--phantom-size", "48", "--iterations", "5", *args],
                      expect, files))
    bad_output("out_field_missing_folder", ["--save-field", "{out}/no/such/f.mha"], "--save-field")
    bad_output("out_field_is_folder", ["--save-field", "{out}"], "{out}")
    bad_output("out_field_extension", ["--save-field", "{out}/f.txt"], "f.txt")
    bad_output("out_report_missing_folder", ["--save-field", "{out}/f.mha", "--report", "{out}/no/r.json"],
               "--report")
    bad_output("out_contours_missing_folder", ["--snake", "circle:24,24,20", "--save-field", "{out}/f.mha",
                                               "--save-contours", "{out}/no/c.json"], "--save-contours")
    bad_output("out_contours_extension", ["--snake", "circle:24,24,20", "--save-contours", "{out}/c.txt"],
               "c.txt")
    bad_output("out_contours_without_snakes", ["--save-contours", "{out}/c.json"], "--save-contours")
    bad_output("out_magnitude_extension", ["--save-field", "{out}/f.mha", "--save-magnitude", "{out}/m.jpg"],
               "--save-magnitude")
    bad_output("out_capture_missing_folder", ["--save-field", "{out}/f.mha", "--capture-map",
                                              "{out}/no/c.png"], "--capture-map")
    bad_output("out_same_file_twice", ["--save-field", "{out}/f.mha", "--report", "{out}/f.mha"], "same file")
    bad_output("out_empty_name", ["--save-field", ""], "field")
    # Recordings (inputs and outputs are checked before a display is needed)
    def bad_record(name, args, expect, files=None):
        c.append(Case(name, [*args, "--frames", "3"], expect, files))
    bad_record("record_missing_input", ["{in}/missing.png", "--record", "{out}/x.mp4"], "missing.png")
    bad_record("record_corrupt_png", ["{in}/c.png", "--record", "{out}/x.mp4"], "c.png",
               {"c.png": good[: len(good) // 2]})
    bad_record("record_readme_input", ["{in}/README.md", "--record", "{out}/x.mp4"], "README.md",
               {"README.md": "# hello\n"})
    bad_record("record_container", ["--phantom", "u", "--record", "{out}/x.avi"], "x.avi")
    bad_record("record_no_extension", ["--phantom", "u", "--record", "{out}/x"], "{out}/x")
    bad_record("record_missing_folder", ["--phantom", "u", "--record", "{out}/no/x.mp4"], "--record")
    bad_record("record_screenshot_extension", ["--phantom", "u", "--record", "{out}/x.mp4",
                                               "--screenshot", "{out}/s.jpg"], "--screenshot")
    bad_record("record_region_snake", ["--phantom", "u", "--record", "{out}/x.mp4", "--region-snake"],
               "--region-snake")
    bad_record("record_snake_outside", ["--phantom", "u", "--phantom-size", "64", "--record", "{out}/x.mp4",
                                        "--snake", "circle:100,30,10"], "--snake")
    c += extra_cases()
    return c


def extra_cases():
    """Cases from the corpus_*.py modules beside this file: each has cases(Case) returning a
    list of Case, so a class of inputs lives in a file of its own."""
    import glob
    import importlib.util
    here = os.path.dirname(os.path.abspath(__file__))
    out = []
    for path in sorted(glob.glob(os.path.join(here, "corpus_*.py"))):
        spec = importlib.util.spec_from_file_location(os.path.basename(path)[:-3], path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        out += module.cases(Case)
    return out


# ---------------------------------------------------------------------------------- runner

# Library noise shows as extra lines (checked); these words in our line mean a crash path.
CRASH = ("unexpected error", "terminate called", "Aborted", "AddressSanitizer", "Segmentation")


# What a refusal may take (issue 38): the run's own peak resident memory, from wait4.
MEMORY_LIMIT_MIB = 1024


def run_measured(argv, env, timeout=TIME_LIMIT_S):
    """(exit code or None after `timeout` s, stdout, stderr, seconds, peak resident MiB: the
    run's own, from wait4) of one run."""
    import threading
    t0 = time.monotonic()
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         stdin=subprocess.DEVNULL, env=env)
    streams = {}
    readers = [threading.Thread(target=lambda n=n, f=f: streams.__setitem__(n, f.read()))
               for n, f in (("out", p.stdout), ("err", p.stderr))]
    for t in readers:
        t.start()
    status = usage = None
    while status is None:
        pid, st, ru = os.wait4(p.pid, os.WNOHANG)
        if pid:
            status, usage = st, ru
        elif time.monotonic() - t0 > timeout:
            p.kill()
            os.wait4(p.pid, 0)
            break
        else:
            time.sleep(0.005)
    p.returncode = 0  # reaped here; Popen must not wait for it again
    for t in readers:
        t.join()
    seconds = time.monotonic() - t0
    if status is None:
        return None, "", "", seconds, 0
    return (os.waitstatus_to_exitcode(status), streams["out"].decode(errors="replace"),
            streams["err"].decode(errors="replace"), seconds, usage.ru_maxrss / 1024)


def run_case(gvflab, work, case):
    base = os.path.join(work, case.name)
    shutil.rmtree(base, ignore_errors=True)
    inp, out = os.path.join(base, "in"), os.path.join(base, "out")
    os.makedirs(inp)
    os.makedirs(out)
    for name, content in case.files.items():
        with open(os.path.join(inp, name), "wb") as f:
            f.write(content.encode() if isinstance(content, str) else content)
    args = [a.replace("{in}", inp).replace("{out}", out) for a in case.args]
    expect = case.expect.replace("{in}", inp).replace("{out}", out)
    env = dict(os.environ, **(case.env or {}))
    t0 = time.monotonic()
    problems = []
    rc, _, err, _, peak = run_measured([gvflab, "--headless", *args], env)
    if rc is None:
        problems.append("ran past %d s" % TIME_LIMIT_S)
    elif peak > MEMORY_LIMIT_MIB:
        problems.append("took %d MiB before its refusal (at most %d)" % (peak, MEMORY_LIMIT_MIB))
    seconds = time.monotonic() - t0
    if rc == 0:
        problems.append("exit code 0")
    elif rc is not None and (rc < 0 or rc >= 128):
        problems.append("killed or crashed (exit code %d)" % rc)
    lines = err.splitlines()
    if rc is not None and (len(lines) != 1 or not lines[0].startswith("gvflab: ")):
        problems.append("expected one 'gvflab: ' line on stderr, got %d: %r" % (len(lines), err[:600]))
    elif rc is not None:
        if expect not in lines[0]:
            problems.append("the line does not name %r: %s" % (expect, lines[0]))
        if any(word in lines[0] for word in CRASH):
            problems.append("an unexpected error: %s" % lines[0])
        if getattr(case, "max_line", None) and len(lines[0]) > case.max_line:
            problems.append("the line has %d characters, more than %d" % (len(lines[0]), case.max_line))
    left = []
    for root, dirs, files in os.walk(out):
        left += [os.path.relpath(os.path.join(root, f), out) for f in files + dirs]
    if left:
        problems.append("left behind: %s" % ", ".join(sorted(left)))
    shutil.rmtree(base, ignore_errors=True)
    return case, problems, seconds, (lines[0] if lines else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("gvflab")
    ap.add_argument("work")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("-k", default="", help="only cases whose name contains this")
    ap.add_argument("-v", action="store_true", help="print every case's line")
    ap.add_argument("--shard", default="1/1", help="I/N: only every Nth case, from the Ith")
    a = ap.parse_args()
    os.makedirs(a.work, exist_ok=True)
    cases = [c for c in corpus() if a.k in c.name]
    names = [c.name for c in cases]
    assert len(names) == len(set(names)), "duplicate case names"
    shard, shards = (int(x) for x in a.shard.split("/"))
    cases = cases[shard - 1::shards]
    t0 = time.monotonic()
    failures = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.j) as pool:
        for case, problems, seconds, line in pool.map(lambda c: run_case(a.gvflab, a.work, c), cases):
            if a.v:
                print("%-40s %5.2f s  %s" % (case.name, seconds, line))
            if problems:
                failures.append((case, problems))
    total = time.monotonic() - t0
    for case, problems in failures:
        print("FAIL %s: gvflab --headless %s" % (case.name, " ".join(case.args)))
        for p in problems:
            print("     " + p)
    print("malformed inputs: %d cases, %d failed, %.1f s" % (len(cases), len(failures), total))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
