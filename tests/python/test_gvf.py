"""gvflab.gvf(): shapes, dtypes, zero copies, and the same fields as the CLI."""
import numpy as np
import pytest

import gvflab
from conftest import read_json, read_mha_field


def test_devices_lists_the_opencl_devices():
    devices = gvflab.devices()
    assert devices, "no OpenCL device: the tests need at least PoCL"
    assert all(isinstance(d.name, str) and d.name for d in devices)
    assert str(devices[0]) and devices[0].compute_units > 0


def test_2d_field_shape_dtype_and_report():
    image = gvflab.phantom("u", 48)
    assert image.shape == (48, 48) and image.dtype == np.float32 and image.base is not None
    field, report = gvflab.gvf(image, iterations=40, mu=0.1)
    assert field.shape == (48, 48, 2) and field.dtype == np.float32
    assert field.flags.c_contiguous and field.base is not None  # views the engine's read-back
    assert report.iterations == 40 and report.solver == "euler"
    assert report.width == 48 and report.height == 48 and report.depth == 1
    assert report.error > 0 and report.opencl_ms > 0 and report.wall_ms >= report.opencl_ms
    assert report.mu == pytest.approx(0.1) and report.device


def test_by_default_the_field_is_solved_to_1e6_by_multigrid():
    # The CLI's rule (engine field_solve.hpp): no iterations, no target, no solver.
    image = gvflab.phantom("u", 64)
    _, report = gvflab.gvf(image)
    assert report.solver == "multigrid" and report.reached
    assert report.target_error == pytest.approx(1e-6) and report.error <= 1e-6
    _, euler = gvflab.gvf(image, solver="euler")
    assert euler.solver == "euler" and euler.reached and euler.error <= 1e-6
    assert euler.iterations > 20 * report.iterations
    _, fixed = gvflab.gvf(image, iterations=50)
    assert fixed.solver == "euler" and fixed.iterations == 50 and fixed.target_error is None
    result = gvflab.snake(image, gvflab.circle((31.5, 31.5), 27))
    assert result.gvf.solver == "multigrid" and result.gvf.reached


def test_components_are_in_row_col_order():
    # A bright square: outside it, V points towards its edges. Below the square, V points
    # up (negative d_row) and has no d_col component in the middle column.
    image = np.zeros((40, 40), np.float32)
    image[10:20, 15:25] = 1
    field, _ = gvflab.gvf(image, iterations=200, mu=0.2)
    d_row, d_col = field[26, 20]
    assert d_row < 0 and abs(d_col) < 0.1 * abs(d_row)
    d_row, d_col = field[15, 30]  # right of the square: V points left
    assert d_col < 0 and abs(d_row) < 0.1 * abs(d_col)


def test_3d_field_shape_and_order():
    volume = np.zeros((12, 16, 20), np.float32)
    volume[4:8, 5:11, 6:14] = 1
    field, report = gvflab.gvf(volume, iterations=30, mu=0.1)
    assert field.shape == (12, 16, 20, 3) and field.dtype == np.float32
    assert report.depth == 12 and report.height == 16 and report.width == 20
    assert field[10, 8, 10, 0] < 0  # two planes below the block: V points to lower planes


def test_integer_images_are_scaled_by_their_maximum():
    image = gvflab.phantom("blob", 32)
    as_float, _ = gvflab.gvf(image, iterations=20)
    as_u16, _ = gvflab.gvf(np.round(image * 65535).astype(np.uint16), iterations=20)
    np.testing.assert_allclose(as_u16, as_float, atol=1e-3)


@pytest.mark.parametrize("solver,precision", [("euler", "f32"), ("multigrid", "f32"),
                                              ("euler", "f16")])
def test_fields_match_the_cli(cli, tmp_path, solver, precision):
    cli("--phantom", "u", "--phantom-size", 64, "--iterations", 60, "--mu", 0.12,
        "--sigma", 1.5, "--solver", solver, "--precision", precision,
        "--save-field", tmp_path / "f.mha", "--report", tmp_path / "r.json")
    expected = read_mha_field(tmp_path / "f.mha")
    report = read_json(tmp_path / "r.json")
    field, mine = gvflab.gvf(gvflab.phantom("u", 64), iterations=60, mu=0.12, sigma=1.5,
                             solver=solver, precision=precision)
    assert expected.shape == field.shape
    np.testing.assert_allclose(gvflab.field_xy(field), expected, atol=1e-6)
    assert mine.iterations == report["iterations"]
    assert mine.error == pytest.approx(report["error"], rel=1e-6)


