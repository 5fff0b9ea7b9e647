#pragma once
// One OpenCL context per device selector, kept for the session: creating one compiles the
// kernels again (seconds on PoCL), which a notebook calling gvf() in a loop must not pay.
//
// The calls release the GIL during device work, so two Python threads may call at once. A
// context (its queue, kernels and profiler) serves one call at a time: DeviceLease holds its
// lock for the whole call, taken with the GIL released so that a waiting thread never blocks
// the interpreter.
#include <pybind11/pybind11.h>

#include <memory>
#include <mutex>
#include <string>

#include "gvflab/device.hpp"

namespace gvflab::python {

struct DeviceLease {
  std::shared_ptr<ComputeContext> ctx;
  std::shared_ptr<std::mutex> busy;   // ctx's lock, alive while held
  std::unique_lock<std::mutex> lock;  // this call's turn on ctx
};

// The cached context for `device` ("" or "gpu", "cpu", a name substring), created on first use,
// locked for the caller until the lease is dropped. Its profiler is reset, so the caller's
// OpenCL times start at zero. Call with the GIL held; it is released while waiting.
DeviceLease computeContext(const std::string& device);

// Drops the cached contexts at interpreter exit (before static destructors run, while the
// OpenCL driver is still loaded).
void registerContextCleanup();

}  // namespace gvflab::python
