#include "gvflab/gvf_input.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/log.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {
namespace {

template <class Values>
void requireFinite(const Values& values, const std::string& name) {
  for (float v : values)
    if (!std::isfinite(v)) throw InputError(name + " contains NaN or infinite values.");
}

// `out` with the floats of `from` read into its `values`.
template <class Host>
Host readBack(ComputeContext& ctx, const cl::Buffer& from, Host out,
              std::vector<float> Host::*values) {
  std::vector<float>& v = out.*values;
  ctx.queue().enqueueReadBuffer(from, CL_TRUE, 0, v.size() * sizeof(float), v.data());
  return out;
}

void checkImage(const Image2D& image) {
  checkImageSize(image.width, image.height);
  if (image.empty()) throw InputError("The image is empty.");
  if (image.pixels.size() != static_cast<std::size_t>(image.width) * image.height)
    throw InputError("The image's pixel buffer does not match its size.");
  requireFinite(image.pixels, "The image");
}

// Max over a float buffer: two reduce_max launches, one float read back.
float deviceMax(ComputeContext& ctx, const cl::Buffer& in, std::size_t n) {
  constexpr std::size_t local = 256;
  const std::size_t groups = std::min<std::size_t>(256, (n + local - 1) / local);
  cl::Buffer partial(ctx.context(), CL_MEM_READ_WRITE, groups * sizeof(float));
  cl::Buffer result(ctx.context(), CL_MEM_READ_WRITE, sizeof(float));
  TypedKernel<cl::Buffer, cl_int, cl::Buffer, cl::LocalSpaceArg> k =
      ctx.kernels().kernel("reduce.cl", "reduce_max");
  k.set(in, static_cast<cl_int>(n), partial, cl::Local(local * sizeof(float)));
  detail::enqueue1D(ctx, k, "reduce_max", groups * local, local);
  k.arg<0>(partial);
  k.arg<1>(static_cast<cl_int>(groups));
  k.arg<2>(result);
  detail::enqueue1D(ctx, k, "reduce_max", local, local);
  float value = 0;
  ctx.queue().enqueueReadBuffer(result, CL_TRUE, 0, sizeof(float), &value);
  return value;
}

// f /= fmax on the device.
void normalise(ComputeContext& ctx, cl::Buffer& f, std::size_t n, float fmax) {
  cl::Buffer maxBuf(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, sizeof(float), &fmax);
  TypedKernel<cl::Buffer, cl_int, cl::Buffer> norm =
      ctx.kernels().kernel("edge_map.cl", "normalise");
  norm.set(f, static_cast<cl_int>(n), maxBuf);
  detail::enqueue1D(ctx, norm, "normalise", n, 256);
}

// One axis' blur taps on the device and their radius.
struct AxisBlur {
  cl::Buffer weights;
  cl_int radius = 0;
};
AxisBlur axisBlur(ComputeContext& ctx, double sigma) {
  const auto wd = gaussianWeights(sigma);
  std::vector<float> wf(wd.begin(), wd.end());
  return {cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                     wf.size() * sizeof(float), wf.data()),
          static_cast<cl_int>(wf.size()) - 1};
}

std::string sizeText(std::int64_t w, std::int64_t h, std::int64_t d) {
  return std::to_string(w) + "x" + std::to_string(h) + (d > 1 ? "x" + std::to_string(d) : "");
}

// Refuses a grid with a side past `max`, naming it (unit: "pixels" or "voxels").
void checkSides(const std::string& name, std::int64_t w, std::int64_t h, std::int64_t d, int max,
                const char* unit) {
  if (std::max({w, h, d}) > max)
    throw InputError(name + " is " + sizeText(w, h, d) + " " + unit + "; at most " +
                     std::to_string(max) + " per side are supported.");
}

// The spacing the input is built with: the override, else the data's own.
GridSpacing chosenSpacing(const std::optional<GridSpacing>& override, const WorldGeometry& g,
                          int dims) {
  const GridSpacing s = gridSpacing(override ? *override : g.spacing, dims);
  checkSpacing(s, dims, override ? "The grid spacing" : "The input's sample spacing");
  return s;
}

}  // namespace

