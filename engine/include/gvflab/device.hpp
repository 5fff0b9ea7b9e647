#pragma once
// OpenCL device choice, context and profiling queue.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"

namespace gvflab {

class KernelLibrary;
class Profiler;

struct DeviceInfo {
  int platformIndex = 0;
  int deviceIndex = 0;
  std::string platformName;
  std::string name;
  std::string version;
  bool isGpu = false;
  std::uint64_t globalMemBytes = 0;
  std::uint64_t maxAllocBytes = 0;
  std::size_t maxWorkGroupSize = 0;
  std::uint64_t localMemBytes = 0;
  int computeUnits = 0;
  std::string extensions;
  // NVIDIA's compute capability as major * 10 + minor (cl_nv_device_attribute_query); 0 on
  // other devices. Kernels use PTX that needs a capability only where it is at least that.
  int nvidiaComputeCapability = 0;

  bool hasExtension(const std::string& ext) const;
  std::string describe() const;  // one line for --list-devices and the UI
};

// Every device of every platform; platforms that fail or have no devices are skipped.
std::vector<DeviceInfo> listDevices();
// What a device is (also a sub-device of clCreateSubDevices), numbered as given.
DeviceInfo deviceInfo(const cl::Device& device, int platformIndex, int deviceIndex);

// selector: "" (a GPU if any, else the first device), "gpu" or "cpu" (DeviceError listing the
// devices found when there is none of that kind), "P.D" (platform and device numbers as
// --list-devices prints them, e.g. "0.1": the way to pick one of identical GPUs), or a
// case-insensitive substring of the device name, platform name or version (e.g. "pocl").
// Throws DeviceError when nothing matches. Its advice names the selector as the caller spells
// it: the CLI's flag ("use --device cpu") or Python's keyword ("use device='cpu'").
enum class SelectorSpelling { Flag, Keyword };
DeviceInfo chooseDevice(const std::string& selector,
                        SelectorSpelling spelling = SelectorSpelling::Flag);

struct ContextOptions {
  std::string deviceSelector;                      // see chooseDevice
  std::optional<std::filesystem::path> kernelDir;  // load kernels/*.cl from here, not embedded
  // Extra (name, value) pairs for clCreateContext, without the terminating 0; the platform is
  // added here. The viewer passes CL_GL_CONTEXT_KHR and CL_GLX/EGL_DISPLAY_KHR through this,
  // so the engine itself stays free of GL.
  std::vector<cl_context_properties> extraProperties;
  // OpenCL event timing of every launch (the viewer's kernel timers). Batch runs that only
  // need wall times may turn it off: each timed launch costs the driver a few microseconds.
  bool profiling = true;
  SelectorSpelling selectorSpelling = SelectorSpelling::Flag;  // chooseDevice's advice
};

// Owns the cl::Context, the profiling in-order queue, the kernel library and the profiler.
class ComputeContext {
 public:
  static std::shared_ptr<ComputeContext> create(const ContextOptions& options = {});
  // On a device already opened (a sub-device, one device of a split); options'
  // deviceSelector is not used. `shared`: in that context (of several devices), not its own.
  static std::shared_ptr<ComputeContext> createOn(const cl::Device& device, const DeviceInfo& info,
                                                  const ContextOptions& options = {},
                                                  const cl::Context* shared = nullptr);
  ~ComputeContext();
  ComputeContext(const ComputeContext&) = delete;
  ComputeContext& operator=(const ComputeContext&) = delete;

  const DeviceInfo& info() const { return info_; }
  const ContextOptions& options() const { return options_; }
  cl::Context& context() { return context_; }
  cl::Device& device() { return device_; }
  cl::CommandQueue& queue() { return queue_; }
  KernelLibrary& kernels() { return *kernels_; }
  Profiler& profiler() { return *profiler_; }

  // Throws ResourceError naming the size and the limit when bytes do not fit one allocation.
  void checkAllocation(std::uint64_t bytes, const std::string& what) const;

 private:
  ComputeContext() = default;
  DeviceInfo info_;
  ContextOptions options_;
  cl::Context context_;
  cl::Device device_;
  cl::CommandQueue queue_;
  std::unique_ptr<KernelLibrary> kernels_;
  std::unique_ptr<Profiler> profiler_;
};

// Turns an OpenCL exception into a DeviceError with the call and the error's name.
[[noreturn]] void rethrowClError(const cl::Error& e, const std::string& doing);
std::string clErrorName(int code);

}  // namespace gvflab
