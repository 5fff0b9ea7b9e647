#pragma once
// A long headless run on a terminal: one progress line (iterations, error, rate, time left),
// refreshed twice a second once the run has taken more than a second; nothing when stderr is
// not a terminal or with --quiet. SIGINT and SIGTERM: headless/stop_signals.hpp (the run ends
// at once before it writes; while it writes, between chunks, through Interrupted).
#include <chrono>
#include <functional>
#include <string>

#include "gvflab/cancel.hpp"
#include "gvflab/error.hpp"
#include "headless/stop_signals.hpp"

namespace gvflab::app {

// From here on the run writes: signals are polled (check), so its outputs can be rolled back.
class InterruptGuard {
 public:
  InterruptGuard() = default;
  // Throws Interrupted (saying what was done) when a signal came.
  static void check(const std::string& done);
  // The same before the outputs are kept: "Interrupted while writing the outputs; ...".
  static void checkBeforeCommit();

 private:
  StopDeferral deferral_;
};

class RunProgress {
 public:
  // enabled: stderr is a terminal and no --quiet. total: iterations asked for.
  RunProgress(bool enabled, long total, std::string what);
  ~RunProgress();
  // error() is called only when the line is refreshed (it costs a reduction on the device);
  // an empty one shows no error (surface iterations have none).
  void update(long done, const std::function<double()>& error);
  static bool wanted(bool quiet);  // stderr is a terminal and not quiet
  // --batch: put before the line ("[2/5] b.png: "), so that the batch keeps one line.
  static void setLabel(std::string label);

 private:
  bool enabled_;
  long total_;
  std::string what_;
  bool shown_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

}  // namespace gvflab::app