void checkImageSize(std::int64_t width, std::int64_t height) {
  if (width < 1 || height < 1) throw InputError("The image is empty.");
  checkSides("The image", width, height, 1, kMaxImageSide, "pixels");
}

void checkVolumeSize(std::int64_t width, std::int64_t height, std::int64_t depth) {
  if (width < 1 || height < 1 || depth < 1) throw InputError("The volume is empty.");
  if (depth < 2)
    throw InputError("A volume needs at least 2 slices; open a single slice as an image.");
  checkSides("The volume", width, height, depth, kMaxVolumeSide, "voxels");
}

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

GvfInput buildGvfInput(ComputeContext& ctx, const Image2D& image, double sigma, V0Mode mode,
                       const std::optional<GridSpacing>& spacing) {
  checkImage(image);
  validate(findSpec(gvfParamSpecs(), "sigma"), sigma);
  GvfInput in;
  in.spacing = chosenSpacing(spacing, image.geometry, 2);
  const std::string gradOpts = spacingBuildOptions(in.spacing, 2);
  in.width = image.width;
  in.height = image.height;
  const std::size_t n = in.pixelCount();
  // While f and V0 are built: image, two blur buffers, f, |V0|², V0 (float2): 28 B/px.
  ctx.checkAllocation(n * 28,
                      "Building the edge map of a " + sizeText(in.width, in.height, 1) + " image");
  try {
    auto& c = ctx.context();
    cl::Buffer src(c, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                   const_cast<float*>(image.pixels.data()));
    cl::Buffer tmp(c, CL_MEM_READ_WRITE, n * sizeof(float));
    cl::Buffer smooth(c, CL_MEM_READ_WRITE, n * sizeof(float));
    cl::Buffer s(c, CL_MEM_READ_WRITE, n * sizeof(float));
    in.edge = cl::Buffer(c, CL_MEM_READ_WRITE, n * sizeof(float));
    in.v0 = cl::Buffer(c, CL_MEM_READ_WRITE, n * 2 * sizeof(float));

    const AxisBlur bx = axisBlur(ctx, blurSigma(sigma, in.spacing, 2, 0));
    const AxisBlur by = axisBlur(ctx, blurSigma(sigma, in.spacing, 2, 1));
    const auto local = detail::localSize2D(ctx.info());
    auto& lib = ctx.kernels();

    using Blur2D = TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int>;
    Blur2D rows = lib.kernel("edge_map.cl", "blur_rows");
    rows.set(src, tmp, bx.weights, bx.radius, in.width, in.height);
    detail::enqueue2D(ctx, rows, "blur_rows", in.width, in.height, local);
    Blur2D cols = lib.kernel("edge_map.cl", "blur_cols");
    cols.set(tmp, smooth, by.weights, by.radius, in.width, in.height);
    detail::enqueue2D(ctx, cols, "blur_cols", in.width, in.height, local);

    TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int> mag =
        lib.kernel("edge_map.cl", "gradient_magnitude", gradOpts);
    mag.set(smooth, in.edge, in.width, in.height);
    detail::enqueue2D(ctx, mag, "gradient_magnitude", in.width, in.height, local);

    normalise(ctx, in.edge, n, deviceMax(ctx, in.edge, n));

    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int> grad =
        lib.kernel("edge_map.cl", "gradient_field", gradOpts);
    grad.set(mode == V0Mode::EdgeGradient ? in.edge : smooth, in.v0, s, in.width, in.height);
    detail::enqueue2D(ctx, grad, "gradient_field", in.width, in.height, local);
    in.maxV0Squared = deviceMax(ctx, s, n);
  } catch (const cl::Error& e) {
    rethrowClError(e, "building the edge map and V0");
  }
  return in;
}

GvfInput edgeGradientInput(ComputeContext& ctx, const GvfInput& solved, V0Mode solvedMode,
                           const Image2D& image, double sigma) {
  if (solved.userV0) {
    Image2D f = readEdgeMap(ctx, solved);
    f.geometry.spacing = solved.spacing;  // grad f in the units the field was solved in
    return gvfInputFrom(ctx, f);
  }
  if (solvedMode == V0Mode::EdgeGradient) return solved;
  return buildGvfInput(ctx, image, sigma, V0Mode::EdgeGradient, solved.spacing);
}

