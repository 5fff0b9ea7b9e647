"""Issue 44, Python items: surface_snake() starts from a box as well as from a sphere, and
surface_mask() gives the voxels inside a surface as a label volume."""
import numpy as np
import pytest

import gvflab

SIZE = 32
CENTRE = (SIZE - 1) / 2


def ball_radius(vertices):
    d = np.linalg.norm(vertices - CENTRE, axis=1)
    return d.min(), d.max()


def test_a_box_around_the_ball_shrinks_onto_it_as_the_sphere_does():
    ball = gvflab.volume_phantom("sphere", SIZE)
    from_box = gvflab.surface_snake(ball, box=((2, 2, 2), (SIZE - 3, SIZE - 3, SIZE - 3)),
                                    iterations=400)
    from_sphere = gvflab.surface_snake(ball, (CENTRE,) * 3, 13, iterations=400)
    assert from_box.state == "converged"
    lo, hi = ball_radius(from_box.vertices)
    s_lo, s_hi = ball_radius(from_sphere.vertices)
    # The box's corners were ~23 voxels from the centre; now every vertex is on the ball.
    assert abs(lo - s_lo) < 0.5 and abs(hi - s_hi) < 0.5 and hi - lo < 1.5


@pytest.mark.parametrize("kwargs, match", [
    ({"center": (15.5,) * 3, "radius": 13, "box": ((2, 2, 2), (29, 29, 29))}, "give one of them"),
    ({}, "give one of them"),
    ({"center": (15.5,) * 3}, "needs both center and radius"),
    ({"box": ((2, 2, 2), (40, 29, 29))},
     r"box from \(2, 2, 2\) to \(40, 29, 29\) lies outside the volume \(shape \(32, 32, 32\)"),
    ({"box": ((2, 2, 2), (1, 29, 29))}, "the first below the second on every axis"),
    ({"box": ((2, 2), (29, 29))}, r"box must be two corners"),
])
def test_bad_starts_are_refused_naming_the_keyword(kwargs, match):
    with pytest.raises(gvflab.ParameterError, match=match):
        gvflab.surface_snake(gvflab.volume_phantom("sphere", SIZE), **kwargs)
