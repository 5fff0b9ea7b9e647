#include <fstream>
#include <random>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab {

void writeFileAtomically(const std::filesystem::path& path,
                         const std::function<void(const std::filesystem::path& tmp)>& write) {
  namespace fs = std::filesystem;
  if (path.empty()) throw InputError("No output file name was given.");
  fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::is_directory(dir))
    throw InputError("Cannot write '" + path.string() + "': the folder '" + dir.string() +
                     "' does not exist.");
  std::random_device rd;
  // Hidden, and ending in the real name so that format-by-extension libraries agree.
  fs::path tmp = dir / (".tmp" + std::to_string(rd() % 100000) + "." + path.filename().string());
  std::error_code ec;
  try {
    write(tmp);
  } catch (...) {
    fs::remove(tmp, ec);
    throw;
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw InputError("Cannot replace '" + path.string() + "': " + ec.message() + ".");
  }
}

void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
  writeFileAtomically(path, [&](const std::filesystem::path& tmp) {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("Cannot write '" + path.string() + "' (permission denied?).");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) throw InputError("Writing '" + path.string() + "' failed (disk full?).");
  });
}

}  // namespace gvflab
