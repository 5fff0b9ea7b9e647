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

// Enqueues over `global` (from `offset`) and files the launch in the profiler under `name`
// and `group`; with profiling off no event is asked for (saves the driver its timestamps).
inline void enqueueRange(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name,
                         const cl::NDRange& global, const cl::NDRange& local,
                         const std::string& group = {}, const cl::NDRange& offset = cl::NullRange) {
  if (!ctx.profiler().enabled())
    return void(ctx.queue().enqueueNDRangeKernel(kernel, offset, global, local));
  cl::Event ev;
  ctx.queue().enqueueNDRangeKernel(kernel, offset, global, local, nullptr, &ev);
  ctx.profiler().record(name, ev, group);
}

// width x height (x depth where `local` is 3D) padded up to whole work-groups.
inline cl::NDRange paddedRange(std::size_t width, std::size_t height, std::size_t depth,
                               const cl::NDRange& local) {
  if (local.dimensions() == 3)
    return cl::NDRange(roundUp(width, local[0]), roundUp(height, local[1]),
                       roundUp(depth, local[2]));
  return cl::NDRange(roundUp(width, local[0]), roundUp(height, local[1]));
}

// Enqueues over width x height (padded up to the group shape).
inline void enqueue2D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name, int width,
                      int height, const cl::NDRange& local) {
  enqueueRange(ctx, kernel, name, paddedRange(width, height, 1, local), local);
}

// Work-group shape for 3D buffer kernels (the forces' fields, GGVF).
inline cl::NDRange localSize3D(const DeviceInfo& info) {
  return info.isGpu ? cl::NDRange(32, 4, 2) : cl::NDRange(16, 4, 1);
}

// Enqueues over width x height x depth (padded up to the group shape).
inline void enqueue3D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name, int width,
                      int height, int depth, const cl::NDRange& local) {
  enqueueRange(ctx, kernel, name, paddedRange(width, height, depth, local), local);
}

inline void enqueue1D(ComputeContext& ctx, cl::Kernel& kernel, const std::string& name,
                      std::size_t n, std::size_t local) {
  enqueueRange(ctx, kernel, name, cl::NDRange(roundUp(n, local)), cl::NDRange(local));
}

}  // namespace gvflab::detail
