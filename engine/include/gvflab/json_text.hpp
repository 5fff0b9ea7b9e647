#pragma once
// Minimal JSON text helpers for the reports the CLI and the bench print.
#include <string>

namespace gvflab {

// The string as a JSON string body: quotes and backslashes escaped, control characters dropped.
inline std::string jsonEscape(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out;
}

}  // namespace gvflab
