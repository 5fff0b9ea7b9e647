"""gvflab.snake() and gvflab.region_snake(): the same contours as the CLI, row/col order."""
import numpy as np
import pytest

import gvflab
from conftest import read_json

SIZE = 64
# The CLI's circle around the U (x, y from the image's corner) and the same in (row, col).
CIRCLE_XY = (32.0, 32.0, 28.0)
CIRCLE_RC = ((CIRCLE_XY[1] - 0.5, CIRCLE_XY[0] - 0.5), CIRCLE_XY[2])
POLYGON_XY = [(8.0, 6.0), (18.0, 6.0), (13.0, 14.0)]


@pytest.mark.parametrize("force", ["gvf", "traditional", "ggvf", "vfc", "distance"])
def test_snakes_match_the_cli(cli, tmp_path, force):
    polygon = ",".join(f"{x},{y}" for x, y in POLYGON_XY)
    cli("--phantom", "u", "--phantom-size", SIZE, "--iterations", 300, "--snake-force", force,
        "--ggvf-k", 0.2, "--vfc-radius", 16,
        "--snake", "circle:{},{},{}".format(*CIRCLE_XY), "--snake", f"polygon:{polygon}",
        "--snake-iterations", 600, "--alpha", 0.1, "--save-contours", tmp_path / "c.json")
    expected = read_json(tmp_path / "c.json")["contours"]
    starts = [gvflab.circle(*CIRCLE_RC), gvflab.xy_to_rc(POLYGON_XY, corner_origin=True)]
    results = gvflab.snake(gvflab.phantom("u", SIZE), starts, force=force, gvf_iterations=300,
                           iterations=600, alpha=0.1,
                           force_params={"ggvf_k": 0.2, "vfc_radius": 16})
    assert len(results) == len(expected) == 2
    for mine, theirs in zip(results, expected):
        assert mine.force == force
        assert mine.state == theirs["state"]  # the same engine rule
        assert mine.converged == theirs["converged"]
        assert mine.iterations == theirs["iterations"]
        assert mine.points.shape == (len(theirs["points"]), 2)
        np.testing.assert_allclose(mine.points, gvflab.xy_to_rc(theirs["points"], True),
                                   atol=1e-4)
    assert (results[0].gvf is None) == (force != "gvf")


def test_force_params_are_the_clis_table():
    image, start = gvflab.phantom("u", SIZE), gvflab.circle(CIRCLE_RC[0], CIRCLE_RC[1])
    with pytest.raises(gvflab.ParameterError, match="ggvf_k"):
        gvflab.snake(image, start, force="ggvf", force_params={"ggvf_kk": 1})
    with pytest.raises(gvflab.ParameterError, match="GGVF K"):
        gvflab.snake(image, start, force="ggvf", force_params={"ggvf_k": 100})
    with pytest.raises(gvflab.ParameterError, match="gaussian"):
        gvflab.snake(image, start, force="vfc", force_params={"vfc_kernel": "box"})
    with pytest.raises(gvflab.ParameterError, match="distance"):
        gvflab.snake(image, start, force="balloon")


def test_one_contour_in_gives_one_result_with_row_col_points():
    image = gvflab.phantom("u", SIZE)
    result = gvflab.snake(image, gvflab.circle((31.5, 31.5), 28), iterations=400,
                          gvf_iterations=200)
    assert isinstance(result, gvflab.SnakeResult)
    assert result.points.dtype == np.float64 and result.points.shape[1] == 2
    assert result.state in gvflab.SNAKE_STATES and result.iterations > 0
    # The U spans rows 0.2..0.8 and cols 0.25..0.75 of the image: the snake ends near it.
    rows, cols = result.points[:, 0], result.points[:, 1]
    assert 0.1 * SIZE < rows.min() < 0.3 * SIZE and 0.7 * SIZE < rows.max() < 0.9 * SIZE
    assert 0.15 * SIZE < cols.min() < 0.35 * SIZE and 0.65 * SIZE < cols.max() < 0.85 * SIZE


