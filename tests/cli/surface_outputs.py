#!/usr/bin/env python3
"""Surface snakes end to end through the headless CLI (issue 30 item 3), read back by a third
party (meshio):

  - a small volume (a bright ball, written here as MetaImage) with two --surface (a GVF sphere
    around the ball, a traditional box) and --save-surfaces as .ply, .obj and .stl: one file
    per surface (F-1, F-2), each read by meshio: triangles only, as many as the report says,
    closed and consistently oriented (each edge once in each direction), outward (positive
    volume), every vertex inside the volume, the GVF surface on the ball's boundary; the three
    formats hold the same mesh;
  - the --report JSON: each surface's state, iterations, vertex and face counts and file;
  - a session holding a surface (its mesh from the .ply) runs it with --session;
  - a run refused before it starts leaves none of F-1, F-2 (a late failure's rollback:
    tests/unit/test_surface_cli.cpp; RLIMIT_FSIZE here would stop PoCL's compiler first).

Usage: surface_outputs.py GVFLAB WORKDIR. Exits 77 (CTest: skipped) without meshio.
"""
import json
import os
import shutil
import subprocess
import sys

import numpy as np

try:
    import meshio
except ImportError:
    print("meshio is not installed (Debian: python3-meshio); skipped")
    sys.exit(77)

TIME_LIMIT_S = 300  # generous: the suite runs with -j2 on a busy machine
SIZE = (32, 28, 24)  # x, y, z
CENTRE = np.array([15.0, 14.0, 12.0])  # voxel coordinates (voxel centres at +0.5)
RADIUS = 6.0
ITERATIONS = 150
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL " + what, flush=True)
    return ok


def run(cmd, cwd):
    p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=TIME_LIMIT_S)
    return p.returncode, p.stdout.decode(errors="replace"), p.stderr.decode(errors="replace")


def write_ball(path):
    """A bright ball in a dark box: voxel (i, j, k) is inside when its centre is."""
    w, h, d = SIZE
    z, y, x = np.mgrid[0:d, 0:h, 0:w] + 0.5
    r = np.sqrt((x - CENTRE[0]) ** 2 + (y - CENTRE[1]) ** 2 + (z - CENTRE[2]) ** 2)
    data = np.where(r < RADIUS, 200, 20).astype(np.uint8)
    header = ("ObjectType = Image\nNDims = 3\nDimSize = %d %d %d\nElementType = MET_UCHAR\n"
              "ElementDataFile = LOCAL\n" % (w, h, d))
    with open(path, "wb") as f:
        f.write(header.encode() + data.tobytes())


def triangles(mesh, name):
    cells = [c for c in mesh.cells if len(c.data)]
    check(len(cells) == 1 and cells[0].type == "triangle",
          "%s: expected triangles only, got %r" % (name, [(c.type, len(c.data)) for c in cells]))
    return np.concatenate([c.data for c in cells if c.type == "triangle"]).astype(np.int64)


def check_mesh(path, entry):
    """The file's mesh against the report's entry and the rules of a closed surface."""
    name = os.path.basename(path)
    mesh = meshio.read(path)
    points, faces = np.asarray(mesh.points, dtype=np.float64), triangles(mesh, name)
    check(len(faces) == entry["faces"],
          "%s: %d triangles, the report says %d" % (name, len(faces), entry["faces"]))
    if not path.endswith(".stl"):  # STL repeats each corner; meshio merges them
        check(len(points) == entry["vertices"],
              "%s: %d vertices, the report says %d" % (name, len(points), entry["vertices"]))
    directed = {}
    for a, b, c in faces:
        for e in ((a, b), (b, c), (c, a)):
            directed[e] = directed.get(e, 0) + 1
    once = all(n == 1 for n in directed.values())
    paired = all((b, a) in directed for (a, b) in directed)
    check(once and paired, "%s: not closed and consistently oriented (%d directed edges)"
          % (name, len(directed)))
    v = points[faces]
    volume = np.einsum("ij,ij->i", v[:, 0], np.cross(v[:, 1], v[:, 2])).sum() / 6
    check(volume > 0, "%s: the faces point inwards (volume %g)" % (name, volume))
    inside = np.all((points >= 0) & (points <= np.array(SIZE)), axis=1)
    check(inside.all(), "%s: %d vertices outside the %dx%dx%d volume"
          % (name, (~inside).sum(), *SIZE))
    return points, faces


def nearest(a, b):
    """The farthest any point of a is from its nearest point of b."""
    return max(np.min(np.linalg.norm(b - p, axis=1)) for p in a)


