// The external-memory CL->GL path on a real GPU (label gpu): headless GL through EGL, the
// OpenCL device, memory allocated by Vulkan and imported by both. Each frame changes μ and
// runs Euler iterations, the field goes to a GL texture through the shared memory, and the
// texture read back through GL must equal the field read through OpenCL bit for bit: 2D
// fields of two sizes and the three slice planes of a 3D field, with semaphores and with the
// fence fallback; and OpenCL must not overwrite the memory while a busy GL has yet to copy it
// out. Exits with 77 (CTest: skipped) and the reason where no device offers the
// extensions (PoCL, llvmpipe).
#define DOCTEST_CONFIG_IMPLEMENT
#include <CL/cl_ext.h>
#include <doctest/doctest.h>

#include <cstddef>
#include <cstring>
#include <iostream>
#include <limits>
#include <memory>
#include <optional>

#include "egl_headless.hpp"
#include "external_field_buffer.hpp"
#include "external_support.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_slice.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/phantoms.hpp"
#include "volume_support.hpp"
#include "vulkan_exporter.hpp"

using namespace gvflab;
using namespace gvflab::interop;

namespace {

constexpr unsigned kTexture2D = 0x0DE1, kRG = 0x8227, kRG32F = 0x8230, kFloat = 0x1406,
                   kNearest = 0x2600, kMinFilter = 0x2801, kPackAlignment = 0x0D05,
                   kCopyReadBuffer = 0x8F36, kCopyWriteBuffer = 0x8F37, kStaticCopy = 0x88E6;

// The few GL calls the test itself makes: a texture and its read-back, and buffer copies to
// keep GL's queue busy.
struct TestGl {
  void (*GenTextures)(int, unsigned*) = nullptr;
  void (*DeleteTextures)(int, const unsigned*) = nullptr;
  void (*BindTexture)(unsigned, unsigned) = nullptr;
  void (*TexParameteri)(unsigned, unsigned, int) = nullptr;
  void (*TexImage2D)(unsigned, int, int, int, int, int, unsigned, unsigned, const void*) = nullptr;
  void (*GetTexImage)(unsigned, int, unsigned, unsigned, void*) = nullptr;
  void (*PixelStorei)(unsigned, int) = nullptr;
  void (*GenBuffers)(int, unsigned*) = nullptr;
  void (*DeleteBuffers)(int, const unsigned*) = nullptr;
  void (*BindBuffer)(unsigned, unsigned) = nullptr;
  void (*BufferData)(unsigned, std::ptrdiff_t, const void*, unsigned) = nullptr;
  void (*CopyBufferSubData)(unsigned, unsigned, std::ptrdiff_t, std::ptrdiff_t,
                            std::ptrdiff_t) = nullptr;
  void (*Flush)() = nullptr;
  template <class F>
  static void get(F& f, const GlProcLoader& load, const char* name) {
    f = reinterpret_cast<F>(load(name));
    if (!f) throw test::Skip(std::string("OpenGL has no ") + name);
  }
  explicit TestGl(const GlProcLoader& l) {
    get(GenTextures, l, "glGenTextures");
    get(DeleteTextures, l, "glDeleteTextures");
    get(BindTexture, l, "glBindTexture");
    get(TexParameteri, l, "glTexParameteri");
    get(TexImage2D, l, "glTexImage2D");
    get(GetTexImage, l, "glGetTexImage");
    get(PixelStorei, l, "glPixelStorei");
    get(GenBuffers, l, "glGenBuffers");
    get(DeleteBuffers, l, "glDeleteBuffers");
    get(BindBuffer, l, "glBindBuffer");
    get(BufferData, l, "glBufferData");
    get(CopyBufferSubData, l, "glCopyBufferSubData");
    get(Flush, l, "glFlush");
  }
};

struct Setup {
  std::shared_ptr<ComputeContext> ctx;
  bool clSemaphores = false, glSemaphores = false;
  std::unique_ptr<test::EglHeadless> egl;
  GlProcLoader load;
  std::unique_ptr<TestGl> gl;
  std::unique_ptr<VulkanExporter> vulkan;
};
Setup* setup = nullptr;

std::unique_ptr<Setup> makeSetup() {
  auto s = std::make_unique<Setup>();
  std::optional<DeviceInfo> chosen;
  std::string seen;
  for (const auto& d : listDevices()) {
    seen += (seen.empty() ? "" : ", ") + d.name;
    if (!chosen && d.hasExtension("cl_khr_external_memory") &&
        d.hasExtension("cl_khr_external_memory_opaque_fd"))
      chosen = d;
  }
  if (!chosen)
    throw test::Skip("no OpenCL device offers cl_khr_external_memory_opaque_fd (devices: " + seen +
                     ")");
  if (!vulkanBuiltIn()) throw test::Skip("built without Vulkan (libvulkan-dev)");
  ContextOptions co;
  co.deviceSelector = chosen->name;
  s->ctx = ComputeContext::create(co);
  s->clSemaphores = chosen->hasExtension("cl_khr_external_semaphore") &&
                    chosen->hasExtension("cl_khr_external_semaphore_opaque_fd");

  s->egl = std::make_unique<test::EglHeadless>([&](const GlProcLoader& load) {
    GlExternalSupport g = queryGlExternalSupport(load);
    s->glSemaphores = g.semaphoreFd;
    return g.memoryObjectFd;
  });
  s->load = [egl = s->egl.get()](const char* name) { return egl->proc(name); };
  s->gl = std::make_unique<TestGl>(s->load);

  std::optional<DeviceUuid> uuid;
  if (chosen->hasExtension("cl_khr_device_uuid")) {
    DeviceUuid u{};
    if (clGetDeviceInfo(s->ctx->device()(), CL_DEVICE_UUID_KHR, u.size(), u.data(), nullptr) ==
        CL_SUCCESS)
      uuid = u;
  }
  try {
    s->vulkan = std::make_unique<VulkanExporter>(uuid);
  } catch (const Error& e) {
    throw test::Skip(std::string("Vulkan: ") + e.what());
  }
  std::cout << "OpenCL: " << chosen->name << (s->clSemaphores ? " (semaphores)" : "")
            << "; Vulkan: " << s->vulkan->deviceName()
            << "; GL semaphores: " << (s->glSemaphores ? "yes" : "no") << "\n";
  return s;
}

// An RG32F texture filled with NaN, so a texture OpenCL never reached cannot match.
struct PoisonedTexture {
  unsigned id = 0;
  PoisonedTexture(int w, int h) {
    auto& gl = *setup->gl;
    std::vector<float> nan(static_cast<std::size_t>(w) * h * 2,
                           std::numeric_limits<float>::quiet_NaN());
    gl.GenTextures(1, &id);
    gl.BindTexture(kTexture2D, id);
    gl.TexParameteri(kTexture2D, kMinFilter, static_cast<int>(kNearest));
    gl.TexImage2D(kTexture2D, 0, static_cast<int>(kRG32F), w, h, 0, kRG, kFloat, nan.data());
    gl.BindTexture(kTexture2D, 0);
  }
  ~PoisonedTexture() { setup->gl->DeleteTextures(1, &id); }
  std::vector<float> read(int w, int h) const {
    auto& gl = *setup->gl;
    std::vector<float> out(static_cast<std::size_t>(w) * h * 2);
    gl.BindTexture(kTexture2D, id);
    gl.PixelStorei(kPackAlignment, 4);
    gl.GetTexImage(kTexture2D, 0, kRG, kFloat, out.data());
    gl.BindTexture(kTexture2D, 0);
    return out;
  }
};

// Tens of milliseconds of work queued on GL (copies between two large buffers on the GPU), so
// GL's next command runs long after OpenCL could have moved on.
struct GlBusy {
  static constexpr std::ptrdiff_t kBytes = std::ptrdiff_t(256) << 20;
  unsigned buffers[2] = {0, 0};
  GlBusy() {
    auto& gl = *setup->gl;
    gl.GenBuffers(2, buffers);
    for (unsigned b : buffers) {
      gl.BindBuffer(kCopyWriteBuffer, b);
      gl.BufferData(kCopyWriteBuffer, kBytes, nullptr, kStaticCopy);
    }
    gl.BindBuffer(kCopyWriteBuffer, 0);
  }
  ~GlBusy() { setup->gl->DeleteBuffers(2, buffers); }
  void queue(int copies) {
    auto& gl = *setup->gl;
    gl.BindBuffer(kCopyReadBuffer, buffers[0]);
    gl.BindBuffer(kCopyWriteBuffer, buffers[1]);
    for (int i = 0; i < copies; ++i)
      gl.CopyBufferSubData(kCopyReadBuffer, kCopyWriteBuffer, 0, 0, kBytes);
    gl.BindBuffer(kCopyReadBuffer, 0);
    gl.BindBuffer(kCopyWriteBuffer, 0);
    gl.Flush();
  }
};

std::vector<float> readField(const cl::Buffer& b, int w, int h) {
  std::vector<float> out(static_cast<std::size_t>(w) * h * 2);
  setup->ctx->queue().enqueueReadBuffer(b, CL_TRUE, 0, out.size() * sizeof(float), out.data());
  return out;
}

bool sameBits(const std::vector<float>& a, const std::vector<float>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(float)) == 0;
}

