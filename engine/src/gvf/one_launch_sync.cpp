#include "gvflab/one_launch_sync.hpp"

#include <algorithm>

#include "gvflab/solver.hpp"

namespace gvflab {

void OneLaunchSync::create(const cl::Context& context, cl::CommandQueue& queue) {
  sync_ = cl::Buffer(context, CL_MEM_READ_WRITE, 2 * sizeof(cl_int));
  queue.enqueueFillBuffer(sync_, cl_int(0), 0, 2 * sizeof(cl_int));
  base_ = 0;
  unconfirmed_ = false;
}

void OneLaunchSync::reserve(cl::CommandQueue& queue, long long arrivals) {
  if (base_ + arrivals <= (1ll << 30)) return;
  queue.enqueueFillBuffer(sync_, cl_int(0), 0, sizeof(cl_int));
  base_ = 0;
}

bool OneLaunchSync::gaveUp(cl::CommandQueue& queue) {
  if (!unconfirmed_) return false;
  cl_int flags[2] = {0, 0};
  queue.enqueueReadBuffer(sync_, CL_TRUE, 0, sizeof(flags), flags);
  unconfirmed_ = false;
  return flags[1] != 0;
}

void redoIterations(Solver& solver, long n) {
  solver.reset();
  for (long done = 0; done < n;) {
    const int chunk = static_cast<int>(std::min<long>(n - done, 1 << 20));
    solver.step(chunk);
    done += chunk;
  }
}

}  // namespace gvflab
