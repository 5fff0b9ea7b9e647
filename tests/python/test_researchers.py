"""Issue 44: no silent change of a parameter or of the data, and the pieces a scikit-image user
reaches for: gvflab.GvflabWarning where the CLI warns, the mu = 0 refusal, masked arrays, the RGB
warning, region_snake's NaN refusal, snake_mask, edge_map, DEFAULTS and device= messages."""
import warnings

import numpy as np
import pytest

import gvflab

SIZE = 48


def no_warnings():
    """A context in which any GvflabWarning fails the test."""
    ctx = warnings.catch_warnings()
    ctx.__enter__()
    warnings.simplefilter("error", gvflab.GvflabWarning)
    return ctx


def test_a_target_not_reached_warns_naming_the_keyword():
    image = gvflab.phantom("u", SIZE)
    with pytest.warns(gvflab.GvflabWarning, match=r"did not reach 1e-09.*raise iterations"):
        _, report = gvflab.gvf(image, solver="euler", target_error=1e-9, iterations=5)
    assert not report.reached
    with pytest.warns(gvflab.GvflabWarning, match="raise gvf_iterations"):
        gvflab.snake(image, gvflab.circle((24, 24), 18), iterations=5, solver="euler",
                     target_error=1e-9, gvf_iterations=5)
    ctx = no_warnings()
    try:
        _, report = gvflab.gvf(image)  # multigrid to 1e-6: reached, nothing said
        gvflab.gvf(image, iterations=10)  # a fixed count has no target
    finally:
        ctx.__exit__(None, None, None)
    assert report.reached and not report.settled


def test_a_default_mu_euler_cannot_run_is_refused_with_the_reason():
    """max|V0|^2 > 2 (v0='image' on HU-like data, an edge map outside [0, 1]) once ran mu = 0
    silently: V = V0, report.mu == 0, reached."""
    hu = gvflab.phantom("u", SIZE) * 1000.0 - 500.0
    with pytest.raises(gvflab.ParameterError, match=r"max\|V0\|\^2 = .* is at least 2"):
        gvflab.gvf(hu, v0="image", solver="euler", iterations=20)
    with pytest.raises(gvflab.ParameterError, match="rescale it to"):
        gvflab.gvf(hu, edge_map=gvflab.phantom("u", SIZE) * 50, solver="euler", iterations=20)
    # mu = 0 asked for runs as asked.
    _, report = gvflab.gvf(hu, v0="image", solver="euler", iterations=5, mu=0.0)
    assert report.mu == 0.0


def test_multigrid_on_hu_data_says_when_it_stops_short():
    hu = gvflab.phantom("u", SIZE) * 1000.0 - 500.0
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        _, report = gvflab.gvf(hu, v0="image")
    said = [w for w in seen if issubclass(w.category, gvflab.GvflabWarning)]
    assert report.reached or said, report


def test_masked_arrays_are_refused_unless_nothing_is_masked():
    image = gvflab.phantom("u", SIZE)
    masked = np.ma.masked_less(image, 0.5)
    for call in (lambda a: gvflab.gvf(a, iterations=5), lambda a: gvflab.region_snake(a),
                 lambda a: gvflab.edge_map(a)):
        with pytest.raises(gvflab.InputError, match=r"masked array.*filled"):
            call(masked)
    field, _ = gvflab.gvf(np.ma.masked_array(image, mask=False), iterations=5)
    np.testing.assert_array_equal(field, gvflab.gvf(image, iterations=5)[0])


def test_an_rgb_shaped_array_without_channel_axis_warns():
    rgb = np.zeros((32, 40, 3), np.uint8)
    rgb[8:24, 10:30] = (200, 120, 40)
    with pytest.warns(gvflab.GvflabWarning, match=r"\(32, 40, 3\).*channel_axis=-1"):
        field, _ = gvflab.gvf(rgb, iterations=5)
    assert field.shape == (32, 40, 3, 3)  # as documented: a volume
    ctx = no_warnings()
    try:
        assert gvflab.gvf(rgb, channel_axis=-1, iterations=5)[0].shape == (32, 40, 2)
        gvflab.gvf(np.zeros((8, 32, 40)), iterations=5)  # a real volume
    finally:
        ctx.__exit__(None, None, None)


def test_region_snake_refuses_non_finite_values_like_gvf():
    image = gvflab.phantom("blob", SIZE)
    for bad in (np.nan, np.inf):
        spoiled = image.copy()
        spoiled[5, 7] = bad
        with pytest.raises(gvflab.InputError, match="NaN or infinite"):
            gvflab.region_snake(spoiled)


