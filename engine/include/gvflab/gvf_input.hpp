#pragma once
// The device-side inputs of GVF: edge map f and initial field V0 made from an image.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/image.hpp"
#include "gvflab/input_limits.hpp"
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
  bool userV0 = false;      // V0 was given (gvfInputFrom, replaceV0): it is not grad f
  // World units per sample (z = 1 in 2D): V0 and the solvers' Laplacian are in these units.
  GridSpacing spacing{1.0, 1.0, 1.0};

  int dims() const { return depth > 1 ? 3 : 2; }
  std::size_t pixelCount() const { return static_cast<std::size_t>(width) * height * depth; }
};

// InputError with buildGvfInput's sentence unless it takes an image or volume of this size.
// From the sizes alone (64-bit, any value), so that a client checks before copying a pixel.
void checkImageSize(std::int64_t width, std::int64_t height);
void checkVolumeSize(std::int64_t width, std::int64_t height, std::int64_t depth);

// Builds f and V0 on the device (kernels/edge_map.cl). The image must be 1..kMaxImageSide
// pixels on a side with finite values; throws InputError, ParameterError or ResourceError
// otherwise. Gradients are in world units of `spacing`, by default the image's
// geometry.spacing (σ in samples of the finest axis, blurSigma); a spacing that is not positive and
// finite is a ParameterError.
GvfInput buildGvfInput(ComputeContext& ctx, const Image2D& image, double sigma,
                       V0Mode mode = V0Mode::EdgeGradient,
                       const std::optional<GridSpacing>& spacing = std::nullopt);

// The same for a volume (kernels/edge_map3d.cl); at most kMaxVolumeSide voxels per side.
GvfInput buildGvfInput(ComputeContext& ctx, const Volume& volume, double sigma,
                       V0Mode mode = V0Mode::EdgeGradient,
                       const std::optional<GridSpacing>& spacing = std::nullopt);

// buildGvfInput's f and V0 of a host volume made planes at a time on any device (a split's
// slabs, issue 41): planes [z0, z1) are those of the whole volume's input, built from them and
// the few beyond that the blur and the gradients read, so no device holds the whole volume.
// The volume is checked and f's max over every plane found (each device its share of the
// planes) on construction; the volume must outlive it. Throws as buildGvfInput.
class VolumeInputPlanes {
 public:
  VolumeInputPlanes(const std::vector<std::shared_ptr<ComputeContext>>& devices,
                    const Volume& volume, double sigma, V0Mode mode = V0Mode::EdgeGradient,
                    const std::optional<GridSpacing>& spacing = std::nullopt);
  GvfInput operator()(ComputeContext& device, int z0, int z1) const;

 private:
  const Volume& volume_;
  double sigma_;
  V0Mode mode_;
  GridSpacing spacing_;
  std::array<int, 3> refinement_;
  float fmax_ = 0;
};

// A researcher's own inputs (as ITK's GradientVectorFlowImageFilter and OpenCL-GVF take them):
// the edge map f as given, not rescaled (finite; the loaders give [0, 1], which the default
// κ, μ and the snakes' hold test assume), and V0 as given or, when v0 is null, grad f by
// the same central differences buildGvfInput uses, in world units of edgeMap.geometry.spacing.
// max |V0|² is computed for the μ rule.
// edgeName and v0Name name them in messages (a file and its flag, or a Python argument).
// Throws InputError (empty, too large, sizes differ, NaN or infinity), ResourceError.
GvfInput gvfInputFrom(ComputeContext& ctx, const Image2D& edgeMap, const Field2D* v0 = nullptr,
                      const std::string& edgeName = "the edge map",
                      const std::string& v0Name = "V0");
GvfInput gvfInputFrom(ComputeContext& ctx, const Volume& edgeMap, const Field3D* v0 = nullptr,
                      const std::string& edgeName = "the edge map",
                      const std::string& v0Name = "V0");
// Replaces V0 of an input (its f stays): the same size, finite. Sets userV0.
void replaceV0(ComputeContext& ctx, GvfInput& input, const Field2D& v0,
               const std::string& v0Name = "V0");
void replaceV0(ComputeContext& ctx, GvfInput& input, const Field3D& v0,
               const std::string& v0Name = "V0");

// The input of the traditional snake force, f and ∇f of the image: `solved` itself where its
// V0 is ∇f (V0Mode::EdgeGradient, the default), else built from image with sigma (V0 = the
// image's gradient there; f's own gradient when V0 was the user's, userV0). The headless
// snakes and the viewer's both take it from here.
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
