#pragma once
// The files one run writes. Each writer is atomic on its own (gvflab/io.hpp); this keeps the run
// as a whole clean: when the run fails (an error, an exception, an interrupt) after some files
// were written, the destructor puts back the files they replaced and removes the new ones, so
// a failed run leaves the folder as it found it. commit() once everything is written.
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "gvflab/cancel.hpp"

namespace gvflab::app {

class RunOutputs {
 public:
  RunOutputs() = default;
  RunOutputs(const RunOutputs&) = delete;
  RunOutputs& operator=(const RunOutputs&) = delete;
  ~RunOutputs() { rollback(); }
  // Keeps the file at path (if any) aside under a hidden unpredictable name in its folder (a
  // hard link, else a copy), then runs write (which writes path atomically). Throws as write,
  // or InputError when the earlier file cannot be kept.
  void write(const std::string& path, const std::function<void()>& write);
  // Everything was written: the kept earlier files are deleted.
  void commit();
  // Puts the earlier files back and removes the new ones (the destructor does it).
  void rollback() noexcept;

 private:
  struct Written {
    std::filesystem::path target;  // the file replaced (a link's file: the link stays)
    std::filesystem::path backup;  // the earlier file; empty when the name was new
    SignalUndo onSignal;           // the same undo, if a second signal ends the process at once
  };
  std::vector<Written> written_;
};

}  // namespace gvflab::app
