// clCreateBufferWithProperties is OpenCL 3.0 API; the rest of gvflab targets 1.2.
#define CL_TARGET_OPENCL_VERSION 300
#include "external_field_buffer.hpp"

#include <CL/cl_ext.h>

#include <string>
#include <utility>

#include "gl_ext_functions.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "vulkan_exporter.hpp"

namespace gvflab::interop {

namespace {

// A GL name with the glDelete* function that frees it (buffers, memory objects, semaphores:
// all take a count and names).
class GlOwned {
 public:
  GlOwned() = default;
  GlOwned(GLuint id, PFNGLDELETEBUFFERSPROC del) : id_(id), del_(del) {}
  ~GlOwned() {
    if (id_ && del_) del_(1, &id_);
  }
  GlOwned(GlOwned&& o) noexcept : id_(std::exchange(o.id_, 0)), del_(o.del_) {}
  GlOwned& operator=(GlOwned&& o) noexcept {
    std::swap(id_, o.id_);  // o frees what this held
    std::swap(del_, o.del_);
    return *this;
  }
  GLuint id() const { return id_; }

 private:
  GLuint id_ = 0;
  PFNGLDELETEBUFFERSPROC del_ = nullptr;
};

struct ClSemaphoreFns {
  clCreateSemaphoreWithPropertiesKHR_fn create = nullptr;
  clEnqueueWaitSemaphoresKHR_fn wait = nullptr;
  clEnqueueSignalSemaphoresKHR_fn signal = nullptr;
  clReleaseSemaphoreKHR_fn release = nullptr;
};

// An OpenCL semaphore imported from an fd, released with the context's function.
class ClSemaphore {
 public:
  ClSemaphore(const ClSemaphoreFns& fns, cl_semaphore_khr s) : fns_(fns), s_(s) {}
  ~ClSemaphore() {
    if (s_) fns_.release(s_);
  }
  ClSemaphore(const ClSemaphore&) = delete;
  ClSemaphore& operator=(const ClSemaphore&) = delete;
  cl_semaphore_khr get() const { return s_; }

 private:
  ClSemaphoreFns fns_;
  cl_semaphore_khr s_;
};

void glCheck(const GlExtFunctions& f, const char* what) {
  if (GLenum e = f.GetError(); e != GL_NO_ERROR)
    throw DeviceError(std::string("OpenGL: ") + what + " failed (GL error 0x" + [&] {
      char b[16];
      std::snprintf(b, sizeof b, "%04X", e);
      return std::string(b);
    }() + ").");
}

void clCheck(cl_int err, const char* what) {
  if (err != CL_SUCCESS)
    throw DeviceError(std::string("OpenCL: ") + what + " failed (" + clErrorName(err) + ").");
}

template <class F>
F clExtension(cl_platform_id platform, const char* name) {
  auto f = reinterpret_cast<F>(clGetExtensionFunctionAddressForPlatform(platform, name));
  if (!f) throw DeviceError(std::string("OpenCL lacks ") + name + ".");
  return f;
}

}  // namespace

struct ExternalFieldBuffer::Impl {
  GlExtFunctions gl;
  std::unique_ptr<ExportedBuffer> memory;
  std::unique_ptr<ExportedSemaphore> clDone, glDone;
  GlOwned glMemory, glBuffer, glClDone, glGlDone;
  cl::Buffer clBuffer;
  ClSemaphoreFns sem;
  std::unique_ptr<ClSemaphore> clClDone, clGlDone;
  clEnqueueAcquireExternalMemObjectsKHR_fn acquire = nullptr;
  clEnqueueReleaseExternalMemObjectsKHR_fn release = nullptr;
  bool glSignalled = false;      // "GL done" signalled once, so OpenCL may wait for it
  GLsync uploadFence = nullptr;  // fence path: GL's last read of the memory

  explicit Impl(const GlProcLoader& load) : gl(load) {}
  ~Impl() {
    if (uploadFence) gl.DeleteSync(uploadFence);
  }

  GlOwned importGlSemaphore(const ExportedSemaphore& s) {
    GLuint id = 0;
    gl.GenSemaphoresEXT(1, &id);
    GlOwned owned(id, gl.DeleteSemaphoresEXT);
    UniqueFd fd = s.exportFd();
    gl.ImportSemaphoreFdEXT(id, GL_HANDLE_TYPE_OPAQUE_FD_EXT, fd.get());
    glCheck(gl, "importing a semaphore (glImportSemaphoreFdEXT)");
    fd.release();  // GL owns it now (GL_EXT_semaphore_fd)
    return owned;
  }

