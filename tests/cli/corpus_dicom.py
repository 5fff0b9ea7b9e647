"""Crafted DICOM structures (issue 38): each would abort or crash inside GDCM, or make it inflate a
bomb, unless our own pre-walk (app/io/dicom_prewalk.cpp) refuses it first. Picked up by
malformed_inputs.py (cases(Case)); every file is generated here, a few kilobytes each."""
import struct
import zlib

IMPLICIT, EXPLICIT, BIG, DEFLATED, JPEG = ("1.2.840.10008.1.2", "1.2.840.10008.1.2.1",
                                          "1.2.840.10008.1.2.2", "1.2.840.10008.1.2.1.99",
                                          "1.2.840.10008.1.2.4.50")
UNDEFINED = 0xFFFFFFFF


def even(value):
    value = value.encode() if isinstance(value, str) else value
    return value + b"\0" if len(value) % 2 else value


def meta(syntax):
    body = struct.pack("<HH", 2, 0x10) + b"UI" + struct.pack("<H", len(even(syntax))) + even(syntax)
    return (b"\0" * 128 + b"DICM" + struct.pack("<HH", 2, 0) + b"UL" + struct.pack("<HI", 4, len(body))
            + body)


def el(group, element, vr, value, explicit=True, big=False, length=None):
    """One element; value bytes are kept as given (odd lengths are the point of some cases)."""
    e = ">" if big else "<"
    value = value.encode() if isinstance(value, str) else value
    n = len(value) if length is None else length
    if not explicit:
        return struct.pack(e + "HHI", group, element, n) + value
    if vr in (b"OB", b"OW", b"UN", b"SQ", b"UT"):
        return struct.pack(e + "HH", group, element) + vr + b"\0\0" + struct.pack(e + "I", n) + value
    return struct.pack(e + "HH", group, element) + vr + struct.pack(e + "H", n) + value


def marker(kind, length, big=False):
    """An item (E000), item end (E00D) or sequence end (E0DD) marker."""
    return struct.pack(">HHI" if big else "<HHI", 0xFFFE, kind, length)


def image(rows=4, cols=4, explicit=True, big=False, spacing=None):
    """Rows and columns of 16-bit grey samples; spacing: PixelSpacing's text ("0\\0")."""
    us = lambda e, v: el(0x0028, e, b"US", struct.pack(">H" if big else "<H", v), explicit, big)
    ps = el(0x0028, 0x0030, b"DS", even(spacing), explicit, big) if spacing is not None else b""
    return (el(0x0008, 0x0016, b"UI", even("1.2.840.10008.5.1.4.1.1.2"), explicit, big)
            + us(0x0002, 1) + el(0x0028, 0x0004, b"CS", "MONOCHROME2 ", explicit, big)
            + us(0x0010, rows) + us(0x0011, cols) + ps + us(0x0100, 16) + us(0x0101, 16)
            + us(0x0102, 15) + us(0x0103, 0))


def pixels(rows=4, cols=4, explicit=True, big=False):
    return el(0x7FE0, 0x0010, b"OW", bytes(rows * cols * 2), explicit, big)


def nested(depth):
    """depth sequences, each of undefined length holding one item of undefined length."""
    inner = b""
    for _ in range(depth):
        inner = (el(0x0040, 0x0275, b"SQ", b"", length=UNDEFINED) + marker(0xE000, UNDEFINED)
                 + inner + marker(0xE00D, 0) + marker(0xE0DD, 0))
    return inner


