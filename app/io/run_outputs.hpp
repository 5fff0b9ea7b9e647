#pragma once
// The files one run writes. Each writer is atomic on its own (gvflab/io.hpp); this keeps the run
// as a whole clean: when the run fails after some files were written, the destructor removes
// them, so a failed run leaves nothing behind. commit() once everything is written.
#include <filesystem>
#include <functional>
#include <string>
#include <system_error>
#include <vector>

namespace gvflab::app {

class RunOutputs {
 public:
  RunOutputs() = default;
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;
  ~RunOutputs() {
    std::error_code ec;
    for (const auto& p : written_) std::filesystem::remove(p, ec);
  }
  // Runs write (which writes path atomically) and remembers path.
  void write(const std::string& path, const std::function<void()>& write) {
    write();
    written_.emplace_back(path);
  }
  void commit() { written_.clear(); }

 private:
  std::vector<std::filesystem::path> written_;
};

}  // namespace gvflab::app