namespace {

void checkVolume(const Volume& volume, double sigma) {
  checkVolumeSize(volume.width, volume.height, volume.depth);
  if (volume.voxels.empty()) throw InputError("The volume is empty.");
  if (volume.voxels.size() != std::size_t(volume.width) * volume.height * volume.depth)
    throw InputError("The volume's voxel buffer does not match its size.");
  requireFinite(volume.voxels, "The volume");
  validate(findSpec(gvfParamSpecs(), "sigma"), sigma);
}

// On anisotropic voxels f and V0 are built on a grid refined to about the finest spacing
// (edgeRefinement) and each voxel takes its sub-samples' (coarsen_input3d), where that fits
// the device for the whole volume: the finer grid's two blur buffers, f, V0 and |V0|² beside
// the outputs.
std::array<int, 3> refinementOn(const ComputeContext& ctx, const Volume& volume,
                                const GridSpacing& spacing) {
  const std::size_t n = std::size_t(volume.width) * volume.height * volume.depth;
  const std::array<int, 3> k = edgeRefinement(spacing, 3);
  const std::size_t nf = n * k[0] * k[1] * k[2];
  if (nf == n ||
      (nf * 12 <= ctx.info().maxAllocBytes && n * 20 + nf * 28 <= ctx.info().globalMemBytes))
    return k;
  log::warning(
      "The edge map of this volume is built on its own samples: refined to its finest "
      "spacing it would not fit the device.");
  return {1, 1, 1};
}

// f and V0 of planes [z0, z1) of a checked volume, refined by k, as they are in the whole
// volume's: built from those planes and the ones beyond them that the z blur and the two central
// differences read (the boundary rule's reflections then fall outside [z0, z1) but at the
// volume's own ends). f is divided by fmax, or when fmax is 0 by its max over [z0, z1), which
// is kept in fmax (maxOnly: and nothing else is made).
GvfInput buildPlanes(ComputeContext& ctx, const Volume& volume, double sigma, V0Mode mode,
                     const GridSpacing& spacing, std::array<int, 3> k, int z0, int z1, float& fmax,
                     bool maxOnly = false) {
  GridSpacing fine = spacing;
  for (int i = 0; i < 3; ++i) fine[i] /= k[i];
  // The blur stays σ·min h wide in the world on the finer grid.
  const double fineSigma = sigma * *std::min_element(spacing.begin(), spacing.end()) /
                           *std::min_element(fine.begin(), fine.end());
  const int reach = int(gaussianWeights(blurSigma(fineSigma, fine, 3, 2)).size()) + 1;
  const int lo = std::max(z0 - (reach + k[2] - 1) / k[2] - 1, 0);
  const int hi = std::min(z1 + (reach + k[2] - 1) / k[2] + 1, volume.depth);
  GvfInput in;
  in.width = volume.width;
  in.height = volume.height;
  in.depth = hi - lo;
  in.spacing = spacing;
  const std::string gradOpts = spacingBuildOptions(fine, 3);
  const int fw = in.width * k[0], fh = in.height * k[1], fd = in.depth * k[2];
  const std::size_t n = in.pixelCount(), nf = n * k[0] * k[1] * k[2];
  const std::size_t plane = std::size_t(in.width) * in.height, finePlane = nf / fd;
  const bool refined = nf > n;
  // Volume, two blur buffers, f, |V0|² and V0 (packed float3): 32 B/voxel while building.
  const std::string what =
      "Building the edge map of a " + sizeText(in.width, in.height, in.depth) + " volume";
  ctx.checkAllocation(n * 12, what);
  ctx.checkAllocation(refined ? n * 20 + nf * 28 : n * 32, what);
  try {
    auto& c = ctx.context();
    auto& q = ctx.queue();
    cl::Buffer a(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                 const_cast<float*>(volume.voxels.data() + plane * lo));
    cl::Buffer b(c, CL_MEM_READ_WRITE, nf * sizeof(float));
    cl::Buffer fineA = refined ? cl::Buffer(c, CL_MEM_READ_WRITE, nf * sizeof(float)) : a;
    cl::Buffer s(c, CL_MEM_READ_WRITE, nf * sizeof(float));
    in.edge = cl::Buffer(c, CL_MEM_READ_WRITE, n * sizeof(float));
    in.v0 = cl::Buffer(c, CL_MEM_READ_WRITE, n * 3 * sizeof(float));
    cl::Buffer fineEdge = refined ? cl::Buffer(c, CL_MEM_READ_WRITE, nf * sizeof(float)) : in.edge;
    cl::Buffer fineV0 = refined ? cl::Buffer(c, CL_MEM_READ_WRITE, nf * 3 * sizeof(float)) : in.v0;
    auto launch = [&](cl::Kernel& kernel, const char* name, int w, int h, int d) {
      detail::enqueue3D(ctx, kernel, name, w, h, d, cl::NDRange(32, 4, 2));
    };
    // The max of planes [z0, z1) of a buffer of planes [lo, hi) (refined by kz), through
    // `scratch` where that is not all of them.
    auto planesMax = [&](cl::Buffer& from, cl::Buffer& scratch, std::size_t bytesPerPlane, int kz) {
      const std::size_t count = bytesPerPlane / sizeof(float) * (z1 - z0) * kz;
      if (z0 == lo && z1 == hi) return deviceMax(ctx, from, count);
      q.enqueueCopyBuffer(from, scratch, bytesPerPlane * (z0 - lo) * kz, 0, count * sizeof(float));
      return deviceMax(ctx, scratch, count);
    };
    auto& lib = ctx.kernels();
    if (refined) {
      TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_int, cl_int, cl_int> up =
          lib.kernel("edge_map3d.cl", "refine_linear3d");
      up.set(a, fineA, in.width, in.height, in.depth, k[0], k[1], k[2]);
      launch(up, "refine_linear3d", fw, fh, fd);
    }
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_int, cl_int> blur =
        lib.kernel("edge_map3d.cl", "blur_axis");
    cl::Buffer* src = &fineA;
    cl::Buffer* dst = &b;
    for (int axis = 0; axis < 3; ++axis) {
      const AxisBlur taps = axisBlur(ctx, blurSigma(fineSigma, fine, 3, axis));
      blur.set(*src, *dst, taps.weights, taps.radius, fw, fh, fd, axis);
      launch(blur, "blur_axis", fw, fh, fd);
      std::swap(src, dst);
    }
    cl::Buffer& smooth = *src;  // after three passes
    TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int> mag =
        lib.kernel("edge_map3d.cl", "gradient_magnitude3d", gradOpts);
    mag.set(smooth, fineEdge, fw, fh, fd);
    launch(mag, "gradient_magnitude3d", fw, fh, fd);
    if (fmax == 0) fmax = planesMax(fineEdge, s, finePlane * sizeof(float), k[2]);
    if (maxOnly) return {};
    normalise(ctx, fineEdge, nf, fmax);
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int> grad =
        lib.kernel("edge_map3d.cl", "gradient_field3d", gradOpts);
    grad.set(mode == V0Mode::EdgeGradient ? fineEdge : smooth, fineV0, s, fw, fh, fd);
    launch(grad, "gradient_field3d", fw, fh, fd);
    if (refined) {
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int,
                  cl_int, cl_int, cl_int, cl_int>
          down = lib.kernel("edge_map3d.cl", "coarsen_input3d");
      down.set(fineEdge, fineV0, in.edge, in.v0, s, in.width, in.height, in.depth, k[0], k[1],
               k[2]);
      launch(down, "coarsen_input3d", in.width, in.height, in.depth);
    }
    in.maxV0Squared = planesMax(s, b, plane * sizeof(float), 1);
    if (z0 == lo && z1 == hi) return in;
    for (auto [buffer, channels] : {std::pair{&in.edge, 1}, std::pair{&in.v0, 3}}) {
      const std::size_t bytes = plane * channels * sizeof(float);
      cl::Buffer kept(c, CL_MEM_READ_WRITE, bytes * (z1 - z0));
      q.enqueueCopyBuffer(*buffer, kept, bytes * (z0 - lo), 0, bytes * (z1 - z0));
      *buffer = kept;
    }
    in.depth = z1 - z0;
  } catch (const cl::Error& e) {
    rethrowClError(e, "building the 3D edge map and V0");
  }
  return in;
}

}  // namespace

