#pragma once
// A long headless run on a terminal: one progress line (iterations, error, rate, time left),
// refreshed twice a second once the run has taken more than a second; nothing when stderr is
// not a terminal or with --quiet. Ctrl+C (SIGINT) or SIGTERM stops the run cleanly between
// chunks: the run throws Interrupted, writes nothing, and main exits 130.
#include <chrono>
#include <functional>
#include <string>

#include "gvflab/error.hpp"

namespace gvflab::app {

class Interrupted : public Error {
 public:
  using Error::Error;
};

// Installs the SIGINT/SIGTERM handlers for its lifetime (the previous ones come back after).
class InterruptGuard {
 public:
  InterruptGuard();
  ~InterruptGuard();
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;
  // Throws Interrupted (saying what was done) when a signal came.
  static void check(const std::string& done);
};

class RunProgress {
 public:
  // enabled: stderr is a terminal and no --quiet. total: iterations asked for.
  RunProgress(bool enabled, long total, std::string what);
  ~RunProgress();
  // error() is called only when the line is refreshed (it costs a reduction on the device).
  void update(long done, const std::function<double()>& error);
  static bool wanted(bool quiet);  // stderr is a terminal and not quiet

 private:
  bool enabled_;
  long total_;
  std::string what_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace gvflab::app
