#!/usr/bin/env bash
# Builds the engine, the interop library, the tests and gvflab-bench on a machine without Qt
# (the GPU machines), runs the tests there (the gpu-labelled external-memory test too) and the
# benchmarks given as arguments.
# Header-only Debian packages and the loaders travel as .deb files in .devdeps/
# (fetch them with: cd .devdeps && apt-get download opencl-clhpp-headers opencl-c-headers
#  ocl-icd-opencl-dev ocl-icd-libopencl1 libglm-dev doctest-dev nlohmann-json3-dev
#  libvulkan-dev libvulkan1 libegl-dev libgl-dev libspdlog-dev libspdlog1.10 libfmt-dev libfmt9
#  zlib1g-dev). The gpu test also needs glvnd's libEGL at
# run time: the device tool's README unpacks libegl1 libglvnd0 libopengl0 (its .gl recipe)
# before this script.
# Usage: scripts/gpu-run.sh OUTDIR [BENCH ARGS ...]   (each bench run as one quoted string)
# SKIP_TESTS=1 skips the test suites (quick experiments; never for reported figures).
# TARGETS="gvflab-bench test_x" builds only those targets and CTEST_ARGS="-R x" picks the tests
# (quick experiments; reported figures come from a full build with every suite passing).
# BENCH_TIMEOUT=SECONDS ends each benchmark after that long (0, the default: never).
set -euo pipefail
out=${1:?output folder}; shift
deps=/tmp/gvflab-deps
mkdir -p "$deps" "$out"
for f in .devdeps/*.deb; do dpkg -x "$f" "$deps"; done
lib=$deps/usr/lib/x86_64-linux-gnu
export LD_LIBRARY_PATH=$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
# Debian's libz.so points at its own /lib/.../libz.so.1.2.13: link it to the host's zlib.
if [ -L "$lib/libz.so" ] && [ ! -e "$lib/libz.so" ]; then
  ln -sf "$(ldconfig -p | awk '/libz\.so\.1 /{print $NF; exit}')" "$lib/libz.so"
fi
cmake -S . -B /tmp/gvflab-build -DCMAKE_BUILD_TYPE=Release -DGVFLAB_BUILD_APP=OFF \
  -DCMAKE_PREFIX_PATH="$deps/usr" -DOpenCL_INCLUDE_DIR="$deps/usr/include" \
  -DOpenCL_LIBRARY="$lib/libOpenCL.so.1" -DDOCTEST_INCLUDE_DIR="$deps/usr/include" \
  -DGLM_INCLUDE_DIR="$deps/usr/include" -DVulkan_INCLUDE_DIR="$deps/usr/include" \
  -DVulkan_LIBRARY="$lib/libvulkan.so.1" > "$out/configure.log"
grep "gvflab:" "$out/configure.log" || true
# NVIDIA's Vulkan, EGL and OpenCL drivers where the image hides them.
source "$(dirname "$0")/gpu-nvidia-env.sh"
# shellcheck disable=SC2086
cmake --build /tmp/gvflab-build -j"$(nproc)" ${TARGETS:+--target $TARGETS} > "$out/build.log" 2>&1 || { tail -50 "$out/build.log"; exit 1; }
bin=/tmp/gvflab-build
echo "== devices"; "$bin/bench/gvflab-bench" devices || true
echo "== tests"
if [ -n "${SKIP_TESTS:-}" ]; then echo "skipped (SKIP_TESTS)"; else
# A failing test is reported (full log in OUT/tests.log) but does not stop the benchmarks.
# shellcheck disable=SC2086
(cd "$bin" && ctest --output-on-failure ${CTEST_ARGS:-} > "$out/tests.log" 2>&1) && echo "all tests passed" ||
  { echo "TESTS FAILED:"; grep -E "ERROR|FAILED|Failed|exception" "$out/tests.log" | head -20; }
grep -E "test_external_memory|SKIPPED|OpenCL: .*Vulkan" "$out/tests.log" || true
fi
for b in "$@"; do
  echo "== gvflab-bench $b"
  # shellcheck disable=SC2086
  timeout "${BENCH_TIMEOUT:-0}" "$bin/bench/gvflab-bench" $b | tee -a "$out/bench.jsonl" ||
    echo "(gvflab-bench exited $?: timed out or failed; the next one runs)"
done
