"""gvflab.read(): files through the CLI's own gate and readers, with their geometry (issue 37
item 4), so that a call on a file gives the CLI's result without the spacing typed by hand."""
import struct
import zlib

import numpy as np
import pytest

import gvflab
from conftest import read_json
from test_surfaces import read_obj


def write_nifti(path, volume, spacing_xyz, origin_ras):
    """A float32 NIfTI-1 (.nii) of a planes x rows x cols volume (x fastest), its sform
    diag(spacing) + origin in RAS millimetres, no qform."""
    h = bytearray(352)
    struct.pack_into("<i", h, 0, 348)
    struct.pack_into("<8h", h, 40, 3, *reversed(volume.shape), 1, 1, 1, 1)
    struct.pack_into("<hh", h, 70, 16, 32)  # DT_FLOAT32
    struct.pack_into("<8f", h, 76, 1.0, *spacing_xyz, 0, 0, 0, 0)
    struct.pack_into("<f", h, 108, 352.0)  # vox_offset
    struct.pack_into("<B", h, 123, 2)  # mm
    struct.pack_into("<hh", h, 252, 0, 1)  # qform_code 0, sform_code 1 (scanner)
    for row in range(3):
        values = [spacing_xyz[row] if col == row else 0.0 for col in range(3)]
        struct.pack_into("<4f", h, 280 + 16 * row, *values, origin_ras[row])
    h[344:348] = b"n+1\0"
    path.write_bytes(bytes(h) + np.ascontiguousarray(volume, "<f4").tobytes())


def anisotropic_ball(shape, centre, radius_mm, spacing):
    """A bright ball of radius_mm in world units on voxels of `spacing` (per array axis)."""
    grid = np.indices(shape, dtype=np.float64)
    d = np.sqrt(sum((s * (g - c)) ** 2 for g, c, s in zip(grid, centre, spacing)))
    return np.clip(radius_mm + 0.5 - d, 0, 1).astype(np.float32)


def test_a_niftis_samples_and_geometry_in_numpys_axis_order(tmp_path):
    volume = anisotropic_ball((10, 12, 14), (4.5, 5.5, 6.5), 4, (2.0, 1.5, 1.0))
    write_nifti(tmp_path / "ball.nii", volume, (1.0, 1.5, 2.0), (10.0, -20.0, 5.0))
    r = gvflab.read(tmp_path / "ball.nii")
    assert isinstance(r, gvflab.ReadResult)
    assert r.array.dtype == np.float32 and r.array.shape == volume.shape
    np.testing.assert_allclose(r.array, volume, atol=1e-6)  # already spans [0, 1]
    assert r.spacing == pytest.approx((2.0, 1.5, 1.0))
    # RAS in the file, LPS here: x and y change sign.
    assert r.origin == pytest.approx((-10.0, 20.0, 5.0))
    np.testing.assert_allclose(r.direction, [[0, 0, -1], [0, -1, 0], [1, 0, 0]], atol=1e-6)
    # The documented rule: world = origin + direction @ (spacing * index), index (p, r, c).
    index = np.array([3, 4, 5])
    ras = np.array([1.0 * 5 + 10, 1.5 * 4 - 20, 2.0 * 3 + 5])
    world = np.array(r.origin) + r.direction @ (np.array(r.spacing) * index)
    np.testing.assert_allclose(world, ras * [-1, -1, 1], atol=1e-5)
    array, spacing, origin, direction = r  # a named tuple
    assert array is r.array and np.asarray(r) is r.array


def test_a_file_without_geometry_has_unit_spacing_and_no_origin(tmp_path):
    (tmp_path / "tiny.pgm").write_bytes(b"P5 3 2 255\n" + bytes([0, 51, 102, 153, 204, 255]))
    r = gvflab.read(str(tmp_path / "tiny.pgm"))
    assert r.array.shape == (2, 3) and r.spacing == (1.0, 1.0)
    assert r.origin is None and r.direction is None
    np.testing.assert_allclose(r.array.ravel(), np.arange(6) / 5, atol=1e-6)


def test_surface_snake_on_a_read_nifti_is_the_clis(cli, tmp_path):
    """1 x 1 x 2 mm voxels: surface_snake(gvflab.read(file)) and
    surface_snake(r.array, spacing=r.spacing) give the CLI's surface on the same file; the
    bare array (unit spacing) gives another."""
    shape, centre = (16, 26, 28), (7.5, 12.0, 13.0)
    volume = anisotropic_ball(shape, centre, 8, (2.0, 1.0, 1.0))
    path = tmp_path / "ball.nii"
    write_nifti(path, volume, (1.0, 1.0, 2.0), (0.0, 0.0, 0.0))
    sx, sy, sz = centre[2] + 0.5, centre[1] + 0.5, centre[0] + 0.5
    cli(path, "--surface", f"sphere:{sx},{sy},{sz},6", "--snake-iterations", 300,
        "--save-surfaces", tmp_path / "v.obj", "--surface-coordinates", "voxel",
        "--report", tmp_path / "v.json")
    (theirs,) = read_json(tmp_path / "v.json")["surfaces"]
    voxel, _ = read_obj(tmp_path / "v-1.obj")
    r = gvflab.read(path)
    assert r.spacing == pytest.approx((2.0, 1.0, 1.0))
    for mine in (gvflab.surface_snake(r, centre, 6, iterations=300),
                 gvflab.surface_snake(r.array, centre, 6, iterations=300, spacing=r.spacing)):
        assert mine.state == theirs["state"] and mine.iterations == theirs["iterations"]
        assert mine.vertices.shape == voxel.shape
        distance = np.linalg.norm(mine.vertices[:, None] - (voxel[None, :, ::-1] - 0.5), axis=2)
        assert distance.min(axis=1).max() < 1e-3
    plain = gvflab.surface_snake(r.array, centre, 6, iterations=300)
    assert plain.vertices.shape != voxel.shape or \
        np.abs(plain.vertices - mine.vertices).max() > 0.1


