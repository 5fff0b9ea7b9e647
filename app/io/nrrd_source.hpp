#pragma once
// A NRRD file made safe for teem: its header is read by our own bounded reader first (at most
// 1 MiB, 4096 lines, 1024 key/value pairs), and its detached data files ("data file:" with one
// name, a LIST or a printf-style pattern) are resolved and opened here, by the data-file rule of
// gvflab/input_file.hpp. teem then gets a header whose data files are these open files
// (/proc/self/fd/N): it never sees a pattern (whose expansion overflows a buffer inside teem),
// never opens a name itself, and never reads stdin ("-").
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "gvflab/input_file.hpp"

namespace gvflab::app {

struct NrrdSource {
  InputFile file;                 // the named file
  std::vector<InputFile> data;    // detached data files in order (empty: attached data)
  std::string teemHeader;         // detached: the header for teem; attached: empty
  std::uint64_t headerBytes = 0;  // attached: the header's length (the data follows)
  std::string encoding;           // the "encoding" field, lower case
  long long byteSkip = 0;         // the "byte skip" field (-1: data at the end)
  long long lineSkip = 0;         // the "line skip" field
};

// Throws InputError naming the file (and the data file) and what is wrong.
NrrdSource openNrrdSource(const std::filesystem::path& path);

// A stream for nrrdRead: the header (and attached data) of the source. The caller fcloses it.
std::FILE* teemStream(const NrrdSource& source);

}  // namespace gvflab::app
