#!/usr/bin/env bash
# gvflab developer entry point. Everything a fresh Debian 12 machine needs, as root:
#   scripts/dev.sh run    install what is missing, build, open the viewer on the U phantom
#   scripts/dev.sh test   install what is missing, check the format, build with warnings as
#                         errors, run every test (under Xvfb if needed),
#                         then the unit tests under the sanitizers (scripts/sanitize.sh unit)
#   scripts/dev.sh deps | build
set -euo pipefail
cd "$(dirname "$0")/.."

PACKAGES=(build-essential cmake pkg-config git
  qt6-base-dev libqt6opengl6-dev qt6-image-formats-plugins libgl-dev libegl-dev libvulkan-dev
  libimgui-dev libglm-dev doctest-dev
  libpng-dev libtiff-dev libgdcm-dev libteem-dev libnifti2-dev nlohmann-json3-dev libspdlog-dev
  libavcodec-dev libavformat-dev libswscale-dev libavutil-dev
  ocl-icd-opencl-dev opencl-clhpp-headers opencl-c-headers pocl-opencl-icd
  xvfb xauth fonts-dejavu-core clang-format-14
  python3-dev python3-numpy pybind11-dev python3-pytest python3-skimage python3-matplotlib
  python3-pydicom python3-tifffile
  python3-setuptools python3-wheel python3-build python3-venv python3-pip
  python3-nibabel teem-apps libassimp-dev python3-meshio)

deps() {
  local missing=()
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if ((${#missing[@]})); then
    echo "Installing: ${missing[*]}"
    local sudo=""
    [ "$(id -u)" -eq 0 ] || sudo=sudo
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
  fi
}

# build [PRESET]: release by default; test builds strict (the same build/, warnings as errors).
build() {
  local preset="${1:-release}"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j"$(nproc)"
}

with_display() {
  if [ -n "${DISPLAY:-}" ]; then "$@"; else xvfb-run -a -s "-screen 0 1600x1000x24" "$@"; fi
}

case "${1:-run}" in
  deps) deps ;;
  build) deps; build ;;
  run)
    deps; build
    if [ -n "${DISPLAY:-}" ]; then
      exec ./build/app/gvflab "${@:2}"
    fi
    echo "No DISPLAY: running the viewer under Xvfb for 120 frames; screenshot in build/viewer.png"
    with_display ./build/app/gvflab --frames 120 --screenshot build/viewer.png "${@:2}"
    ;;
  test)
    deps
    # The tree matches .clang-format before anything is built (scripts/check_format.sh --fix).
    scripts/check_format.sh
    build strict
    # Two tests at a time: the suite must pass side by side on a busy 2-core machine.
    (cd build && with_display ctest -j2 --output-on-failure --timeout 900)
    # The unit tests again under AddressSanitizer + UBSan (build-asan/, only their targets).
    scripts/sanitize.sh unit
    ;;
  *) echo "usage: scripts/dev.sh run|test|deps|build" >&2; exit 2 ;;
esac
