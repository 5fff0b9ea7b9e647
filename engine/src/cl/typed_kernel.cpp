#include "gvflab/typed_kernel.hpp"

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"

namespace gvflab::detail {

void throwKernelArgError(const std::string& kernel, std::size_t index, std::size_t bytes,
                         const cl::Error& e) {
  throw DeviceError("OpenCL kernel '" + kernel + "' rejected argument " + std::to_string(index) +
                    " (" + std::to_string(bytes) + " bytes): " + e.what() + " returned " +
                    clErrorName(e.err()) + ".");
}

std::string kernelName(const cl::Kernel& kernel) {
  if (!kernel()) return "(none)";
  std::string name = kernel.getInfo<CL_KERNEL_FUNCTION_NAME>();
  while (!name.empty() && name.back() == '\0') name.pop_back();  // some drivers count the NUL
  return name;
}

}  // namespace gvflab::detail
