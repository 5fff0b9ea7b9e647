#!/usr/bin/env bash
# Nsight Compute profiles of the 3D Euler tiles' presets and of the byte floor's stream, on an
# NVIDIA GPU host (the device machine). ncu does not profile OpenCL, so the kernels run from
# their PTX, as NVIDIA's OpenCL built it (GVFLAB_CL_DUMP_DIR), through the CUDA driver API
# (scripts/ptx_profile.cpp). Each launch profiled is the third of four, with every ncu section.
# Usage: scripts/gpu-profile.sh OUTDIR [SIZE]   (after scripts/gpu-run.sh has built the bench,
# or it builds it; needs ncu and the CUDA headers of the host's toolkit)
# Writes, for each tile (TAG: f32, f16, f16-pairs or f16-columns, snorm16), the floor's
# float4 stream (TAG: floor) and the tiles' pattern floor (TAG: tile-floor, tile_floor3d.cl):
# OUTDIR/TAG.details.csv (ncu's sections and rules), TAG.raw.csv (every metric),
# TAG.source.csv (stall samples per SASS instruction) and profile.log (times, registers).
set -euo pipefail
out=${1:?output folder}; size=${2:-256}
mkdir -p "$out/dump"
bin=/tmp/gvflab-build
[ -x "$bin/bench/gvflab-bench" ] ||
  SKIP_TESTS=1 TARGETS=gvflab-bench "$(dirname "$0")/gpu-run.sh" "$out/build" > "$out/build.log"
export LD_LIBRARY_PATH=/tmp/gvflab-deps/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
source "$(dirname "$0")/gpu-nvidia-env.sh"
ncu=$(command -v ncu || find /opt/nvidia -name ncu -type f | head -1)
nvcc=$(command -v nvcc || echo /usr/local/cuda/bin/nvcc)
g++ -O2 -std=c++17 -I"$(dirname "$(dirname "$nvcc")")/include" -o /tmp/ptx_profile \
  "$(dirname "$0")/ptx_profile.cpp" -lcuda
log=$out/profile.log
GVFLAB_CL_DUMP_DIR=$out/dump "$bin/bench/gvflab-bench" euler3d --size "$size" \
  --iterations "$size" --device nvidia --memory local --precision all --repeats 3 | tee "$log"
GVFLAB_CL_DUMP_DIR=$out/dump "$bin/bench/gvflab-bench" floor --size "$size" --depth "$size" \
  --iterations "$size" --precision f32 --repeats 3 --device nvidia > /dev/null
profile() { # TAG MODE DUMP N: timed (tiles: N/2 passes, best of 3), then the third launch profiled
  local tag=$1 mode=$2 dump=$3 n=$4 timed=(3) profiled=(3)
  [ "$mode" != floor ] && timed=($((n / 2)) 3) && profiled=(4 0)
  /tmp/ptx_profile "$mode" "$dump" "$n" "${timed[@]}" | tee -a "$log"
  "$ncu" --clock-control none --set full --launch-skip 2 --launch-count 1 -o "$out/$tag" \
    /tmp/ptx_profile "$mode" "$dump" "$n" "${profiled[@]}" > "$out/$tag.ncu.log" 2>&1
  "$ncu" -i "$out/$tag.ncu-rep" --page details --csv > "$out/$tag.details.csv"
  "$ncu" -i "$out/$tag.ncu-rep" --page raw --csv > "$out/$tag.raw.csv"
  "$ncu" -i "$out/$tag.ncu-rep" --page source --csv --print-source sass > "$out/$tag.source.csv"
  rm -f "$out/$tag.ncu-rep"
}
for f in "$out"/dump/gvf_euler3d_tiled*.cl.*.bin; do
  tag=$(head -1 "$f" | grep -o 'STORAGE_[A-Z0-9]*' | sed 's/STORAGE_//' | tr '[:upper:]' '[:lower:]' || true)
  case $f in *tiled_h2c*) tag=$tag-columns ;; *tiled_h2*) tag=$tag-pairs ;; esac
  profile "${tag:-f32}" euler3d "$f" "$size"
done
floor=$(grep -l -- '-DT=float4 -DILP=4' "$out"/dump/stream_floor.cl.*.bin | head -1)
profile floor floor "$floor" $((size * size * size))
# The tiles' pattern floor at the float32 preset's shape, two planes ahead.
tile=$(grep -l -- '-DT=float -DTX=68 -DTY=20 -DROWS=4 -DAHEAD=2 -DZCHUNK='$((size / 2)) "$out"/dump/tile_floor3d.cl.*.bin | head -1 || true)
[ -n "$tile" ] && profile tile-floor tilefloor "$tile" "$size"
