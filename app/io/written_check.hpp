#pragma once
// Reading back what a library wrote (NIfTI, NRRD) before it replaces anything: such libraries
// report a short write late or not at all, so the file itself is the proof.
#include <cstdint>
#include <filesystem>

namespace gvflab::app {

// Reads file to its end, decompressing gzip (plain files are read as they are), and checks
// that it holds exactly `expected` bytes from byte `from` on (after a text header). A truncated
// or corrupt stream, or another size, throws InputError naming `shown` (the name the user gave).
void checkWrittenSize(const std::filesystem::path& file, const std::filesystem::path& shown,
                      std::uint64_t expected, std::uint64_t from = 0);
// Where the data of a file with a text header ending in an empty line (NRRD) starts.
std::uint64_t textHeaderEnd(const std::filesystem::path& file, const std::filesystem::path& shown);

}  // namespace gvflab::app
