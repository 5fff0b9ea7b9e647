#!/bin/bash
# Retakes the README's lesson pictures as the README says: the viewer on each demo at
# 1024x768 (a projector), whole window with its panels, a fixed number of field iterations per
# frame so every machine gives the same picture. Needs Xvfb (xvfb-run) and a built gvflab.
# Usage: scripts/lesson_pictures.sh [BUILD_DIR]   (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
gvflab="${1:-build}/app/gvflab"
shot() {  # DEMO OUT.png FRAMES
  xvfb-run -a -s "-screen 0 1024x768x24" "$gvflab" --demo "$1" --steps-per-frame 10 \
    --frames "$3" --screenshot "$2" --screenshot-panels
}
shot u-concavity docs/lesson-u.png 600
shot capture-range docs/lesson-capture.png 600
