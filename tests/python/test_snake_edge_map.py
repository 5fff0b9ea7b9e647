"""Issue 44, Python items: snake(edge_map=) moves the snakes on the caller's own edge map, and
messages about points speak Python's conventions ((row, col), the keyword's name)."""
import numpy as np
import pytest

import gvflab

SIZE = 48


def test_snake_on_a_given_edge_map_equals_the_snake_on_its_image():
    # The edge map carries everything: a blank image with the U's f moves as the U itself does.
    u = gvflab.phantom("u", SIZE)
    start = gvflab.circle((23.5, 23.5), 20)
    f = gvflab.edge_map(u)
    for force in ("gvf", "traditional"):
        own = gvflab.snake(u, start, force=force, iterations=300)
        given = gvflab.snake(np.zeros_like(u), start, force=force, iterations=300, edge_map=f)
        assert given.points.shape == own.points.shape
        np.testing.assert_allclose(given.points, own.points, atol=1e-4)
        # The blank image alone gives no force: the snake does not find the U.
        blank = gvflab.snake(np.zeros_like(u), start, force=force, iterations=300)
        assert blank.points.shape != own.points.shape or \
            np.abs(blank.points - own.points).max() > 1


def test_snake_edge_map_is_checked_like_gvfs():
    u = gvflab.phantom("u", SIZE)
    start = gvflab.circle((23.5, 23.5), 20)
    with pytest.raises(gvflab.InputError, match="edge_map must have the image's shape"):
        gvflab.snake(u, start, edge_map=np.zeros((SIZE, SIZE + 1), np.float32))
    bad = np.zeros((SIZE, SIZE), np.float32)
    bad[3, 4] = np.nan
    with pytest.raises(gvflab.InputError, match="edge_map"):
        gvflab.snake(u, start, edge_map=bad)


def test_a_point_outside_the_image_is_named_as_row_col():
    image = np.zeros((40, 64), np.float32)  # rows != cols, so that a swap would show
    points = np.array([[50.0, 5.0], [3.0, 4.0], [5.0, 9.0]])
    with pytest.raises(gvflab.ParameterError,
                       match=r"^initial_points: the point \(row, col\) = \(50, 5\) lies outside "
                             r"the image \(shape \(40, 64\)"):
        gvflab.snake(image, points)
    inside = np.array([[10.0, 10.0], [10.0, 20.0], [20.0, 15.0]])
    with pytest.raises(gvflab.ParameterError, match=r"^initial_points\[1\]: the point "
                                                    r"\(row, col\) = \(3, 70\)"):
        gvflab.snake(image, [inside, np.array([[10.0, 10.0], [3.0, 70.0], [20.0, 15.0]])])
    # The edges' centres -0.5 .. side - 0.5 are inside, as the engine's rule has it.
    gvflab.snake(image, np.array([[-0.5, -0.5], [39.5, 0.0], [0.0, 63.5]]), iterations=1)

