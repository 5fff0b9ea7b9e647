"""gvflab.gvf(spacing=): GVF in world units, spacing given in the array's axis order."""
import numpy as np
import pytest

import gvflab


def stripes(shape, axis):
    """An array that varies along one axis only (a smooth step)."""
    ramp = np.tanh((np.arange(shape[axis]) - shape[axis] / 2) / 3).astype(np.float32)
    view = [1] * len(shape)
    view[axis] = shape[axis]
    return np.broadcast_to(ramp.reshape(view), shape).copy()


def test_unit_spacing_is_the_default_bit_for_bit():
    image = gvflab.phantom("u", 40)
    a, _ = gvflab.gvf(image, iterations=30, mu=0.1)
    b, _ = gvflab.gvf(image, iterations=30, mu=0.1, spacing=(1.0, 1.0))
    assert np.array_equal(a, b)


@pytest.mark.parametrize("shape, axis", [((24, 30), 1), ((24, 30), 0), ((10, 12, 14), 0)])
def test_spacing_follows_the_array_axes(shape, axis):
    # V0 (no iterations) is the gradient in world units: twice the spacing along the axis the
    # image varies on halves that component (up to the refined build's sampling in a volume) and
    # leaves the others (zero) alone.
    data = stripes(shape, axis)
    spacing = [1.0] * len(shape)
    spacing[axis] = 2.0
    unit, _ = gvflab.gvf(data, solver="euler", iterations=0, sigma=0, mu=0.1)
    wide, _ = gvflab.gvf(data, solver="euler", iterations=0, sigma=0, mu=0.1,
                         spacing=tuple(spacing))
    assert np.abs(unit[..., axis]).max() > 0.05
    if len(shape) == 2:
        np.testing.assert_allclose(wide[..., axis], unit[..., axis] / 2, atol=1e-7)
    else:  # a volume's f and V0 are built with the coarse axis refined (edgeRefinement)
        inner = [slice(None)] * 3
        inner[axis] = slice(2, -2)  # its borders are refined too
        inner = tuple(inner)
        np.testing.assert_allclose(wide[inner][..., axis], unit[inner][..., axis] / 2, atol=0.015)
    others = [c for c in range(len(shape)) if c != axis]
    assert np.abs(wide[..., others]).max() == 0


def test_isotropic_spacing_scales_the_solved_field():
    # GVF is scale-free in mu: spacing h on every axis gives V / h (multigrid's iterations scale
    # exactly, up to float rounding).
    image = gvflab.phantom("u", 40)
    a, _ = gvflab.gvf(image, solver="multigrid", iterations=4, mu=0.1)
    b, _ = gvflab.gvf(image, solver="multigrid", iterations=4, mu=0.1, spacing=(2.0, 2.0))
    assert np.abs(b - a / 2).max() < 1e-5 * np.abs(a).max()


def test_fine_spacing_lowers_eulers_mu_bound():
    image = gvflab.phantom("u", 40)
    gvflab.gvf(image, solver="euler", iterations=5, mu=0.2)
    with pytest.raises(gvflab.ParameterError, match="spacing 0.5x1"):
        gvflab.gvf(image, solver="euler", iterations=5, mu=0.2, spacing=(1.0, 0.5))


@pytest.mark.parametrize("spacing", [(0.0, 1.0), (1.0, -2.0), (1.0, float("nan")), (1.0,),
                                     (1.0, 1.0, 1.0), (float("inf"), 1.0)])
def test_bad_spacing_is_refused_naming_it(spacing):
    with pytest.raises(gvflab.ParameterError, match="^spacing must give one positive"):
        gvflab.gvf(gvflab.phantom("u", 24), iterations=1, spacing=spacing)
