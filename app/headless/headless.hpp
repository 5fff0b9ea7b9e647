#pragma once
#include "cli/options.hpp"

namespace gvflab::app {
// Runs GVF without a window and writes the requested outputs. Throws gvflab::Error.
void runHeadless(const Options& options);
// Prints every OpenCL device, one per line.
void listDevicesTo(std::ostream& out);
}  // namespace gvflab::app
