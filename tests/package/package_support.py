"""What the packaging tests share: running a step loudly, and importing gvflab the way a user
would (from a folder outside the source tree, nothing of the tree on sys.path) to run a tiny GVF."""
import os
import subprocess
import sys
import tempfile

# Run by the interpreter under test: gvflab must come from where it was installed, whole (the
# .py files and the module), and compute a field on the default device.
IMPORT_CHECK = r"""
import os, sys
import numpy as np
import gvflab, gvflab._gvflab, gvflab.coords
expected = os.path.realpath(sys.argv[1])
for m in (gvflab, gvflab._gvflab, gvflab.coords):
    where = os.path.realpath(m.__file__)
    assert where.startswith(expected + os.sep), f"{m.__name__} comes from {where}, not {expected}"
field, report = gvflab.gvf(gvflab.phantom("u", 32), mu=0.15, iterations=20)
assert field.shape == (32, 32, 2) and np.isfinite(field).all() and np.abs(field).max() > 0
print("gvflab", gvflab.__version__, "from", os.path.dirname(gvflab.__file__), "gvf", field.shape)
"""


def run(cmd, **kwargs):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def check_import(python, package_parent, extra_env=None):
    """Imports gvflab with `python` from an empty folder outside the tree; it must come from
    package_parent/gvflab."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra_env or {})
    with tempfile.TemporaryDirectory(prefix="gvflab-import-") as cwd:
        run([python, "-c", IMPORT_CHECK, os.path.join(package_parent, "gvflab")], cwd=cwd, env=env)


def check_no_tree_paths(folder, tree_paths):
    """The installed files must not name the source or build tree (kernels are embedded)."""
    for root, _, files in os.walk(folder):
        for name in files:
            if name.endswith(".pyc"):  # pip's byte code names where it was installed
                continue
            data = open(os.path.join(root, name), "rb").read()
            for path in tree_paths:
                if os.fsencode(path) in data:
                    sys.exit(f"FAIL: {os.path.join(root, name)} names {path}")
