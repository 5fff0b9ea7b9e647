// --batch @LIST (app/headless/headless_batch.cpp): any bytes as a list; the names it gives are
// only collected (never opened here), and a refusal must be a gvflab::Error.
#include "fuzz_support.hpp"
#include "headless/headless_batch.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput("list.txt", data, size);
  fuzz::refuseOrRead([&] { app::batchInputs({"@" + path.string()}); });
  return 0;
}