def test_snake_on_a_read_image_with_spacing_is_the_clis(cli, tmp_path):
    """A 2D MetaImage of 1 x 2 mm pixels (rows twice as far apart): snake(gvflab.read(file))
    moves as the CLI's --snake on the file."""
    rows, cols = 40, 64
    y, x = np.mgrid[0:rows, 0:cols].astype(float)
    image = np.clip(14.5 - np.hypot(2 * (y - 19.5), x - 31.5), 0, 1).astype(np.float32)
    header = ("ObjectType = Image\nNDims = 2\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              f"DimSize = {cols} {rows}\nElementSpacing = 1 2\nElementType = MET_FLOAT\n"
              "ElementDataFile = LOCAL\n")
    path = tmp_path / "disc.mha"
    path.write_bytes(header.encode() + image.astype("<f4").tobytes())
    cli(path, "--iterations", 200, "--snake", "circle:32,20,12", "--snake-iterations", 400,
        "--save-contours", tmp_path / "c.json")
    (theirs,) = read_json(tmp_path / "c.json")["contours"]
    r = gvflab.read(path)
    assert r.spacing == pytest.approx((2.0, 1.0))
    mine = gvflab.snake(r, gvflab.circle((19.5, 31.5), 12), gvf_iterations=200, iterations=400)
    assert mine.state == theirs["state"] and mine.iterations == theirs["iterations"]
    np.testing.assert_allclose(mine.points, gvflab.xy_to_rc(theirs["points"], True), atol=1e-4)
    plain = gvflab.snake(r.array, gvflab.circle((19.5, 31.5), 12), gvf_iterations=200,
                         iterations=400)
    assert plain.points.shape != mine.points.shape or \
        np.abs(plain.points - mine.points).max() > 0.1


@pytest.mark.parametrize("name, data, words", [
    ("short.nii", None, "truncated"),
    ("bad.nii", b"\0" * 400, "bad.nii"),
    ("empty.png", b"", "is empty"),
    ("fake.png", b"GIF89a" + b"\0" * 40, "is not a PNG file"),
])
def test_read_refuses_what_the_cli_refuses_with_its_sentence(cli, tmp_path, name, data, words):
    path = tmp_path / name
    if data is None:  # a header that promises more voxels than the file holds
        write_nifti(path, np.zeros((8, 8, 8), np.float32), (1, 1, 1), (0, 0, 0))
        path.write_bytes(path.read_bytes()[:352 + 100])
    else:
        path.write_bytes(data)
    with pytest.raises(gvflab.InputError) as refused:
        gvflab.read(path)
    message = str(refused.value)
    assert str(path) in message and words in message
    with pytest.raises(AssertionError) as failed:  # the cli fixture asserts success
        cli(path, "--iterations", 1)
    assert message in str(failed.value)


def test_read_of_a_missing_file_names_it(tmp_path):
    with pytest.raises(gvflab.InputError, match="nothing.nii"):
        gvflab.read(tmp_path / "nothing.nii")


def png_grey(rows, cols):
    """An 8-bit grey PNG of a ramp (value = col), written with zlib alone."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body))
    raw = b"".join(b"\0" + bytes(range(cols)) for _ in range(rows))
    header = struct.pack(">IIBBBBB", cols, rows, 8, 0, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw))
            + chunk(b"IEND", b""))


def test_other_formats_read_with_their_geometry(tmp_path):
    v = np.linspace(0, 1, 4 * 6 * 8, dtype=np.float32).reshape(4, 6, 8)
    packed = zlib.compress(v.astype("<f4").tobytes())
    (tmp_path / "c.mha").write_bytes(
        ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
         f"CompressedData = True\nCompressedDataSize = {len(packed)}\nDimSize = 8 6 4\n"
         "ElementSpacing = 0.5 0.7 3\nOffset = 1 2 3\nElementType = MET_FLOAT\n"
         "ElementDataFile = LOCAL\n").encode() + packed)
    (tmp_path / "n.nrrd").write_bytes(
        b"NRRD0004\ntype: float\ndimension: 3\nsizes: 8 6 4\nspace: left-posterior-superior\n"
        b"space directions: (0.5,0,0) (0,0.7,0) (0,0,3)\nspace origin: (1,2,3)\n"
        b"endian: little\nencoding: raw\n\n" + v.astype("<f4").tobytes())
    for name in ("c.mha", "n.nrrd"):
        r = gvflab.read(tmp_path / name)
        np.testing.assert_allclose(r.array, v, atol=1e-6, err_msg=name)
        assert r.spacing == pytest.approx((3.0, 0.7, 0.5)), name
        assert r.origin == pytest.approx((1.0, 2.0, 3.0)), name
        np.testing.assert_allclose(r.direction, np.eye(3)[:, ::-1], atol=1e-6, err_msg=name)
    (tmp_path / "ramp.png").write_bytes(png_grey(3, 5))  # through Qt's reader, as the CLI's
    r = gvflab.read(tmp_path / "ramp.png")
    assert r.array.shape == (3, 5) and r.origin is None
    np.testing.assert_allclose(r.array[1], np.arange(5) / 255, atol=1e-6)
