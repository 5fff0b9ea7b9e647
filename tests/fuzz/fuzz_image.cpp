// PNG, JPEG, BMP, TIFF, GIF and PGM/PPM through app/io/image_loader.cpp: our header checks
// (libpng's verdict, BMP fields, end markers, sizes), then Qt's readers and plugins, which
// need an application object (no GUI). The name's extension follows the content's signature,
// as a user's file would have it; the header-only probe (imageHeaderShape) runs first.
#include <QCoreApplication>
#include <cstring>

#include "fuzz_support.hpp"
#include "io/image_loader.hpp"

using namespace gvflab;

namespace {
std::string nameFor(const std::uint8_t* data, std::size_t size) {
  auto starts = [&](const char* magic, std::size_t n) {
    return size >= n && std::memcmp(data, magic, n) == 0;
  };
  if (starts("\xFF\xD8\xFF", 3)) return "in.jpg";
  if (starts("BM", 2)) return "in.bmp";
  if (starts("GIF8", 4)) return "in.gif";
  if (starts("II*\0", 4) || starts("MM\0*", 4)) return "in.tif";
  if (size >= 2 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6') return "in.pgm";
  return "in.png";
}
}  // namespace

extern "C" int LLVMFuzzerInitialize(int* argc, char*** argv) {
  static QCoreApplication app(*argc, *argv);  // Qt's image plugins (JPEG, TIFF, GIF)
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput(nameFor(data, size), data, size);
  fuzz::refuseOrRead([&] { app::imageHeaderShape(path); });
  fuzz::refuseOrRead([&] { app::loadImage(path); });
  return 0;
}
