#pragma once
// Small helpers for enqueuing kernels with profiling, shared by the engine's solvers.
#include <string>

#include "gvflab/cl.hpp"
#include "gvflab/device.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::detail {

inline std::size_t roundUp(std::size_t n, std::size_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// Work-group shape for 2D image kernels: wide rows suit both GPUs (coalescing) and PoCL
// (its work-group loops vectorise along x).
inline cl::NDRange localSize2D(const DeviceInfo& info) {
  return info.isGpu ? cl::NDRange(32, 8) : cl::NDRange(64, 4);
}

// Enqueues over width x height (padded up to the group shape) and records the event.
inline void enqueue2D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name, int width,
                      int height, const cl::NDRange& local) {
  cl::NDRange global(roundUp(width, local[0]), roundUp(height, local[1]));
  if (!ctx.profiler().enabled()) {
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local);
    return;
  }
  cl::Event ev;
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &ev);
  ctx.profiler().record(name, ev);
}

// Work-group shape for 3D buffer kernels (the forces' fields, GGVF).
inline cl::NDRange localSize3D(const DeviceInfo& info) {
  return info.isGpu ? cl::NDRange(32, 4, 2) : cl::NDRange(16, 4, 1);
}

// Enqueues over width x height x depth (padded up to the group shape) and records the event.
inline void enqueue3D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name, int width,
                      int height, int depth, const cl::NDRange& local) {
  cl::NDRange global(roundUp(width, local[0]), roundUp(height, local[1]), roundUp(depth, local[2]));
  cl::Event ev;
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, local, nullptr, &ev);
  if (ctx.profiler().enabled()) ctx.profiler().record(name, ev);
}

inline void enqueue1D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name,
                      std::size_t n, std::size_t local) {
  const cl::NDRange global(roundUp(n, local));
  if (!ctx.profiler().enabled()) {  // no event: saves the driver its timestamps
    ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(local));
    return;
  }
  cl::Event ev;
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, global, cl::NDRange(local), nullptr, &ev);
  ctx.profiler().record(name, ev);
}

}  // namespace gvflab::detail