GvfInput buildGvfInput(ComputeContext& ctx, const Volume& volume, double sigma, V0Mode mode,
                       const std::optional<GridSpacing>& spacing) {
  checkVolume(volume, sigma);
  const GridSpacing h = chosenSpacing(spacing, volume.geometry, 3);
  float fmax = 0;
  return buildPlanes(ctx, volume, sigma, mode, h, refinementOn(ctx, volume, h), 0, volume.depth,
                     fmax);
}

VolumeInputPlanes::VolumeInputPlanes(const std::vector<std::shared_ptr<ComputeContext>>& devices,
                                     const Volume& volume, double sigma, V0Mode mode,
                                     const std::optional<GridSpacing>& spacing)
    : volume_(volume), sigma_(sigma), mode_(mode) {
  checkVolume(volume, sigma);
  spacing_ = chosenSpacing(spacing, volume.geometry, 3);
  refinement_ = refinementOn(*devices.front(), volume, spacing_);
  // f's max over every plane, each device its share in pieces of at most an eighth of its
  // memory while building (32 bytes a voxel of the refined grid).
  const std::uint64_t voxelBytes =
      32ull * volume.width * volume.height * refinement_[0] * refinement_[1] * refinement_[2];
  const int n = int(devices.size());
  for (int i = 0; i < n; ++i) {
    const DeviceInfo& info = devices[i]->info();
    const int step = int(std::clamp<std::uint64_t>(
        std::min<std::uint64_t>(info.maxAllocBytes, info.globalMemBytes / 8) / voxelBytes, 1,
        volume.depth));
    for (int z = volume.depth * i / n, end = volume.depth * (i + 1) / n; z < end; z += step) {
      float piece = 0;
      buildPlanes(*devices[i], volume, sigma, mode, spacing_, refinement_, z,
                  std::min(z + step, end), piece, true);
      fmax_ = std::max(fmax_, piece);
    }
  }
}

