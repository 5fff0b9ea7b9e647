#pragma once
// Case-insensitive tests on file names (formats are chosen by extension, and users type .NII).
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <initializer_list>
#include <string>
#include <string_view>

namespace gvflab::app {

// s with its ASCII letters in lower case: the form extensions are compared in.
inline std::string lowerCase(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// True when path's file name ends in one of the suffixes (".nii.gz", ".csv", ...), any case.
inline bool hasSuffix(const std::filesystem::path& path,
                      std::initializer_list<std::string_view> suffixes) {
  const std::string name = lowerCase(path.filename().string());
  return std::any_of(suffixes.begin(), suffixes.end(),
                     [&](std::string_view s) { return std::string_view(name).ends_with(s); });
}

}  // namespace gvflab::app
