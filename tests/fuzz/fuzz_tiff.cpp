// TIFF pages and stacks (app/io/tiff_file.cpp): our walk of the page chain, then libtiff, as
// the CLI reads them: the stack's shape, then the first page, then the volume when small.
#include "fuzz_support.hpp"
#include "io/tiff_file.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput("in.tif", data, size);
  FieldShape shape;
  fuzz::refuseOrRead([&] { shape = app::tiffShape(path); });
  if (shape.count() == 0 || shape.count() > (std::uint64_t(1) << 22)) return 0;
  fuzz::refuseOrRead([&] { app::readTiffPage(path, 0); });
  if (shape.depth > 1) fuzz::refuseOrRead([&] { app::readTiffVolume(path); });
  return 0;
}
