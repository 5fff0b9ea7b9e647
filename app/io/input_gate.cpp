#include "io/input_gate.hpp"

#include <algorithm>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "io/dicom_file.hpp"
#include "io/file_names.hpp"
#include "io/nrrd_source.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

// A .mhd header's ElementDataFile (one name, relative to the header's folder), or empty.
fs::path metaImageDataFile(const fs::path& header) {
  const std::string head = InputFile(header).head(kMaxTextHeaderBytes);
  std::size_t pos = 0;
  for (int lines = 0; pos < head.size() && lines < kMaxTextHeaderLines; ++lines) {
    const std::size_t eol = std::min(head.find('\n', pos), head.size());
    const std::string line = head.substr(pos, eol - pos);
    pos = eol + 1;
    const std::size_t eq = line.find('=');
    if (eq == std::string::npos) continue;
    std::string key = line.substr(0, eq), value = line.substr(eq + 1);
    key.erase(key.find_last_not_of(" \t") + 1);
    key.erase(0, key.find_first_not_of(" \t"));
    if (key != "ElementDataFile") continue;
    value.erase(0, value.find_first_not_of(" \t"));
    value.erase(value.find_last_not_of(" \t\r") + 1);
    if (value.empty() || value == "LOCAL") return {};
    const fs::path name(value);
    return name.is_absolute() ? name : header.parent_path() / name;
  }
  return {};
}

}  // namespace

std::vector<ReadFile> filesReadFor(const std::string& what, const fs::path& input) {
  std::vector<ReadFile> files{{what, input}};
  const std::string lower = lowerCase(input.string());
  try {
    if (isDicomSeriesFolder(input)) {
      for (const fs::path& member : dicomSeriesFiles(input))
        files.push_back({"a file of the series " + what, member});
    } else if (lower.ends_with(".mhd")) {
      if (const fs::path data = metaImageDataFile(input); !data.empty())
        files.push_back({"the data file of " + what, data});
    } else if (lower.ends_with(".nhdr") || lower.ends_with(".nrrd")) {
      for (const InputFile& data : openNrrdSource(input).data)
        files.push_back({"a data file of " + what, data.path()});
    }
  } catch (const Error&) {
    // Listed as far as it could be; the reader names what is wrong.
  }
  return files;
}

}  // namespace gvflab::app
