#pragma once
// Shared pieces of gvflab-bench cases.
#include <memory>
#include <optional>
#include <ostream>
#include <string>

#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/json_text.hpp"

namespace gvflab::bench {

struct BenchArgs {
  std::string device;
  int size = 512;
  int iterations = 512;
  int repeats = 5;
  bool json = false;
  std::optional<MemoryKind> memory;  // nullopt: the solver's default
};

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), best of several runs
// of clEnqueueCopyBuffer timed by its OpenCL event.
double measureCopyGbps(ComputeContext& ctx);

int runEuler2d(const BenchArgs& args, std::ostream& out);

}  // namespace gvflab::bench
