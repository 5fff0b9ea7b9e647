#include "gvflab/device.hpp"

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <sstream>
#include <utility>

#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab {
namespace {

// What a run may allocate on the device, so that every fit check refuses before the first
// allocation instead of a driver aborting inside it (PoCL asserts when the host cannot back a
// buffer it promised). A CPU device's memory is the host's: at most two thirds of what the host
// has available now (the host keeps its own copies of the image and the field). The test hook
// GVFLAB_TEST_DEVICE_MIB=GLOBAL[,ALLOC] lowers the limits further, to test the refusals on a
// device of less memory than the machine's.
void limitToWhatCanBeHad(DeviceInfo& info) {
  if (!info.isGpu) {
    const std::uint64_t available = availableMemoryBytes();
    if (available != UINT64_MAX)
      info.globalMemBytes = std::min(info.globalMemBytes, available / 3 * 2);
  }
  if (const char* hook = std::getenv("GVFLAB_TEST_DEVICE_MIB"); hook && *hook) {
    char* end = nullptr;
    const unsigned long long global = std::strtoull(hook, &end, 10);
    const unsigned long long alloc = *end == ',' ? std::strtoull(end + 1, nullptr, 10) : global;
    if (global > 0)
      info.globalMemBytes = std::min<std::uint64_t>(info.globalMemBytes, global << 20);
    if (alloc > 0) info.maxAllocBytes = std::min<std::uint64_t>(info.maxAllocBytes, alloc << 20);
  }
  info.maxAllocBytes = std::min(info.maxAllocBytes, info.globalMemBytes);
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\0' || std::isspace(static_cast<unsigned char>(s.back()))))
    s.pop_back();
  return s;
}

std::vector<cl::Platform> platforms() {
  std::vector<cl::Platform> list;
  try {
    cl::Platform::get(&list);
  } catch (const cl::Error&) {
    // No ICD loader entries at all: report no devices rather than failing.
    list.clear();
  }
  return list;
}

cl::Device deviceAt(int platformIndex, int deviceIndex) {
  std::vector<cl::Device> devices;
  platforms().at(platformIndex).getDevices(CL_DEVICE_TYPE_ALL, &devices);
  return devices.at(deviceIndex);
}

// "P.D", the numbers --list-devices prints: the one way to tell identical devices apart.
std::optional<std::pair<int, int>> deviceIndexSelector(const std::string& sel) {
  const auto dot = sel.find('.');
  const auto digits = [](const std::string& part) {
    return !part.empty() && part.size() < 6 &&
           std::all_of(part.begin(), part.end(), [](unsigned char c) { return std::isdigit(c); });
  };
  if (dot == std::string::npos || !digits(sel.substr(0, dot)) || !digits(sel.substr(dot + 1)))
    return std::nullopt;
  return std::pair{std::stoi(sel.substr(0, dot)), std::stoi(sel.substr(dot + 1))};
}

}  // namespace

bool DeviceInfo::hasExtension(const std::string& ext) const {
  std::istringstream in(extensions);
  std::string word;
  while (in >> word)
    if (word == ext) return true;
  return false;
}

std::string DeviceInfo::describe() const {
  std::ostringstream out;
  out << name << " [" << (isGpu ? "GPU" : "CPU") << ", " << platformName << ", " << version << ", "
      << computeUnits << " CUs, " << (globalMemBytes >> 20) << " MiB]";
  return out.str();
}

DeviceInfo deviceInfo(const cl::Device& device, int platformIndex, int deviceIndex) {
  DeviceInfo info;
  info.platformIndex = platformIndex;
  info.deviceIndex = deviceIndex;
  info.platformName =
      trim(cl::Platform(device.getInfo<CL_DEVICE_PLATFORM>()).getInfo<CL_PLATFORM_NAME>());
  info.name = trim(device.getInfo<CL_DEVICE_NAME>());
  info.version = trim(device.getInfo<CL_DEVICE_VERSION>());
  info.isGpu = (device.getInfo<CL_DEVICE_TYPE>() & CL_DEVICE_TYPE_GPU) != 0;
  info.globalMemBytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  info.maxAllocBytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  info.maxWorkGroupSize = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  info.localMemBytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  info.computeUnits = static_cast<int>(device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>());
  info.extensions = device.getInfo<CL_DEVICE_EXTENSIONS>();
  if (info.hasExtension("cl_nv_device_attribute_query")) {
    // CL_DEVICE_COMPUTE_CAPABILITY_MAJOR_NV / _MINOR_NV (cl_ext.h of newer headers).
    constexpr cl_device_info kMajor = 0x4000, kMinor = 0x4001;
    cl_uint major = 0, minor = 0;
    if (clGetDeviceInfo(device(), kMajor, sizeof major, &major, nullptr) == CL_SUCCESS &&
        clGetDeviceInfo(device(), kMinor, sizeof minor, &minor, nullptr) == CL_SUCCESS)
      info.nvidiaComputeCapability = static_cast<int>(major * 10 + minor);
  }
  return info;
}

