#include "gvflab/profiler.hpp"

#include <algorithm>
#include <cmath>

namespace gvflab {

double eventMs(const cl::Event& event) {
  if (!event()) return std::nan("");
  cl_ulong probe = 0;
  if (clGetEventProfilingInfo(event(), CL_PROFILING_COMMAND_START, sizeof probe, &probe, nullptr) !=
      CL_SUCCESS)
    return std::nan("");  // a queue without profiling
  auto start = event.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  auto end = event.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? static_cast<double>(end - start) * 1e-6 : 0.0;
}

void Profiler::record(const std::string& kernel, const cl::Event& event, const std::string& group) {
  if (enabled_) pending_.push_back({kernel, event, group});
}

double Profiler::endFrame() {
  std::map<std::string, std::pair<double, std::size_t>> frame, groups;  // ms, launches
  if (!pending_.empty()) pending_.back().event.wait();  // in-order queue: the last ends last
  for (auto& p : pending_) {
    const double ms = eventMs(p.event);
    const bool grouped = !p.group.empty();
    for (auto* slot : {&frame[p.kernel], grouped ? &groups[p.group] : nullptr,
                       grouped ? &groups[p.group + " / " + p.kernel] : nullptr})
      if (slot) {
        slot->first += ms;
        slot->second += 1;
      }
  }
  pending_.clear();
  fold(groups, groupStats_, groupHistory_);
  fold(frame, stats_, history_);
  double total = 0;
  for (const auto& [name, value] : frame) total += value.first;
  lastFrameMs_ = total;
  return total;
}

void Profiler::fold(const std::map<std::string, std::pair<double, std::size_t>>& frame,
                    std::map<std::string, KernelStats>& stats,
                    std::map<std::string, std::deque<double>>& history) {
  for (const auto& [name, value] : frame) {
    auto& hist = history[name];
    hist.push_back(value.first);
    if (hist.size() > window_) hist.pop_front();
    auto& s = stats[name];
    s.lastMs = value.first;
    s.totalMs += value.first;
    s.launches += value.second;
    s.frames += 1;
    double sum = 0;
    for (double v : hist) sum += v;
    s.meanMs = sum / static_cast<double>(hist.size());
    std::vector<double> sorted(hist.begin(), hist.end());
    std::sort(sorted.begin(), sorted.end());
    auto rank = static_cast<std::size_t>(std::ceil(0.95 * static_cast<double>(sorted.size()))) - 1;
    s.p95Ms = sorted[std::min(rank, sorted.size() - 1)];
  }
}

double Profiler::totalMs() const { return totalMs(""); }

double Profiler::totalMs(const std::string& prefix) const {
  double t = 0;
  for (const auto& [name, s] : stats_)
    if (name.rfind(prefix, 0) == 0) t += s.totalMs;
  return t;
}

void Profiler::reset() {
  pending_.clear();
  stats_.clear();
  history_.clear();
  groupStats_.clear();
  groupHistory_.clear();
  lastFrameMs_ = 0;
}

}  // namespace gvflab
