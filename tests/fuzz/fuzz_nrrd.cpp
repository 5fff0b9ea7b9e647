// NRRD through teem (app/io/nrrd_file.cpp): the input is written as a detached header
// (in.nhdr; an attached one reads the same), whose data file may be the scratch folder's
// data.raw. The probes, then every reader (each refuses the other axis counts).
#include "fuzz_support.hpp"
#include "io/nrrd_file.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (fuzz::namesOtherFolders(data, size)) return -1;  // no reading the host's files
  const auto path = fuzz::writeInput("in.nhdr", data, size);
  fuzz::refuseOrRead([&] { app::nrrdAxisCount(path); });
  fuzz::refuseOrRead([&] { app::nrrdShape(path); });
  fuzz::refuseOrRead([&] { app::readNrrdImage(path); });
  fuzz::refuseOrRead([&] { app::readNrrdVolume(path); });
  fuzz::refuseOrRead([&] { app::readNrrdField2D(path); });
  fuzz::refuseOrRead([&] { app::readNrrdField3D(path); });
  return 0;
}
