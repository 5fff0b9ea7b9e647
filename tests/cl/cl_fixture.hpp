#pragma once
// One OpenCL context for a whole test binary (PoCL compiles kernels slowly).
#include <memory>

#include "gvflab/device.hpp"

namespace gvflab::test {
inline std::shared_ptr<ComputeContext> sharedContext() {
  static auto ctx = ComputeContext::create({});
  return ctx;
}
}  // namespace gvflab::test
