#pragma once
// Frame times and GVF iterations over a run, for the panel and for --stats: p50/p95 of the
// frame time over the recent window and iterations per second. No Qt, no GL.
#include <deque>
#include <map>
#include <string>

#include "gvflab/profiler.hpp"

namespace gvflab::viewer {

class FrameStats {
 public:
  explicit FrameStats(std::size_t window = 600) : window_(window) {}
  // A frame's time from its start to the next one's; the phases added since the last call
  // belong to it (frames over kSlowMs keep theirs apart, so --stats says what made them slow).
  void addFrame(double ms);
  static constexpr double kSlowMs = 16.7;  // one 60 Hz refresh
  void addIterations(long n) { iterations_ += n; }
  // Time spent in one part of the frame (ui, solver, draw...), reported as a mean per frame.
  void addPhase(const std::string& name, double ms) {
    phases_[name] += ms;
    framePhases_[name] += ms;
  }
  double percentile(double p) const;  // over the window, 0 when empty
  double p50() const { return percentile(0.5); }
  double p95() const { return percentile(0.95); }
  long frames() const { return frames_; }
  long iterations() const { return iterations_; }
  double iterationsPerSecond() const;  // over the whole run
  std::string summary() const;         // one line for --stats
  void reset() { *this = FrameStats(window_); }

 private:
  std::size_t window_;
  std::deque<double> recent_;
  long frames_ = 0;
  long iterations_ = 0;
  double totalMs_ = 0;
  std::map<std::string, double> phases_;
  std::map<std::string, double> framePhases_;  // of the frame in progress
  // Summed over the slow frames; "other": their time outside every phase (composition, swap,
  // the event loop).
  std::map<std::string, double> slowPhases_;
  long slowFrames_ = 0;
  double longestMs_ = 0;
};

// Adds the time from construction to destruction as one frame.
class FrameTimer {
 public:
  explicit FrameTimer(FrameStats& stats)
      : stats_(stats), start_(std::chrono::steady_clock::now()) {}
  ~FrameTimer() { stats_.addFrame(msSince(start_)); }
  FrameTimer(const FrameTimer&) = delete;
  FrameTimer& operator=(const FrameTimer&) = delete;

 private:
  FrameStats& stats_;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace gvflab::viewer
