"""gvflab.surface_snake(): 3D surfaces in (plane, row, col) order, closed meshes, the engine's
states and clear refusals; gvflab.volume_phantom() and the demo's volume asset."""
import pathlib
import zlib

import numpy as np
import pytest

import gvflab
from conftest import read_json

ASSETS = pathlib.Path(__file__).resolve().parents[2] / "assets"


def ball(shape, centre, radius):
    """A bright ball on a dark background, edges ramped over one voxel as the engine's phantoms:
    voxel [p, r, c]'s centre at (p, r, c)."""
    grid = np.indices(shape, dtype=np.float64)
    d = np.sqrt(sum((g - c) ** 2 for g, c in zip(grid, centre)))
    return np.clip(0.5 - (d - radius), 0, 1).astype(np.float32)


def edges_of(faces):
    """{undirected edge: faces using it}."""
    count = {}
    for f in faces:
        for a, b in ((f[0], f[1]), (f[1], f[2]), (f[2], f[0])):
            key = (min(a, b), max(a, b))
            count[key] = count.get(key, 0) + 1
    return count


def signed_volume(vertices, faces):
    v0, v1, v2 = (vertices[faces[:, i]] for i in range(3))
    return np.einsum("ij,ij->i", v0, np.cross(v1, v2)).sum() / 6


# An anisotropic volume and an off-centre ball: the plane, row and col of its centre differ, so
# vertices in another order would miss it.
SHAPE = (28, 34, 40)
CENTRE = (12.0, 17.0, 22.0)
RADIUS = 7.0


@pytest.fixture(scope="module")
def gvf_surface():
    volume = ball(SHAPE, CENTRE, RADIUS)
    return gvflab.surface_snake(volume, CENTRE, 11.0, iterations=1500)


def test_converges_onto_the_ball_in_plane_row_col_order(gvf_surface):
    r = gvf_surface
    assert isinstance(r, gvflab.SurfaceResult) and r.force == "gvf"
    assert r.vertices.dtype == np.float64 and r.vertices.shape[1] == 3
    assert r.state == "converged" and r.converged and 0 < r.iterations < 1500
    assert r.gvf is not None and r.held > 0
    distance = np.linalg.norm(r.vertices - CENTRE, axis=1)
    assert abs(distance.mean() - RADIUS) < 1.0
    assert np.abs(distance - RADIUS).max() < 1.5
    np.testing.assert_allclose(r.vertices.mean(axis=0), CENTRE, atol=0.5)


def test_the_mesh_is_closed_and_outward_in_plane_row_col(gvf_surface):
    vertices, faces = gvf_surface.vertices, gvf_surface.faces
    assert faces.dtype == np.int64 and faces.shape[1] == 3
    assert faces.min() >= 0 and faces.max() < len(vertices)
    assert set(edges_of(faces).values()) == {2}  # every edge in exactly two faces
    # (v1 - v0) x (v2 - v0) points outwards: a positive volume, near the ball's.
    assert signed_volume(vertices, faces) == pytest.approx(4 / 3 * np.pi * RADIUS**3, rel=0.25)


def test_states_moving_stalled_and_collapsed():
    """'converged' is above; the others as the engine's tests make them (weak elasticity far
    from every edge: stalled; deflating: collapsed)."""
    assert gvflab.SNAKE_STATES == ("moving", "converged", "collapsed", "stalled")
    volume = ball(SHAPE, CENTRE, 4.0)
    assert gvflab.surface_snake(volume, CENTRE, 11.0, iterations=5).state == "moving"
    # grad f is zero everywhere this sphere lies, 9 voxels from the ball: it stops, unheld.
    far = gvflab.surface_snake(volume, (6, 6, 34), 4, force="traditional", alpha=0.005,
                               iterations=1000)
    assert far.force == "traditional" and far.gvf is None
    assert far.state == "stalled" and not far.converged and far.iterations < 1000
    assert far.held == 0
    gone = gvflab.surface_snake(volume, (20, 26, 8), 4, force="traditional", alpha=0.005,
                                pressure=-0.5, iterations=1000)
    assert gone.state == "collapsed" and gone.iterations < 1000


def test_progress_reports_the_surface_stage():
    stages = []
    gvflab.surface_snake(ball((24, 24, 24), (11.5,) * 3, 6), (11.5,) * 3, 9, iterations=40,
                         gvf_iterations=20, progress=lambda p: stages.append(p.stage),
                         progress_every=10)
    assert stages[0] == "gvf" and stages[-1] == "surface"


