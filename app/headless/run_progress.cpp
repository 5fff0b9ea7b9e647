#include "headless/run_progress.hpp"

#include <unistd.h>

#include <cstdio>

namespace gvflab::app {
namespace {

std::string label;  // RunProgress::setLabel

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

void InterruptGuard::check(const std::string& done) { throwIfCancelled(done); }

void InterruptGuard::checkBeforeCommit() {
  if (const int s = cancelSignal())
    throw Interrupted("Interrupted while writing the outputs; nothing was written.", s);
}

bool RunProgress::wanted(bool quiet) { return !quiet && isatty(STDERR_FILENO); }

void RunProgress::setLabel(std::string text) { label = std::move(text); }

RunProgress::RunProgress(bool enabled, long total, std::string what)
    : enabled_(enabled),
      total_(total),
      what_(std::move(what)),
      start_(std::chrono::steady_clock::now()),
      last_(start_) {}

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
  char measure[48] = "";
  if (error) std::snprintf(measure, sizeof measure, ", error %.3g", error());
  std::fprintf(stderr, "\r\033[K%s%s: %ld/%ld iterations%s, %.0f it/s, %s left", label.c_str(),
               what_.c_str(), done, total_, measure, rate, duration(left).c_str());
  std::fflush(stderr);
  shown_ = true;
}

}  // namespace gvflab::app