std::vector<bool> syncModes() {
  std::vector<bool> modes{false};
  if (setup->clSemaphores && setup->glSemaphores) modes.insert(modes.begin(), true);
  return modes;
}

// busy: extra iterations queued before each copy, so OpenCL is still computing for
// milliseconds when GL is asked to upload: a GL side that does not wait for the copy (semaphore
// or fence) reads the previous frame and the comparison fails (checked on the H200 by removing
// each wait; without them the race window was too short to show).
void check2D(const Image2D& image, bool semaphores, int busy = 0) {
  auto& ctx = *setup->ctx;
  const int w = image.width, h = image.height;
  EulerSolver solver(setup->ctx, buildGvfInput(ctx, image, 1.0), 0.08);
  ExternalFieldBuffer shared(*setup->vulkan, setup->load, ctx.context(), ctx.device(),
                             static_cast<std::size_t>(w) * h * 2 * sizeof(float), semaphores);
  PoisonedTexture texture(w, h);
  std::vector<float> previous;
  for (int frame = 0; frame < 8; ++frame) {
    solver.setMu(0.04 + 0.02 * (frame % 5));
    solver.step(1 + 3 * frame + busy);
    shared.fill(ctx.queue(), solver.field(), texture.id, w, h);
    std::vector<float> viaGl = texture.read(w, h);
    std::vector<float> viaCl = readField(solver.field(), w, h);
    CAPTURE(frame);
    CHECK(sameBits(viaGl, viaCl));
    CHECK_FALSE(sameBits(viaCl, previous));  // the field moved, so a stale texture would show
    previous = viaCl;
  }
}

}  // namespace

