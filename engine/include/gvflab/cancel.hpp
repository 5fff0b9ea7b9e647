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

}  // namespace gvflab
