// DICOM through our structural walk (app/io/dicom_prewalk.cpp), then GDCM (app/io/dicom_file.cpp):
// whatever the bytes, GDCM must never see a stream it asserts on (an abort is a finding here as
// anywhere). The header is read first, then the pixels when the header's size is small.
#include "fuzz_support.hpp"
#include "io/dicom_file.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput("in.dcm", data, size);
  FieldShape shape;
  fuzz::refuseOrRead([&] { shape = app::dicomShape(path); });
  if (shape.count() == 0 || shape.count() > (std::uint64_t(1) << 22)) return 0;
  fuzz::refuseOrRead([&] {
    if (shape.depth > 1)
      app::readDicomVolume(path);
    else
      app::readDicomImage(path);
  });
  return 0;
}
