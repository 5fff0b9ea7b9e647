// MetaImage (engine/src/io/metaimage.cpp): the input is a header (.mhd) whose data is inline
// (ElementDataFile = LOCAL) or in a file of the scratch folder (data.raw, 64 KiB). Each reader
// the CLI reaches is run: the size and NDims probes, the image, the volume, both fields.
#include "fuzz_support.hpp"
#include "gvflab/io.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (fuzz::namesOtherFolders(data, size)) return -1;  // no reading the host's files
  const auto path = fuzz::writeInput("in.mhd", data, size);
  fuzz::refuseOrRead([&] { metaImageSize(path); });
  fuzz::refuseOrRead([&] { metaImageDimensions(path); });
  fuzz::refuseOrRead([&] { readMetaImage(path); });
  fuzz::refuseOrRead([&] { readMetaImageVolume(path); });
  fuzz::refuseOrRead([&] { readMetaImageField(path); });
  fuzz::refuseOrRead([&] { readMetaImageField3D(path); });
  return 0;
}
