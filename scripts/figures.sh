#!/usr/bin/env bash
# Retakes every README picture with the command written under it in README.md (read from the
# README itself by scripts/readme_pictures.py), under Xvfb when there is no display.
#   scripts/figures.sh                       all of them, into docs/
#   scripts/figures.sh --only docs/figure.png [--out DIR]
# Build first (scripts/dev.sh build). Look at each picture before committing it.
set -euo pipefail
cd "$(dirname "$0")/.."
run=(python3 scripts/readme_pictures.py --run "$@")
if [ -n "${DISPLAY:-}" ]; then "${run[@]}"; else xvfb-run -a -s "-screen 0 1600x1000x24" "${run[@]}"; fi
