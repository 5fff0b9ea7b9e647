#include "viewer/model/frame_stats.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace gvflab::viewer {

void FrameStats::addFrame(double ms) {
  recent_.push_back(ms);
  while (recent_.size() > window_) recent_.pop_front();
  ++frames_;
  totalMs_ += ms;
  longestMs_ = std::max(longestMs_, ms);
  if (ms > kSlowMs) {
    double inPhases = 0;
    for (const auto& [name, phaseMs] : framePhases_) {
      slowPhases_[name] += phaseMs;
      inPhases += phaseMs;
    }
    slowPhases_["other"] += std::max(ms - inPhases, 0.0);
    ++slowFrames_;
  }
  framePhases_.clear();
}

double FrameStats::percentile(double p) const {
  if (recent_.empty()) return 0;
  std::vector<double> v(recent_.begin(), recent_.end());
  // Nearest rank: the smallest value with at least p of the samples at or below it.
  auto k = static_cast<std::size_t>(std::ceil(p * static_cast<double>(v.size())));
  k = std::clamp<std::size_t>(k, 1, v.size()) - 1;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

double FrameStats::iterationsPerSecond() const {
  return totalMs_ > 0 ? static_cast<double>(iterations_) * 1000.0 / totalMs_ : 0;
}

std::string FrameStats::summary() const {
  char buf[200];
  std::snprintf(buf, sizeof buf,
                "frames %ld, frame time p50 %.1f ms, p95 %.1f ms, %.0f GVF iterations/s "
                "(%ld iterations in %.2f s)",
                frames_, p50(), p95(), iterationsPerSecond(), iterations_, totalMs_ / 1000.0);
  std::string out = buf;
  if (!phases_.empty() && frames_ > 0) {
    out += "; mean ms per frame:";
    for (const auto& [name, ms] : phases_) {
      std::snprintf(buf, sizeof buf, " %s %.1f", name.c_str(), ms / static_cast<double>(frames_));
      out += buf;
    }
  }
  if (slowFrames_ > 0) {
    std::snprintf(buf, sizeof buf,
                  "; %ld frames over %.1f ms (longest %.1f ms), their mean ms:", slowFrames_,
                  kSlowMs, longestMs_);
    out += buf;
    for (const auto& [name, ms] : slowPhases_) {
      std::snprintf(buf, sizeof buf, " %s %.1f", name.c_str(),
                    ms / static_cast<double>(slowFrames_));
      out += buf;
    }
  }
  return out;
}

}  // namespace gvflab::viewer