  std::unique_ptr<ClSemaphore> importClSemaphore(const cl::Context& ctx,
                                                 const ExportedSemaphore& s) {
    UniqueFd fd = s.exportFd();
    const cl_semaphore_properties_khr props[] = {
        CL_SEMAPHORE_TYPE_KHR, CL_SEMAPHORE_TYPE_BINARY_KHR, CL_SEMAPHORE_HANDLE_OPAQUE_FD_KHR,
        static_cast<cl_semaphore_properties_khr>(fd.get()), 0};
    // No device list: the context has one device, and the list's property name changed
    // between header versions (0x2051 then 0x2053; NVIDIA's driver refuses the old one).
    cl_int err = CL_SUCCESS;
    cl_semaphore_khr h = sem.create(ctx(), props, &err);
    clCheck(err, "importing a semaphore (clCreateSemaphoreWithPropertiesKHR)");
    // The OpenCL extension does not say who closes the fd; as in Khronos' own interop
    // tests, it is left to the driver (one descriptor per semaphore, not per frame).
    fd.release();
    return std::make_unique<ClSemaphore>(sem, h);
  }
};

ExternalFieldBuffer::ExternalFieldBuffer(VulkanExporter& exporter, const GlProcLoader& load,
                                         const cl::Context& context, const cl::Device& device,
                                         std::size_t bytes, bool semaphores)
    : impl_(std::make_unique<Impl>(load)), semaphores_(semaphores) {
  Impl& m = *impl_;
  auto& gl = m.gl;
  if (!gl.CreateMemoryObjectsEXT || !gl.ImportMemoryFdEXT || !gl.BufferStorageMemEXT)
    throw DeviceError("OpenGL lacks GL_EXT_memory_object_fd.");
  if (semaphores && (!gl.GenSemaphoresEXT || !gl.ImportSemaphoreFdEXT || !gl.WaitSemaphoreEXT))
    throw DeviceError("OpenGL lacks GL_EXT_semaphore_fd.");
  while (gl.GetError() != GL_NO_ERROR) {
  }

  m.memory = exporter.exportBuffer(bytes);

  // GL: a memory object over the whole allocation, and a buffer object on it.
  GLuint memId = 0;
  gl.CreateMemoryObjectsEXT(1, &memId);
  m.glMemory = GlOwned(memId, gl.DeleteMemoryObjectsEXT);
  if (m.memory->dedicated()) {
    const GLint yes = GL_TRUE;
    gl.MemoryObjectParameterivEXT(memId, GL_DEDICATED_MEMORY_OBJECT_EXT, &yes);
  }
  {
    UniqueFd fd = m.memory->exportFd();
    gl.ImportMemoryFdEXT(memId, m.memory->allocationBytes(), GL_HANDLE_TYPE_OPAQUE_FD_EXT,
                         fd.get());
    glCheck(gl, "importing the shared memory (glImportMemoryFdEXT)");
    fd.release();  // GL owns it now (GL_EXT_memory_object_fd)
  }
  GLuint bufId = 0;
  gl.GenBuffers(1, &bufId);
  m.glBuffer = GlOwned(bufId, gl.DeleteBuffers);
  gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, bufId);
  gl.BufferStorageMemEXT(GL_PIXEL_UNPACK_BUFFER, static_cast<GLsizeiptr>(bytes), memId, 0);
  gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  glCheck(gl, "placing a buffer on the shared memory (glBufferStorageMemEXT)");

  // OpenCL: a buffer on the same memory.
  cl_platform_id platform = device.getInfo<CL_DEVICE_PLATFORM>();
  cl_device_id dev = device();
  {
    UniqueFd fd = m.memory->exportFd();
    const cl_mem_properties props[] = {CL_EXTERNAL_MEMORY_HANDLE_OPAQUE_FD_KHR,
                                       static_cast<cl_mem_properties>(fd.get()),
                                       CL_DEVICE_HANDLE_LIST_KHR,
                                       reinterpret_cast<cl_mem_properties>(dev),
                                       CL_DEVICE_HANDLE_LIST_END_KHR,
                                       0};
    cl_int err = CL_SUCCESS;
    cl_mem mem =
        clCreateBufferWithProperties(context(), props, CL_MEM_READ_WRITE, bytes, nullptr, &err);
    clCheck(err, "importing the shared memory (clCreateBufferWithProperties)");
    m.clBuffer = cl::Buffer(mem);  // takes the reference
    fd.release();                  // see importClSemaphore
  }
  // Acquire/release are optional in the extension; call them where the driver has them.
  m.acquire = reinterpret_cast<clEnqueueAcquireExternalMemObjectsKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueAcquireExternalMemObjectsKHR"));
  m.release = reinterpret_cast<clEnqueueReleaseExternalMemObjectsKHR_fn>(
      clGetExtensionFunctionAddressForPlatform(platform, "clEnqueueReleaseExternalMemObjectsKHR"));

