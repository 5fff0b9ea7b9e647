#include "io/input_gate.hpp"

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/io.hpp"
#include "io/dicom_file.hpp"
#include "io/file_names.hpp"
#include "io/nrrd_source.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;

std::vector<ReadFile> filesReadFor(const std::string& what, const fs::path& input) {
  std::vector<ReadFile> files{{what, input}};
  try {
    if (isDicomSeriesFolder(input)) {
      for (const fs::path& member : dicomSeriesFiles(input))
        files.push_back({"a file of the series " + what, member});
    } else if (hasSuffix(input, {".mhd"})) {
      if (const fs::path data = metaImageDataFile(input); !data.empty())
        files.push_back({"the data file of " + what, data});
    } else if (hasSuffix(input, {".nhdr", ".nrrd"})) {
      for (const InputFile& data : openNrrdSource(input).data)
        files.push_back({"a data file of " + what, data.path()});
    }
  } catch (const Error&) {
    // Listed as far as it could be; the reader names what is wrong.
  }
  return files;
}

}  // namespace gvflab::app
