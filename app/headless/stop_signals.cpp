#include "headless/stop_signals.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <string>

#include "gvflab/cancel.hpp"

namespace gvflab::app {
namespace {

volatile std::sig_atomic_t deferred = 0;  // StopDeferral depth
bool terminal = false;                    // stderr: clear a progress line first
const char* volatile stage = "preparing the run";
char note[512] = "";      // setStopNote: read by the handler, written between runs
char summary[8192] = "";  // setStopSummary: written to stdout by the handler

// Only async-signal-safe calls: write(2) and _exit(2). strlen is on POSIX's list too.
void say(const char* s, int fd = STDERR_FILENO) {
  const ssize_t ignored = ::write(fd, s, std::strlen(s));
  (void)ignored;
}

// Copies text into a buffer the handler reads, so that a signal while it is copied finds no
// text rather than half of one.
template <std::size_t N>
void publish(char (&buffer)[N], const std::string& text) {
  buffer[0] = '\0';
  std::atomic_signal_fence(std::memory_order_seq_cst);
  const std::size_t n = std::min(text.size(), N - 1);
  std::memcpy(buffer + 1, text.data() + 1 * (n > 0), n > 0 ? n - 1 : 0);
  buffer[n] = '\0';
  std::atomic_signal_fence(std::memory_order_seq_cst);  // the rest before the first byte
  buffer[0] = n > 0 ? text[0] : '\0';
}

void onStop(int signal) {
  const bool again = cancelRequested();
  requestCancel(signal);
  if (deferred > 0 && !again) return;  // polled by the run, which rolls its outputs back
  runSignalUndo();  // what a rollback would undo: temporaries, replaced and new outputs
  if (terminal) say("\r\033[K");
  say(signal == SIGTERM ? "gvflab: Interrupted after SIGTERM while "
                        : "gvflab: Interrupted after SIGINT while ");
  say(deferred > 0 ? "writing the outputs (a second signal: stopped at once, nothing written kept)"
                   : stage);
  if (deferred > 0) {
    say(".\n");
  } else {
    say("; nothing was written");
    say(note);
    say(".\n");
    say(summary, STDOUT_FILENO);
  }
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

void setStopNote(const std::string& text) { publish(note, text); }

void setStopSummary(const std::string& text) {
  // Cut at a line's end when too long, so stdout never ends mid-line.
  std::string cut = text;
  if (cut.size() >= sizeof summary) {
    cut.resize(sizeof summary - 32);
    cut.resize(cut.rfind('\n') + 1);
    cut += "  ...\n";
  }
  publish(summary, cut);
}

StopDeferral::StopDeferral() { deferred = deferred + 1; }
StopDeferral::~StopDeferral() { deferred = deferred - 1; }

}  // namespace gvflab::app
