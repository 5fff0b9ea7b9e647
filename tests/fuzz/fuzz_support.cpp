#include "fuzz_support.hpp"

#include <cstdlib>
#include <fstream>
#include <system_error>
#include <vector>

namespace gvflab::fuzz {
namespace {

void writeBytes(const std::filesystem::path& path, const char* data, std::size_t size) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(data, static_cast<std::streamsize>(size));
  if (!out) std::abort();  // the harness itself cannot work: stop loudly
}

std::filesystem::path makeScratch() {
  std::string name = (std::filesystem::temp_directory_path() / "gvflab-fuzz-XXXXXX").string();
  if (!mkdtemp(name.data())) std::abort();
  const std::filesystem::path dir(name);
  std::vector<char> ramp(64 * 1024);
  for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = static_cast<char>(i * 7 + i / 256);
  writeBytes(dir / "data.raw", ramp.data(), ramp.size());
  writeBytes(dir / "in.img", ramp.data(), ramp.size());
  return dir;
}

}  // namespace

const std::filesystem::path& scratchDir() {
  static const std::filesystem::path dir = [] {
    auto d = makeScratch();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratchDir(), ec);
    });
    return d;
  }();
  return dir;
}

std::filesystem::path writeInput(const std::string& name, const std::uint8_t* data,
                                 std::size_t size) {
  const auto path = scratchDir() / name;
  writeBytes(path, reinterpret_cast<const char*>(data), size);
  return path;
}

bool namesOtherFolders(const std::uint8_t* data, std::size_t size) {
  for (std::size_t i = 0; i < size; ++i)
    if (data[i] == '/' || data[i] == '\\') return true;
  return false;
}

}  // namespace gvflab::fuzz
