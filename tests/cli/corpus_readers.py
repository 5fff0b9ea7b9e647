"""Reader hardening (issue 25): files the user never named, unbounded work before a refusal,
wrong verdicts. Loaded by malformed_inputs.py (cases(Case)); every case must be refused with one
line naming the file. Cases that need FIFOs, sparse files or a check of success are in
hostile_inputs.py."""
import struct
import zlib

# ---------------------------------------------------------------------------- file builders


def png_chunk(kind, data, length=None):
    n = len(data) if length is None else length
    return struct.pack(">I", n) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def png_grey(width=16, height=16, extra=b""):
    raw = b"".join(b"\0" + bytes((x * 16) % 256 for x in range(width)) for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0))
            + extra + png_chunk(b"IDAT", zlib.compress(raw)) + png_chunk(b"IEND", b""))


def png_text_bomb():
    """A small PNG whose tEXt chunk declares 0x7fffffff bytes (the file has a few)."""
    head = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 0, 0, 0, 0))
    return head + struct.pack(">I", 0x7FFFFFFF) + b"tEXt" + b"Comment\0" + b"x" * 80 + png_chunk(b"IEND", b"")


def jpeg_grey(width=64, height=64, scan=None, before_scan=b""):
    """A baseline grey JPEG of flat 8x8 blocks: one-symbol Huffman tables (DC difference 0, AC
    end-of-block), so each block is two zero bits. scan: replaces the entropy-coded bytes."""
    def segment(marker, payload):
        return b"\xff" + bytes([marker]) + struct.pack(">H", len(payload) + 2) + payload
    blocks = (width // 8) * (height // 8)
    bits = 2 * blocks
    data = bytes(bits // 8) + (b"" if bits % 8 == 0 else bytes([0xFF >> (bits % 8)]))
    one_code = bytes([1] + [0] * 15)
    return (b"\xff\xd8" + segment(0xDB, b"\x00" + b"\x01" * 64)
            + segment(0xC0, struct.pack(">BHHB", 8, height, width, 1) + b"\x01\x11\x00")
            + segment(0xC4, b"\x00" + one_code + b"\x00")
            + segment(0xC4, b"\x10" + one_code + b"\x00")
            + before_scan
            + segment(0xDA, b"\x01\x01\x00\x00\x3f\x00")
            + (data if scan is None else scan) + b"\xff\xd9")


def jpeg_comment_flood(count):
    """count empty COM segments before the frame: libjpeg collects them in quadratic time."""
    return jpeg_grey(before_scan=b"\xff\xfe\x00\x02" * count)


def nrrd_detached(data_file, sizes="4 4", kind="uchar"):
    return ("NRRD0004\ntype: %s\ndimension: %d\nsizes: %s\nencoding: raw\nendian: little\n"
            "data file: %s\n" % (kind, len(sizes.split()), sizes, data_file))


def mhd(data_file, dims="4 4", kind="MET_UCHAR"):
    return ("ObjectType = Image\nNDims = %d\nDimSize = %s\nElementType = %s\nElementDataFile = %s\n"
            % (len(dims.split()), dims, kind, data_file))


def tiff_pages(pages, next_after_last=0):
    """Little-endian TIFF, one strip a page; pages: (width, height, bits, sample_format, data).
    next_after_last: the last page's next-IFD offset (0: none)."""
    out = b"II*\0" + struct.pack("<I", 8)
    for i, (width, height, bits, fmt, data) in enumerate(pages):
        entries = [(256, 4, width), (257, 4, height), (258, 3, bits), (259, 3, 1), (262, 3, 1),
                   (273, 4, 0), (277, 3, 1), (278, 4, height), (279, 4, len(data)), (339, 3, fmt)]
        ifd_at = len(out)
        data_at = ifd_at + 2 + 12 * len(entries) + 4
        last = i + 1 == len(pages)
        next_ifd = next_after_last if last else data_at + len(data)
        out += struct.pack("<H", len(entries))
        for tag, kind, value in entries:
            value = data_at if tag == 273 else value
            packed = struct.pack("<H", value) + b"\0\0" if kind == 3 else struct.pack("<I", value)
            out += struct.pack("<HHI", tag, kind, 1) + packed
        out += struct.pack("<I", next_ifd) + data
    return out


def dicom_element(group, element, vr, value):
    value = value.encode() if isinstance(value, str) else value
    if len(value) % 2:
        value += b"\0" if vr in (b"UI", b"OB", b"OW") else b" "
    if vr in (b"OB", b"OW", b"UN", b"SQ", b"UT"):
        return struct.pack("<HH", group, element) + vr + b"\0\0" + struct.pack("<I", len(value)) + value
    return struct.pack("<HH", group, element) + vr + struct.pack("<H", len(value)) + value


def dicom(rows=4, cols=4, bits=16, pixels=None, frames=None, with_pixels=True):
    """A DICOM file (explicit VR little endian) of grey 16-bit samples; pixels: the bytes."""
    body = dicom_element(0x0002, 0x0010, b"UI", "1.2.840.10008.1.2.1")
    meta = dicom_element(0x0002, 0x0000, b"UL", struct.pack("<I", len(body))) + body
    us = lambda e, v: dicom_element(0x0028, e, b"US", struct.pack("<H", v))
    ds = dicom_element(0x0008, 0x0016, b"UI", "1.2.840.10008.5.1.4.1.1.2")
    ds += us(0x0002, 1) + dicom_element(0x0028, 0x0004, b"CS", "MONOCHROME2")
    if frames is not None:
        ds += dicom_element(0x0028, 0x0008, b"IS", str(frames))
    if rows is not None:
        ds += us(0x0010, rows) + us(0x0011, cols)
    ds += us(0x0100, bits) + us(0x0101, bits) + us(0x0102, bits - 1) + us(0x0103, 0)
    if with_pixels:
        data = pixels if pixels is not None else bytes((rows or 1) * (cols or 1) * bits // 8)
        ds += dicom_element(0x7FE0, 0x0010, b"OW", data)
    return b"\0" * 128 + b"DICM" + meta + ds


# ---------------------------------------------------------------------------------- cases

def cases(Case):
    c = []

    def refused(name, filename, files, expect=None, extra=()):
        c.append(Case(name, ["{in}/" + filename, "--iterations", "5", "--save-field", "{out}/f.mha",
                             *extra], expect or filename, files))

    up = "../" * 12  # climbs to / from any test folder
    # Data files outside the header's folder: ../, absolute, /proc, /dev (names checked first).
    for ext, build in (("mhd", mhd), ("nhdr", nrrd_detached)):
        h = "h." + ext
        refused("%s_data_dotdot" % ext, h, {h: build(up + "etc/passwd")}, "outside the header's folder")
        refused("%s_data_absolute" % ext, h, {h: build("/etc/passwd")}, "outside the header's folder")
        refused("%s_data_proc" % ext, h, {h: build("/proc/self/environ")}, "outside the header's folder")
        refused("%s_data_dev_zero" % ext, h, {h: build("/dev/zero")}, "outside the header's folder")
        refused("%s_data_folder" % ext, h, {h: build("."), "x": b""}, "is a folder")
        # With --allow-data-outside the kind of file still decides.
        refused("%s_data_dev_zero_allowed" % ext, h, {h: build("/dev/zero")}, "is a character device",
                extra=("--allow-data-outside",))
        refused("%s_data_proc_allowed" % ext, h, {h: build("/proc/self/status")}, "is in /proc",
                extra=("--allow-data-outside",))
    refused("mhd_data_list", "l.mhd", {"l.mhd": mhd("LIST 2D") + "a.raw\nb.raw\n"}, "LIST")
    refused("mhd_data_pattern", "p.mhd", {"p.mhd": mhd("s%03d.raw 1 4 1")}, "pattern")
    # teem's printf-style pattern: a long width overflows a heap buffer inside teem.
    refused("nhdr_pattern_overflow", "v.nhdr", {"v.nhdr": nrrd_detached("d%01000d.raw 1 4 1")}, "pattern")
    refused("nhdr_pattern_two_conversions", "v.nhdr", {"v.nhdr": nrrd_detached("d%d%s.raw 1 4 1")}, "pattern")
    refused("nhdr_pattern_million_files", "v.nhdr", {"v.nhdr": nrrd_detached("d%03d.raw 1 1000000 1")},
            "data files")
    refused("nhdr_pattern_step_zero", "v.nhdr", {"v.nhdr": nrrd_detached("d%03d.raw 1 4 0")}, "pattern")
    refused("nhdr_list_dev_zero", "v.nhdr", {"v.nhdr": nrrd_detached("LIST") + "/dev/zero\n"},
            "outside the header's folder")
    refused("nhdr_list_dotdot", "v.nhdr",
            {"v.nhdr": nrrd_detached("LIST", "4 4 2") + "a.raw\n" + up + "etc/passwd\n",
             "a.raw": bytes(16)}, "outside the header's folder")
    refused("nhdr_data_stdin", "v.nhdr", {"v.nhdr": nrrd_detached("-")}, "does not exist")
    refused("nhdr_data_cr_lines", "v.nhdr",
            {"v.nhdr": nrrd_detached("/etc/passwd").replace("\n", "\r")}, "outside the header's folder")
    # Bounded before it costs.
    refused("nrrd_100k_key_lines", "k.nrrd",
            {"k.nrrd": "NRRD0004\ntype: uchar\ndimension: 2\nsizes: 4 4\nencoding: raw\n" +
             "".join("key%d:=value\n" % i for i in range(100000)) + "\n" + "\0" * 16}, "lines")
    refused("nrrd_2000_key_values", "k.nrrd",
            {"k.nrrd": "NRRD0004\ntype: uchar\ndimension: 2\nsizes: 4 4\nencoding: raw\n" +
             "".join("key%d:=value\n" % i for i in range(2000)) + "\n" + "\0" * 16}, "key/value")
    refused("nrrd_header_without_end", "h.nrrd",
            {"h.nrrd": "NRRD0004\n# " + "x" * (2 << 20)}, "longer than")
    refused("nhdr_raw_short", "v.nhdr", {"v.nhdr": nrrd_detached("v.raw", "64 64"), "v.raw": bytes(100)},
            "truncated")
    refused("mhd_header_without_data_line", "h.mha", {"h.mha": "NDims = 2\n" + "\n" * 100000}, "h.mha")
    refused("pgm_16000_short", "p.pgm", {"p.pgm": b"P5\n16000 16000\n255\n" + bytes(1000)}, "truncated")
    refused("pgm_comment_header", "c.pgm", {"c.pgm": b"P5\n#" + b"x" * (70 * 1024) + b"\n4 4\n255\n" + bytes(16)},
            "c.pgm")
    refused("png_text_bomb", "bomb.png", {"bomb.png": png_text_bomb()}, "tEXt")
    refused("png_10k_text_chunks", "many.png",
            {"many.png": png_grey(extra=png_chunk(b"tEXt", b"k\0v") * 10000)}, "metadata")
    refused("jpeg_300k_comments", "com.jpg", {"com.jpg": jpeg_comment_flood(300000)}, "metadata")
    # Wrong verdicts: a truncated scan ended by an end marker is not an image with grey fill.
    whole = jpeg_grey(256, 256)
    refused("jpeg_truncated_with_eoi", "t.jpg", {"t.jpg": jpeg_grey(256, 256, scan=bytes(40))}, "truncated")
    refused("jpeg_segment_past_end", "s.jpg", {"s.jpg": whole[:30]}, "truncated")
    # TIFF stacks and samples (io/tiff_file.cpp), DICOM files and series (io/dicom_file.cpp).
    page = (4, 4, 8, 1, bytes(16))
    refused("tiff_second_page_past_end", "s.tif", {"s.tif": tiff_pages([page], next_after_last=1 << 30)},
            "s.tif")
    refused("tiff_page_out_of_range", "s.tif", {"s.tif": tiff_pages([page, page])}, "2 pages",
            extra=("--page", "2"))
    refused("tiff_page_of_png", "p.png", {"p.png": png_grey()}, "TIFF", extra=("--page", "0"))
    refused("tiff_mixed_pages", "m.tif", {"m.tif": tiff_pages([page, (2, 2, 8, 1, bytes(4))])},
            "mixes pages")
    refused("tiff_float_nan", "n.tif",
            {"n.tif": tiff_pages([(2, 1, 32, 3, struct.pack("<2f", 1.0, float("nan")))])},
            "n.tif' contains NaN at sample 1")
    refused("tiff_float_inf_in_stack", "i.tif",
            {"i.tif": tiff_pages([(1, 1, 32, 3, struct.pack("<f", 1.0)),
                                  (1, 1, 32, 3, struct.pack("<f", float("inf")))])},
            "i.tif' contains infinity at sample 1")
    refused("tiff_half_float", "h.tif", {"h.tif": tiff_pages([(2, 2, 16, 3, bytes(8))])}, "unsupported")
    refused("tiff_float_strip_short", "t.tif", {"t.tif": tiff_pages([(64, 64, 32, 3, bytes(100))])},
            "t.tif")
    refused("tiff_stack_voxels_huge", "v.tif",
            {"v.tif": tiff_pages([(16384, 16384, 8, 1, bytes(16))] * 9)}, "v.tif")
    refused("dicom_text", "t.dcm", {"t.dcm": "not DICOM\n"}, "not a DICOM file")
    refused("dicom_magic_only", "m.dcm", {"m.dcm": b"\0" * 128 + b"DICM"}, "m.dcm")
    refused("dicom_truncated_header", "t.dcm", {"t.dcm": dicom()[:170]}, "t.dcm")
    refused("dicom_pixels_short", "s.dcm", {"s.dcm": dicom(64, 64, pixels=bytes(100))}, "s.dcm")
    refused("dicom_huge", "h.dcm", {"h.dcm": dicom(65535, 65535, pixels=bytes(16))}, "too large")
    refused("dicom_frames_huge", "f.dcm", {"f.dcm": dicom(frames=10 ** 9)}, "frames")
    refused("dicom_no_rows", "n.dcm", {"n.dcm": dicom(rows=None)}, "holds no image")
    refused("dicom_no_pixel_data", "p.dcm", {"p.dcm": dicom(with_pixels=False)}, "p.dcm")
    refused("dicom_12bit_allocated", "b.dcm", {"b.dcm": dicom(bits=12, pixels=bytes(24))}, "b.dcm")
    c.append(Case("dicom_series_mixed_sizes", ["{in}", "--iterations", "5", "--save-field",
                                               "{out}/f.mha"], "inconsistent",
                  {"a.dcm": dicom(4, 4), "b.dcm": dicom(4, 8)}))
    c.append(Case("dicom_series_with_text", ["{in}", "--iterations", "5", "--save-field",
                                             "{out}/f.mha"], "notes.txt",
                  {"a.dcm": dicom(4, 4), "notes.txt": "a note\n"}))
    return c
