#include "vulkan_exporter.hpp"

#include <cstring>
#include <vector>

#include "external_support.hpp"
#include "gvflab/error.hpp"

#ifdef GVFLAB_HAS_VULKAN
#include <vulkan/vulkan.h>
#endif

namespace gvflab::interop {

#ifndef GVFLAB_HAS_VULKAN

bool vulkanBuiltIn() { return false; }
struct VulkanDevice {};
ExportedBuffer::~ExportedBuffer() = default;
ExportedSemaphore::~ExportedSemaphore() = default;
UniqueFd ExportedBuffer::exportFd() const { return {}; }
UniqueFd ExportedSemaphore::exportFd() const { return {}; }
VulkanExporter::VulkanExporter(const std::optional<DeviceUuid>&) {
  throw DeviceError(
      "This gvflab was built without Vulkan (libvulkan-dev), which allocates the "
      "memory OpenGL and OpenCL share.");
}
VulkanExporter::~VulkanExporter() = default;
const std::string& VulkanExporter::deviceName() const {
  static const std::string none;
  return none;
}
std::unique_ptr<ExportedBuffer> VulkanExporter::exportBuffer(std::size_t) { return nullptr; }
std::unique_ptr<ExportedSemaphore> VulkanExporter::exportSemaphore() { return nullptr; }

#else

bool vulkanBuiltIn() { return true; }

struct VulkanDevice {
  VkInstance instance = VK_NULL_HANDLE;
  VkPhysicalDevice physical = VK_NULL_HANDLE;
  VkDevice device = VK_NULL_HANDLE;
  std::string name;
  PFN_vkGetMemoryFdKHR getMemoryFd = nullptr;
  PFN_vkGetSemaphoreFdKHR getSemaphoreFd = nullptr;
  ~VulkanDevice() {
    if (device) vkDestroyDevice(device, nullptr);
    if (instance) vkDestroyInstance(instance, nullptr);
  }
};

namespace {
void check(VkResult r, const char* what) {
  if (r != VK_SUCCESS)
    throw DeviceError(std::string("Vulkan: ") + what + " failed (VkResult " + std::to_string(r) +
                      ").");
}

bool hasDeviceExtensions(VkPhysicalDevice pd) {
  uint32_t n = 0;
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> ext(n);
  vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, ext.data());
  int found = 0;
  for (const auto& e : ext)
    found += !std::strcmp(e.extensionName, VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME) +
             !std::strcmp(e.extensionName, VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME);
  return found == 2;
}
}  // namespace

VulkanExporter::VulkanExporter(const std::optional<DeviceUuid>& uuid)
    : device_(std::make_shared<VulkanDevice>()) {
  auto& d = *device_;
  VkApplicationInfo app{};
  app.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  app.pApplicationName = "gvflab";
  app.apiVersion = VK_API_VERSION_1_1;  // external memory and semaphores are core in 1.1
  VkInstanceCreateInfo ici{};
  ici.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  ici.pApplicationInfo = &app;
  check(vkCreateInstance(&ici, nullptr, &d.instance), "creating an instance");

  uint32_t n = 0;
  vkEnumeratePhysicalDevices(d.instance, &n, nullptr);
  std::vector<VkPhysicalDevice> devices(n);
  vkEnumeratePhysicalDevices(d.instance, &n, devices.data());
  for (VkPhysicalDevice pd : devices) {
    VkPhysicalDeviceIDProperties id{};
    id.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
    VkPhysicalDeviceProperties2 props{};
    props.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
    props.pNext = &id;
    vkGetPhysicalDeviceProperties2(pd, &props);
    if (uuid && std::memcmp(id.deviceUUID, uuid->data(), VK_UUID_SIZE) != 0) continue;
    if (!hasDeviceExtensions(pd)) continue;
    d.physical = pd;
    d.name = props.properties.deviceName;
    break;
  }
  if (!d.physical)
    throw DeviceError(uuid ? "No Vulkan device is the OpenCL device with external memory and "
                             "semaphore fds."
                           : "No Vulkan device offers external memory and semaphore fds.");

  // Any queue family will do: nothing is submitted, the device only allocates and exports.
  float priority = 1.0f;
  VkDeviceQueueCreateInfo qci{};
  qci.sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO;
  qci.queueFamilyIndex = 0;
  qci.queueCount = 1;
  qci.pQueuePriorities = &priority;
  const char* extensions[] = {VK_KHR_EXTERNAL_MEMORY_FD_EXTENSION_NAME,
                              VK_KHR_EXTERNAL_SEMAPHORE_FD_EXTENSION_NAME};
  VkDeviceCreateInfo dci{};
  dci.sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO;
  dci.queueCreateInfoCount = 1;
  dci.pQueueCreateInfos = &qci;
  dci.enabledExtensionCount = 2;
  dci.ppEnabledExtensionNames = extensions;
  check(vkCreateDevice(d.physical, &dci, nullptr, &d.device), "creating a device");
  d.getMemoryFd =
      reinterpret_cast<PFN_vkGetMemoryFdKHR>(vkGetDeviceProcAddr(d.device, "vkGetMemoryFdKHR"));
  d.getSemaphoreFd = reinterpret_cast<PFN_vkGetSemaphoreFdKHR>(
      vkGetDeviceProcAddr(d.device, "vkGetSemaphoreFdKHR"));
  if (!d.getMemoryFd || !d.getSemaphoreFd)
    throw DeviceError("Vulkan: the device lists the fd extensions but not their functions.");
}

