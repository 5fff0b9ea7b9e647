#include <algorithm>

#include "bench_common.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::bench {

double measureCopyGbps(ComputeContext& ctx) {
  // Large enough to leave every cache, small enough for any device here.
  std::size_t bytes = std::size_t(256) << 20;
  bytes = std::min<std::size_t>(bytes, ctx.info().maxAllocBytes / 2);
  bytes = std::min<std::size_t>(bytes, ctx.info().globalMemBytes / 4);
  bytes &= ~std::size_t(4095);
  cl::Buffer a(ctx.context(), CL_MEM_READ_WRITE, bytes);
  cl::Buffer b(ctx.context(), CL_MEM_READ_WRITE, bytes);
  ctx.queue().enqueueFillBuffer(a, 1.0f, 0, bytes);
  double best = 0;
  for (int i = 0; i < 6; ++i) {
    cl::Event ev;
    ctx.queue().enqueueCopyBuffer(a, b, 0, 0, bytes, nullptr, &ev);
    ev.wait();
    if (i == 0) continue;  // first touch
    best = std::max(best, 2.0 * static_cast<double>(bytes) / (eventMs(ev) * 1e6));
  }
  return best;
}

}  // namespace gvflab::bench
