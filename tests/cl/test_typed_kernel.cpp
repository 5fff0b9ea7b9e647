// TypedKernel: arguments land at their declared positions, and a wrong declaration is a
// DeviceError naming the kernel and the argument.
#include <doctest/doctest.h>

#include <array>
#include <string>
#include <variant>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/typed_kernel.hpp"

using namespace gvflab;

namespace {
// Writes its scalar arguments out, each to its own slot, so a mixed-up order shows.
const char* kEchoSource = R"(
__kernel void echo_args(__global float* out, int a, float b, int c, __local float* scratch) {
  scratch[0] = b;
  out[0] = a;
  out[1] = scratch[0];
  out[2] = c;
}
)";

cl::Kernel echoKernel(ComputeContext& ctx) {
  cl::Program program(ctx.context(), kEchoSource);
  program.build({ctx.device()}, "-cl-std=CL1.2");
  return cl::Kernel(program, "echo_args");
}

std::array<float, 3> runEcho(ComputeContext& ctx, cl::Kernel& kernel, cl::Buffer& out) {
  ctx.queue().enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(1), cl::NDRange(1));
  std::array<float, 3> values{};
  ctx.queue().enqueueReadBuffer(out, CL_TRUE, 0, sizeof(values), values.data());
  return values;
}

using Echo = TypedKernel<cl::Buffer, cl_int, cl_float, cl_int, cl::LocalSpaceArg>;

// Compile-time checks: whole calls with the wrong count, indices past the end and narrowing
// conversions are rejected.
template <class K, class... Ts>
concept CanSet = requires(K k, Ts... values) {
  k.set(values...);
};
template <class K, std::size_t I, class T>
concept CanSetArg = requires(K k, T value) {
  k.template arg<I>(value);
};
static_assert(CanSet<Echo, cl::Buffer, int, float, int, cl::LocalSpaceArg>);
static_assert(!CanSet<Echo, cl::Buffer, int, float, int>);
static_assert(!CanSet<Echo, cl::Buffer, int, double, int, cl::LocalSpaceArg>);
static_assert(CanSetArg<Echo, 2, float>);
static_assert(!CanSetArg<Echo, 2, double>);
static_assert(!CanSetArg<Echo, 4, std::size_t>);
static_assert(!CanSetArg<Echo, 5, int>);
}  // namespace

TEST_CASE("TypedKernel sets every argument at its declared position") {
  auto ctx = test::sharedContext();
  cl::Buffer out(ctx->context(), CL_MEM_READ_WRITE, 3 * sizeof(float));
  Echo echo = echoKernel(*ctx);
  CHECK(echo.name() == "echo_args");
  echo.set(out, 7, 2.5f, -3, cl::Local(sizeof(float)));
  CHECK(runEcho(*ctx, echo, out) == std::array<float, 3>{7.0f, 2.5f, -3.0f});

  // One argument alone changes only that one.
  echo.arg<3>(11);
  CHECK(runEcho(*ctx, echo, out) == std::array<float, 3>{7.0f, 2.5f, 11.0f});
}

TEST_CASE("TypedKernel sets whichever alternative a variant argument holds") {
  auto ctx = test::sharedContext();
  cl::Buffer out(ctx->context(), CL_MEM_READ_WRITE, 3 * sizeof(float));
  TypedKernel<cl::Buffer, cl_int, cl_float, cl_int, std::variant<cl::Buffer, cl::LocalSpaceArg>>
      echo = echoKernel(*ctx);
  echo.set(out, 1, 0.5f, 2, cl::Local(sizeof(float)));
  CHECK(runEcho(*ctx, echo, out) == std::array<float, 3>{1.0f, 0.5f, 2.0f});
}

TEST_CASE("A wrongly declared argument is a DeviceError naming the kernel and the argument") {
  auto ctx = test::sharedContext();
  cl::Buffer out(ctx->context(), CL_MEM_READ_WRITE, 3 * sizeof(float));
  // Argument 2 is a float in the kernel; a double is 8 bytes.
  TypedKernel<cl::Buffer, cl_int, cl_double, cl_int, cl::LocalSpaceArg> wrong = echoKernel(*ctx);
  std::string message;
  try {
    wrong.set(out, 7, 2.5, -3, cl::Local(sizeof(float)));
  } catch (const DeviceError& e) {
    message = e.what();
  }
  INFO(message);
  CHECK(message.find("kernel 'echo_args'") != std::string::npos);
  CHECK(message.find("argument 2 (8 bytes)") != std::string::npos);
  CHECK(message.find("CL_INVALID_ARG_SIZE") != std::string::npos);
}
