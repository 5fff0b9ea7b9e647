#pragma once
// Shared pieces of gvflab-bench cases.
#include <memory>
#include <ostream>
#include <string>

#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"

namespace gvflab::bench {

struct BenchArgs {
  std::string device;
  int size = 512;
  int iterations = 512;
  int repeats = 5;
  bool json = false;
  EulerLaunch launch = EulerLaunch::Auto;
  // region
  double mpix = 15;
  double snr = 2;
  int dMax = 32;
  double minSegment = 16;
};

// Device-to-device copy bandwidth in GB/s (bytes read + bytes written), best of several runs
// of clEnqueueCopyBuffer timed by its OpenCL event.
double measureCopyGbps(ComputeContext& ctx);

int runEuler2d(const BenchArgs& args, std::ostream& out);
int runRegion(const BenchArgs& args, std::ostream& out);

std::string jsonEscape(const std::string& s);

}  // namespace gvflab::bench
