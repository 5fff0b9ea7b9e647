// NIfTI through nifti_clib (app/io/nifti_file.cpp). The name follows the content as a user's
// file would: gzip magic -> in.nii.gz; a pair's magic (ni1, ni2) -> in.hdr beside the scratch
// folder's in.img (64 KiB); otherwise in.nii.
#include <cstring>

#include "fuzz_support.hpp"
#include "io/nifti_file.hpp"

using namespace gvflab;

namespace {
std::string nameFor(const std::uint8_t* data, std::size_t size) {
  if (size >= 2 && data[0] == 0x1f && data[1] == 0x8b) return "in.nii.gz";
  if (size >= 348 && (std::memcmp(data + 344, "ni1", 3) == 0)) return "in.hdr";
  if (size >= 540 && (std::memcmp(data + 4, "ni2", 3) == 0)) return "in.hdr";
  return "in.nii";
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput(nameFor(data, size), data, size);
  FieldShape shape;
  fuzz::refuseOrRead([&] { shape = app::niftiShape(path); });
  // gvflab checks the device fit (checkFits) from the header before it reads a volume; the
  // fuzzer has no device, so a header beyond 2^26 voxels stops here as it would there. (The
  // bare reader allocates a .nii.gz's whole size before inflating: finding nifti-1 in
  // docs/RELIABILITY.md, tests/fuzz/findings/nifti/.)
  if (shape.count() > (std::uint64_t(1) << 26)) return 0;
  fuzz::refuseOrRead([&] { app::readNiftiVolume(path); });
  return 0;
}
