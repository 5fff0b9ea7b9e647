#!/usr/bin/env bash
# Issue 41's figures on an nvidia-h200-x2 machine in one call: the engine suites (gpu-run.sh),
# then the z-slab split of a 1024³ volume on one GPU against both (f32 and f16, halos of 4 and
# 8 planes): wall ms per iteration, speed-up, halo exchange ms per iteration, bytes per device.
# JSON lines in OUT/bench.jsonl. Usage: scripts/gpu-split-run.sh OUT
set -euo pipefail
out=${1:?output folder}
exec scripts/gpu-run.sh "$out" \
  "split3d --size 1024 --device nvidia --devices all --halo 4 --iterations 40 --repeats 3 --precision f32 --json" \
  "split3d --size 1024 --device nvidia --devices all --halo 4 --iterations 40 --repeats 3 --precision f16 --json" \
  "split3d --size 1024 --device nvidia --devices all --halo 8 --iterations 40 --repeats 3 --precision f16 --json"
