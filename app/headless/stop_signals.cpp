#include "headless/stop_signals.hpp"

#include <unistd.h>

#include <csignal>
#include <cstring>

#include "gvflab/cancel.hpp"

namespace gvflab::app {
namespace {

volatile std::sig_atomic_t deferred = 0;  // StopDeferral depth
bool terminal = false;                    // stderr: clear a progress line first
const char* volatile stage = "preparing the run";

// Only async-signal-safe calls: write(2) and _exit(2). strlen is on POSIX's list too.
void say(const char* s) {
  const ssize_t ignored = ::write(STDERR_FILENO, s, std::strlen(s));
  (void)ignored;
}

void onStop(int signal) {
  const bool again = cancelRequested();
  requestCancel(signal);
  if (deferred > 0 && !again) return;  // polled by the run, which rolls its outputs back
  if (terminal) say("\r\033[K");
  say(signal == SIGTERM ? "gvflab: Interrupted after SIGTERM while "
                        : "gvflab: Interrupted after SIGINT while ");
  say(deferred > 0 ? "writing the outputs (a second signal: stopped at once)" : stage);
  say(deferred > 0 ? ".\n" : "; nothing was written.\n");
  _exit(128 + signal);
}

void handle(int signal, void (*handler)(int)) {
  struct sigaction sa {};
  sa.sa_handler = handler;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = 0;  // no SA_RESTART: a blocking call returns EINTR instead of waiting on
  sigaction(signal, &sa, nullptr);
}

}  // namespace

void installStopSignals() {
  resetCancel();
  terminal = isatty(STDERR_FILENO) != 0;
  handle(SIGINT, onStop);
  handle(SIGTERM, onStop);
}

void restoreDefaultSignals() {
  handle(SIGINT, SIG_DFL);
  handle(SIGTERM, SIG_DFL);
}

void setStopStage(const char* s) { stage = s; }

StopDeferral::StopDeferral() { deferred = deferred + 1; }
StopDeferral::~StopDeferral() { deferred = deferred - 1; }

}  // namespace gvflab::app