std::vector<DeviceInfo> listDevices() {
  std::vector<DeviceInfo> out;
  auto plats = platforms();
  for (std::size_t p = 0; p < plats.size(); ++p) {
    std::vector<cl::Device> devices;
    try {
      plats[p].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // CL_DEVICE_NOT_FOUND and friends: skip this platform
    }
    for (std::size_t d = 0; d < devices.size(); ++d) {
      try {
        out.push_back(deviceInfo(devices[d], static_cast<int>(p), static_cast<int>(d)));
      } catch (const cl::Error&) {
        continue;
      }
    }
  }
  return out;
}

DeviceInfo chooseDevice(const std::string& selector, SelectorSpelling spelling) {
  const bool flag = spelling == SelectorSpelling::Flag;
  const std::string name = flag ? "--device" : "device";
  auto use = [&](const std::string& kind) {
    return flag ? "--device " + kind : "device='" + kind + "'";
  };
  auto devices = listDevices();
  if (devices.empty())
    throw DeviceError(
        "No OpenCL device was found. Install an OpenCL driver (on Debian: "
        "apt-get install pocl-opencl-icd) and check with " +
        std::string(flag ? "'gvflab --list-devices'" : "gvflab.devices()") + ".");
  std::string sel = lower(selector);
  // Short: each device's number, name and kind (its platform's version strings can run to
  // 100 characters), at most 4 of them; --list-devices / gvflab.devices() give the rest.
  std::string names;
  for (std::size_t i = 0; i < devices.size() && i < 4; ++i) {
    const auto& d = devices[i];
    names += (i ? "; " : " ") + std::to_string(d.platformIndex) + "." +
             std::to_string(d.deviceIndex) + " " + d.name + " (" + (d.isGpu ? "GPU" : "CPU") + ")";
  }
  if (devices.size() > 4) names += " and " + std::to_string(devices.size() - 4) + " more";
  if (sel.empty() || sel == "gpu" || sel == "cpu") {
    const bool gpu = sel != "cpu";
    for (const auto& d : devices)
      if (d.isGpu == gpu) return d;
    // No device named: any will do. A GPU asked for by name is never quietly a CPU.
    if (sel.empty()) return devices.front();
    throw DeviceError("No OpenCL " + std::string(gpu ? "GPU" : "CPU") + " device was found (use " +
                      use(gpu ? "cpu" : "gpu") + ", or leave " + name +
                      " out to take any). Devices found:" + names + ".");
  }
  if (const auto index = deviceIndexSelector(sel)) {
    for (const auto& d : devices)
      if (d.platformIndex == index->first && d.deviceIndex == index->second) return d;
    throw DeviceError(
        "No OpenCL device has the number " + quotedText(selector) +
        " (gvflab --list-devices numbers them platform.device). Devices found:" + names + ".");
  }
  for (const auto& d : devices)
    if (lower(d.name).find(sel) != std::string::npos ||
        lower(d.platformName).find(sel) != std::string::npos ||
        lower(d.version).find(sel) != std::string::npos)
      return d;
  throw DeviceError("No OpenCL device matches " + quotedText(selector) +
                    ". Devices found:" + names + ".");
}

std::shared_ptr<ComputeContext> ComputeContext::create(const ContextOptions& options) {
  const DeviceInfo info = chooseDevice(options.deviceSelector, options.selectorSpelling);
  cl::Device device;
  try {
    device = deviceAt(info.platformIndex, info.deviceIndex);
  } catch (const cl::Error& e) {
    rethrowClError(e, "opening " + info.name);
  }
  return createOn(device, info, options);
}

