#pragma once
// Vector field convolution (Li & Acton, "Active contour external force using vector field
// convolution for image segmentation", IEEE TIP 16(8), 2007): the edge map convolved with a
// vector kernel that points to its centre,
//   V(x) = Σ_y f(y) k(x − y),  k(u) = m(|u|) · (−u/|u|),  0 < |u|, |u| ≤ radius,
// so each point is pulled towards every edge within the radius, weighed by m (force_params.hpp:
// (r + eps)^−γ or exp(−r²/ζ²), r in world units). f is 0 outside the grid (no edges there).
// The convolution is direct (kernels/vfc.cl, one work-item per point over the kernel's
// disc or ball of taps); no FFT. The field is not normalised (snakes and the capture-range
// map take its direction per pixel).
#include "gvflab/cl.hpp"
#include "gvflab/force_params.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab {

class ComputeContext;

// The VFC field of input.edge, float2 per pixel in 2D, packed float3 per voxel in 3D (the
// solvers' layout). ParameterError for params outside vfcParamSpecs() (or a radius above
// kVfcMaxRadius3D in 3D), ResourceError when it does not fit the device.
cl::Buffer vfcField(ComputeContext& ctx, const GvfInput& input, const VfcParams& params);

// The kernel's taps: offsets (samples, within the radius, the centre left out) and their
// vectors m(r) u/r, u the offset in world units: what vfcField adds up per point, f(x + o) times
// the tap (the kernel mirrored, k(−o)).
struct VfcTaps {
  std::vector<int> offsets;    // dims per tap
  std::vector<float> vectors;  // dims per tap
  int dims = 2;
  std::size_t count() const { return offsets.size() / dims; }
};
VfcTaps vfcTaps(const VfcParams& params, int dims, const GridSpacing& spacing);

}  // namespace gvflab
