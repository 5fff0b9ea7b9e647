#pragma once
// User text inside a message (a flag's value, a --snake spec, a session's string): quoted and
// bounded, so a 100 MB value gives a one-line message and control characters cannot break it.
#include <cstddef>
#include <filesystem>
#include <string>
#include <vector>

namespace gvflab {

// 'TEXT' when TEXT is short; else its first `limit` characters, "..." and the length:
// 'aaaaaaaa...' (104857600 characters). Control characters show as '?'.
std::string quotedText(const std::string& text, std::size_t limit = 60);

// 'PATH': a file's name in a message, whole (the user gave it or chose it).
std::string quoted(const std::filesystem::path& path);

// "a", "a or b", "a, b or c": choices in a sentence.
std::string sentenceList(const std::vector<std::string>& items);

}  // namespace gvflab
