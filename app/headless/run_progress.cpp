#include "headless/run_progress.hpp"

#include <unistd.h>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace gvflab::app {
namespace {

volatile std::sig_atomic_t signalled = 0;
void onSignal(int) { signalled = 1; }

using SignalHandler = void (*)(int);
SignalHandler oldInt = SIG_DFL, oldTerm = SIG_DFL;

std::string duration(double s) {
  char buf[32];
  if (s < 60)
    std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 3600)
    std::snprintf(buf, sizeof buf, "%d min %02d s", int(s) / 60, int(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%d h %02d min", int(s) / 3600, int(s) % 3600 / 60);
  return buf;
}

}  // namespace

InterruptGuard::InterruptGuard() {
  signalled = 0;
  oldInt = std::signal(SIGINT, onSignal);
  oldTerm = std::signal(SIGTERM, onSignal);
}

InterruptGuard::~InterruptGuard() {
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
}

void InterruptGuard::check(const std::string& done) {
  if (signalled) throw Interrupted("Interrupted after " + done + "; nothing was written.");
}

bool RunProgress::wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

RunProgress::RunProgress(bool enabled, long total, std::string what)
    : enabled_(enabled), total_(total), what_(std::move(what)),
      start_(std::chrono::steady_clock::now()), last_(start_) {}

RunProgress::~RunProgress() {
  if (shown_) std::fprintf(stderr, "\r\033[K");  // the result line replaces it
}

void RunProgress::update(long done, const std::function<double()>& error) {
  if (!enabled_) return;
  const auto now = std::chrono::steady_clock::now();
  const double elapsed = std::chrono::duration<double>(now - start_).count();
  if (elapsed < 1 || now - last_ < std::chrono::milliseconds(500)) return;
  last_ = now;
  const double rate = done / elapsed;
  const double left = rate > 0 ? (total_ - done) / rate : 0;
  std::fprintf(stderr, "\r\033[K%s: %ld/%ld iterations, error %.3g, %.0f it/s, %s left", what_.c_str(),
               done, total_, error(), rate, duration(left).c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace gvflab::app
