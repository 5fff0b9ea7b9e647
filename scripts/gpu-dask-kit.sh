#!/usr/bin/env bash
# Makes .devdask/ here (Debian 12) for scripts/gpu-dask-run.sh on the GPU machine, which has
# Python 3.12 with psutil but no Dask, no Qt and no network:
#   gvflab-headless.tar.xz  build/app/gvflab and its libraries (gpu-viewer-bundle.sh, headless)
#   py/*.deb                Debian's python3-dask and python3-distributed (2022.12) with the
#                           pure-Python packages they import, extracted there to PYTHONPATH
# Debian 12's Dask runs under Python 3.12 as it is, less two packages left out here:
# python3-typing-extensions 4.4 fails to import on 3.12 (cloudpickle does without it, and the
# machine has a newer one) and python3-psutil's module is built for 3.11 (the machine has its own).
# Build the viewer first: cmake --preset strict && cmake --build build --target gvflab
# Usage: scripts/gpu-dask-kit.sh   (32 MB; the device call carries .devdask and .gl)
set -euo pipefail
cd "$(dirname "$0")/.."
[ -x build/app/gvflab ] || { echo "gpu-dask-kit: build build/app/gvflab first." >&2; exit 1; }
rm -rf .devdask && mkdir -p .devdask/py
(cd .devdask/py && apt-get download -q python3-dask python3-distributed python3-click \
  python3-cloudpickle python3-fsspec python3-jinja2 python3-markupsafe python3-locket \
  python3-msgpack python3-packaging python3-partd python3-yaml python3-sortedcontainers \
  python3-tblib python3-toolz python3-tornado python3-urllib3 python3-zict python3-heapdict)
BUNDLE_HEADLESS=1 scripts/gpu-viewer-bundle.sh .devdask/gvflab-headless.tar.xz
du -sh .devdask
