#pragma once
// The device-side inputs of GVF: edge map f and initial field V0 made from an image.
#include <memory>
#include <optional>

#include "gvflab/cl.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/image.hpp"
#include "gvflab/params.hpp"

namespace gvflab {

class ComputeContext;

struct GvfInput {
  int width = 0;
  int height = 0;
  int depth = 1;            // 1 for images
  cl::Buffer edge;          // float, f in [0, 1]
  cl::Buffer v0;            // float32 interleaved: float2 in 2D, packed float3 in 3D
  double maxV0Squared = 0;  // max |V0|², for the stability bound
  // World units per sample (z = 1 in 2D): V0 and the solvers' Laplacian are in these units.
  GridSpacing spacing{1.0, 1.0, 1.0};

  int dims() const { return depth > 1 ? 3 : 2; }
  std::size_t pixelCount() const { return static_cast<std::size_t>(width) * height * depth; }
};

// Builds f and V0 on the device (kernels/edge_map.cl). The image must be 1..16384 pixels on a
// side with finite values; throws InputError, ParameterError or ResourceError otherwise.
// Gradients are in world units of `spacing`, by default the image's geometry.spacing (σ stays
// in pixels); a spacing that is not positive and finite is a ParameterError.
GvfInput buildGvfInput(ComputeContext& ctx, const Image2D& image, double sigma,
                       V0Mode mode = V0Mode::EdgeGradient,
                       const std::optional<GridSpacing>& spacing = std::nullopt);

// The same for a volume (kernels/edge_map3d.cl); at most 4096 voxels per side.
GvfInput buildGvfInput(ComputeContext& ctx, const Volume& volume, double sigma,
                       V0Mode mode = V0Mode::EdgeGradient,
                       const std::optional<GridSpacing>& spacing = std::nullopt);

// The input of the traditional snake force, f and ∇f of the image: `solved` itself where its
// V0 is ∇f (V0Mode::EdgeGradient, the default), else built from image with sigma (V0 = the
// image's gradient there). The headless snakes and the viewer's both take it from here.
GvfInput edgeGradientInput(ComputeContext& ctx, const GvfInput& solved, V0Mode solvedMode,
                           const Image2D& image, double sigma);

Image2D readEdgeMap(ComputeContext& ctx, const GvfInput& input);
Field2D readV0(ComputeContext& ctx, const GvfInput& input);
Volume readEdgeVolume(ComputeContext& ctx, const GvfInput& input);
Field3D readV0Volume(ComputeContext& ctx, const GvfInput& input);

// Normalised Gaussian weights w[0..r], r = ceil(3σ); σ = 0 gives {1}. Shared by the device
// path and the double reference so both blur with the very same taps.
std::vector<double> gaussianWeights(double sigma);

}  // namespace gvflab
