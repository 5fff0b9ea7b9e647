#pragma once
// The parameters of the external forces beside GVF and grad f, each in one ParamSpec table
// (the CLI, panels, session files and tests read them there):
//   GGVF (Xu & Prince 1998): g = exp(-|grad f| / K), h = 1 - g (ggvf_solver.hpp);
//   VFC (Li & Acton 2007): the edge map convolved with a vector kernel of magnitude
//     (r + eps)^-gamma or exp(-r^2 / zeta^2) within a radius (vfc_field.hpp);
//   the distance force (Cohen & Cohen 1993): minus the unit gradient of the distance to the
//     edge map's edges, f >= threshold (distance_force.hpp).
#include <string>
#include <string_view>
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab {

struct GgvfParams {
  double k = 0.05;               // K: where |grad f| ~ K, smoothing and data weigh alike
  static GgvfParams defaults();  // from ggvfParamSpecs()
  void validate() const;         // ParameterError with the table's sentence
};
// ggvf-k
const std::vector<ParamSpec>& ggvfParamSpecs();

enum class VfcKernel {
  Power,     // m(r) = (r + eps)^-gamma
  Gaussian,  // m(r) = exp(-r^2 / zeta^2)
};
// "power", "gaussian" (the --vfc-kernel values).
const char* vfcKernelName(VfcKernel kernel);
// The reverse: ParameterError "<what> must be power or gaussian, not 'x'." for any other name.
VfcKernel parseVfcKernel(const std::string& name, std::string_view what);

// eps of the power kernel, world units: keeps m finite at r = 0, where the direction is 0 anyway.
inline constexpr double kVfcEpsilon = 1e-8;
// The direct convolution costs (2 radius + 1)^3 taps per voxel in 3D: a larger radius there is
// refused (ParameterError) rather than left to run for minutes.
inline constexpr int kVfcMaxRadius3D = 16;

struct VfcParams {
  VfcKernel kernel = VfcKernel::Power;
  int radius = 32;              // samples: the kernel's support is the disc (ball) of this radius
  double gamma = 1.7;           // the power kernel's exponent
  double zeta = 8.0;            // the Gaussian kernel's width, world units
  static VfcParams defaults();  // from vfcParamSpecs()
  // ParameterError for a value outside the table, or a radius above kVfcMaxRadius3D in 3D.
  void validate(int dims) const;
};
// vfc-radius, vfc-gamma, vfc-zeta
const std::vector<ParamSpec>& vfcParamSpecs();

struct DistanceParams {
  double threshold = 0.3;            // f >= threshold is an edge point
  static DistanceParams defaults();  // from distanceParamSpecs()
  void validate() const;
};
// distance-threshold
const std::vector<ParamSpec>& distanceParamSpecs();

}  // namespace gvflab
