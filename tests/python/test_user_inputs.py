"""A researcher's own inputs: gvf(edge_map=, v0=) and open snakes (snake(boundary_condition=))."""
import numpy as np
import pytest

import gvflab

SIZE = 48


def test_edge_map_replaces_the_image_s():
    """f is the caller's: two different images with one edge map give one field, and a blank
    edge map (f = 0, so V0 = grad f = 0) gives a zero field."""
    ramp = np.zeros((SIZE, SIZE), np.float32)
    ramp[:, SIZE // 2:] = 1.0  # one vertical edge
    u, blob = gvflab.phantom("u", SIZE), gvflab.phantom("blob", SIZE)
    a, _ = gvflab.gvf(u, edge_map=ramp, solver="euler", iterations=50)
    b, _ = gvflab.gvf(blob, edge_map=ramp, solver="euler", iterations=50)
    built, _ = gvflab.gvf(u, solver="euler", iterations=50)
    np.testing.assert_array_equal(a, b)
    assert np.abs(a - built).max() > 1e-3
    zero, _ = gvflab.gvf(u, edge_map=np.zeros((SIZE, SIZE)), solver="euler", iterations=50)
    assert np.abs(zero).max() == 0


def test_v0_array_is_the_initial_field():
    """A constant V0 solves mu lap V - (V - V0)|V0|^2 = 0 exactly: the field stays V0."""
    v0 = np.zeros((SIZE, SIZE, 2), np.float32)
    v0[..., 0], v0[..., 1] = 0.3, -0.4  # (d_row, d_col), as gvf() returns
    field, report = gvflab.gvf(gvflab.phantom("u", SIZE), v0=v0, solver="euler", iterations=40)
    np.testing.assert_allclose(field, v0, atol=1e-6)
    vol = np.zeros((8, 10, 12, 3), np.float32)
    vol[..., 2] = 0.5
    field3, _ = gvflab.gvf(np.random.default_rng(1).random((8, 10, 12)), v0=vol,
                           solver="euler", iterations=10, mu=0.1)
    np.testing.assert_allclose(field3, vol, atol=1e-6)


@pytest.mark.parametrize("call, words", [
    (lambda img: gvflab.gvf(img, edge_map=np.zeros((SIZE, SIZE + 1))), ["edge_map", "shape"]),
    (lambda img: gvflab.gvf(img, edge_map=np.full((SIZE, SIZE), np.nan)), ["edge_map", "NaN"]),
    (lambda img: gvflab.gvf(img, v0=np.zeros((SIZE, SIZE, 3))), ["v0", "48 x 48 x 2"]),
    (lambda img: gvflab.gvf(img, v0=np.full((SIZE, SIZE, 2), np.inf)), ["v0", "NaN or inf"]),
    (lambda img: gvflab.gvf(img, edge_map=np.zeros((SIZE, SIZE)), v0="image"), ["v0='image'"]),
])
def test_user_inputs_are_refused_with_their_name(call, words):
    with pytest.raises((gvflab.InputError, gvflab.ParameterError)) as err:
        call(gvflab.phantom("u", SIZE))
    for w in words:
        assert w in str(err.value)


def test_open_snakes_keep_fixed_ends_and_say_their_boundary():
    image = gvflab.phantom("u", 64)
    line = np.array([[40.0, 10.0], [44.0, 20.0], [40.0, 30.0]])  # (row, col)
    fixed = gvflab.snake(image, line, boundary_condition="fixed", iterations=300,
                         gvf_iterations=100)
    assert fixed.boundary_condition == "fixed"
    np.testing.assert_array_equal(fixed.points[0], line[0])
    np.testing.assert_array_equal(fixed.points[-1], line[-1])
    free = gvflab.snake(image, line, boundary_condition="free", iterations=300,
                        gvf_iterations=100)
    assert free.boundary_condition == "free" and free.state in gvflab.SNAKE_STATES
    assert not np.array_equal(free.points[0], line[0])
    closed = gvflab.snake(image, gvflab.circle((31.5, 31.5), 28), iterations=10)
    assert closed.boundary_condition == "periodic"
    with pytest.raises(gvflab.ParameterError, match="boundary"):
        gvflab.snake(image, line, boundary_condition="open")
    with pytest.raises(gvflab.ParameterError, match="2 distinct points"):
        gvflab.snake(image, line[:1], boundary_condition="free")