def test_mg_cycle_runs_as_the_clis(cli, tmp_path):
    cli("--phantom", "u", "--phantom-size", 64, "--iterations", 2, "--solver", "multigrid",
        "--mg-cycle", "twogrid", "--save-field", tmp_path / "f.mha", "--report",
        tmp_path / "r.json")
    assert read_json(tmp_path / "r.json")["mg_cycle"] == "twogrid"
    image = gvflab.phantom("u", 64)
    field, _ = gvflab.gvf(image, iterations=2, solver="multigrid", mg_cycle="twogrid")
    np.testing.assert_allclose(gvflab.field_xy(field), read_mha_field(tmp_path / "f.mha"),
                               atol=1e-6)
    paper, report = gvflab.gvf(image, iterations=2, solver="multigrid", mg_cycle="fmg")
    assert np.abs(paper - field).max() > 1e-6  # another schedule, another field after 2
    assert report.cycle == "fmg"
    # auto, as run: full multigrid on an image, two-grid on a volume; nothing for Euler.
    assert gvflab.gvf(image, iterations=1, solver="multigrid")[1].cycle == "fmg"
    volume = np.zeros((12, 12, 12), np.float32)
    volume[3:9, 3:9, 3:9] = 1
    assert gvflab.gvf(volume, iterations=1, solver="multigrid")[1].cycle == "twogrid"
    assert gvflab.gvf(image, iterations=1, solver="euler")[1].cycle == ""


def test_target_error_runs_as_the_cli(cli, tmp_path):
    cli("--phantom", "u", "--phantom-size", 64, "--iterations", 3000, "--target-error", 1e-4,
        "--save-field", tmp_path / "f.mha", "--report", tmp_path / "r.json")
    report = read_json(tmp_path / "r.json")
    field, mine = gvflab.gvf(gvflab.phantom("u", 64), iterations=3000, target_error=1e-4)
    assert mine.reached and mine.error <= 1e-4
    assert mine.iterations == report["iterations"] < 3000
    np.testing.assert_allclose(gvflab.field_xy(field), read_mha_field(tmp_path / "f.mha"),
                               atol=1e-6)


def test_3d_field_matches_the_cli(cli, tmp_path):
    volume = np.zeros((10, 12, 14), np.float32)
    volume[3:7, 4:9, 5:10] = 1
    # The CLI reads volumes from files: write the volume as a MetaImage.
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              "DimSize = 14 12 10\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n")
    (tmp_path / "v.mha").write_bytes(header.encode() + volume.astype("<f4").tobytes())
    cli(tmp_path / "v.mha", "--iterations", 25, "--mu", 0.1,
        "--save-field", tmp_path / "f.mha")
    field, _ = gvflab.gvf(volume, iterations=25, mu=0.1)
    np.testing.assert_allclose(gvflab.field_xy(field), read_mha_field(tmp_path / "f.mha"),
                               atol=1e-6)


def test_3d_default_mu_is_the_clis(cli, tmp_path):
    """Without mu, a volume runs with the CLI's μ: the table's default lowered to Euler's
    stability bound on this input (mu_rule.hpp); it was refused before issue 28. A μ given
    is checked as given."""
    volume = np.zeros((10, 12, 14), np.float32)
    volume[3:7, 4:9, 5:10] = 1
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              "DimSize = 14 12 10\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n")
    (tmp_path / "v.mha").write_bytes(header.encode() + volume.astype("<f4").tobytes())
    cli(tmp_path / "v.mha", "--iterations", 25, "--save-field", tmp_path / "f.mha",
        "--report", tmp_path / "r.json")
    field, report = gvflab.gvf(volume, iterations=25)
    theirs = read_json(tmp_path / "r.json")
    assert report.solver == theirs["solver"] == "euler"
    assert report.mu == pytest.approx(theirs["mu"], rel=1e-12)
    assert report.mu < gvflab.DEFAULTS["gvf"]["mu"]
    np.testing.assert_allclose(gvflab.field_xy(field), read_mha_field(tmp_path / "f.mha"),
                               atol=1e-6)
    with pytest.raises(gvflab.ParameterError, match="mu = 0.15"):
        gvflab.gvf(volume, iterations=25, mu=gvflab.DEFAULTS["gvf"]["mu"])
    _, multigrid = gvflab.gvf(volume)  # multigrid has no bound: the default as it is
    assert multigrid.mu == gvflab.DEFAULTS["gvf"]["mu"]
