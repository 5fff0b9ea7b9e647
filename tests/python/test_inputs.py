"""Arrays as scikit-image users pass them (issue 28): channel_axis, sizes checked from the shape
before any copy, broadcast and strided views, every real dtype, NaN and infinities."""
import tracemalloc

import numpy as np
import pytest

import gvflab
from conftest import read_mha_field

BLOB = gvflab.phantom("blob", 32)
LUMA = np.array([0.299, 0.587, 0.114])  # gvflab/luminance.hpp, the engine's PPM rule


def field(image, **kwargs):
    return gvflab.gvf(image, iterations=20, **kwargs)[0]


def bt601(rgb):
    """Grey as the module computes it: float32 terms summed in channel order, then / 255."""
    c, w = rgb.astype(np.float32), LUMA.astype(np.float32)
    return (c[..., 0] * w[0] + c[..., 1] * w[1] + c[..., 2] * w[2]) * np.float32(1 / 255)


def rgb_image():
    rng = np.random.default_rng(7)
    rgb = (rng.random((24, 40, 3)) * 255).astype(np.uint8)
    rgb[6:18, 10:30] = (250, 40, 10)  # a red block: grey differs from any one channel
    return rgb


def test_rgb_with_channel_axis_is_grey_by_bt601_luma():
    rgb = rgb_image()
    grey = (rgb.astype(np.float64) @ LUMA / 255).astype(np.float32)
    expected = field(grey)
    got = field(rgb, channel_axis=-1)
    assert got.shape == (24, 40, 2)
    np.testing.assert_allclose(got, expected, atol=1e-5)
    np.testing.assert_array_equal(got, field(bt601(rgb)))
    # Any axis, and alpha is ignored.
    np.testing.assert_array_equal(field(np.moveaxis(rgb, -1, 0), channel_axis=0), got)
    rgba = np.concatenate([rgb, np.zeros((24, 40, 1), np.uint8)], axis=-1)
    np.testing.assert_array_equal(field(rgba, channel_axis=2), got)
    one = field(grey[..., None], channel_axis=-1)
    np.testing.assert_array_equal(one, expected)


def test_without_channel_axis_a_3d_array_is_a_volume():
    # scikit-image's convention: channel_axis=None means no channels, even for H x W x 3.
    f, report = gvflab.gvf(rgb_image(), iterations=5)
    assert f.shape == (24, 40, 3, 3) and report.depth == 24


def test_channel_axis_refusals():
    rgb = rgb_image()
    with pytest.raises(gvflab.ParameterError, match="channel_axis = 3"):
        gvflab.gvf(rgb, channel_axis=3)
    with pytest.raises(gvflab.InputError, match="5 channels"):
        gvflab.gvf(np.zeros((16, 16, 5)), channel_axis=-1)
    with pytest.raises(gvflab.InputError, match="2D image"):
        gvflab.snake(np.zeros((8, 16, 16)), gvflab.circle((8, 8), 4))
    with pytest.raises(gvflab.InputError, match="channel_axis=-1"):  # the hint for colour
        gvflab.snake(rgb, gvflab.circle((12, 20), 6))
    with pytest.raises(gvflab.InputError, match="besides its channel axis"):
        gvflab.gvf(np.zeros((16, 3)), channel_axis=-1)


def test_snake_and_region_take_channel_axis():
    rgb = rgb_image()
    start = gvflab.circle((12, 20), 9)
    mine = gvflab.snake(rgb, start, channel_axis=-1, gvf_iterations=50, iterations=100)
    theirs = gvflab.snake(bt601(rgb), start, gvf_iterations=50, iterations=100)
    np.testing.assert_array_equal(mine.points, theirs.points)
    region = gvflab.region_snake(rgb, channel_axis=-1)
    assert region.polygon.shape[1] == 2


def test_colour_matches_the_clis_ppm_reader(cli, tmp_path):
    rgb = rgb_image()
    header = f"P6\n{rgb.shape[1]} {rgb.shape[0]}\n255\n".encode()
    (tmp_path / "c.ppm").write_bytes(header + rgb.tobytes())
    cli(tmp_path / "c.ppm", "--iterations", 20, "--save-field", tmp_path / "f.mha")
    np.testing.assert_allclose(gvflab.field_xy(field(rgb, channel_axis=-1)),
                               read_mha_field(tmp_path / "f.mha"), atol=1e-5)


@pytest.mark.parametrize("shape,words", [
    ((16, 20000), "20000x16 pixels"),
    ((100000, 100000), "100000x100000 pixels"),
    ((1 << 40, 3), "at most 16384"),
    ((5000, 4, 4), "at most 4096"),
    ((1, 8, 8), "at least 2 slices"),
])
def test_sizes_are_refused_from_the_shape_before_any_copy(shape, words):
    # A broadcast view (stride 0) holds one value: copying it would allocate the whole
    # array, which NumPy reports to tracemalloc. Before issue 28 the 100000^2 one crashed.
    huge = np.broadcast_to(np.float64(0.5), shape)
    tracemalloc.start()
    try:
        with pytest.raises(gvflab.InputError, match=words):
            gvflab.gvf(huge)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024, f"{peak} bytes allocated before the size was refused"