std::shared_ptr<ComputeContext> ComputeContext::createOn(const cl::Device& device,
                                                         const DeviceInfo& info,
                                                         const ContextOptions& options,
                                                         const cl::Context* shared) {
  std::shared_ptr<ComputeContext> ctx(new ComputeContext());
  ctx->info_ = info;
  limitToWhatCanBeHad(ctx->info_);
  ctx->options_ = options;
  try {
    ctx->device_ = device;
    if (shared) {
      ctx->context_ = *shared;
    } else if (options.extraProperties.empty()) {
      ctx->context_ = cl::Context(ctx->device_);
    } else {
      std::vector<cl_context_properties> props = {
          CL_CONTEXT_PLATFORM,
          reinterpret_cast<cl_context_properties>(ctx->device_.getInfo<CL_DEVICE_PLATFORM>())};
      props.insert(props.end(), options.extraProperties.begin(), options.extraProperties.end());
      props.push_back(0);
      ctx->context_ = cl::Context(ctx->device_, props.data());
    }
    ctx->queue_ = cl::CommandQueue(ctx->context_, ctx->device_,
                                   options.profiling ? CL_QUEUE_PROFILING_ENABLE : 0);
  } catch (const cl::Error& e) {
    rethrowClError(e, "creating an OpenCL context on " + ctx->info_.name);
  }
  ctx->kernels_ = std::make_unique<KernelLibrary>(ctx->context_, ctx->device_, options.kernelDir);
  ctx->profiler_ = std::make_unique<Profiler>(options.profiling);
  return ctx;
}

ComputeContext::~ComputeContext() {
  try {
    queue_.finish();
  } catch (...) {
    // Destructors must not throw; a lost device has nothing left to finish.
  }
}

void ComputeContext::checkAllocation(std::uint64_t bytes, const std::string& what) const {
  auto mib = [](std::uint64_t b) { return std::to_string((b + (1 << 20) - 1) >> 20) + " MiB"; };
  if (bytes > info_.maxAllocBytes)
    throw ResourceError(what + " needs " + mib(bytes) + " in one buffer, but " + info_.name +
                        " allows at most " + mib(info_.maxAllocBytes) +
                        " per allocation. Use a smaller image or region.");
  if (bytes > info_.globalMemBytes)
    throw ResourceError(what + " needs " + mib(bytes) + ", more than the " +
                        mib(info_.globalMemBytes) + " of memory on " + info_.name + ".");
}

std::string clErrorName(int code) {
  static const std::pair<int, const char*> kNames[] = {
      {CL_DEVICE_NOT_FOUND, "CL_DEVICE_NOT_FOUND"},
      {CL_DEVICE_NOT_AVAILABLE, "CL_DEVICE_NOT_AVAILABLE"},
      {CL_MEM_OBJECT_ALLOCATION_FAILURE, "CL_MEM_OBJECT_ALLOCATION_FAILURE"},
      {CL_OUT_OF_RESOURCES, "CL_OUT_OF_RESOURCES"},
      {CL_OUT_OF_HOST_MEMORY, "CL_OUT_OF_HOST_MEMORY"},
      {CL_BUILD_PROGRAM_FAILURE, "CL_BUILD_PROGRAM_FAILURE"},
      {CL_INVALID_VALUE, "CL_INVALID_VALUE"},
      {CL_INVALID_BUFFER_SIZE, "CL_INVALID_BUFFER_SIZE"},
      {CL_INVALID_WORK_GROUP_SIZE, "CL_INVALID_WORK_GROUP_SIZE"},
      {CL_INVALID_KERNEL_ARGS, "CL_INVALID_KERNEL_ARGS"},
      {CL_INVALID_KERNEL_NAME, "CL_INVALID_KERNEL_NAME"},
      {CL_INVALID_KERNEL, "CL_INVALID_KERNEL"},
      {CL_INVALID_ARG_INDEX, "CL_INVALID_ARG_INDEX"},
      {CL_INVALID_ARG_VALUE, "CL_INVALID_ARG_VALUE"},
      {CL_INVALID_ARG_SIZE, "CL_INVALID_ARG_SIZE"},
      {CL_INVALID_MEM_OBJECT, "CL_INVALID_MEM_OBJECT"},
      {CL_PLATFORM_NOT_FOUND_KHR, "CL_PLATFORM_NOT_FOUND_KHR"}};
  for (const auto& [value, name] : kNames)
    if (value == code) return name;
  return "OpenCL error " + std::to_string(code);
}

void rethrowClError(const cl::Error& e, const std::string& doing) {
  throw DeviceError("OpenCL failed while " + doing + ": " + e.what() + " returned " +
                    clErrorName(e.err()) + ".");
}

}  // namespace gvflab
