#pragma once
// The distance force (Cohen & Cohen, "Finite-element methods for active contour models and
// balloons for 2-D and 3-D images", IEEE PAMI 15(11), 1993): minus the unit gradient of the
// Euclidean distance d to the nearest edge point (f >= threshold, force_params.hpp),
//   F = −∇d / |∇d|,
// so every point is pulled straight to its nearest edge, however far. d is exact (the separable
// lower-envelope transform of Felzenszwalb & Huttenlocher, "Distance transforms of sampled
// functions", Theory of Computing 8, 2012: one pass per axis, a work-item per line, on the
// device; kernels/distance_force.cl), in world units of the input's spacing; ∇d by central
// differences with mirrored borders, as ∇f. F is 0 where |∇d| vanishes (on one-sample edges
// and on the medial axis, where two edges are equally near) and everywhere when f has no edge
// point.
#include "gvflab/cl.hpp"
#include "gvflab/force_params.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab {

class ComputeContext;

// d² to the nearest edge point of input.edge per point (float; +infinity everywhere when there
// is none). ParameterError for a threshold outside distanceParamSpecs(), ResourceError when
// it does not fit the device.
cl::Buffer distanceSquared(ComputeContext& ctx, const GvfInput& input,
                           const DistanceParams& params);
// The distance force, float2 per pixel in 2D, packed float3 per voxel in 3D.
cl::Buffer distanceForce(ComputeContext& ctx, const GvfInput& input, const DistanceParams& params);

}  // namespace gvflab
