// Device choice, kernel loading from a directory, build errors and the profiler.
#include <doctest/doctest.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/pinned_host.hpp"
#include "gvflab/profiler.hpp"
#include "test_support.hpp"

using namespace gvflab;

TEST_CASE("devices are listed and chosen by kind or name") {
  auto devices = listDevices();
  REQUIRE(!devices.empty());
  for (const auto& d : devices) CHECK(!d.name.empty());
  DeviceInfo any = chooseDevice("");
  CHECK(!any.name.empty());
  DeviceInfo byName = chooseDevice(devices.front().name.substr(0, 6));
  CHECK(byName.name == devices.front().name);
  CHECK_THROWS_WITH_AS(chooseDevice("no-such-device-xyz"), doctest::Contains("Devices found"),
                       DeviceError);
}

// Issue 41: identical GPUs share a name, so a Dask worker pins its device by number, "P.D" as
// --list-devices prints it; a number that names no device is refused, never another device.
TEST_CASE("a device is chosen by its platform.device number") {
  const auto devices = listDevices();
  REQUIRE(!devices.empty());
  for (const auto& d : devices) {
    const std::string number =
        std::to_string(d.platformIndex) + "." + std::to_string(d.deviceIndex);
    CAPTURE(number);
    const DeviceInfo chosen = chooseDevice(number);
    CHECK(chosen.platformIndex == d.platformIndex);
    CHECK(chosen.deviceIndex == d.deviceIndex);
  }
  CHECK_THROWS_WITH_AS(chooseDevice("0.99"), doctest::Contains("No OpenCL device has the number"),
                       DeviceError);
}

// Issue 18: --device gpu on a machine without a GPU used the CPU without a word. A kind named
// is that kind or a refusal listing what was found; only no selector takes any device.
TEST_CASE("a device kind asked for is never quietly another kind") {
  const auto devices = listDevices();
  REQUIRE(!devices.empty());
  for (const char* kind : {"gpu", "cpu"}) {
    const bool wantGpu = std::string(kind) == "gpu";
    const bool have = std::any_of(devices.begin(), devices.end(),
                                  [&](const DeviceInfo& d) { return d.isGpu == wantGpu; });
    CAPTURE(kind);
    if (have) {
      CHECK(chooseDevice(kind).isGpu == wantGpu);
    } else {
      try {
        chooseDevice(kind);
        FAIL("chose a device of the other kind");
      } catch (const DeviceError& e) {
        const std::string what = e.what();
        CHECK(what.find(std::string("No OpenCL ") + (wantGpu ? "GPU" : "CPU")) !=
              std::string::npos);
        CHECK(what.find(devices.front().name) != std::string::npos);  // lists what was found
        CHECK(what.find('\n') == std::string::npos);                  // one line
      }
    }
  }
}

TEST_CASE("embedded kernels build, and every kernel file is embedded") {
  auto ctx = test::sharedContext();
  auto names = ctx->kernels().fileNames();
  for (const char* f : {"edge_map.cl", "reduce.cl", "gvf_euler2d.cl", "gvf_error2d.cl"})
    CHECK(std::find(names.begin(), names.end(), f) != names.end());
  CHECK_NOTHROW(ctx->kernels().program("gvf_euler2d.cl"));
  CHECK_THROWS_AS(ctx->kernels().program("nope.cl"), InputError);
  CHECK_THROWS_AS(ctx->kernels().kernel("reduce.cl", "no_such_kernel"), KernelBuildError);
}

TEST_CASE("kernel directory: a build error carries file and log; reload keeps the last good") {
  auto dir = test::scratchDir("kernel_dir");
  std::filesystem::copy_file(std::filesystem::path(GVFLAB_SOURCE_DIR) / "kernels" / "reduce.cl",
                             dir / "reduce.cl");
  auto ctx = ComputeContext::create({"", dir});
  CHECK(ctx->kernels().directory() == dir);
  cl::Program good = ctx->kernels().program("reduce.cl");
  std::ofstream(dir / "reduce.cl") << "__kernel void reduce_sum(__global float* x) { x[0] = y; }\n";
  try {
    ctx->kernels().reload();
    FAIL("a broken kernel must not build");
  } catch (const KernelBuildError& e) {
    CHECK(e.file() == "reduce.cl");
    CHECK(!e.log().empty());
    CHECK(std::string(e.what()).find("reduce.cl") != std::string::npos);
  }
  CHECK(ctx->kernels().program("reduce.cl")() == good());  // the old program is still in use
  std::ofstream(dir / "broken.cl") << "this is not OpenCL C";
  CHECK_THROWS_AS(ctx->kernels().program("broken.cl"), KernelBuildError);
  CHECK_THROWS_AS(ComputeContext::create({"", dir / "missing"}), InputError);
}