GvfInput VolumeInputPlanes::operator()(ComputeContext& device, int z0, int z1) const {
  float fmax = fmax_;
  return buildPlanes(device, volume_, sigma_, mode_, spacing_, refinement_, z0, z1, fmax);
}

namespace {

int depthOf(const Field2D&) { return 1; }
int depthOf(const Field3D& f) { return f.depth; }

// V0 from the host: uploaded as it is, max |V0|² on the host.
template <class Field>
void uploadV0(ComputeContext& ctx, GvfInput& in, const Field& v0, int channels,
              const std::string& name) {
  if (v0.width != in.width || v0.height != in.height || depthOf(v0) != in.depth)
    throw InputError(name + " is " + sizeText(v0.width, v0.height, depthOf(v0)) +
                     "; the input is " + sizeText(in.width, in.height, in.depth) + ".");
  if (v0.data.size() != in.pixelCount() * channels)
    throw InputError(name + " does not have " + std::to_string(channels) + " channels.");
  requireFinite(v0.data, name);
  double m = 0;
  for (std::size_t i = 0; i < v0.data.size(); i += channels) {
    double s = 0;
    for (int c = 0; c < channels; ++c) s += double(v0.data[i + c]) * v0.data[i + c];
    m = std::max(m, s);
  }
  try {
    in.v0 = cl::Buffer(ctx.context(), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                       v0.data.size() * sizeof(float), const_cast<float*>(v0.data.data()));
  } catch (const cl::Error& e) {
    rethrowClError(e, "uploading " + name);
  }
  in.maxV0Squared = m;
  in.userV0 = true;
}

// The input of a checked edge map: f as given, V0 as given or f's gradient.
template <class V0Field>
GvfInput inputFromEdgeMap(ComputeContext& ctx, GvfInput in, const std::vector<float>& f,
                          const V0Field* v0, const std::string& edgeName,
                          const std::string& v0Name) {
  const int dims = in.dims();
  const std::size_t n = in.pixelCount();
  ctx.checkAllocation(n * (8 + 4 * dims),
                      "The " + sizeText(in.width, in.height, in.depth) + " edge map and V0");
  try {
    auto& c = ctx.context();
    in.edge = cl::Buffer(c, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float),
                         const_cast<float*>(f.data()));
    if (v0) {
      uploadV0(ctx, in, *v0, dims, v0Name);
      return in;
    }
    in.v0 = cl::Buffer(c, CL_MEM_READ_WRITE, n * dims * sizeof(float));
    cl::Buffer s(c, CL_MEM_READ_WRITE, n * sizeof(float));
    const std::string options = spacingBuildOptions(in.spacing, dims);
    if (dims == 2) {
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int> grad =
          ctx.kernels().kernel("edge_map.cl", "gradient_field", options);
      grad.set(in.edge, in.v0, s, in.width, in.height);
      detail::enqueue2D(ctx, grad, "gradient_field", in.width, in.height,
                        detail::localSize2D(ctx.info()));
    } else {
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int> grad =
          ctx.kernels().kernel("edge_map3d.cl", "gradient_field3d", options);
      grad.set(in.edge, in.v0, s, in.width, in.height, in.depth);
      detail::enqueue3D(ctx, grad, "gradient_field3d", in.width, in.height, in.depth,
                        cl::NDRange(32, 4, 2));
    }
    in.maxV0Squared = deviceMax(ctx, s, n);
  } catch (const cl::Error& e) {
    rethrowClError(e, "uploading " + edgeName);
  }
  return in;
}

}  // namespace

