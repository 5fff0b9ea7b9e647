#!/usr/bin/env bash
# Issue 41 item 3's figure on the GPU machine (nvidia-h200-x2) in one call: python3 -m
# gvflab.batch with one worker pinned to one GPU, then one worker per GPU, over the same seeded
# volumes (scripts/dask_throughput.py); writes OUT/dask-throughput.json and prints a summary.
# That machine has Python 3.12 with psutil but no Dask and no Qt, and gpu-run.sh builds no app
# there, so everything comes from .devdask/, made here by scripts/gpu-dask-kit.sh:
#   gvflab-headless.tar.xz  the gvflab built here with its libraries (its run.sh is GVFLAB_EXE)
#   py/*.deb                Debian's Dask, extracted to a PYTHONPATH folder
# The tasks import gvflab.batch alone, from a package folder holding python/gvflab/batch.py and
# an empty __init__.py: the compiled module (for 3.11 here) is not needed to run them.
# Before it, on the device: the device README's .gl recipe (glvnd and Vulkan loaders).
# Usage: scripts/gpu-dask-run.sh OUT   (COUNT, SIZE, ITERATIONS: see dask_throughput.py;
#   KIT=DIR for another .devdask; PYTHON=... for another interpreter)
set -euo pipefail
out=$(mkdir -p "${1:?output folder}" && realpath "$1")
cd "$(dirname "$0")/.."
kit=$(realpath "${KIT:-.devdask}")
work=/tmp/gvflab-dask
rm -rf "$work/bundle" "$work/py" "$work/pkg"
mkdir -p "$work/bundle" "$work/py" "$work/pkg/gvflab"
tar -C "$work/bundle" -xJf "$kit/gvflab-headless.tar.xz"
for f in "$kit"/py/*.deb; do dpkg -x "$f" "$work/py"; done
cp python/gvflab/batch.py "$work/pkg/gvflab/" && : > "$work/pkg/gvflab/__init__.py"
source scripts/gpu-nvidia-env.sh  # NVIDIA's OpenCL driver where the image does not register it
export GVFLAB_EXE=$work/bundle/viewer-bundle/run.sh
export PYTHONPATH=$work/pkg:$work/py/usr/lib/python3/dist-packages${PYTHONPATH:+:$PYTHONPATH}
export PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
# Dask 2022.12 reads GPU names with the pynvml of its day (bytes); the machine's newer pynvml
# returns str, and the diagnostic it feeds is not needed here.
export DASK_DISTRIBUTED__DIAGNOSTICS__NVML=False
py=${PYTHON:-python3}
"$py" -c 'import sys, dask, distributed; print("python", sys.version.split()[0], "dask",
dask.__version__, "distributed", distributed.__version__)'
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null || true
echo "== devices"; "$GVFLAB_EXE" --list-devices
echo "== gvflab.batch: one worker, then one per device"
"$py" scripts/dask_throughput.py "$out/dask-throughput.json" "$work"
