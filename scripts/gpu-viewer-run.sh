#!/usr/bin/env bash
# The real viewer on the GPU machine (issue 20): unpacks the bundle made by
# scripts/gpu-viewer-bundle.sh and runs build/app/gvflab on Qt's eglfs platform on NVIDIA's
# EGL device (the window drawn into a pbuffer; no X server: see the bundle script for why)
# for each case (U phantom 512^2, 2048^2, 4096^2; a 256^3 cup volume, made here) and each
# CL->GL path (GVFLAB_TRANSFER=host, external), with arrows and one snake, scripted with
# --frames/--stats; prints one table row per run (full lines in OUT/viewer.log, stderr in
# OUT/stderr.log, screenshots of the 4096^2 and volume runs on the external path).
# Then, where TESTDIR holds them, runs test_external_memory and its sabotaged builds
# (test_external_memory.NAME: one synchronisation step removed; each should fail).
# Before it, on the device: the device README's .gl recipe (glvnd and Vulkan loaders).
# Usage: scripts/gpu-viewer-run.sh BUNDLE.tar.xz OUTDIR [TESTDIR]
#   FRAMES (default 300), SIZE (window = screen, default 1280x800), CASES (default "u512 u2048 u4096
#   vol256"; CASES="" for none), PATHS (default "host external") narrow it down; SNAKE=0 leaves
#   the snake out. RACES="512:0.25 2048:2" also runs the race view (--race) on the blob phantom
#   of each side N with that --race-budget (ms) for RACE_FRAMES (default 12) frames, --stats
#   printing both solvers' epsilon against OpenCL time (OUT/raceN.txt, screenshot raceN.png;
#   the table shows the viewer's line and how the lanes reached GL). "copies": whole-field
#   host copies of the field over the run (0 unless the streamlines are on).
set -uo pipefail
bundle=$(realpath "${1:?bundle tarball}")
out=$(mkdir -p "${2:?output folder}" && realpath "$2")
tests=${3:+$(realpath "$3")}
cd "$(dirname "$0")/.."
frames=${FRAMES:-300} size=${SIZE:-1280x800}
vb=/tmp/gvflab-vb
rm -rf "$vb" && mkdir -p "$vb" && tar -C "$vb" -xJf "$bundle" || exit 1
run=$vb/viewer-bundle/run.sh

source scripts/gpu-nvidia-env.sh  # NVIDIA's Vulkan, EGL and OpenCL drivers
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv,noheader || true

python3 scripts/make_cup_volume.py /tmp/cup256.mha 256 || exit 1
echo "== devices"; timeout 60 "$run" --list-devices
echo "== probe (64^2, 10 frames)"
if ! timeout 90 "$run" --phantom u --phantom-size 64 --frames 10 --stats; then
  echo "probe failed"; cat "/tmp/xvfb${XVFB_DISPLAY:-91}.log" 2>/dev/null; exit 1
fi

args() {  # CASE: the input and one snake around the middle (the U's opening, the cup's rim)
  local n=${1#u} snake
  case $1 in
    u*) snake="circle:$((n / 2)),$((n / 2)),$((n * 60 / 512))"; echo "--phantom u --phantom-size $n" ;;
    vol256) snake="circle:128,128,100"; echo "/tmp/cup256.mha" ;;
  esac
  [ "${SNAKE:-1}" = 0 ] || echo "--snake $snake"
}
printf '%-7s %-9s %8s %8s %10s %8s %9s %6s  %s\n' case path "p50 ms" "p95 ms" "GVF it/s" "CL->GL" \
  "read-back" "copies" "mean ms per frame (phases)"
for c in ${CASES-u512 u2048 u4096 vol256}; do
  for p in ${PATHS:-host external}; do
    # shellcheck disable=SC2046
    shot=()
    [ "$p" = external ] && [ "$c" = u4096 -o "$c" = vol256 ] && shot=(--screenshot "$out/$c-$p.png")
    echo "== $c $p" >> "$out/stderr.log"
    line=$(GVFLAB_TRANSFER=$p GVFLAB_SCREEN=$size timeout 240 "$run" $(args "$c") \
             --frames "$frames" --stats --size "$size" "${shot[@]}" 2> "$out/last.err" | grep '^viewer ')
    cat "$out/last.err" >> "$out/stderr.log"
    echo "$c $p: $line" >> "$out/viewer.log"
    if [ -z "$line" ]; then echo "$c $p: FAILED"; tail -5 "$out/last.err"; continue; fi
    p50=$(sed -n 's/.*p50 \([0-9.]*\) ms.*/\1/p' <<< "$line")
    p95=$(sed -n 's/.*p95 \([0-9.]*\) ms.*/\1/p' <<< "$line")
    its=$(sed -n 's/.*, \([0-9]*\) GVF iterations.*/\1/p' <<< "$line")
    cg=$(sed -n 's/.*CL->GL mean \([0-9.]*\) ms.*/\1/p' <<< "$line")
    rb=$(sed -n 's/.*host read-back for the readouts \([0-9.]*\) ms.*/\1/p' <<< "$line")
    copies=$(sed -n 's/.*, \([0-9]*\) whole-field host copies.*/\1/p' <<< "$line")
    phases=$(sed -n 's/.*mean ms per frame: \([^;]*\).*/\1/p' <<< "$line")
    slow=$(sed -n 's/.*; \([0-9]* frames over .*\)/\1/p' <<< "$line")
    printf '%-7s %-9s %8s %8s %10s %8s %9s %6s  %s\n' "$c" "$p" "$p50" "$p95" "$its" "$cg" "$rb" \
      "${copies:-?}" "$phases"
    [ -n "$slow" ] && echo "        $slow"
  done
done
for r in ${RACES:-}; do  # the bench's race settings: blob phantom, sigma 0.5, mu 0.1
  n=${r%%:*} budget=${r#*:}
  GVFLAB_SCREEN=$size timeout 240 "$run" --race --phantom blob --phantom-size "$n" --sigma 0.5 \
    --mu 0.1 --race-budget "$budget" --frames "${RACE_FRAMES:-12}" --stats --size "$size" \
    --screenshot "$out/race$n.png" --screenshot-panels > "$out/race$n.txt" 2>> "$out/stderr.log"
  echo "== race ${n}^2, $budget ms per solver per frame"
  grep -E '^(viewer|race[: ]view|race:)' "$out/race$n.txt" | tee -a "$out/viewer.log"
  grep -E '^race (euler|multigrid) ' "$out/race$n.txt" >> "$out/viewer.log"
done
echo "GL renderers:"; grep -o 'viewer [0-9x]*, GL [^,]*' "$out/viewer.log" | sed 's/.*, GL //' | sort | uniq -c

if [ -n "$tests" ]; then
  echo "== test_external_memory and its sabotaged builds"
  for t in "$tests"/test_external_memory*; do
    LD_LIBRARY_PATH=$vb/viewer-bundle/lib timeout 120 "$t" > "$out/last.log" 2>&1
    rc=$?
    { echo "== $(basename "$t")"; cat "$out/last.log"; } >> "$out/tests.log"
    echo "$(basename "$t"): exit $rc ($(grep -E 'test cases:|assertions:' "$out/last.log" | tr -s ' ' | tr '\n' ' '))"
    grep -m3 -E 'ERROR|CHECK' "$out/last.log"
  done
fi
rm -f "$out/last.err" "$out/last.log"
