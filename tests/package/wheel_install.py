#!/usr/bin/env python3
"""The Python package as README says to install it (issue 28): the wheel that
`python3 -m build --wheel --no-isolation` makes, and `pip install --no-build-isolation .`, each
into a clean venv (--system-site-packages, for Debian's NumPy); gvflab must then import from
any folder and compute a field, with nothing of the source or build tree on its path.

With PREBUILT_MODULE (the suite's own build of gvflab._gvflab), setup.py packs that module
instead of compiling the engine a second time (GVFLAB_PREBUILT_MODULE); without it, the CMake
build is kept in WORKDIR/build between runs (and uses ccache when it is on PATH).

Usage: wheel_install.py PYTHON SOURCE_DIR WORKDIR [PREBUILT_MODULE]
"""
import glob
import os
import shutil
import sys

from package_support import check_import, check_no_tree_paths, run

python, source, work = sys.argv[1], os.path.realpath(sys.argv[2]), os.path.realpath(sys.argv[3])
prebuilt = os.path.realpath(sys.argv[4]) if len(sys.argv) > 4 else None
for stale in ("dist", "venv-wheel", "venv-pip"):
    shutil.rmtree(os.path.join(work, stale), ignore_errors=True)
env = dict(os.environ, GVFLAB_WHEEL_BUILD_DIR=os.path.join(work, "build"),
           PIP_NO_CACHE_DIR="1", PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1")
env.pop("PYTHONPATH", None)
if prebuilt:
    env["GVFLAB_PREBUILT_MODULE"] = prebuilt
# What setuptools and build leave in the folder they run in, unless told otherwise (setup.py).
DEBRIS = ["*.egg-info", "python/*.egg-info", "dist", "build-python", "build/lib.*",
          "build/bdist.*", "build/temp.*"]


def debris():
    return {p for pattern in DEBRIS for p in glob.glob(os.path.join(source, pattern))}


before = debris()


def site_packages(venv):
    return glob.glob(os.path.join(venv, "lib", "python3*", "site-packages"))[0]


# 1. python3 -m build --wheel --no-isolation, the wheel installed into a clean venv.
dist = os.path.join(work, "dist")
run([python, "-m", "build", "--wheel", "--no-isolation", "--outdir", dist, source], env=env)
wheels = glob.glob(os.path.join(dist, "gvflab-*.whl"))
assert len(wheels) == 1, wheels
venv = os.path.join(work, "venv-wheel")
run([python, "-m", "venv", "--system-site-packages", venv])
run([os.path.join(venv, "bin", "pip"), "install", wheels[0]], env=env)
check_import(os.path.join(venv, "bin", "python"), site_packages(venv))
check_no_tree_paths(os.path.join(site_packages(venv), "gvflab"),
                    [source, env["GVFLAB_WHEEL_BUILD_DIR"]])

# 2. pip install --no-build-isolation . (the README's command), run in the source folder.
venv = os.path.join(work, "venv-pip")
run([python, "-m", "venv", "--system-site-packages", venv])
run([os.path.join(venv, "bin", "pip"), "install", "--no-build-isolation", "."], env=env,
    cwd=source)
check_import(os.path.join(venv, "bin", "python"), site_packages(venv))

# Neither build may leave files in the source tree (egg-info, dist/, build/ of setuptools).
new = debris() - before
assert not new, f"the builds left files in the source tree: {sorted(new)}"
print("wheel_install: both ways install an importable gvflab")