def test_region_snake_sizes_are_refused_before_any_copy():
    tracemalloc.start()
    try:
        with pytest.raises(gvflab.InputError, match="65536"):
            gvflab.region_snake(np.broadcast_to(np.uint16(7), (4, 70000)))
        with pytest.raises(gvflab.InputError, match="2\\^31"):
            gvflab.region_snake(np.broadcast_to(np.uint16(7), (1 << 20, 1 << 12)))
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024


def test_broadcast_and_strided_views_are_read_as_they_are():
    flat = np.broadcast_to(np.float32(0.5), (32, 32))
    f = field(flat)
    assert f.shape == (32, 32, 2) and not np.any(f)  # a constant image has no edges
    big = np.zeros((64, 96), np.float32)
    big[::2, ::3] = BLOB
    expected = field(BLOB)
    np.testing.assert_array_equal(field(big[::2, ::3]), expected)
    np.testing.assert_array_equal(field(np.asfortranarray(BLOB)), expected)
    np.testing.assert_array_equal(field(BLOB.T.copy().T), expected)
    np.testing.assert_allclose(field(BLOB[::-1, ::-1])[::-1, ::-1], -expected, atol=1e-5)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.int16, np.float16, np.float64])
def test_every_real_dtype(dtype):
    info = np.iinfo(dtype) if np.issubdtype(dtype, np.integer) else None
    image = np.round(BLOB * info.max).astype(dtype) if info else BLOB.astype(dtype)
    np.testing.assert_allclose(field(image), field(BLOB), atol=5e-3)


def test_bool_images_are_zero_and_one():
    mask = BLOB > 0.5
    np.testing.assert_array_equal(field(mask), field(mask.astype(np.float32)))


@pytest.mark.filterwarnings("ignore:overflow encountered in cast")
@pytest.mark.parametrize("bad", [np.inf, -np.inf, np.nan, 1e300])
def test_non_finite_values_are_refused(bad):
    image = BLOB.astype(np.float64)
    image[3, 4] = bad  # 1e300 overflows float32
    with pytest.raises(gvflab.InputError, match="NaN or infinite"):
        gvflab.gvf(image)


@pytest.mark.parametrize("value", [np.zeros((4, 4), complex), np.array([["a"] * 4] * 4),
                                   np.empty((4, 4), object), "an image", None])
def test_non_real_inputs_are_refused(value):
    with pytest.raises(gvflab.InputError):
        gvflab.gvf(value)


FIT_CHECK = r"""
import sys
import numpy as np
import gvflab

def outcome(call):
    try:
        call()
        return "ran"
    except gvflab.ResourceError as e:
        return "refused: " + str(e)

disc = np.zeros((64, 64), np.float32)
disc[16:48, 16:48] = 1
circle = [(32 + 24 * np.sin(t), 32 + 24 * np.cos(t)) for t in np.linspace(0, 6.2, 12)]
ball = np.zeros((64, 64, 64), np.float32)
ball[16:48, 16:48, 16:48] = 1
for name, call in [
    ("snakes", lambda: gvflab.snake(disc, [circle] * 30, iterations=1, gvf_iterations=1)),
    ("snakes_traditional", lambda: gvflab.snake(disc, [circle] * 30, force="traditional",
                                                iterations=1)),
    ("snake", lambda: gvflab.snake(disc, circle, iterations=1, gvf_iterations=1)),
    ("surface", lambda: gvflab.surface_snake(ball, (32, 32, 32), 12, iterations=1,
                                             gvf_iterations=1)),
    ("surface_traditional", lambda: gvflab.surface_snake(ball, (32, 32, 32), 12,
                                                         force="traditional", iterations=1)),
]:
    print(name, "|", outcome(call))
"""


def test_snakes_and_surfaces_count_in_the_fit_check(tmp_path):
    """The fit check counts the snakes and surfaces beside the field, as the CLI's does
    (checkRunFits), before anything is allocated: on a device of 20 MiB (GVFLAB_TEST_DEVICE_MIB,
    read when the module opens its device, so in a process of its own) a 64x64 field and one
    snake run, 30 snakes (about 1.7 MB each at their most nodes) do not; a 64^3 field (about
    14 MB) and a surface at its vertex budget (about 10 MB) do not, the surface on grad f alone
    (f and V0, 4 MB) does."""
    import os
    import subprocess
    import sys
    script = tmp_path / "fit.py"
    script.write_text(FIT_CHECK)
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                          timeout=600, env=dict(os.environ, GVFLAB_TEST_DEVICE_MIB="20"))
    assert done.returncode == 0, done.stderr
    seen = dict(line.split(" | ", 1) for line in done.stdout.splitlines())
    assert seen["snake"] == "ran"
    assert seen["snakes"].startswith("refused: ") and "30 snakes" in seen["snakes"]
    assert seen["snakes_traditional"].startswith("refused: ")
    assert "30 snakes" in seen["snakes_traditional"]
    assert seen["surface"].startswith("refused: ") and "1 surfaces" in seen["surface"]
    assert seen["surface_traditional"] == "ran"
