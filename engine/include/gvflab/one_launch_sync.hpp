#pragma once
// The device-wide barrier of a one-launch solver (Euler's gvf_euler_steps_persistent,
// multigrid's mg_persistent): int[2] on the device, the arrival count and the give-up flag a
// work-group raises when the others never arrive (not every work-group ran at once).
#include "gvflab/cl.hpp"

namespace gvflab {

class Solver;

class OneLaunchSync {
 public:
  void create(const cl::Context& context, cl::CommandQueue& queue);  // both zero
  const cl::Buffer& buffer() const { return sync_; }
  int base() const { return base_; }  // the arrivals counted so far
  // Before a launch that may add up to `arrivals`: the count starts again should it overflow.
  void reserve(cl::CommandQueue& queue, long long arrivals);
  void launched(long long arrivals) {  // after enqueueing a launch that adds them
    base_ += static_cast<int>(arrivals);
    unconfirmed_ = true;
  }
  // Whether a launch since the last call gave up (reads the flag; false when none ran).
  bool gaveUp(cl::CommandQueue& queue);

 private:
  cl::Buffer sync_;
  int base_ = 0;
  bool unconfirmed_ = false;
};

// After a give-up: the solver's n iterations again from V0, launch by launch (a mu changed on
// the way is not replayed).
void redoIterations(Solver& solver, long n);

}  // namespace gvflab