@pytest.mark.parametrize("call, error, words", [
    (lambda v: gvflab.surface_snake(v[0], (10, 10, 10), 5), gvflab.InputError,
     ["3D volume", "gvflab.snake()"]),
    (lambda v: gvflab.surface_snake(v, (10, 40, 10), 5), gvflab.ParameterError,
     ["center (10, 40, 10)", "outside the volume"]),
    (lambda v: gvflab.surface_snake(v, (10, 10, 10), 15), gvflab.ParameterError,
     ["radius 15", "center (10, 10, 10)"]),
    (lambda v: gvflab.surface_snake(v, (10, 10), 5), gvflab.ParameterError,
     ["(plane, row, col)"]),
    (lambda v: gvflab.surface_snake(v, (10, 10, 10), 0), gvflab.ParameterError, ["radius"]),
    (lambda v: gvflab.surface_snake(v, (10, 10, 10), 5, force="balloon"),
     gvflab.ParameterError, ["balloon"]),
])
def test_refusals_say_what_is_wrong(call, error, words):
    volume = np.zeros((20, 24, 28), np.float32)
    with pytest.raises(error) as caught:
        call(volume)
    for word in words:
        assert word in str(caught.value)


def test_volume_phantoms():
    assert set(gvflab.volume_phantom_names()) >= {"cup", "sphere"}
    cup = gvflab.volume_phantom("cup", 32)
    assert cup.shape == (32, 32, 32) and cup.dtype == np.float32
    assert cup.min() == 0 and cup.max() == 1
    # The well opens towards the last planes: the axis is bright at the bottom, dark at the top.
    assert cup[8, 16, 16] == 1 and cup[24, 16, 16] == 0
    with pytest.raises(gvflab.InputError, match="teapot"):
        gvflab.volume_phantom("teapot")


def test_the_demo_volume_is_the_engine_cup():
    """assets/volumes/cup-well64.mha (scripts/make_volume_phantom.py) holds exactly
    volume_phantom('cup', 64): the demo shows the engine's cup, not a copy that drifted."""
    raw = (ASSETS / "volumes" / "cup-well64.mha").read_bytes()
    end = raw.index(b"ElementDataFile = LOCAL\n") + len(b"ElementDataFile = LOCAL\n")
    header = dict(line.split(" = ", 1) for line in raw[:end].decode().splitlines())
    assert header["DimSize"] == "64 64 64" and header["ElementType"] == "MET_FLOAT"
    data = np.frombuffer(zlib.decompress(raw[end:]), "<f4").reshape(64, 64, 64)
    np.testing.assert_array_equal(data, gvflab.volume_phantom("cup", 64))


def write_mha(path, volume):
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              "DimSize = {} {} {}\nElementType = MET_FLOAT\nElementDataFile = LOCAL\n").format(
                  *reversed(volume.shape))
    path.write_bytes(header.encode() + np.ascontiguousarray(volume, "<f4").tobytes())


def read_obj(path):
    vertices, faces = [], []
    for line in path.read_text().splitlines():
        if line.startswith("v "):
            vertices.append([float(v) for v in line.split()[1:4]])
        elif line.startswith("f "):
            faces.append([int(v.split("/")[0]) - 1 for v in line.split()[1:4]])
    return np.array(vertices), np.array(faces)


def test_the_same_surface_as_the_cli(cli, tmp_path):
    """--surface sphere:X,Y,Z,R with X, Y, Z = col, row, plane + 0.5 gives the same mesh."""
    shape, centre = (24, 26, 30), (11.0, 12.0, 15.0)
    volume = ball(shape, centre, 6)
    write_mha(tmp_path / "ball.mha", volume)
    x, y, z = centre[2] + 0.5, centre[1] + 0.5, centre[0] + 0.5
    cli(tmp_path / "ball.mha", "--surface", f"sphere:{x},{y},{z},9", "--snake-iterations", 300,
        "--save-surfaces", tmp_path / "s.obj", "--report", tmp_path / "r.json")
    (theirs,) = read_json(tmp_path / "r.json")["surfaces"]
    mine = gvflab.surface_snake(volume, centre, 9, iterations=300)
    assert mine.state == theirs["state"] and mine.iterations == theirs["iterations"]
    vertices, faces = read_obj(tmp_path / "s-1.obj")
    assert mine.vertices.shape == (theirs["vertices"], 3) == vertices.shape
    # The writer (assimp) may order the vertices its own way: match them by position.
    distance = np.linalg.norm(mine.vertices[:, None] - (vertices[None, :, ::-1] - 0.5), axis=2)
    index = distance.argmin(axis=1)
    assert distance.min(axis=1).max() < 1e-3 and len(set(index)) == len(index)

    def triangles(f):  # each face from its smallest index, keeping its winding
        return {tuple(np.roll(t, -int(np.argmin(t)))) for t in f}

    # The same faces, wound the other way: (x, y, z) mirrors (plane, row, col).
    assert triangles(index[mine.faces]) == triangles(faces[:, ::-1])


