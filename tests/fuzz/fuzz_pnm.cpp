// PGM/PPM (engine/src/io/pnm_reader.cpp): P2, P3, P5 and P6, 8 or 16 bit.
#include "fuzz_support.hpp"
#include "gvflab/io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = gvflab::fuzz::writeInput("in.pgm", data, size);
  gvflab::fuzz::refuseOrRead([&] { gvflab::readPnm(path); });
  return 0;
}
