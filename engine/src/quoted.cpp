#include "gvflab/quoted.hpp"

namespace gvflab {

std::string quotedText(const std::string& text, std::size_t limit) {
  const bool cut = text.size() > limit + 3;  // "..." only where it saves something
  std::size_t end = cut ? limit : text.size();
  while (cut && end > 0 && (static_cast<unsigned char>(text[end]) & 0xC0) == 0x80)
    --end;  // not inside a UTF-8 sequence
  std::string out = "'";
  for (std::size_t i = 0; i < end; ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    out += c < 0x20 || c == 0x7f ? '?' : static_cast<char>(c);
  }
  if (!cut) return out + "'";
  return out + "...' (" + std::to_string(text.size()) + " characters)";
}

std::string quoted(const std::filesystem::path& path) { return "'" + path.string() + "'"; }

std::string sentenceList(const std::vector<std::string>& items) {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i)
    out += (i == 0 ? "" : i + 1 == items.size() ? " or " : ", ") + items[i];
  return out;
}

}  // namespace gvflab
