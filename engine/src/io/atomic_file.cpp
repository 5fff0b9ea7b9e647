#include <fstream>
#include <random>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"

namespace gvflab {

void writeFileAtomically(const std::filesystem::path& path, const std::string& bytes) {
  namespace fs = std::filesystem;
  if (path.empty()) throw InputError("No output file name was given.");
  fs::path dir = path.parent_path().empty() ? fs::path(".") : path.parent_path();
  if (!fs::is_directory(dir))
    throw InputError("Cannot write '" + path.string() + "': the folder '" + dir.string() +
                     "' does not exist.");
  std::random_device rd;
  fs::path tmp = dir / ("." + path.filename().string() + ".tmp" + std::to_string(rd() % 100000));
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw InputError("Cannot write '" + path.string() + "' (permission denied?).");
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) {
      out.close();
      std::error_code ec;
      fs::remove(tmp, ec);
      throw InputError("Writing '" + path.string() + "' failed (disk full?).");
    }
  }
  std::error_code ec;
  fs::rename(tmp, path, ec);
  if (ec) {
    fs::remove(tmp, ec);
    throw InputError("Cannot replace '" + path.string() + "': " + ec.message() + ".");
  }
}

}  // namespace gvflab