TEST_CASE("2D fields reach the GL texture through shared memory bit for bit, frame by frame") {
  for (bool semaphores : syncModes()) {
    CAPTURE(semaphores);
    check2D(test::randomImage(301, 217, 7), semaphores);
    check2D(makePhantom("u", 2048), semaphores,
            400);  // large and busy: a copy still running would show
  }
}

// The other direction: OpenCL must not write the shared memory again before GL has copied the
// last frame out of it. GL is kept busy before its upload of frame N; frame N+1 is filled at
// once (texture B); texture A must still hold frame N. An OpenCL side that does not wait for
// GL (semaphore or fence) overwrites the memory first and A shows frame N+1.
TEST_CASE("OpenCL waits for GL's upload before it writes the shared memory again") {
  for (bool semaphores : syncModes()) {
    CAPTURE(semaphores);
    auto& ctx = *setup->ctx;
    const Image2D image = makePhantom("u", 2048);
    const int w = image.width, h = image.height;
    EulerSolver solver(setup->ctx, buildGvfInput(ctx, image, 1.0), 0.08);
    ExternalFieldBuffer shared(*setup->vulkan, setup->load, ctx.context(), ctx.device(),
                               static_cast<std::size_t>(w) * h * 2 * sizeof(float), semaphores);
    PoisonedTexture a(w, h), b(w, h);
    GlBusy busy;
    for (int round = 0; round < 3; ++round) {
      solver.step(3);
      const std::vector<float> frameN = readField(solver.field(), w, h);
      busy.queue(64);
      shared.fill(ctx.queue(), solver.field(), a.id, w, h);
      solver.step(1);
      const std::vector<float> frameN1 = readField(solver.field(), w, h);
      shared.fill(ctx.queue(), solver.field(), b.id, w, h);
      CAPTURE(round);
      REQUIRE_FALSE(sameBits(frameN, frameN1));
      CHECK(sameBits(a.read(w, h), frameN));
      CHECK(sameBits(b.read(w, h), frameN1));
    }
  }
}