VulkanExporter::~VulkanExporter() = default;

const std::string& VulkanExporter::deviceName() const { return device_->name; }

std::unique_ptr<ExportedBuffer> VulkanExporter::exportBuffer(std::size_t bytes) {
  auto& d = *device_;
  std::unique_ptr<ExportedBuffer> out(new ExportedBuffer);
  out->device_ = device_;
  out->bytes_ = bytes;

  VkExternalMemoryBufferCreateInfo ext{};
  ext.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
  ext.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkBufferCreateInfo bci{};
  bci.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bci.pNext = &ext;
  bci.size = bytes;
  bci.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  bci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  check(vkCreateBuffer(d.device, &bci, nullptr, &buffer), "creating an exportable buffer");
  out->buffer_ = reinterpret_cast<std::uint64_t>(buffer);

  VkMemoryDedicatedRequirements dedicated{};
  dedicated.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_REQUIREMENTS;
  VkMemoryRequirements2 req{};
  req.sType = VK_STRUCTURE_TYPE_MEMORY_REQUIREMENTS_2;
  req.pNext = &dedicated;
  VkBufferMemoryRequirementsInfo2 reqInfo{};
  reqInfo.sType = VK_STRUCTURE_TYPE_BUFFER_MEMORY_REQUIREMENTS_INFO_2;
  reqInfo.buffer = buffer;
  vkGetBufferMemoryRequirements2(d.device, &reqInfo, &req);
  out->dedicated_ = dedicated.requiresDedicatedAllocation == VK_TRUE;

  VkPhysicalDeviceMemoryProperties mem;
  vkGetPhysicalDeviceMemoryProperties(d.physical, &mem);
  uint32_t type = UINT32_MAX;
  for (uint32_t i = 0; i < mem.memoryTypeCount && type == UINT32_MAX; ++i)
    if ((req.memoryRequirements.memoryTypeBits & (1u << i)) &&
        (mem.memoryTypes[i].propertyFlags & VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT))
      type = i;
  if (type == UINT32_MAX) throw DeviceError("Vulkan: no device-local memory type for the buffer.");

  VkMemoryDedicatedAllocateInfo dedicatedInfo{};
  dedicatedInfo.sType = VK_STRUCTURE_TYPE_MEMORY_DEDICATED_ALLOCATE_INFO;
  dedicatedInfo.buffer = buffer;
  VkExportMemoryAllocateInfo exportInfo{};
  exportInfo.sType = VK_STRUCTURE_TYPE_EXPORT_MEMORY_ALLOCATE_INFO;
  exportInfo.handleTypes = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  exportInfo.pNext = out->dedicated_ ? &dedicatedInfo : nullptr;
  VkMemoryAllocateInfo mai{};
  mai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  mai.pNext = &exportInfo;
  mai.allocationSize = req.memoryRequirements.size;
  mai.memoryTypeIndex = type;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  check(vkAllocateMemory(d.device, &mai, nullptr, &memory), "allocating exportable memory");
  out->memory_ = reinterpret_cast<std::uint64_t>(memory);
  out->allocationBytes_ = req.memoryRequirements.size;
  check(vkBindBufferMemory(d.device, buffer, memory, 0), "binding the buffer's memory");
  return out;
}

ExportedBuffer::~ExportedBuffer() {
  if (!device_) return;
  if (buffer_) vkDestroyBuffer(device_->device, reinterpret_cast<VkBuffer>(buffer_), nullptr);
  if (memory_) vkFreeMemory(device_->device, reinterpret_cast<VkDeviceMemory>(memory_), nullptr);
}

UniqueFd ExportedBuffer::exportFd() const {
  VkMemoryGetFdInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_MEMORY_GET_FD_INFO_KHR;
  info.memory = reinterpret_cast<VkDeviceMemory>(memory_);
  info.handleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(device_->getMemoryFd(device_->device, &info, &fd), "exporting the memory as an fd");
  return UniqueFd(fd);
}

std::unique_ptr<ExportedSemaphore> VulkanExporter::exportSemaphore() {
  std::unique_ptr<ExportedSemaphore> out(new ExportedSemaphore);
  out->device_ = device_;
  VkExportSemaphoreCreateInfo exportInfo{};
  exportInfo.sType = VK_STRUCTURE_TYPE_EXPORT_SEMAPHORE_CREATE_INFO;
  exportInfo.handleTypes = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  VkSemaphoreCreateInfo sci{};
  sci.sType = VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO;
  sci.pNext = &exportInfo;
  VkSemaphore s = VK_NULL_HANDLE;
  check(vkCreateSemaphore(device_->device, &sci, nullptr, &s), "creating an exportable semaphore");
  out->semaphore_ = reinterpret_cast<std::uint64_t>(s);
  return out;
}

ExportedSemaphore::~ExportedSemaphore() {
  if (device_ && semaphore_)
    vkDestroySemaphore(device_->device, reinterpret_cast<VkSemaphore>(semaphore_), nullptr);
}

UniqueFd ExportedSemaphore::exportFd() const {
  VkSemaphoreGetFdInfoKHR info{};
  info.sType = VK_STRUCTURE_TYPE_SEMAPHORE_GET_FD_INFO_KHR;
  info.semaphore = reinterpret_cast<VkSemaphore>(semaphore_);
  info.handleType = VK_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD_BIT;
  int fd = -1;
  check(device_->getSemaphoreFd(device_->device, &info, &fd), "exporting a semaphore as an fd");
  return UniqueFd(fd);
}

#endif

}  // namespace gvflab::interop