  if (semaphores) {
    m.sem.create = clExtension<clCreateSemaphoreWithPropertiesKHR_fn>(
        platform, "clCreateSemaphoreWithPropertiesKHR");
    m.sem.wait = clExtension<clEnqueueWaitSemaphoresKHR_fn>(platform, "clEnqueueWaitSemaphoresKHR");
    m.sem.signal =
        clExtension<clEnqueueSignalSemaphoresKHR_fn>(platform, "clEnqueueSignalSemaphoresKHR");
    m.sem.release = clExtension<clReleaseSemaphoreKHR_fn>(platform, "clReleaseSemaphoreKHR");
    m.clDone = exporter.exportSemaphore();
    m.glDone = exporter.exportSemaphore();
    m.glClDone = m.importGlSemaphore(*m.clDone);
    m.glGlDone = m.importGlSemaphore(*m.glDone);
    m.clClDone = m.importClSemaphore(context, *m.clDone);
    m.clGlDone = m.importClSemaphore(context, *m.glDone);
  }
}

ExternalFieldBuffer::~ExternalFieldBuffer() = default;

void ExternalFieldBuffer::fill(cl::CommandQueue& queue, const cl::Buffer& field,
                               unsigned int texture, int width, int height) {
  Impl& m = *impl_;
  auto& gl = m.gl;
  const std::size_t bytes = static_cast<std::size_t>(width) * height * 2 * sizeof(float);
  if (bytes > m.memory->bytes()) throw DeviceError("The field is larger than the shared memory.");
  cl_command_queue q = queue();
  cl_mem shared = m.clBuffer();

  // OpenCL: wait until GL has read the memory, then copy the field into it.
  if (semaphores_) {
    if (m.glSignalled) {
      cl_semaphore_khr s = m.clGlDone->get();
      clCheck(m.sem.wait(q, 1, &s, nullptr, 0, nullptr, nullptr), "waiting for GL (semaphore)");
    }
  } else if (m.uploadFence) {
    gl.ClientWaitSync(m.uploadFence, GL_SYNC_FLUSH_COMMANDS_BIT, GLuint64(1000000000));
    gl.DeleteSync(m.uploadFence);
    m.uploadFence = nullptr;
  }
  if (m.acquire)
    clCheck(m.acquire(q, 1, &shared, 0, nullptr, nullptr), "acquiring the shared memory");
  cl_event copied = nullptr;
  clCheck(clEnqueueCopyBuffer(q, field(), shared, 0, 0, bytes, 0, nullptr, &copied),
          "copying the field into the shared memory");
  cl::Event copyEvent(copied);  // owns it
  if (m.release)
    clCheck(m.release(q, 1, &shared, 0, nullptr, nullptr), "releasing the shared memory");
  GLuint buffer = m.glBuffer.id();
  if (semaphores_) {
    cl_semaphore_khr s = m.clClDone->get();
    clCheck(m.sem.signal(q, 1, &s, nullptr, 0, nullptr, nullptr), "signalling GL (semaphore)");
    clCheck(clFlush(q), "submitting the copy");  // GL's wait needs the signal submitted
    gl.WaitSemaphoreEXT(m.glClDone.id(), 1, &buffer, 0, nullptr, nullptr);
  } else {
    copyEvent.wait();
  }

  // GL: the memory, bound as the pixel-unpack buffer, into the texture (a copy on the GPU).
  gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, buffer);
  gl.BindTexture(GL_TEXTURE_2D, texture);
  gl.PixelStorei(GL_UNPACK_ALIGNMENT, 4);
  gl.TexSubImage2D(GL_TEXTURE_2D, 0, 0, 0, width, height, GL_RG, GL_FLOAT, nullptr);
  gl.BindTexture(GL_TEXTURE_2D, 0);
  gl.BindBuffer(GL_PIXEL_UNPACK_BUFFER, 0);
  if (semaphores_) {
    gl.SignalSemaphoreEXT(m.glGlDone.id(), 1, &buffer, 0, nullptr, nullptr);
    gl.Flush();  // OpenCL's wait needs the signal submitted
    m.glSignalled = true;
  } else {
    m.uploadFence = gl.FenceSync(GL_SYNC_GPU_COMMANDS_COMPLETE, 0);
  }
  glCheck(gl, "uploading the shared memory into the texture");
}

}  // namespace gvflab::interop
