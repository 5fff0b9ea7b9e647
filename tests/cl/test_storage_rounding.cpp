// snorm16_round (gvf_storage.clh), the float-arithmetic round trip the local-memory Euler tiles
// use, against a C++ reference (round v * 32767 to nearest even, saturate, scale, clamp at -1)
// and against the conversion the stores use (STORE1 then LOAD1), bit for bit; and
// stored_value, which converts values already loaded, against LOAD1 and a C++ decoding.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "cl/cl_fixture.hpp"
#include "gvflab/device.hpp"
#include "gvflab/kernel_library.hpp"

using namespace gvflab;

namespace {

float referenceRound(float v) {
  const float s = v * 32767.0f;                       // the kernels' float product
  double k = std::nearbyint(static_cast<double>(s));  // default mode: ties to even
  k = std::clamp(k, -32768.0, 32767.0);
  return std::max(static_cast<float>(k) * (1.0f / 32767.0f), -1.0f);
}

// gvf_storage.clh with its include inlined (the library expands includes only for whole
// kernel files).
std::string storageSource(KernelLibrary& lib, const std::string& format) {
  std::string storage = lib.source("gvf_storage.clh");
  const std::string include = "#include \"boundary.clh\"";
  storage.replace(storage.find(include), include.size(), lib.source("boundary.clh"));
  return "#define " + format + "\n" + storage;
}

// A kernel that rounds every input both ways.
std::string checkSource(KernelLibrary& lib) {
  return storageSource(lib, "STORAGE_SNORM16") + R"(
__kernel void snorm_check(__global const float* in, __global float* rounded,
                          __global float* stored) {
  const size_t i = get_global_id(0);
  short s[1];
  STORE1(in[i], s, 0);
  stored[i] = LOAD1(s, 0);
  rounded[i] = snorm16_round(in[i]);
}
)";
}

// IEEE half to float, for every bit pattern.
float halfValue(std::uint16_t h) {
  const int sign = h >> 15, e = (h >> 10) & 31, m = h & 1023;
  float v = e == 0    ? std::ldexp(static_cast<float>(m), -24)
            : e == 31 ? (m ? NAN : INFINITY)
                      : std::ldexp(static_cast<float>(m | 1024), e - 25);
  return sign ? -v : v;
}

}  // namespace

TEST_CASE("stored_value converts every 16-bit pattern as LOAD1 and a C++ decoding do") {
  auto ctx = test::sharedContext();
  const std::string kernelText = R"(
__kernel void decode(__global const elem_t* in, __global float* viaLoad, __global float* viaValue) {
  const size_t i = get_global_id(0);
  viaLoad[i] = LOAD1(in, i);
  viaValue[i] = stored_value(((__global const elem_raw_t*)in)[i]);
}
)";
  std::vector<std::uint16_t> bits(65536);
  for (std::size_t i = 0; i < bits.size(); ++i) bits[i] = static_cast<std::uint16_t>(i);
  for (const char* format : {"STORAGE_F16", "STORAGE_SNORM16"}) {
    INFO(format);
    const bool half = std::string(format) == "STORAGE_F16";
    cl::Program program(ctx->context(), storageSource(ctx->kernels(), format) + kernelText);
    program.build({ctx->device()}, "-cl-std=CL1.2");
    cl::Kernel kernel(program, "decode");
    cl::Buffer inBuf(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, 2 * bits.size(),
                     bits.data());
    cl::Buffer loadBuf(ctx->context(), CL_MEM_WRITE_ONLY, 4 * bits.size());
    cl::Buffer valueBuf(ctx->context(), CL_MEM_WRITE_ONLY, 4 * bits.size());
    kernel.setArg(0, inBuf);
    kernel.setArg(1, loadBuf);
    kernel.setArg(2, valueBuf);
    ctx->queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(bits.size()));
    std::vector<float> viaLoad(bits.size()), viaValue(bits.size());
    ctx->queue().enqueueReadBuffer(loadBuf, CL_TRUE, 0, 4 * bits.size(), viaLoad.data());
    ctx->queue().enqueueReadBuffer(valueBuf, CL_TRUE, 0, 4 * bits.size(), viaValue.data());
    int wrong = 0;
    for (std::size_t i = 0; i < bits.size(); ++i) {
      const float expect =
          half
              ? halfValue(bits[i])
              : std::max(static_cast<float>(static_cast<std::int16_t>(bits[i])) * (1.0f / 32767.0f),
                         -1.0f);
      const auto same = [&](float a) { return std::isnan(expect) ? std::isnan(a) : a == expect; };
      if (!same(viaLoad[i]) || !same(viaValue[i])) {
        if (wrong++ < 5)
          MESSAGE("bits " << bits[i] << ": LOAD1 " << viaLoad[i] << ", stored_value " << viaValue[i]
                          << ", expected " << expect);
      }
    }
    CHECK(wrong == 0);
  }
}

TEST_CASE("snorm16 rounding in float arithmetic equals the stored and loaded value") {
  auto ctx = test::sharedContext();
  std::vector<float> in;
  // Every tie between two snorm16 values, and its neighbouring floats.
  for (int k = -32770; k <= 32770; ++k) {
    const float tie = (static_cast<float>(k) + 0.5f) / 32767.0f;
    in.insert(in.end(), {tie, std::nextafter(tie, -2.0f), std::nextafter(tie, 2.0f)});
  }
  // The saturation edges, zeros, tiny values and random values beyond ±1.
  for (float v : {-1.0f, 1.0f, 0.0f, -0.0f, 1e-30f, -1e-30f, 32767.5f / 32767.0f,
                  -32767.5f / 32767.0f, -32768.5f / 32767.0f, 3.0f, -3.0f})
    in.push_back(v);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.5f, 1.5f);
  for (int i = 0; i < 100000; ++i) in.push_back(dist(rng));

  cl::Program program(ctx->context(), checkSource(ctx->kernels()));
  program.build({ctx->device()}, "-cl-std=CL1.2");
  cl::Kernel kernel(program, "snorm_check");
  const std::size_t bytes = in.size() * sizeof(float);
  cl::Buffer inBuf(ctx->context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, bytes, in.data());
  cl::Buffer roundedBuf(ctx->context(), CL_MEM_WRITE_ONLY, bytes);
  cl::Buffer storedBuf(ctx->context(), CL_MEM_WRITE_ONLY, bytes);
  kernel.setArg(0, inBuf);
  kernel.setArg(1, roundedBuf);
  kernel.setArg(2, storedBuf);
  ctx->queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(in.size()));
  std::vector<float> rounded(in.size()), stored(in.size());
  ctx->queue().enqueueReadBuffer(roundedBuf, CL_TRUE, 0, bytes, rounded.data());
  ctx->queue().enqueueReadBuffer(storedBuf, CL_TRUE, 0, bytes, stored.data());

  int wrongRef = 0, wrongStore = 0;
  for (std::size_t i = 0; i < in.size(); ++i) {
    // Equal as values (the sign of a zero may differ and never reaches a stored short).
    if (rounded[i] != referenceRound(in[i])) {
      if (wrongRef++ < 5)
        MESSAGE("v = " << in[i] << ": " << rounded[i] << " vs reference " << referenceRound(in[i]));
    }
    if (rounded[i] != stored[i]) {
      if (wrongStore++ < 5)
        MESSAGE("v = " << in[i] << ": " << rounded[i] << " vs stored " << stored[i]);
    }
  }
  CHECK(wrongRef == 0);
  CHECK(wrongStore == 0);
}
