#pragma once
// What the headless snake and surface stages share: stepping a batch (ParametricSnake or
// SurfaceSnake) until every member stopped or the iterations ran out, honouring interrupts,
// and the one-line tally of the states ("snakes: 3 (gvf), 2 converged, 1 stalled, 0 moving").
#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/snake_types.hpp"
#include "headless/run_progress.hpp"

namespace gvflab::app {

// Steps in chunks of `chunk` iterations (the interrupt check's and the profiler's interval);
// afterChunk(done) runs after each with the iterations done so far (a trail's record, progress).
template <class Batch, class AfterChunk>
void stepUntilStopped(ComputeContext& ctx, Batch& batch, int iterations, int chunk,
                      const std::string& what, AfterChunk afterChunk) {
  for (int done = 0; done < iterations && !batch.allStopped();) {
    const int n = std::min(chunk, iterations - done);
    batch.step(n);
    done += n;
    ctx.profiler().endFrame();
    afterChunk(done);
    InterruptGuard::check(std::to_string(done) + " " + what);
  }
}

struct StateTally {
  int total = 0, converged = 0, stalled = 0, collapsed = 0;
  bool seen[kSnakeForceCount] = {};

  void add(SnakeState state, SnakeForce force) {
    seen[static_cast<int>(force)] = true;
    ++total;
    converged += state == SnakeState::Converged;
    stalled += state == SnakeState::Stalled;
    collapsed += state == SnakeState::Collapsed;
  }
  int moving() const { return total - converged - stalled - collapsed; }
  // "gvf", "gvf and traditional", "gvf, ggvf and vfc"
  std::string forces() const {
    std::vector<std::string> names;
    for (SnakeForce f : kSnakeForces)
      if (seen[static_cast<int>(f)]) names.push_back(forceName(f));
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i)
      out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
    return out;
  }
  // "NOUN: N (forces), a converged, b stalled, [c collapsed, ]d moving"
  std::string line(const std::string& noun) const {
    std::ostringstream o;
    o << noun << ": " << total << " (" << forces() << "), " << converged << " converged, "
      << stalled << " stalled, ";
    if (collapsed) o << collapsed << " collapsed, ";
    o << moving() << " moving";
    return o.str();
  }
};

}  // namespace gvflab::app