def test_states_are_the_clis_stalled_and_collapsed(cli, tmp_path):
    """Python reports the engine's states, as the CLI does: a grad-f snake far from every edge
    stalls (it was "moving" before), a GVF seed carried onto the U collapses to a dot (it was
    "converged")."""
    assert gvflab.SNAKE_STATES == ("moving", "converged", "collapsed", "stalled")
    # The README's far circle (gvflab --headless --phantom u --snake
    # circle:128,128,110@traditional): grad f is zero all along it, it never moves.
    far = gvflab.snake(gvflab.phantom("u", 256), gvflab.circle((127.5, 127.5), 110),
                       force="traditional", iterations=600)
    assert far.state == "stalled" and not far.converged
    assert far.iterations < 600 and far.held == 0
    image = gvflab.phantom("u", SIZE)
    seed_xy = (6.0, 6.0, 3.0)
    seed = gvflab.snake(image, gvflab.circle((seed_xy[1] - 0.5, seed_xy[0] - 0.5), seed_xy[2]),
                        alpha=0.01, beta=0.0, gvf_iterations=500, iterations=1500)
    assert seed.state == "collapsed" and not seed.converged
    assert seed.iterations < 1500
    cli("--phantom", "u", "--phantom-size", SIZE, "--iterations", 500, "--alpha", 0.01,
        "--beta", 0, "--snake", "circle:{},{},{}".format(*seed_xy), "--snake-iterations", 1500,
        "--save-contours", tmp_path / "c.json")
    (theirs,) = read_json(tmp_path / "c.json")["contours"]
    assert theirs["state"] == "collapsed" and theirs["iterations"] == seed.iterations


def test_region_snake_matches_the_cli(cli, tmp_path):
    cli("--phantom", "blob", "--phantom-size", SIZE, "--region-snake", "6,8,50,44",
        "--noise", "gaussian", "--save-contours", tmp_path / "c.json",
        "--report", tmp_path / "r.json")
    (theirs,) = read_json(tmp_path / "c.json")["contours"]
    report = read_json(tmp_path / "r.json")
    mine = gvflab.region_snake(gvflab.phantom("blob", SIZE), (8, 6, 44, 50), noise="gaussian")
    assert mine.polygon.dtype == np.int32
    np.testing.assert_array_equal(mine.polygon, gvflab.xy_to_rc(theirs["points"], True))
    assert mine.converged == report["converged"] and mine.steps == report["steps"]
    assert mine.n_target == report["n_target"]
    assert mine.mean_target == pytest.approx(report["mean_target"], rel=1e-6)


def test_region_snake_finds_the_blob():
    image = gvflab.phantom("blob", SIZE)
    result = gvflab.region_snake(image)
    assert result.converged and len(result.polygon) >= 8
    rows, cols = result.polygon[:, 0], result.polygon[:, 1]
    # The blob: radius about 0.28 of the size around the centre.
    radius = np.hypot(rows - SIZE / 2, cols - SIZE / 2)
    assert 0.15 * SIZE < radius.mean() < 0.4 * SIZE
    assert result.mean_target > result.mean_background


def test_all_four_states_from_python():
    """'moving' and 'converged' here; 'stalled' and 'collapsed' in the test above."""
    square = np.zeros((SIZE, SIZE), np.float32)
    square[20:44, 20:44] = 1
    start = gvflab.circle((31.5, 31.5), 16)
    assert gvflab.snake(square, start, iterations=10).state == "moving"
    done = gvflab.snake(square, start, iterations=1500)
    assert done.state == "converged" and done.converged and done.iterations < 1500


# A valid value other than the default for every snake keyword (dmax >= 2 dmin kept).
OTHER_PARAMS = {"alpha": 0.07, "beta": 0.03, "gamma": 1.5, "kappa": 0.5, "pressure": 0.1,
                "dmin": 1.2, "dmax": 3.0, "tolerance": 0.4, "window": 50, "hold_gap": 6.0,
                "resample": 5, "normalize": False}


def assert_engine_reads_back(attribute, other, **given):
    # result.<attribute> is read back from the engine, one entry per bound table key: a keyword
    # the binding dropped (or a new table key no keyword sets) fails here.
    image = gvflab.phantom("u", 32)
    start = gvflab.circle((15.5, 15.5), 12)
    default = getattr(gvflab.snake(image, start, force="traditional", iterations=1), attribute)
    assert set(default) == set(other)
    for key, value in other.items():
        assert default[key] != value, key
    moved = gvflab.snake(image, start, force="traditional", iterations=1, **given)
    assert getattr(moved, attribute) == other


def test_every_snake_keyword_reaches_the_engine():
    assert_engine_reads_back("params", OTHER_PARAMS, **OTHER_PARAMS)
    surface = gvflab.surface_snake(gvflab.volume_phantom("sphere", 16), (7.5, 7.5, 7.5), 5,
                                   force="traditional", iterations=1, **OTHER_PARAMS)
    assert surface.params == OTHER_PARAMS


# A valid value other than the default for every force parameter.
OTHER_FORCE_PARAMS = {"ggvf_k": 0.2, "vfc_radius": 12, "vfc_gamma": 2.2, "vfc_zeta": 6.0,
                      "distance_threshold": 0.5, "vfc_kernel": "gaussian"}


def test_every_force_parameter_reaches_the_engine():
    assert_engine_reads_back("force_params", OTHER_FORCE_PARAMS, force_params=OTHER_FORCE_PARAMS)