def main():
    exe, work = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    ball = os.path.join(work, "ball.mha")
    write_ball(ball)
    surfaces = ["--surface", "sphere:%g,%g,%g,%g" % (*CENTRE, RADIUS + 4),
                "--surface", "box:5,4,2,26,24,22@traditional"]
    base = [exe, "--headless", ball, "--mu", "0.1", "--iterations", "200",
            "--snake-iterations", str(ITERATIONS)] + surfaces
    meshes = {}
    for ext in ("ply", "obj", "stl"):
        report = os.path.join(work, "r_%s.json" % ext)
        out = os.path.join(work, "s.%s" % ext)
        rc, stdout, err = run(base + ["--save-surfaces", out, "--report", report], work)
        if not check(rc == 0, ".%s run: exit %d: %s" % (ext, rc, err[-400:])):
            continue
        check("surfaces: 2 (gvf and traditional)" in stdout, "stdout: %r" % stdout)
        check(not os.path.exists(out), "s.%s itself was written" % ext)
        with open(report) as f:
            entries = json.load(f)["surfaces"]
        check(len(entries) == 2, "report: %r" % entries)
        for i, (entry, force) in enumerate(zip(entries, ("gvf", "traditional"))):
            path = os.path.join(work, "s-%d.%s" % (i + 1, ext))
            check(entry["file"] == path, "report file %r, expected %r" % (entry["file"], path))
            check(entry["force"] == force, "surface %d force %r" % (i + 1, entry["force"]))
            check(entry["state"] in ("moving", "converged", "stalled", "collapsed"),
                  "surface %d state %r" % (i + 1, entry["state"]))
            check(0 < entry["iterations"] <= ITERATIONS,
                  "surface %d iterations %r" % (i + 1, entry["iterations"]))
            check(entry["converged"] == (entry["state"] == "converged"), "converged flag")
            meshes[(ext, i)] = check_mesh(path, entry)
        # The GVF sphere, started 4 voxels out, ends on the ball's boundary.
        if (ext, 0) in meshes:
            r = np.linalg.norm(meshes[(ext, 0)][0] - CENTRE, axis=1)
            check(abs(r.mean() - RADIUS) < 1.0 and np.abs(r - RADIUS).max() < 2.0,
                  ".%s: the GVF surface is not on the ball: radius %.2f..%.2f, mean %.2f"
                  % (ext, r.min(), r.max(), r.mean()))
    # The formats hold the same vertices (the runs are deterministic; each writer orders them
    # its own way, and STL's corners are merged by meshio).
    for i in range(2):
        if all((e, i) in meshes for e in ("ply", "obj", "stl")):
            ply = meshes[("ply", i)][0]
            for e in ("obj", "stl"):  # OBJ is text: 9 significant digits
                other = meshes[(e, i)][0]
                check(len(other) == len(ply) and nearest(ply, other) < 1e-5 and
                      nearest(other, ply) < 1e-5,
                      "surface %d: .ply and .%s hold different vertices" % (i + 1, e))

    # A session with the GVF surface where it ended (and the sphere's start) runs it.
    if ("ply", 0) in meshes:
        points, faces = meshes[("ply", 0)]
        session = {"gvflab_session": 1, "image": "ball.mha", "solver": {"name": "euler",
                   "mu": 0.1}, "surfaces": [{"force": "gvf", "vertices": points.tolist(),
                                             "faces": faces.tolist()}]}
        with open(os.path.join(work, "session.json"), "w") as f:
            json.dump(session, f)
        report = os.path.join(work, "r_session.json")
        rc, stdout, err = run([exe, "--headless", "--session", "session.json", "--iterations",
                               "200", "--snake-iterations", "20", "--report", report,
                               "--save-surfaces", "again.ply"], work)
        if check(rc == 0, "--session run: exit %d: %s" % (rc, err[-400:])):
            check("surfaces: 1 (gvf)" in stdout, "--session stdout: %r" % stdout)
            with open(report) as f:
                entry = json.load(f)["surfaces"][0]
            check_mesh(os.path.join(work, "again-1.ply"), entry)

    # Refused before the run: nothing written, not even the first surface's file.
    rc, _, err = run(base[:-2] + ["--surface", "sphere:30,14,12,5", "--save-surfaces",
                                  "bad.ply"], work)
    check(rc == 1 and err.startswith("gvflab: --surface 'sphere:30,14,12,5'"),
          "outside: exit %d: %r" % (rc, err))
    check(not any(n.startswith("bad") for n in os.listdir(work)), "a refused run wrote files")

    if failures:
        print("%d failure(s)" % len(failures))
        sys.exit(1)
    print("surface outputs: all checks passed")


if __name__ == "__main__":
    main()