TEST_CASE("3D slices reach the GL texture through shared memory bit for bit, frame by frame") {
  auto& ctx = *setup->ctx;
  const int w = 67, h = 53, d = 41;
  for (bool semaphores : syncModes()) {
    CAPTURE(semaphores);
    EulerSolver solver(setup->ctx, buildGvfInput(ctx, test::randomVolumeOf(w, h, d, 3), 1.0), 0.05);
    FieldSlicer slicer(setup->ctx);
    struct Plane {
      SliceAxis axis;
      PlaneSize size;
      cl::Buffer buffer;
      std::unique_ptr<ExternalFieldBuffer> shared;
      std::unique_ptr<PoisonedTexture> texture;
    };
    std::vector<Plane> planes;
    for (SliceAxis axis : {SliceAxis::Axial, SliceAxis::Coronal, SliceAxis::Sagittal}) {
      Plane p{axis, planeSize(w, h, d, axis), {}, nullptr, nullptr};
      const std::size_t bytes = static_cast<std::size_t>(p.size.width) * p.size.height * 8;
      p.buffer = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, bytes);
      p.shared = std::make_unique<ExternalFieldBuffer>(*setup->vulkan, setup->load, ctx.context(),
                                                       ctx.device(), bytes, semaphores);
      p.texture = std::make_unique<PoisonedTexture>(p.size.width, p.size.height);
      planes.push_back(std::move(p));
    }
    for (int frame = 0; frame < 5; ++frame) {
      solver.setMu(0.03 + 0.01 * frame);
      solver.step(2 + frame);
      for (auto& p : planes) {
        const int index = (frame * 7) % sliceCount(w, h, d, p.axis);
        slicer.sliceField(solver.field(), w, h, d, p.axis, index, p.buffer);
        p.shared->fill(ctx.queue(), p.buffer, p.texture->id, p.size.width, p.size.height);
        CAPTURE(frame);
        CAPTURE(sliceAxisName(p.axis));
        CHECK(sameBits(p.texture->read(p.size.width, p.size.height),
                       readField(p.buffer, p.size.width, p.size.height)));
      }
    }
  }
}

int main(int argc, char** argv) {
  std::unique_ptr<Setup> s;
  try {
    s = makeSetup();
  } catch (const test::Skip& e) {
    std::cout << "SKIPPED: " << e.what() << "\n";
    return 77;
  }
  setup = s.get();
  doctest::Context context(argc, argv);
  int code = context.run();
  setup = nullptr;
  return code;
}
