#pragma once
// What every harness shares: a scratch folder of its own (one per process, removed at exit)
// where the input becomes a file, since the readers take paths; and the one verdict a reader
// may give besides a result: a gvflab::Error. Anything else (another exception, a sanitizer
// report, a crash, a timeout, more than -rss_limit_mb) is a finding.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>

#include "gvflab/error.hpp"

namespace gvflab::fuzz {

// mkdtemp'd once; also holds fixed data files that detached headers may name:
// data.raw (64 KiB of a byte ramp) and in.img (the same, for a NIfTI .hdr/.img pair).
const std::filesystem::path& scratchDir();

// Writes the input to scratchDir() / name and returns that path.
std::filesystem::path writeInput(const std::string& name, const std::uint8_t* data,
                                 std::size_t size);

// Whether a header may name a file outside scratchDir(): any '/' or '\\'. Such inputs are
// skipped so that the fuzzer never reads the host's files (/dev/stdin would block it); data
// files outside the header's folder are the input checks' business (tests/cli corpus).
bool namesOtherFolders(const std::uint8_t* data, std::size_t size);

// Runs a reader: a result or a gvflab::Error is fine; any other exception escapes to libFuzzer
// (std::terminate: a finding, with its stack).
template <class F>
void refuseOrRead(F&& read) {
  try {
    read();
  } catch (const gvflab::Error&) {
  }
}

}  // namespace gvflab::fuzz
