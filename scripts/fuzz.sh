#!/usr/bin/env bash
# Builds the libFuzzer harnesses of the file readers (preset fuzz: clang 14, ASan + UBSan,
# build-fuzz/) and runs them, one after the other, at nice 10, one process each.
#   scripts/fuzz.sh                    every reader, 60 s each
#   scripts/fuzz.sh nrrd 300           one reader for 300 s
#   scripts/fuzz.sh all 300 -only_ascii=1   extra arguments go to libFuzzer
# Readers: metaimage pnm nrrd nifti session session_surfaces snake image dicom tiff batch_list
# (tests/fuzz/fuzz_<reader>.cpp).
# Each run starts from the committed seeds (tests/fuzz/corpus/<reader>, never written) plus what
# earlier runs found (build-fuzz/corpus/<reader>, where new inputs go). A run keeps going after
# a finding (-fork=1 -ignore_crashes/timeouts/ooms); each crash, timeout (> 10 s) and OOM
# (> 2048 MB) is saved as build-fuzz/findings/<reader>/{crash,timeout,oom}-<sha1>, and the run
# exits 1 when there is any. Replay one: build-fuzz/tests/fuzz/fuzz_<reader> FILE.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

all=(metaimage pnm nrrd nifti session session_surfaces snake image dicom tiff batch_list)
reader=${1:-all}
seconds=${2:-60}
shift $(($# > 2 ? 2 : $#))
case "$reader" in
  all) readers=("${all[@]}") ;;
  metaimage | pnm | nrrd | nifti | session | session_surfaces | snake | image | dicom | tiff | batch_list) readers=("$reader") ;;
  *) echo "usage: scripts/fuzz.sh [all|${all[*]// /|}] [seconds] [libFuzzer flags]" >&2; exit 2 ;;
esac

# The normal build's packages (scripts/dev.sh), and clang with its libFuzzer runtime.
scripts/dev.sh deps
installed=$(dpkg-query -W -f='${Status}\n' clang-14 libclang-rt-14-dev 2>/dev/null |
  grep -c "install ok installed" || true)
if [ "$installed" != 2 ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
    clang-14 libclang-rt-14-dev
fi

cmake --preset fuzz >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target "${readers[@]/#/fuzz_}"

# Input sizes: headers and specs are small; images get room for a few chunks or strips.
max_len() {
  case "$1" in
    image | nifti | dicom | tiff) echo 65536 ;;
    session | session_surfaces) echo 16384 ;;
    *) echo 4096 ;;
  esac
}

supp=$root/tests/sanitizers
export ASAN_OPTIONS="detect_leaks=1:suppressions=$supp/asan.supp:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$supp/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1:suppressions=$supp/ubsan.supp"

found=0
for r in "${readers[@]}"; do
  corpus=$root/build-fuzz/corpus/$r findings=$root/build-fuzz/findings/$r
  scratch=$(mktemp -d "${TMPDIR:-/tmp}/gvflab-fuzz-$r.XXXXXX")  # the harnesses' files
  mkdir -p "$corpus" "$findings"
  extra=()
  [ -f "tests/fuzz/dict/$r.dict" ] && extra=(-dict="tests/fuzz/dict/$r.dict")
  # teem 1.12 leaks 88 bytes inside every nrrdLoad (docs/RELIABILITY.md, finding nrrd-1), and
  # its frames stop the fast unwinder, so no suppression can name it: every input would be a
  # finding (and LSan's check at exit would fail every fork job). Our NRRD code's leaks are
  # left to scripts/sanitize.sh unit.
  asan=$ASAN_OPTIONS
  [ "$r" = nrrd ] && asan=${ASAN_OPTIONS/detect_leaks=1/detect_leaks=0}
  echo "== fuzz_$r: $seconds s"
  # stdin is /dev/null: a reader that reads stdin ends at once instead of blocking.
  ASAN_OPTIONS=$asan TMPDIR=$scratch nice -n 10 "build-fuzz/tests/fuzz/fuzz_$r" "$corpus" "tests/fuzz/corpus/$r" \
    "${extra[@]}" -max_total_time="$seconds" -rss_limit_mb=2048 -timeout=10 \
    -max_len="$(max_len "$r")" -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
    -artifact_prefix="$findings/" -print_final_stats=1 "$@" </dev/null ||
    echo "fuzz_$r exited with $?"
  rm -rf "$scratch"
  n=$(find "$findings" -type f | wc -l)
  echo "== fuzz_$r: $(find "$corpus" -type f | wc -l) inputs in build-fuzz/corpus/$r, $n findings"
  found=$((found + n))
done
exit $((found > 0))
