#include "io/nrrd_source.hpp"

#include <cctype>
#include <charconv>
#include <cstdio>
#include <sstream>

#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_names.hpp"

namespace gvflab::app {
namespace {

std::string trim(std::string s) {
  s.erase(0, s.find_first_not_of(" \t"));
  s.erase(s.find_last_not_of(" \t") + 1);
  return s;
}

std::vector<std::string> words(const std::string& s) {
  std::istringstream in(s);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

bool parseInteger(const std::string& s, long long& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size();
}

// The header's lines as teem splits them (\n, \r\n or \r), up to the empty line that ends it.
struct Lines {
  std::vector<std::string> lines;
  std::uint64_t bytes = 0;  // through the empty line (attached data starts there)
  bool ended = false;       // the empty line was found
};

Lines splitHeader(const std::string& head, bool whole, const std::filesystem::path& path) {
  Lines out;
  std::size_t pos = 0;
  while (pos < head.size()) {
    std::size_t eol = head.find_first_of("\r\n", pos);
    if (eol == std::string::npos && !whole) break;  // cut by the bound
    const std::size_t end = eol == std::string::npos ? head.size() : eol;
    std::string line = head.substr(pos, end - pos);
    pos = end;
    if (pos < head.size()) pos += head.compare(pos, 2, "\r\n") == 0 ? 2 : 1;
    if (line.empty() && !out.lines.empty()) {
      out.ended = true;
      out.bytes = pos;
      return out;
    }
    out.lines.push_back(std::move(line));
    if (static_cast<int>(out.lines.size()) > kMaxTextHeaderLines)
      throw InputError(quoted(path) + " has a NRRD header of more than " +
                       std::to_string(kMaxTextHeaderLines) + " lines.");
  }
  if (!whole)
    throw InputError(quoted(path) + " has a NRRD header longer than " +
                     byteCount(kMaxTextHeaderBytes) + ".");
  out.bytes = head.size();
  return out;
}

// The names a printf-style data-file pattern stands for ("d%03d.raw 1 4 1"), validated here so
// that no expansion can be longer than the pattern allows: one %d with an optional 0 flag and a
// one-digit width, bounded numbers, at most kMaxDataFiles files.
std::vector<std::string> expandPattern(const std::vector<std::string>& w,
                                       const std::filesystem::path& path) {
  const std::string bad = quoted(path) + " has an unsupported data file pattern '";
  std::string shown;
  for (const auto& s : w) shown += (shown.empty() ? "" : " ") + s;
  shown = shown.substr(0, 80);
  if (w.size() < 4 || w.size() > 5)
    throw InputError(bad + shown + "' (expected: FORMAT MIN MAX STEP [SUBDIM]).");
  const std::string& format = w[0];
  std::size_t conversions = 0;
  for (std::size_t i = 0; i < format.size(); ++i) {
    if (format[i] != '%') continue;
    std::size_t j = i + 1;
    if (j < format.size() && format[j] == '0') ++j;
    if (j < format.size() && std::isdigit(static_cast<unsigned char>(format[j]))) ++j;
    if (j >= format.size() || format[j] != 'd')
      throw InputError(bad + shown + "' (one %d, %0Nd or %Nd with N at most 9 is read).");
    ++conversions;
    i = j;
  }
  long long lo = 0, hi = 0, step = 0;
  if (conversions != 1 || format.size() > 200 || !parseInteger(w[1], lo) ||
      !parseInteger(w[2], hi) || !parseInteger(w[3], step) || step == 0 || lo < -1000000 ||
      lo > 1000000 || hi < -1000000 || hi > 1000000 || (hi - lo) / step < 0)
    throw InputError(bad + shown + "' (one %d and MIN, MAX, STEP that reach MAX are read).");
  const long long count = (hi - lo) / step + 1;
  if (count > kMaxDataFiles)
    throw InputError(quoted(path) + " names " + std::to_string(count) +
                     " data files by its pattern; at most " + std::to_string(kMaxDataFiles) +
                     " are read.");
  std::vector<std::string> names;
  char name[256];
  for (long long k = 0; k < count; ++k) {
    std::snprintf(name, sizeof name, format.c_str(), static_cast<int>(lo + k * step));
    names.emplace_back(name);
  }
  return names;
}

}  // namespace

NrrdSource openNrrdSource(const std::filesystem::path& path) {
  NrrdSource src{InputFile(path), {}, {}, 0, {}, 0, 0};
  const InputFile& file = src.file;
  if (file.size() == 0) throw InputError(quoted(path) + " is empty.");
  const std::string head = file.head(kMaxTextHeaderBytes);
  if (head.rfind("NRRD", 0) != 0)
    throw InputError(quoted(path) + " is not a NRRD file (it does not start with NRRD).");
  const Lines header = splitHeader(head, head.size() == file.size(), path);
  src.headerBytes = header.bytes;

  std::vector<std::string> kept;  // the header for teem, without its data-file lines
  std::vector<std::string> names;
  std::string subdim;
  bool detached = false;
  int keyValues = 0;
  for (std::size_t i = 0; i < header.lines.size(); ++i) {
    const std::string& line = header.lines[i];
    const auto colon = line.find(':');
    const bool field = colon != std::string::npos;
    const std::string key = field ? lowerCase(trim(line.substr(0, colon))) : "";
    const std::string value = field ? trim(line.substr(colon + 1)) : "";
    if (i > 0 && line[0] != '#' && (key == "data file" || key == "datafile")) {
      if (detached) throw InputError(quoted(path) + " names its data files twice.");
      detached = true;
      const std::string name = value.rfind('=', 0) == 0 ? trim(value.substr(1)) : value;  // ":="
      const auto w = words(name);
      if (name.rfind("LIST", 0) == 0) {
        // The rest of the header lists the files, one a line.
        if (w.size() > 1) subdim = w[1];
        if (w.size() > 2) throw InputError(quoted(path) + " has a bad data file LIST line.");
        for (++i; i < header.lines.size(); ++i) names.push_back(header.lines[i]);
        if (names.size() > static_cast<std::size_t>(kMaxDataFiles))
          throw InputError(quoted(path) + " lists " + std::to_string(names.size()) +
                           " data files; at most " + std::to_string(kMaxDataFiles) + " are read.");
      } else if (name.find('%') != std::string::npos) {
        names = expandPattern(w, path);
        if (w.size() == 5) subdim = w[4];
      } else {
        names.push_back(name);
      }
      continue;
    }
    if (line.find(":=") != std::string::npos && ++keyValues > kMaxHeaderKeyValues)
      throw InputError(quoted(path) + " has more than " + std::to_string(kMaxHeaderKeyValues) +
                       " key/value lines in its NRRD header.");
    if (key == "encoding") src.encoding = lowerCase(value);
    if (key == "byte skip" || key == "byteskip") parseInteger(value, src.byteSkip);
    if (key == "line skip" || key == "lineskip") parseInteger(value, src.lineSkip);
    kept.push_back(line);
  }
  if (!detached) return src;
  if (!subdim.empty()) {
    long long d = 0;
    if (!parseInteger(subdim, d) || d < 1 || d > 16)
      throw InputError(quoted(path) + " has a bad data file sub-dimension '" +
                       subdim.substr(0, 20) + "'.");
  }
  if (names.empty()) throw InputError(quoted(path) + " names no data file.");
  for (const auto& name : names) src.data.push_back(openDataFile(path, trim(name)));
  std::string text;
  for (const auto& line : kept) text += line + "\n";
  if (src.data.size() == 1 && subdim.empty()) {
    text += "data file: " + src.data[0].procName() + "\n";
  } else {
    text += "data file: LIST" + (subdim.empty() ? std::string() : " " + subdim) + "\n";
    for (const auto& d : src.data) text += d.procName() + "\n";
  }
  src.teemHeader = std::move(text);
  return src;
}

std::FILE* teemStream(const NrrdSource& source) {
  if (source.teemHeader.empty()) return source.file.stdioStream();
  std::FILE* f =
      fmemopen(const_cast<char*>(source.teemHeader.data()), source.teemHeader.size(), "r");
  if (!f) throw InputError(source.file.label() + " cannot be read (out of memory).");
  return f;
}

}  // namespace gvflab::app