TEST_CASE("GVFLAB_CL_DUMP_DIR writes each program built whole, or warns and builds on") {
  namespace fs = std::filesystem;
  const fs::path dir = test::scratchDir("cl_dump");
  struct Unset {
    ~Unset() { unsetenv("GVFLAB_CL_DUMP_DIR"); }
  } unset;
  setenv("GVFLAB_CL_DUMP_DIR", dir.c_str(), 1);
  auto ctx = ComputeContext::create({});
  cl::Program program = ctx->kernels().program("reduce.cl", "-DDUMP_TEST=1");
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(dir)) files.push_back(e.path());
  REQUIRE(files.size() == 1);  // the file itself: no temporary left beside it
  const std::string name = files[0].filename().string();
  CHECK(name.rfind("reduce.cl.", 0) == 0);
  CHECK(name.size() > 4);
  CHECK(name.substr(name.size() - 4) == ".bin");
  std::ifstream in(files[0], std::ios::binary);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t eol = text.find('\n');
  REQUIRE(eol != std::string::npos);
  CHECK(text.rfind("// ", 0) == 0);
  CHECK(text.substr(0, eol).find("-DDUMP_TEST=1") != std::string::npos);
  // The device's binary after the header line: whole, less any NUL bytes that end a text one.
  const auto bin = program.getInfo<CL_PROGRAM_BINARIES>().front();
  std::string expect(bin.begin(), bin.end());
  const std::size_t last = expect.find_last_not_of('\0');
  if (last != std::string::npos && expect.find('\0') > last) expect.resize(last + 1);
  CHECK(text.substr(eol + 1) == expect);
  // A folder that cannot be written is a warning: the program still builds.
  setenv("GVFLAB_CL_DUMP_DIR", (dir / "missing").c_str(), 1);
  CHECK_NOTHROW(ctx->kernels().program("reduce.cl", "-DDUMP_TEST=2"));
  CHECK(!fs::exists(dir / "missing"));
}

TEST_CASE("profiler reports last, mean and p95 per kernel per frame") {
  auto ctx = test::sharedContext();
  Profiler prof;
  cl::Buffer buf(ctx->context(), CL_MEM_READ_WRITE, 1 << 20);
  for (int frame = 0; frame < 5; ++frame) {
    for (int k = 0; k <= frame; ++k) {
      cl::Event ev;
      ctx->queue().enqueueFillBuffer(buf, 0.0f, 0, 1 << 20, nullptr, &ev);
      prof.record("fill", ev);
    }
    double ms = prof.endFrame();
    CHECK(ms > 0);
  }
  auto s = prof.stats().at("fill");
  CHECK(s.frames == 5);
  CHECK(s.launches == 15);
  CHECK(s.p95Ms >= s.meanMs * 0.5);
  CHECK(s.p95Ms >= s.lastMs * 0.0);
  CHECK(s.totalMs == doctest::Approx(s.meanMs * 5).epsilon(1e-9));
  CHECK(prof.totalMs("fi") == doctest::Approx(s.totalMs));
  CHECK(prof.totalMs("x") == 0.0);
  prof.reset();
  CHECK(prof.stats().empty());
}

TEST_CASE("pinned host memory carries data both ways and survives a move") {
  auto ctx = test::sharedContext();
  const std::size_t n = 1000;
  PinnedHostBuffer out(*ctx, n * 4), back(*ctx, n * 4);
  for (std::size_t i = 0; i < n; ++i)
    out.as<std::uint32_t>()[i] = static_cast<std::uint32_t>(i * 7 + 3);
  cl::Buffer device(ctx->context(), CL_MEM_READ_WRITE, n * 4);
  ctx->queue().enqueueWriteBuffer(device, CL_FALSE, 0, n * 4, out.as<void>());
  PinnedHostBuffer moved = std::move(back);
  CHECK(back.size() == 0);
  ctx->queue().enqueueReadBuffer(device, CL_TRUE, 0, n * 4, moved.as<void>());
  for (std::size_t i = 0; i < n; ++i) REQUIRE(moved.as<std::uint32_t>()[i] == i * 7 + 3);
}
