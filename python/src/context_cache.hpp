#pragma once
// One OpenCL context per device selector, kept for the session: creating one compiles the
// kernels again (seconds on PoCL), which a notebook calling gvf() in a loop must not pay.
#include <pybind11/pybind11.h>

#include <memory>
#include <string>

#include "gvflab/device.hpp"

namespace gvflab::python {

// The cached context for `device` ("" or "gpu", "cpu", a name substring), created on first use.
// Its profiler is reset, so the caller's OpenCL times start at zero.
std::shared_ptr<ComputeContext> computeContext(const std::string& device);

// Drops the cached contexts at interpreter exit (before static destructors run, while the
// OpenCL driver is still loaded).
void registerContextCleanup();

}  // namespace gvflab::python
