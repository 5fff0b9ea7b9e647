#pragma once
// What the headless snake and surface stages share: stepping a batch (ParametricSnake or
// SurfaceSnake) until every member stopped or the iterations ran out, honouring interrupts,
// and the one-line tally of the states ("snakes: 3 (gvf), 2 converged, 1 stalled, 0 moving").
#include <algorithm>
#include <sstream>
#include <string>

#include "gvflab/device.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/snake_types.hpp"
#include "headless/run_progress.hpp"

namespace gvflab::app {

// Steps in chunks of `chunk` iterations (the interrupt check's and the profiler's interval);
// afterChunk() runs after each (a trail's record).
template <class Batch, class AfterChunk>
void stepUntilStopped(ComputeContext& ctx, Batch& batch, int iterations, int chunk,
                      const std::string& what, AfterChunk afterChunk) {
  for (int done = 0; done < iterations && !batch.allStopped(); done += chunk) {
    batch.step(std::min(chunk, iterations - done));
    ctx.profiler().endFrame();
    afterChunk();
    InterruptGuard::check(std::to_string(done) + " " + what);
  }
}

struct StateTally {
  int total = 0, converged = 0, stalled = 0, collapsed = 0;
  bool mixed = false;
  SnakeForce first = SnakeForce::Gvf;

  void add(SnakeState state, SnakeForce force) {
    if (total == 0) first = force;
    mixed = mixed || force != first;
    ++total;
    converged += state == SnakeState::Converged;
    stalled += state == SnakeState::Stalled;
    collapsed += state == SnakeState::Collapsed;
  }
  int moving() const { return total - converged - stalled - collapsed; }
  // "NOUN: N (force), a converged, b stalled, [c collapsed, ]d moving"
  std::string line(const std::string& noun) const {
    std::ostringstream o;
    o << noun << ": " << total << " (" << (mixed ? "gvf and traditional" : forceName(first))
      << "), " << converged << " converged, " << stalled << " stalled, ";
    if (collapsed) o << collapsed << " collapsed, ";
    o << moving() << " moving";
    return o.str();
  }
};

}  // namespace gvflab::app
