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


def test_surface_mask_of_a_box_is_the_voxels_between_its_corners():
    volume = np.zeros((24, 16, 30), np.float32)
    box = gvflab.surface_snake(volume, box=((2.3, 4.7, 1.2), (20.6, 11.1, 25.9)), iterations=0)
    want = np.zeros(volume.shape, bool)
    want[3:21, 5:12, 2:26] = True
    np.testing.assert_array_equal(gvflab.surface_mask(box, volume.shape), want)
    # Corners on voxel centres: each axis half-open, [lo, hi), as array slices are.
    on = gvflab.surface_snake(volume, box=((2, 2, 2), (9, 9, 9)), iterations=0)
    want[:] = False
    want[2:9, 2:9, 2:9] = True
    np.testing.assert_array_equal(gvflab.surface_mask(on, volume.shape), want)


def test_surface_mask_of_a_sphere_holds_the_ball_by_its_distance_field():
    volume = np.zeros((SIZE, SIZE, SIZE), np.float32)
    centre, radius = (15.2, 14.7, 16.1), 10.5
    sphere = gvflab.surface_snake(volume, centre, radius, iterations=0)
    mask = gvflab.surface_mask((sphere.vertices, sphere.faces), volume.shape)
    distance = np.linalg.norm(np.indices(volume.shape).T - np.array(centre), axis=-1).T
    # The mesh's vertices lie on the sphere and its faces just inside (sag < 0.1 voxel).
    assert mask[distance < radius - 0.15].all()
    assert not mask[distance > radius].any()


def test_surface_mask_refuses_what_is_not_a_mesh():
    vertices = np.zeros((4, 3))
    with pytest.raises(gvflab.ParameterError, match="faces must be M x 3 indices"):
        gvflab.surface_mask((vertices, np.array([[0, 1, 7]])), (4, 4, 4))
    with pytest.raises(gvflab.ParameterError, match="vertices must be N x 3"):
        gvflab.surface_mask((np.zeros((4, 2)), np.array([[0, 1, 2]])), (4, 4, 4))
    with pytest.raises(gvflab.ParameterError, match="shape must be"):
        gvflab.surface_mask((vertices, np.array([[0, 1, 2]])), (4, 4))
