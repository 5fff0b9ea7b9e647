#include "gvflab/vfc_field.hpp"

#include <cmath>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

VfcTaps vfcTaps(const VfcParams& params, int dims, const GridSpacing& spacing) {
  VfcTaps taps;
  taps.dims = dims;
  const int r = params.radius, rz = dims == 3 ? r : 0;
  for (int z = -rz; z <= rz; ++z)
    for (int y = -r; y <= r; ++y)
      for (int x = -r; x <= r; ++x) {
        if (x * x + y * y + z * z > r * r || (x == 0 && y == 0 && z == 0)) continue;
        const double u[3] = {x * spacing[0], y * spacing[1], z * spacing[2]};
        const double len = std::sqrt(u[0] * u[0] + u[1] * u[1] + u[2] * u[2]);
        const double m = params.kernel == VfcKernel::Power
                             ? std::pow(len + kVfcEpsilon, -params.gamma)
                             : std::exp(-len * len / (params.zeta * params.zeta));
        const int o[3] = {x, y, z};
        for (int a = 0; a < dims; ++a) {
          taps.offsets.push_back(o[a]);
          taps.vectors.push_back(static_cast<float>(m * u[a] / len));
        }
      }
  return taps;
}

namespace {

// The 3D kernel reads int4 offsets and float4 vectors (16-byte aligned).
template <typename T>
std::vector<T> padTo4(const std::vector<T>& values) {
  std::vector<T> out;
  out.reserve(values.size() / 3 * 4);
  for (std::size_t i = 0; i < values.size(); i += 3)
    out.insert(out.end(), {values[i], values[i + 1], values[i + 2], T{}});
  return out;
}

template <typename T>
cl::Buffer upload(ComputeContext& ctx, const std::vector<T>& values) {
  return cl::Buffer(ctx.context(), CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR,
                    values.size() * sizeof(T), const_cast<T*>(values.data()));
}

}  // namespace

cl::Buffer vfcField(ComputeContext& ctx, const GvfInput& input, const VfcParams& params) {
  params.validate(input.dims());
  const VfcTaps taps = vfcTaps(params, input.dims(), input.spacing);
  const std::size_t n = input.pixelCount();
  const std::uint64_t bytes = static_cast<std::uint64_t>(n) * input.dims() * sizeof(float);
  ctx.checkAllocation(bytes, "the VFC field");
  try {
    cl::Buffer out(ctx.context(), CL_MEM_READ_WRITE, bytes);
    const auto count = static_cast<cl_int>(taps.count());
    if (input.dims() == 3) {
      const cl::Buffer offsets = upload(ctx, padTo4(taps.offsets));
      const cl::Buffer vectors = upload(ctx, padTo4(taps.vectors));
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl::Buffer, cl_int, cl_int, cl_int>
          k = ctx.kernels().kernel("vfc.cl", "vfc3d");
      k.set(input.edge, offsets, vectors, count, out, input.width, input.height, input.depth);
      detail::enqueue3D(ctx, k, "vfc", input.width, input.height, input.depth,
                        detail::localSize3D(ctx.info()));
    } else {
      const cl::Buffer offsets = upload(ctx, taps.offsets);
      const cl::Buffer vectors = upload(ctx, taps.vectors);
      TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl::Buffer, cl_int, cl_int> k =
          ctx.kernels().kernel("vfc.cl", "vfc2d");
      k.set(input.edge, offsets, vectors, count, out, input.width, input.height);
      detail::enqueue2D(ctx, k, "vfc", input.width, input.height, detail::localSize2D(ctx.info()));
    }
    return out;
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the VFC field");
  }
}

}  // namespace gvflab
