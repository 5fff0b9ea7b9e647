#include "gvflab/distance_force.hpp"

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

cl::Buffer distanceSquared(ComputeContext& ctx, const GvfInput& input,
                           const DistanceParams& params) {
  params.validate();
  const int dims = input.dims();
  const int sides[3] = {input.width, input.height, input.depth};
  const std::size_t n = input.pixelCount();
  // Two distance grids (the passes ping-pong) and a pass's scratch: n ints and n floats.
  ctx.checkAllocation(4 * n * sizeof(float), "the distance transform");
  try {
    cl::Buffer d[2] = {cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, n * sizeof(float)),
                       cl::Buffer(ctx.context(), CL_MEM_READ_WRITE, n * sizeof(float))};
    cl::Buffer vs(ctx.context(), CL_MEM_READ_WRITE, n * sizeof(cl_int));
    cl::Buffer zs(ctx.context(), CL_MEM_READ_WRITE, n * sizeof(float));
    auto& lib = ctx.kernels();
    TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_float> seed =
        lib.kernel("distance_force.cl", "distance_seed");
    seed.set(input.edge, d[0], static_cast<cl_int>(n), static_cast<float>(params.threshold));
    detail::enqueue1D(ctx, seed, "distance_seed", n, 64);
    TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float>
        pass = lib.kernel("distance_force.cl", "distance_pass");
    const GridSpacing h = gridSpacing(input.spacing, dims);
    int inner = 1, cur = 0;
    for (int axis = 0; axis < dims; ++axis) {
      const int side = sides[axis];
      const auto lines = static_cast<cl_int>(n / side);
      pass.set(d[cur], d[1 - cur], vs, zs, side, lines, inner,
               static_cast<float>(h[axis] * h[axis]));
      detail::enqueue1D(ctx, pass, "distance_pass", static_cast<std::size_t>(lines), 64);
      cur = 1 - cur;
      inner *= side;
    }
    return d[cur];
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the distance transform");
  }
}

cl::Buffer distanceForce(ComputeContext& ctx, const GvfInput& input, const DistanceParams& params) {
  const cl::Buffer d2 = distanceSquared(ctx, input, params);
  const std::uint64_t bytes =
      static_cast<std::uint64_t>(input.pixelCount()) * input.dims() * sizeof(float);
  ctx.checkAllocation(bytes, "the distance force");
  try {
    cl::Buffer out(ctx.context(), CL_MEM_READ_WRITE, bytes);
    const std::string opts = spacingBuildOptions(input.spacing, input.dims());
    if (input.dims() == 3) {
      TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int> k =
          ctx.kernels().kernel("distance_force.cl", "distance_force3d", opts);
      k.set(d2, out, input.width, input.height, input.depth);
      detail::enqueue3D(ctx, k, "distance_force", input.width, input.height, input.depth,
                        detail::localSize3D(ctx.info()));
    } else {
      TypedKernel<cl::Buffer, cl::Buffer, cl_int, cl_int> k =
          ctx.kernels().kernel("distance_force.cl", "distance_force2d", opts);
      k.set(d2, out, input.width, input.height);
      detail::enqueue2D(ctx, k, "distance_force", input.width, input.height,
                        detail::localSize2D(ctx.info()));
    }
    return out;
  } catch (const cl::Error& e) {
    rethrowClError(e, "computing the distance force");
  }
}

}  // namespace gvflab