def test_spacing_gives_the_cli_result_on_a_file_with_spacing(cli, tmp_path):
    """A volume whose header gives 1 x 1 x 2 voxels: surface_snake(spacing=(2, 1, 1)) moves as
    the CLI does on the file (issue 37), and --save-surfaces writes world coordinates by
    default ((col, row, 2 plane) here: origin 0, identity), voxel ones on request."""
    shape, centre = (16, 26, 28), (7.5, 12.0, 13.0)
    z, y, x = np.mgrid[0:shape[0], 0:shape[1], 0:shape[2]].astype(float)
    r = np.sqrt((2 * (z - centre[0])) ** 2 + (y - centre[1]) ** 2 + (x - centre[2]) ** 2)
    volume = np.clip(8.5 - r, 0, 1).astype(np.float32)  # a ball of 8 mm
    header = ("ObjectType = Image\nNDims = 3\nBinaryData = True\nBinaryDataByteOrderMSB = False\n"
              "DimSize = {} {} {}\nElementSpacing = 1 1 2\nElementType = MET_FLOAT\n"
              "ElementDataFile = LOCAL\n").format(*reversed(shape))
    (tmp_path / "ball.mha").write_bytes(header.encode() + volume.astype("<f4").tobytes())
    sx, sy, sz = centre[2] + 0.5, centre[1] + 0.5, centre[0] + 0.5
    common = ["--surface", f"sphere:{sx},{sy},{sz},6", "--snake-iterations", 300]
    cli(tmp_path / "ball.mha", *common, "--save-surfaces", tmp_path / "w.obj",
        "--report", tmp_path / "w.json")
    cli(tmp_path / "ball.mha", *common, "--save-surfaces", tmp_path / "v.obj",
        "--surface-coordinates", "voxel", "--report", tmp_path / "v.json")
    assert read_json(tmp_path / "w.json")["surface_coordinates"] == "world"
    assert read_json(tmp_path / "v.json")["surface_coordinates"] == "voxel"
    (theirs,) = read_json(tmp_path / "v.json")["surfaces"]
    mine = gvflab.surface_snake(volume, centre, 6, iterations=300, spacing=(2, 1, 1))
    plain = gvflab.surface_snake(volume, centre, 6, iterations=300)
    assert mine.state == theirs["state"] and mine.iterations == theirs["iterations"]
    voxel, _ = read_obj(tmp_path / "v-1.obj")
    world, _ = read_obj(tmp_path / "w-1.obj")
    assert mine.vertices.shape == voxel.shape == world.shape
    assert "SPACE=LPS" in (tmp_path / "w-1.obj").read_text().splitlines()[0]
    distance = np.linalg.norm(mine.vertices[:, None] - (voxel[None, :, ::-1] - 0.5), axis=2)
    assert distance.min(axis=1).max() < 1e-3
    as_world = mine.vertices[:, ::-1] * np.array([1.0, 1.0, 2.0])
    distance = np.linalg.norm(as_world[:, None] - world[None, :, :], axis=2)
    assert distance.min(axis=1).max() < 1e-3
    # Without the spacing the field and the surface are another's.
    assert plain.vertices.shape != mine.vertices.shape or \
        np.abs(plain.vertices - mine.vertices).max() > 0.1


@pytest.mark.parametrize("force", ["ggvf", "vfc", "distance"])
def test_the_other_forces_outline_the_ball(force):
    """GGVF, VFC and the distance force move a surface onto the ball too, and read converged."""
    volume = ball(SHAPE, CENTRE, RADIUS)
    result = gvflab.surface_snake(volume, CENTRE, 11.0, force=force, iterations=1500,
                                  force_params={"vfc_radius": 8})
    assert result.force == force and result.state == "converged"
    distance = np.linalg.norm(result.vertices - np.array(CENTRE), axis=1)
    assert abs(np.median(distance) - RADIUS) < 1.5


def test_a_volume_refuses_a_vfc_radius_above_16():
    with pytest.raises(gvflab.ParameterError, match="16"):
        gvflab.surface_snake(ball(SHAPE, CENTRE, RADIUS), CENTRE, 11.0, force="vfc",
                             force_params={"vfc_radius": 20})
