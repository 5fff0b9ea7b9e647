#pragma once
// A process-wide request to stop, set from a signal handler (SIGINT, SIGTERM) and polled by
// long loops on the host. Qt-free and async-signal-safe: requestCancel() only stores a number.
#include <string>

#include "gvflab/error.hpp"

namespace gvflab {

// The signal that asked the run to stop; 0 when none did.
int cancelSignal() noexcept;
inline bool cancelRequested() noexcept { return cancelSignal() != 0; }
// Safe to call from a signal handler.
void requestCancel(int signal) noexcept;
void resetCancel() noexcept;

// A run stopped by a signal; the process exits 128 + signal().
class Interrupted : public Error {
 public:
  Interrupted(const std::string& what, int signal) : Error(what), signal_(signal) {}
  int signal() const { return signal_; }
  int exitCode() const { return 128 + signal_; }

 private:
  int signal_;
};

// Throws Interrupted("Interrupted after DONE; nothing was written.") when a stop was requested.
void throwIfCancelled(const std::string& done);

// What to undo if a signal ends the process at once (a second signal while writing), as the
// first signal's rollback would: a temporary to remove (`to` empty) or a kept earlier file to
// rename back over its target. Registered for its lifetime (at most 64 at once; beyond that
// the undo is skipped); runSignalUndo() runs them newest first with async-signal-safe calls.
class SignalUndo {
 public:
  SignalUndo() = default;
  explicit SignalUndo(const std::string& from, const std::string& to = {});
  ~SignalUndo() { release(); }
  SignalUndo(SignalUndo&& other) noexcept : slot_(other.slot_) { other.slot_ = -1; }
  SignalUndo& operator=(SignalUndo&& other) noexcept;
  SignalUndo(const SignalUndo&) = delete;
  SignalUndo& operator=(const SignalUndo&) = delete;
  void release() noexcept;  // nothing left to undo (committed, or undone by the run itself)

 private:
  int slot_ = -1;
};
// From a signal handler.
void runSignalUndo() noexcept;

}  // namespace gvflab