def test_snake_mask_is_the_region_snake_s_own_count_and_a_disc():
    image = gvflab.phantom("blob", SIZE)
    region = gvflab.region_snake(image)
    mask = gvflab.snake_mask(region, image.shape)
    assert mask.dtype == bool and mask.shape == image.shape
    assert mask.sum() == region.n_target
    disc = gvflab.snake_mask(gvflab.circle((24, 20), 10, spacing=0.5), (SIZE, SIZE))
    rr, cc = np.mgrid[:SIZE, :SIZE]
    truth = np.hypot(rr - 24, cc - 20) < 10
    assert (disc != truth).sum() <= 8  # the polygon's chords, at the rim only
    labels = gvflab.snake_mask([gvflab.circle((12, 12), 6), gvflab.circle((30, 30), 8)],
                               (SIZE, SIZE))
    assert labels.dtype == np.uint16 and set(np.unique(labels)) == {0, 1, 2}
    assert labels[12, 12] == 1 and labels[30, 30] == 2 and labels[0, 47] == 0
    s = gvflab.snake(image, gvflab.circle((24, 24), 20))
    np.testing.assert_array_equal(gvflab.snake_mask(s, image.shape),
                                  gvflab.snake_mask(s.points, image.shape))
    line = gvflab.snake(image, np.array([[10.0, 5.0], [10.0, 40.0]]), boundary_condition="fixed",
                        iterations=5)
    with pytest.raises(gvflab.ParameterError, match="open snake"):
        gvflab.snake_mask(line, image.shape)
    with pytest.raises(gvflab.ParameterError, match="at least 3 points"):
        gvflab.snake_mask(np.zeros((2, 2)), image.shape)


def test_edge_map_is_the_one_gvf_uses():
    image = gvflab.phantom("u", SIZE)
    f = gvflab.edge_map(image, sigma=1.5)
    assert f.shape == image.shape and f.dtype == np.float32
    assert f.min() >= 0 and f.max() == pytest.approx(1.0)
    built, _ = gvflab.gvf(image, sigma=1.5, solver="euler", iterations=30)
    given, _ = gvflab.gvf(image, edge_map=f, solver="euler", iterations=30)
    np.testing.assert_allclose(given, built, atol=1e-6)
    volume = gvflab.volume_phantom("sphere", 16)
    assert gvflab.edge_map(volume).shape == (16, 16, 16)


def test_defaults_say_what_runs():
    assert gvflab.DEFAULTS["gvf"]["iterations"] is None
    assert gvflab.DEFAULTS["gvf"]["target-error"] == 1e-6
    _, report = gvflab.gvf(gvflab.phantom("u", SIZE))
    assert report.solver == "multigrid" and report.target_error == 1e-6


def test_device_messages_use_the_keyword():
    if any(d.is_gpu for d in gvflab.devices()):
        pytest.skip("a GPU is present: device='gpu' is no error here")
    with pytest.raises(gvflab.DeviceError) as e:
        gvflab.gvf(gvflab.phantom("u", SIZE), device="gpu", iterations=1)
    assert "device='cpu'" in str(e.value) and "--device" not in str(e.value)


def test_a_rectangle_drawn_around_a_coin_gives_the_coin():
    """The coins photo: started around a coin the region snake once grew over the background
    (IoU 0.03); its target is now the inside of the start, as started inside the coin."""
    mpimg = pytest.importorskip("matplotlib.image")
    import pathlib
    photo = mpimg.imread(pathlib.Path(__file__).resolve().parents[2] / "assets/images/coins.png")
    photo = photo[..., 0] if photo.ndim == 3 else photo
    row, col = 118, 272  # a coin of radius about 24 px
    coin = gvflab.snake_mask(gvflab.region_snake(photo, (row - 8, col - 8, 16, 16)), photo.shape)
    assert 1500 < coin.sum() < 2200
    for half in (32, 36, 40, 46):
        with pytest.warns(gvflab.GvflabWarning, match="started again inside the object"):
            r = gvflab.region_snake(photo, (row - half, col - half, 2 * half, 2 * half))
        mask = gvflab.snake_mask(r, photo.shape)
        assert r.restarted
        assert (mask & coin).sum() / (mask | coin).sum() > 0.9, half
    # A start that already gives the coin runs once.
    assert not gvflab.region_snake(photo, (row - 28, col - 28, 56, 56)).restarted


def test_free_ends_retract_as_documented():
    """docs/PYTHON.md: free ends retract about 11 px each along a straight edge; fixed stay."""
    image = np.zeros((96, 128), np.float32)
    image[40:56, :] = 1.0
    line = np.stack([np.full(50, 40.0), np.linspace(24, 104, 50)], axis=1)
    free = gvflab.snake(image, line, boundary_condition="free").points
    assert 8 < free[0, 1] - 24 < 14 and 8 < 104 - free[-1, 1] < 14
    fixed = gvflab.snake(image, line, boundary_condition="fixed").points
    np.testing.assert_allclose(fixed[[0, -1]], line[[0, -1]], atol=1e-6)
