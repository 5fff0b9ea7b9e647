#include "gvflab/gvf_input.hpp"

#include <cmath>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"

namespace gvflab {
namespace {

constexpr int kMaxSide = 16384;

void checkImage(const Image2D& image) {
  if (image.width < 1 || image.height < 1 || image.empty())
    throw InputError("The image is empty.");
  if (image.width > kMaxSide || image.height > kMaxSide)
    throw InputError("The image is " + std::to_string(image.width) + "x" +
                     std::to_string(image.height) + " pixels; at most " +
                     std::to_string(kMaxSide) + " pixels per side are supported.");
  if (image.pixels.size() != static_cast<std::size_t>(image.width) * image.height)
    throw InputError("The image's pixel buffer does not match its size.");
  for (float v : image.pixels)
    if (!std::isfinite(v)) throw InputError("The image contains NaN or infinite values.");
}

// Max over a float buffer: two reduce_max launches, one float read back.
float deviceMax(ComputeContext& ctx, const cl::Buffer& in, std::size_t n) {
  constexpr std::size_t local = 256;
  const std::size_t groups = std::min<std::size_t>(256, (n + local - 1) / local);
  cl::Buffer partial(ctx.context(), CL_MEM_READ_WRITE, groups * sizeof(float));
  cl::Buffer result(ctx.context(), CL_MEM_READ_WRITE, sizeof(float));
  cl::Kernel k = ctx.kernels().kernel("reduce.cl", "reduce_max");
  k.setArg(0, in);
  k.setArg(1, static_cast<cl_int>(n));
  k.setArg(2, partial);
  k.setArg(3, cl::Local(local * sizeof(float)));
  detail::enqueue1D(ctx, k, "reduce_max", groups * local, local);
  k.setArg(0, partial);
  k.setArg(1, static_cast<cl_int>(groups));
  k.setArg(2, result);
  detail::enqueue1D(ctx, k, "reduce_max", local, local);
  float value = 0;
  ctx.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof(float), &value);
  return value;
}

}  // namespace

std::vector<double> gaussianWeights(double sigma) {
  if (!(sigma >= 0) || !std::isfinite(sigma))
    throw ParameterError("sigma must be a finite number >= 0.");
  if (sigma == 0) return {1.0};
  int r = static_cast<int>(std::ceil(3.0 * sigma));
  std::vector<double> w(r + 1);
  double sum = 0;
  for (int k = 0; k <= r; ++k) {
    w[k] = std::exp(-0.5 * k * k / (sigma * sigma));
    sum += k == 0 ? w[k] : 2 * w[k];
  }
  for (double& v : w) v /= sum;
  return w;
}

GvfInput buildGvfInput(ComputeContext& ctx, const Image2D& image, double sigma, V0Mode mode) {
  checkImage(image);
  validate(findSpec(gvfParamSpecs(), "sigma"), sigma);
  GvfInput in;
  in.width = image.width;
  in.height = image.height;
  const std::size_t n = in.pixelCount();
  // Solver-resident memory: V0 + two copies of V (float2 each), the 24 B/px of the first paper.
  ctx.checkAllocation(n * 24, "GVF on a " + std::to_string(in.width) + "x" +
                                  std::to_string(in.height) + " image");
  try {
    auto& c = ctx.context();
    cl::Buffer src(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                   const_cast<float*>(image.pixels.data()));
    cl::Buffer tmp(c, CL_MEM_READ_WRITE, n * sizeof(float));
    cl::Buffer smooth(c, CL_MEM_READ_WRITE, n * sizeof(float));
    cl::Buffer s(c, CL_MEM_READ_WRITE, n * sizeof(float));
    in.edge = cl::Buffer(c, CL_MEM_READ_WRITE, n * sizeof(float));
    in.v0 = cl::Buffer(c, CL_MEM_READ_WRITE, n * 2 * sizeof(float));

    auto wd = gaussianWeights(sigma);
    std::vector<float> wf(wd.begin(), wd.end());
    cl::Buffer weights(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, wf.size() * sizeof(float),
                       wf.data());
    const cl_int r = static_cast<cl_int>(wf.size()) - 1;
    const auto local = detail::localSize2D(ctx.info());
    auto& lib = ctx.kernels();

    cl::Kernel rows = lib.kernel("edge_map.cl", "blur_rows");
    rows.setArg(0, src);
    rows.setArg(1, tmp);
    rows.setArg(2, weights);
    rows.setArg(3, r);
    rows.setArg(4, in.width);
    rows.setArg(5, in.height);
    detail::enqueue2D(ctx, rows, "blur_rows", in.width, in.height, local);
    cl::Kernel cols = lib.kernel("edge_map.cl", "blur_cols");
    cols.setArg(0, tmp);
    cols.setArg(1, smooth);
    cols.setArg(2, weights);
    cols.setArg(3, r);
    cols.setArg(4, in.width);
    cols.setArg(5, in.height);
    detail::enqueue2D(ctx, cols, "blur_cols", in.width, in.height, local);

    cl::Kernel mag = lib.kernel("edge_map.cl", "gradient_magnitude");
    mag.setArg(0, smooth);
    mag.setArg(1, in.edge);
    mag.setArg(2, in.width);
    mag.setArg(3, in.height);
    detail::enqueue2D(ctx, mag, "gradient_magnitude", in.width, in.height, local);

    float fmax = deviceMax(ctx, in.edge, n);
    cl::Buffer maxBuf(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float), &fmax);
    cl::Kernel norm = lib.kernel("edge_map.cl", "normalise");
    norm.setArg(0, in.edge);
    norm.setArg(1, static_cast<cl_int>(n));
    norm.setArg(2, maxBuf);
    detail::enqueue1D(ctx, norm, "normalise", n, 256);

    cl::Kernel grad = lib.kernel("edge_map.cl", "gradient_field");
    grad.setArg(0, mode == V0Mode::EdgeGradient ? in.edge : smooth);
    grad.setArg(1, in.v0);
    grad.setArg(2, s);
    grad.setArg(3, in.width);
    grad.setArg(4, in.height);
    detail::enqueue2D(ctx, grad, "gradient_field", in.width, in.height, local);
    in.maxV0Squared = deviceMax(ctx, s, n);
  } catch (const cl::Error& e) {
    rethrowClError(e, "building the edge map and V0");
  }
  return in;
}

Image2D readEdgeMap(ComputeContext& ctx, const GvfInput& input) {
  Image2D out(input.width, input.height);
  ctx.queue().enqueueReadBuffer(input.edge, CL_TRUE, 0, out.size() * sizeof(float),
                                out.pixels.data());
  return out;
}

Field2D readV0(ComputeContext& ctx, const GvfInput& input) {
  Field2D out(input.width, input.height);
  ctx.queue().enqueueReadBuffer(input.v0, CL_TRUE, 0, out.data.size() * sizeof(float),
                                out.data.data());
  return out;
}

}  // namespace gvflab
