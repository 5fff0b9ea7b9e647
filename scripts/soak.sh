#!/usr/bin/env bash
# Soak: resident memory of long runs, sampled from /proc/PID/status (VmRSS) every few seconds.
#   scripts/soak.sh [viewer|headless|both]   (default both; not part of CI)
# viewer:   the viewer on the U phantom with a circle snake for $SOAK_FRAMES frames (20000),
#           under Xvfb when there is no display.
# headless: a headless run of $SOAK_ITERATIONS GVF iterations (100000) with the same snake.
# Prints the first sample, the sample at the end of the warm-up (the first 10% of the run:
# kernel compilation, caches), the last and the peak sample, and the least-squares slope of the
# steady part (10% to 90% of the run's time) in KiB per 1000 frames or iterations, the frames
# or iterations taken as evenly spread over the run. Samples go to $SOAK_DIR (build/soak), CSV.
set -euo pipefail
cd "$(dirname "$0")/.."
exe=${GVFLAB:-build/app/gvflab}
frames=${SOAK_FRAMES:-20000}
iterations=${SOAK_ITERATIONS:-100000}
interval=${SOAK_INTERVAL:-3}
dir=${SOAK_DIR:-build/soak}
mkdir -p "$dir"
[ -x "$exe" ] || { echo "soak: $exe not built (cmake --build --preset release)" >&2; exit 1; }

# sample PID CSV: "seconds,KiB" lines until PID exits.
sample() {
  local pid=$1 csv=$2 t0 rss
  t0=$(date +%s.%N)
  : >"$csv"
  while rss=$(awk '/^VmRSS:/ {print $2}' "/proc/$pid/status" 2>/dev/null) && [ -n "$rss" ]; do
    echo "$(echo "$(date +%s.%N) - $t0" | bc),$rss" >>"$csv"
    sleep "$interval"
  done
}

# report CSV UNITS LABEL: UNITS (frames or iterations) are spread evenly over the run's time.
report() {
  python3 - "$1" "$2" "$3" <<'EOF'
import sys
csv, units, label = sys.argv[1], float(sys.argv[2]), sys.argv[3]
rows = [tuple(map(float, l.split(','))) for l in open(csv) if l.strip()]
if len(rows) < 4:
    sys.exit(f"soak: only {len(rows)} samples in {csv}")
total = rows[-1][0]
# The steady part: after the warm-up (first 10%: kernel builds, caches) and before the last 10%
# (a headless run's snake phase and output files come after its iterations).
warm = [r for r in rows if 0.1 * total <= r[0] <= 0.9 * total]
n = len(warm)
mt = sum(t for t, _ in warm) / n
mr = sum(r for _, r in warm) / n
slope = sum((t - mt) * (r - mr) for t, r in warm) / sum((t - mt) ** 2 for t, _ in warm)  # KiB/s
per_unit_s = total / units
print(f"{label}: {len(rows)} samples over {total:.0f} s; VmRSS first {rows[0][1]:.0f} KiB, "
      f"after warm-up {warm[0][1]:.0f} KiB, end {rows[-1][1]:.0f} KiB, "
      f"peak {max(r for _, r in rows):.0f} KiB; slope of the steady part (10%-90% of the run) "
      f"{slope * per_unit_s * 1000:+.1f} KiB per 1000 {label.split()[0]}")
EOF
}

with_display() {
  if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1024x768x24" "$@"; fi
}

viewer() {
  echo "soak: viewer, $frames frames: $exe --phantom u --snake circle:128,128,110 --size 800x600 --frames $frames --stats"
  "$exe" --phantom u --snake circle:128,128,110 --size 800x600 --frames "$frames" --stats \
    >"$dir/viewer.log" 2>&1 &
  local pid=$!
  sample "$pid" "$dir/viewer.csv"
  wait "$pid" || { echo "soak: the viewer failed:" >&2; cat "$dir/viewer.log" >&2; exit 1; }
  grep -h "frame time" "$dir/viewer.log" || true
  report "$dir/viewer.csv" "$frames" "frames (viewer)"
}

headless() {
  echo "soak: headless, $iterations iterations: $exe --headless --phantom u --snake circle:128,128,110 --iterations $iterations --snake-iterations $iterations"
  "$exe" --headless --phantom u --snake circle:128,128,110 --iterations "$iterations" \
    --snake-iterations "$iterations" --report "$dir/headless.json" >"$dir/headless.log" 2>&1 &
  local pid=$!
  sample "$pid" "$dir/headless.csv"
  wait "$pid" || { echo "soak: the headless run failed:" >&2; cat "$dir/headless.log" >&2; exit 1; }
  report "$dir/headless.csv" "$iterations" "iterations (headless)"
}

case "${1:-both}" in
  viewer) with_display bash "$0" viewer-here ;;
  viewer-here) viewer ;;
  headless) headless ;;
  both) headless; with_display bash "$0" viewer-here ;;
  *) echo "usage: scripts/soak.sh [viewer|headless|both]" >&2; exit 2 ;;
esac
