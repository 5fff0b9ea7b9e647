#include "io/input_limits.hpp"

#include "gvflab/input_file.hpp"

namespace gvflab::app {

// One implementation for the engine's readers and the application's.
std::string byteCount(std::uint64_t bytes) { return gvflab::byteCount(bytes); }

void checkHostMemory(const std::filesystem::path& path, std::uint64_t bytes) {
  gvflab::checkHostMemory(path, bytes);
}

}  // namespace gvflab::app
