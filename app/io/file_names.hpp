#pragma once
// Case-insensitive tests on file names (formats are chosen by extension, and users type .NII).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gvflab::app {

// True when path's file name ends in one of the suffixes (".nii.gz", ".csv", ...), any case.
inline bool hasSuffix(const std::filesystem::path& path,
                      std::initializer_list<std::string_view> suffixes) {
  std::string name = path.filename().string();
  for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return std::any_of(suffixes.begin(), suffixes.end(), [&](std::string_view s) {
    return name.size() >= s.size() && name.compare(name.size() - s.size(), s.size(), s) == 0;
  });
}

}  // namespace gvflab::app
