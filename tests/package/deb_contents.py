#!/usr/bin/env python3
"""The .deb that CPack makes from this build must hold the whole Python package (issue 28:
it held only the module, so `import gvflab` failed after apt-get install): __init__.py,
coords.py and the module, in the folder Debian's python3 searches. Installing it would need
root and change the machine, so the test reads its file list (dpkg-deb -c), extracts it
(dpkg-deb -x) and imports gvflab from there with PYTHONPATH.

Usage: deb_contents.py PYTHON BUILD_DIR SOURCE_DIR WORKDIR
"""
import glob
import os
import shutil
import subprocess
import sys

from package_support import check_import, check_no_tree_paths, run

python, build, source, work = sys.argv[1], *(os.path.realpath(p) for p in sys.argv[2:5])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
run(["cpack", "--config", os.path.join(build, "CPackConfig.cmake"), "-B", work])
debs = glob.glob(os.path.join(work, "gvflab_*.deb"))
assert len(debs) == 1, debs

site = "usr/lib/python3/dist-packages"
listing = subprocess.run(["dpkg-deb", "-c", debs[0]], capture_output=True, text=True,
                         check=True).stdout
names = {line.split()[-1].removeprefix("./") for line in listing.splitlines()}
suffix = subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_config_var("
                         "'EXT_SUFFIX'))"], capture_output=True, text=True, check=True).stdout
wanted = [f"{site}/gvflab/_gvflab{suffix.strip()}"] + [
    f"{site}/gvflab/{os.path.basename(p)}"
    for p in glob.glob(os.path.join(source, "python", "gvflab", "*.py"))]
missing = [w for w in wanted if w not in names]
if missing or f"{site}/gvflab/__init__.py" not in wanted:
    sys.exit(f"FAIL: the .deb lacks {missing}; it holds:\n{listing}")
# apt-get remove must not leave the byte code an import as root writes.
control = subprocess.run(["dpkg-deb", "-I", debs[0]], capture_output=True, text=True,
                         check=True).stdout
assert " prerm" in control, f"no prerm script in the .deb:\n{control}"

root = os.path.join(work, "root")
run(["dpkg-deb", "-x", debs[0], root])
check_import(python, os.path.join(root, site), {"PYTHONPATH": os.path.join(root, site)})
check_no_tree_paths(os.path.join(root, site, "gvflab"), [source, build])
print("deb_contents: the .deb holds the whole gvflab package, which imports and runs")
