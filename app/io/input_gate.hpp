#pragma once
// The files one input pulls in, whatever flag names it (the image, --edge-map, --v0, a --batch
// entry): the input itself, a MetaImage's or NRRD's detached data files, a DICOM series
// folder's members. The output-onto-input rule (cli/run_checks.hpp, --batch) compares every
// output with all of them, so no output replaces a file the run reads.
#include <filesystem>
#include <string>
#include <vector>

namespace gvflab::app {

struct ReadFile {
  std::string what;  // "the input image", "the data file of --edge-map", ...
  std::filesystem::path path;
};

// what: how messages name the input ("the input image", "--edge-map"). Files that cannot be
// listed (a missing input, a corrupt header) are left out: the readers refuse them by name.
std::vector<ReadFile> filesReadFor(const std::string& what, const std::filesystem::path& input);

}  // namespace gvflab::app
