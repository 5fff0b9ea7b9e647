"""Exceptions, progress callbacks and the x/y helpers of the gvflab module."""
import numpy as np
import pytest

import gvflab


IMAGE = gvflab.phantom("u", 32)


@pytest.mark.parametrize("call,cls,words", [
    (lambda: gvflab.gvf(IMAGE, solver="euler", mu=0.5), gvflab.ParameterError, "mu"),
    (lambda: gvflab.gvf(IMAGE, solver="multigrid", mu=0), gvflab.ParameterError, "mu"),
    (lambda: gvflab.gvf(IMAGE, mu=float("nan")), gvflab.ParameterError, "mu"),
    (lambda: gvflab.gvf(IMAGE, sigma=-1), gvflab.ParameterError, "sigma"),
    (lambda: gvflab.gvf(IMAGE, solver="jacobi"), gvflab.ParameterError, "solver"),
    (lambda: gvflab.gvf(IMAGE, precision="f64"), gvflab.ParameterError, "f64"),
    (lambda: gvflab.gvf(IMAGE, iterations=-3), gvflab.ParameterError, "iterations"),
    (lambda: gvflab.gvf(IMAGE, solver="multigrid", mg_cycle="wcycle"), gvflab.ParameterError,
     "mg_cycle: cycle is one of auto, fmg, vcycles, twogrid"),
    (lambda: gvflab.gvf(np.zeros(5)), gvflab.InputError, "2D image"),
    (lambda: gvflab.gvf(np.zeros((3, 0), np.float32)), gvflab.InputError, "image"),
    (lambda: gvflab.gvf(np.full((8, 8), np.nan)), gvflab.InputError, "finite"),
    (lambda: gvflab.gvf(np.zeros((4, 4), complex)), gvflab.InputError, "real numbers"),
    (lambda: gvflab.gvf(IMAGE, device="no-such-device-xyz"), gvflab.DeviceError,
     "no-such-device-xyz"),
    (lambda: gvflab.snake(IMAGE, gvflab.circle((16, 16), 8), force="balloon"),
     gvflab.ParameterError, "balloon"),
    (lambda: gvflab.snake(IMAGE, gvflab.circle((16, 16), 8), alpha=-1),
     gvflab.ParameterError, "alpha"),
    (lambda: gvflab.snake(IMAGE, np.zeros((4, 3))), gvflab.ParameterError, "N x 2"),
    (lambda: gvflab.snake(IMAGE, gvflab.circle((16, 16), 40)), gvflab.ParameterError,
     "outside"),
    (lambda: gvflab.region_snake(IMAGE, noise="laplace"), gvflab.ParameterError, "laplace"),
    (lambda: gvflab.region_snake(IMAGE, (0, 0, 2, 2)), gvflab.ParameterError, "rect"),
    (lambda: gvflab.phantom("v", 64), gvflab.InputError, "v"),
])
def test_engine_errors_raise_their_python_class_with_the_sentence(call, cls, words):
    with pytest.raises(cls) as caught:
        call()
    message = str(caught.value)
    assert words in message, message
    assert isinstance(caught.value, gvflab.Error)
    # The engine's sentence, not a code or a C++ type name.
    assert len(message.split()) >= 4 and "std::" not in message, message


def test_exception_classes_fit_python_idioms():
    assert issubclass(gvflab.ParameterError, ValueError)
    assert issubclass(gvflab.InputError, ValueError)
    assert issubclass(gvflab.ResourceError, MemoryError)
    assert issubclass(gvflab.KernelBuildError, gvflab.DeviceError)
    assert issubclass(gvflab.Error, RuntimeError)
    assert gvflab.ParameterError.__module__ == "gvflab"


def test_progress_every_n_iterations():
    seen = []
    gvflab.gvf(IMAGE, iterations=250, progress=seen.append, progress_every=50)
    assert [p.iterations for p in seen] == [50, 100, 150, 200, 250]
    assert all(p.stage == "gvf" and p.total == 250 for p in seen)
    seen.clear()
    gvflab.gvf(IMAGE, iterations=120, progress=seen.append, progress_every=50)
    assert [p.iterations for p in seen] == [50, 100, 120]  # the last one always


def test_progress_with_target_error_carries_the_error():
    seen = []
    _, report = gvflab.gvf(IMAGE, iterations=5000, target_error=2e-3, progress=seen.append,
                           progress_every=1)
    assert seen[-1].iterations == report.iterations
    assert seen[-1].error == pytest.approx(report.error)
    errors = [p.error for p in seen]
    assert errors == sorted(errors, reverse=True)  # it converges


def test_progress_of_snakes_and_region():
    seen = []
    gvflab.snake(IMAGE, gvflab.circle((15.5, 15.5), 13), gvf_iterations=100, iterations=300,
                 progress=seen.append, progress_every=100)
    stages = [p.stage for p in seen]
    assert stages[0] == "gvf" and stages[-1] == "snake"
    assert [p.iterations for p in seen if p.stage == "gvf"] == [100]
    seen.clear()
    result = gvflab.region_snake(gvflab.phantom("blob", 64), progress=seen.append,
                                 progress_every=5)
    assert seen and seen[-1].iterations == result.steps and seen[-1].total is None
    assert all(p.stage == "region" for p in seen)


def test_an_exception_in_the_callback_stops_the_run():
    calls = []

    def stop(p):
        calls.append(p)
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        gvflab.gvf(IMAGE, iterations=1000, progress=stop, progress_every=10)
    assert len(calls) == 1


def test_bad_progress_arguments():
    with pytest.raises(gvflab.ParameterError, match="progress_every"):
        gvflab.gvf(IMAGE, progress=print, progress_every=0)
    with pytest.raises(gvflab.ParameterError, match="callable"):
        gvflab.gvf(IMAGE, progress=42)


def test_xy_helpers():
    rc = np.array([[1.0, 2.0], [3.0, 4.5]])
    np.testing.assert_array_equal(gvflab.rc_to_xy(rc), [[2.0, 1.0], [4.5, 3.0]])
    np.testing.assert_array_equal(gvflab.xy_to_rc(gvflab.rc_to_xy(rc)), rc)
    np.testing.assert_array_equal(gvflab.rc_to_xy(rc, corner_origin=True),
                                  [[2.5, 1.5], [5.0, 3.5]])
    np.testing.assert_array_equal(gvflab.xy_to_rc([[2.5, 1.5]], corner_origin=True), [[1, 2]])
    with pytest.raises(ValueError):
        gvflab.xy_to_rc([1, 2, 3])


def test_field_xy_is_a_view_with_x_first():
    field, _ = gvflab.gvf(IMAGE, iterations=10)
    xy = gvflab.field_xy(field)
    assert np.shares_memory(xy, field)
    np.testing.assert_array_equal(xy[..., 0], field[..., 1])
    np.testing.assert_array_equal(xy[..., 1], field[..., 0])
    with pytest.raises(ValueError):
        gvflab.field_xy(np.zeros((4, 4, 3)))


def test_circle_is_in_row_col_order():
    points = gvflab.circle((10, 30), 5)
    np.testing.assert_allclose(points.mean(axis=0), [10, 30], atol=0.2)
    np.testing.assert_allclose(np.hypot(points[:, 0] - 10, points[:, 1] - 30), 5, atol=1e-4)