def cases(Case):
    c = []

    def refused(name, data, expect="x.dcm"):
        c.append(Case("dicom_walk_" + name, ["{in}/x.dcm", "--iterations", "5", "--save-field",
                                             "{out}/f.mha"], expect, {"x.dcm": data}))

    sq = lambda body, length=None: el(0x0040, 0x0275, b"SQ", body, length=length)
    refused("sequence_no_end", meta(EXPLICIT) + image() + sq(marker(0xE000, UNDEFINED) +
                                                            el(0x0010, 0x0010, b"PN", "AB"),
                                                            length=UNDEFINED), "no end marker")
    refused("item_past_sequence", meta(EXPLICIT) + image() +
            sq(marker(0xE000, 64) + el(0x0010, 0x0010, b"PN", "AB")) + pixels(), "x.dcm")
    refused("item_past_end", meta(EXPLICIT) + image() +
            sq(marker(0xE000, 4096) + el(0x0010, 0x0010, b"PN", "AB"), length=UNDEFINED), "x.dcm")
    refused("odd_implicit_length", meta(IMPLICIT) + image(explicit=False) +
            el(0x0010, 0x0010, None, "ABC", explicit=False) + pixels(explicit=False), "odd length")
    refused("odd_explicit_length", meta(EXPLICIT) + image() + el(0x0010, 0x0010, b"PN", "ABC") +
            pixels(), "odd length")
    refused("nested_deep", meta(EXPLICIT) + image() + nested(400) + pixels(), "deep")
    refused("nested_implicit", meta(IMPLICIT) + image(explicit=False) +
            el(0x0040, 0x0275, None, marker(0xE000, 400) + b"\0" * 8, explicit=False) +
            pixels(explicit=False), "x.dcm")
    # Encapsulated pixel data: a fragment past the end, no end marker, a fragment of no length.
    frag = lambda n, data=b"": marker(0xE000, n) + data
    encapsulated = lambda body: meta(JPEG) + image() + el(0x7FE0, 0x0010, b"OB", b"", length=UNDEFINED) + body
    refused("fragment_past_end", encapsulated(frag(0) + frag(1 << 20, b"\xff\xd8")), "fragment")
    refused("fragments_no_end", encapsulated(frag(0) + frag(4, b"\xff\xd8\xff\xd9")), "no end marker")
    refused("fragment_undefined", encapsulated(frag(0) + frag(UNDEFINED)), "x.dcm")
    # A well-formed stream whose JPEG holds no image: libjpeg's own line is folded into ours.
    refused("jpeg_message_folded", encapsulated(frag(0) + frag(8, b"\xff\xd8\xff\xd9" + bytes(4)) +
                                                marker(0xE0DD, 0)), "it says: JPEG")
    # Deflated data sets: cut short, corrupt, a bomb of padding beside a 4x4 image.
    def deflated(body):
        d = zlib.compressobj(9, zlib.DEFLATED, -15)
        return meta(DEFLATED) + d.compress(body) + d.flush()
    whole = deflated(image() + pixels())
    refused("deflate_truncated", whole[: len(whole) - 12], "x.dcm")
    refused("deflate_corrupt", whole[:-20] + b"\xff" * 20, "x.dcm")
    refused("deflate_padding_bomb", deflated(image() + el(0x0009, 0x1010, b"OB", bytes(128 << 20)) +
                                             pixels()), "besides its pixel data")
    refused("deflate_pixel_bomb", deflated(image() + el(0x7FE0, 0x0010, b"OW", bytes(128 << 20))),
            "decompression bomb")
    # Big endian, cut short inside its pixel data: never a field of padding with exit 0.
    refused("big_endian_truncated", (meta(BIG) + image(big=True) + pixels(big=True))[:-10], "truncated")
    refused("implicit_truncated", (meta(IMPLICIT) + image(explicit=False) +
                                   pixels(explicit=False))[:-6], "truncated")
    # The fuzzer's finds (GDCM assertions on what it reads through typed accessors): an unknown
    # VR in the meta header or the data set, SamplesPerPixel 5, PixelRepresentation as CS, a US
    # attribute of 4 bytes.
    bad_meta = meta(EXPLICIT).replace(b"UL", b"U\xaa", 1)
    refused("meta_unknown_vr", bad_meta + image() + pixels(), "unknown VR")
    refused("meta_group_implicit_no_marker", bytes([2]) + bytes(7), "unknown VR")  # dicom-4
    refused("unknown_vr", meta(EXPLICIT) + image() + el(0x0010, 0x0010, b";I", "AB") + pixels(),
            "unknown VR")
    five = image().replace(el(0x0028, 0x0002, b"US", struct.pack("<H", 1)),
                           el(0x0028, 0x0002, b"US", struct.pack("<H", 5)))
    refused("samples_per_pixel_5", meta(EXPLICIT) + five + pixels(), "SamplesPerPixel")
    cs = image().replace(el(0x0028, 0x0103, b"US", struct.pack("<H", 0)),
                         el(0x0028, 0x0103, b"CS", "0 "))
    refused("pixel_representation_cs", meta(EXPLICIT) + cs + pixels(), "VR CS")
    wide = image().replace(el(0x0028, 0x0100, b"US", struct.pack("<H", 16)),
                           el(0x0028, 0x0100, b"US", struct.pack("<HH", 16, 16)))
    refused("bits_allocated_two_values", meta(EXPLICIT) + wide + pixels(), "one US")
    # dicom-5: BitsStored past BitsAllocated (GDCM asserts on decoding some; this one ran, exit 0).
    stored = image().replace(el(0x0028, 0x0101, b"US", struct.pack("<H", 16)),
                             el(0x0028, 0x0101, b"US", struct.pack("<H", 11536)))
    refused("bits_stored_past_allocated", meta(EXPLICIT) + stored + pixels(), "BitsStored 11536")
    return c
