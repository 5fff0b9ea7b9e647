#include "io/run_outputs.hpp"

#include <unistd.h>

#include <cerrno>
#include <system_error>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

// A hidden name beside target holding its current content: a hard link (instant, the same
// bytes) or, where the file system has none, a copy. Created exclusively.
fs::path keepAside(const fs::path& target, const fs::path& shown) {
  const fs::path dir = target.parent_path().empty() ? fs::path(".") : target.parent_path();
  for (int attempt = 0; attempt < 32; ++attempt) {
    const fs::path backup = dir / (unpredictableName() + ".kept");
    if (::link(target.c_str(), backup.c_str()) == 0) return backup;
    if (errno == EEXIST) continue;
    std::error_code ec;
    if (fs::copy_file(target, backup, fs::copy_options::none, ec)) return backup;
    if (ec == std::errc::file_exists) continue;
    fs::remove(backup, ec);
    throw InputError("Cannot keep the earlier " + quoted(shown) +
                     " while replacing it: " + ec.message() + "; nothing was replaced.");
  }
  throw InputError("Cannot keep the earlier " + quoted(shown) + ": no free name in its folder.");
}

}  // namespace

void RunOutputs::write(const std::string& path, const std::function<void()>& write) {
  const fs::path target = outputTarget(path);  // refuses devices, FIFOs, folders
  std::error_code ec;
  Written w{target, {}, {}};
  if (fs::exists(target, ec)) w.backup = keepAside(target, path);
  // A second signal ends the process at once: the kept file goes back, a new name goes.
  w.onSignal = w.backup.empty() ? SignalUndo(target.string())
                                : SignalUndo(w.backup.string(), target.string());
  try {
    write();
  } catch (...) {
    if (!w.backup.empty()) fs::remove(w.backup, ec);  // the writer left the target as it was
    throw;
  }
  written_.push_back(std::move(w));
}

void RunOutputs::commit() {
  std::error_code ec;
  for (const auto& w : written_)
    if (!w.backup.empty()) fs::remove(w.backup, ec);
  written_.clear();
}

void RunOutputs::rollback() noexcept {
  // Newest first, so that a file written twice ends as it was before the run.
  for (auto it = written_.rbegin(); it != written_.rend(); ++it) {
    std::error_code ec;
    if (it->backup.empty())
      fs::remove(it->target, ec);
    else
      fs::rename(it->backup, it->target, ec);
  }
  written_.clear();
}

}  // namespace gvflab::app
