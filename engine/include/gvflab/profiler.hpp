#pragma once
// Keeps the OpenCL event of every kernel launch and turns them into per-kernel, per-frame
// timings: the last frame, the mean and the 95th percentile over recent frames.
#include <chrono>
#include <cstddef>
#include <deque>
#include <map>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"

namespace gvflab {

// Host wall-clock ms since t: what events cannot time (builds, host work, whole runs).
inline double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

struct KernelStats {
  double lastMs = 0;   // sum of this kernel's launches in the last frame that ran it
  double meanMs = 0;   // mean per frame over the recent window
  double p95Ms = 0;    // 95th percentile per frame over the recent window
  double totalMs = 0;  // since the last reset
  std::size_t launches = 0;
  std::size_t frames = 0;  // frames in which the kernel ran
};

class Profiler {
 public:
  explicit Profiler(bool enabled = true, std::size_t window = 240)
      : enabled_(enabled), window_(window) {}

  // False on a queue without profiling: record() then ignores events and no timings exist.
  bool enabled() const { return enabled_; }
  // `group` (optional) also files the launch under a group, e.g. a multigrid level, whose
  // stats sum all its kernels: groupStats() says which part of a solver costs what, and
  // holds each group's kernels apart as "group / kernel" (a level's profile per kernel).
  void record(const std::string& kernel, const cl::Event& event, const std::string& group = {});
  // Waits for the frame's events and folds their durations in. Returns the frame's OpenCL ms.
  double endFrame();

  std::map<std::string, KernelStats> stats() const { return stats_; }
  std::map<std::string, KernelStats> groupStats() const { return groupStats_; }
  double totalMs() const;                           // all kernels since the last reset
  double totalMs(const std::string& prefix) const;  // kernels whose name starts with prefix
  double lastFrameMs() const { return lastFrameMs_; }
  void reset();

 private:
  struct Pending {
    std::string kernel;
    cl::Event event;
    std::string group;
  };
  // Folds one frame's per-name (ms, launches) into stats and their history.
  void fold(const std::map<std::string, std::pair<double, std::size_t>>& frame,
            std::map<std::string, KernelStats>& stats,
            std::map<std::string, std::deque<double>>& history);
  bool enabled_;
  std::size_t window_;
  std::vector<Pending> pending_;
  std::map<std::string, KernelStats> stats_;
  std::map<std::string, std::deque<double>> history_;
  std::map<std::string, KernelStats> groupStats_;
  std::map<std::string, std::deque<double>> groupHistory_;
  double lastFrameMs_ = 0;
};

// Milliseconds between an event's start and end; NaN when the queue does not profile.
double eventMs(const cl::Event& event);

}  // namespace gvflab