GvfInput gvfInputFrom(ComputeContext& ctx, const Image2D& edgeMap, const Field2D* v0,
                      const std::string& edgeName, const std::string& v0Name) {
  if (edgeMap.width < 1 || edgeMap.height < 1 || edgeMap.empty())
    throw InputError(edgeName + " is empty.");
  checkSides(edgeName, edgeMap.width, edgeMap.height, 1, kMaxImageSide, "pixels");
  requireFinite(edgeMap.pixels, edgeName);
  GvfInput in;
  in.width = edgeMap.width;
  in.height = edgeMap.height;
  in.spacing = chosenSpacing(std::nullopt, edgeMap.geometry, 2);
  return inputFromEdgeMap(ctx, std::move(in), edgeMap.pixels, v0, edgeName, v0Name);
}

GvfInput gvfInputFrom(ComputeContext& ctx, const Volume& edgeMap, const Field3D* v0,
                      const std::string& edgeName, const std::string& v0Name) {
  if (edgeMap.width < 1 || edgeMap.height < 1 || edgeMap.depth < 2 || edgeMap.voxels.empty())
    throw InputError(edgeName + " is not a volume of at least 2 slices.");
  checkSides(edgeName, edgeMap.width, edgeMap.height, edgeMap.depth, kMaxVolumeSide, "voxels");
  requireFinite(edgeMap.voxels, edgeName);
  GvfInput in;
  in.width = edgeMap.width;
  in.height = edgeMap.height;
  in.depth = edgeMap.depth;
  in.spacing = chosenSpacing(std::nullopt, edgeMap.geometry, 3);
  return inputFromEdgeMap(ctx, std::move(in), edgeMap.voxels, v0, edgeName, v0Name);
}

void replaceV0(ComputeContext& ctx, GvfInput& input, const Field2D& v0, const std::string& v0Name) {
  if (input.depth != 1) throw InputError(v0Name + " is a 2D field; the input is a volume.");
  uploadV0(ctx, input, v0, 2, v0Name);
}

void replaceV0(ComputeContext& ctx, GvfInput& input, const Field3D& v0, const std::string& v0Name) {
  if (input.depth == 1) throw InputError(v0Name + " is a 3D field; the input is an image.");
  uploadV0(ctx, input, v0, 3, v0Name);
}

Volume readEdgeVolume(ComputeContext& ctx, const GvfInput& input) {
  return readBack(ctx, input.edge, Volume(input.width, input.height, input.depth), &Volume::voxels);
}

Field3D readV0Volume(ComputeContext& ctx, const GvfInput& input) {
  return readBack(ctx, input.v0, Field3D(input.width, input.height, input.depth), &Field3D::data);
}

Image2D readEdgeMap(ComputeContext& ctx, const GvfInput& input) {
  return readBack(ctx, input.edge, Image2D(input.width, input.height), &Image2D::pixels);
}

Field2D readV0(ComputeContext& ctx, const GvfInput& input) {
  return readBack(ctx, input.v0, Field2D(input.width, input.height), &Field2D::data);
}

}  // namespace gvflab
