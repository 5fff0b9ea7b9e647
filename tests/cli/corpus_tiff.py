"""Crafted TIFF page chains (issue 38): each refused by our walk of the pages
(app/io/tiff_prewalk.cpp) before libtiff reads a page, in milliseconds and a few MB, where
libtiff alone spent minutes or gigabytes. Picked up by malformed_inputs.py (cases(Case))."""
import struct


def ifd(entries, next_offset):
    """A little-endian directory: (tag, type, count, value or offset) entries, sorted."""
    out = struct.pack("<H", len(entries))
    for tag, kind, count, value in sorted(entries):
        packed = struct.pack("<HH", value, 0) if kind == 3 and count == 1 else struct.pack("<I", value)
        out += struct.pack("<HHI", tag, kind, count) + packed
    return out + struct.pack("<I", next_offset)


def grey(width, height, offset, count, extra=()):
    return [(256, 4, 1, width), (257, 4, 1, height), (258, 3, 1, 8), (259, 3, 1, 1),
            (262, 3, 1, 1), (273, 4, 1, offset), (277, 3, 1, 1), (278, 4, 1, height),
            (279, 4, 1, count), *extra]


def shared_description(pages, size):
    """pages of 4x4 sharing one ImageDescription of size bytes (libtiff reads it per page)."""
    text = b"d" * (size - 1) + b"\0"
    pixels_at, text_at = 8, 8 + 16
    first = text_at + len(text)
    step = 2 + 12 * 10 + 4
    out = b"II*\0" + struct.pack("<I", first) + bytes(16) + text
    for p in range(pages):
        nxt = first + (p + 1) * step if p + 1 < pages else 0
        out += ifd(grey(4, 4, pixels_at, 16, [(270, 2, len(text), text_at)]), nxt)
    return out


def huge_tiles():
    """A 16384x16384 page in one 16384x16384 tile of 16 bytes."""
    entries = [(256, 4, 1, 16384), (257, 4, 1, 16384), (258, 3, 1, 8), (259, 3, 1, 1),
               (262, 3, 1, 1), (277, 3, 1, 1), (322, 4, 1, 16384), (323, 4, 1, 16384),
               (324, 4, 1, 8), (325, 4, 1, 16)]
    return b"II*\0" + struct.pack("<I", 24) + bytes(16) + ifd(entries, 0)


def page_loop():
    """Two pages, the second pointing back at the first."""
    first, second = 24, 24 + 2 + 12 * 9 + 4
    return (b"II*\0" + struct.pack("<I", first) + bytes(16) + ifd(grey(4, 4, 8, 16), second)
            + ifd(grey(4, 4, 8, 16), first))


def cases(Case):
    def refused(name, data, expect):
        return Case("tiff_walk_" + name, ["{in}/s.tif", "--iterations", "5", "--save-field",
                                          "{out}/f.mha"], expect, {"s.tif": data})
    return [refused("shared_description", shared_description(100, 1 << 20), "of tags"),
            refused("huge_tiles", huge_tiles(), "more than any compression"),
            refused("page_loop", page_loop(), "loop")]
