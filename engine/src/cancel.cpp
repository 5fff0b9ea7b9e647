#include "gvflab/cancel.hpp"

#include <csignal>

namespace gvflab {
namespace {
// sig_atomic_t: the only type a handler may store to portably; volatile keeps loops polling it.
volatile std::sig_atomic_t requested = 0;
}  // namespace

int cancelSignal() noexcept { return requested; }

void requestCancel(int signal) noexcept { requested = signal; }

void resetCancel() noexcept { requested = 0; }

void throwIfCancelled(const std::string& done) {
  if (const int s = cancelSignal())
    throw Interrupted("Interrupted after " + done + "; nothing was written.", s);
}

}  // namespace gvflab
