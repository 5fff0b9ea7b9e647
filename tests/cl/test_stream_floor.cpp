// stream_floor.cl (gvflab-bench floor) against a C++ reference: out = a + b for every lane
// type and loads in flight, on lane counts that are not multiples of the grid.
#include <doctest/doctest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/kernel_library.hpp"

using namespace gvflab;

namespace {

// Runs stream_sum over `count` scalars of type S (vector lanes of `width` scalars) on a grid of
// `global` work-items; returns the device's out.
template <typename S>
std::vector<S> runStream(const std::string& type, int width, int ilp, const std::vector<S>& a,
                         const std::vector<S>& b, std::size_t global) {
  auto ctx = test::sharedContext();
  const std::size_t bytes = a.size() * sizeof(S);
  cl::Buffer da(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                const_cast<S*>(a.data()));
  cl::Buffer db(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes,
                const_cast<S*>(b.data()));
  cl::Buffer dout(ctx->context(), CL_MEM_READ_WRITE, bytes);
  ctx->queue().enqueueFillBuffer(dout, static_cast<std::uint8_t>(0xAB), 0, bytes);
  cl::Kernel k = ctx->kernels().kernel("stream_floor.cl", "stream_sum",
                                       "-DT=" + type + " -DILP=" + std::to_string(ilp));
  k.setArg(0, da);
  k.setArg(1, db);
  k.setArg(2, dout);
  k.setArg(3, static_cast<cl_ulong>(a.size() / width));
  ctx->queue().enqueueNDRangeKernel(k, cl::NullRange, cl::NDRange(global), cl::NDRange(64));
  std::vector<S> out(a.size());
  ctx->queue().enqueueReadBuffer(dout, CL_TRUE, 0, bytes, out.data());
  return out;
}

}  // namespace

TEST_CASE("stream_floor.cl adds every lane once, at every width and loads in flight") {
  std::mt19937 rng(42);
  // 1001 and 70001 lanes: neither a multiple of the 64-item groups nor of ILP x the grid; the
  // grids cover them once (one item a lane) or loop (fewer items than lanes).
  for (std::size_t lanesCount : {std::size_t(1001), std::size_t(70001)})
    for (int ilp : {1, 3, 8})
      for (std::size_t global : {std::size_t(64), std::size_t(320), (lanesCount + 63) / 64 * 64}) {
        INFO("lanes " << lanesCount << ", ILP " << ilp << ", grid " << global);
        for (int width : {1, 2, 4}) {
          const std::string type = width == 1 ? "float" : "float" + std::to_string(width);
          std::uniform_real_distribution<float> u(-1e3f, 1e3f);
          std::vector<float> a(lanesCount * width), b(a.size());
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = u(rng), b[i] = u(rng);
          const auto out = runStream(type, width, ilp, a, b, global);
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < a.size(); ++i)  // one rounding of the exact double sum
            wrong += out[i] != static_cast<float>(static_cast<double>(a[i]) + b[i]);
          CHECK_MESSAGE(wrong == 0, type);
        }
        {
          std::uniform_int_distribution<int> u(0, 65535);
          std::vector<std::uint16_t> a(lanesCount), b(lanesCount);
          for (std::size_t i = 0; i < a.size(); ++i)
            a[i] = static_cast<std::uint16_t>(u(rng)), b[i] = static_cast<std::uint16_t>(u(rng));
          const auto out = runStream("ushort", 1, ilp, a, b, global);
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < a.size(); ++i)
            wrong += out[i] != static_cast<std::uint16_t>(a[i] + b[i]);
          CHECK_MESSAGE(wrong == 0, "ushort");
        }
        for (int width : {1, 2, 4}) {
          const std::string type = width == 1 ? "uint" : "uint" + std::to_string(width);
          std::uniform_int_distribution<std::uint32_t> u;
          std::vector<std::uint32_t> a(lanesCount * width), b(a.size());
          for (std::size_t i = 0; i < a.size(); ++i) a[i] = u(rng), b[i] = u(rng);
          const auto out = runStream(type, width, ilp, a, b, global);
          std::size_t wrong = 0;
          for (std::size_t i = 0; i < a.size(); ++i) wrong += out[i] != a[i] + b[i];
          CHECK_MESSAGE(wrong == 0, type);
        }
      }
}
