#include "gvflab/force_params.hpp"

#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/param_fields.hpp"

namespace gvflab {

const std::vector<ParamSpec>& ggvfParamSpecs() {
  // f is normalised to [0, 1], so |grad f| is at most about 0.7 at unit spacing: K = 0.05 keeps
  // GVF-like data weight on every edge and pure diffusion (g = 1) away from them.
  static const std::vector<ParamSpec> specs = {
      {"ggvf-k", "GGVF K", 0.001, 10.0, 0.05, false,
       "GGVF's K in g = exp(-|grad f| / K): smaller keeps the field closer to grad f near "
       "edges, larger diffuses across weak edges."},
  };
  return specs;
}

const std::vector<ParamField<GgvfParams>>& ggvfParamFields() {
  static const std::vector<ParamField<GgvfParams>> fields = {{"ggvf-k", &GgvfParams::k}};
  return fields;
}

GgvfParams GgvfParams::defaults() { return defaultsOf(ggvfParamSpecs(), ggvfParamFields()); }

void GgvfParams::validate() const { validateFields(*this, ggvfParamSpecs(), ggvfParamFields()); }

namespace {
constexpr EnumNames<VfcKernel, 2> kVfcKernels{
    {{VfcKernel::Power, "power"}, {VfcKernel::Gaussian, "gaussian"}}};
}  // namespace

const char* vfcKernelName(VfcKernel kernel) { return enumName(kVfcKernels, kernel); }

VfcKernel parseVfcKernel(const std::string& name, std::string_view what) {
  return parseEnum(kVfcKernels, name, what);
}

const std::vector<ParamSpec>& vfcParamSpecs() {
  // Li & Acton's examples use gamma 1.7-2.4 and radii of a quarter of the image.
  static const std::vector<ParamSpec> specs = {
      {"vfc-radius", "VFC radius", 1, 128, 32, true,
       "Radius of the VFC kernel in samples (its capture range); the direct convolution "
       "costs the disc's (ball's) taps per pixel, at most 16 in 3D."},
      {"vfc-gamma", "VFC gamma", 0.5, 4.0, 1.7, false,
       "Exponent of the power kernel (r + eps)^-gamma: larger weighs near edges more."},
      {"vfc-zeta", "VFC zeta", 0.5, 128.0, 8.0, false,
       "Width of the Gaussian kernel exp(-r^2 / zeta^2), world units."},
  };
  return specs;
}

const std::vector<ParamField<VfcParams>>& vfcParamFields() {
  static const std::vector<ParamField<VfcParams>> fields = {{"vfc-radius", &VfcParams::radius},
                                                            {"vfc-gamma", &VfcParams::gamma},
                                                            {"vfc-zeta", &VfcParams::zeta}};
  return fields;
}

VfcParams VfcParams::defaults() { return defaultsOf(vfcParamSpecs(), vfcParamFields()); }

void VfcParams::validate(int dims) const {
  validateFields(*this, vfcParamSpecs(), vfcParamFields());
  if (dims == 3 && radius > kVfcMaxRadius3D)
    throw ParameterError("VFC radius = " + std::to_string(radius) + " is above " +
                         std::to_string(kVfcMaxRadius3D) +
                         " for a volume: the direct 3D convolution would cost " +
                         std::to_string((2 * radius + 1) * (2 * radius + 1) * (2 * radius + 1)) +
                         " taps per voxel.");
}

const std::vector<ParamSpec>& distanceParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"distance-threshold", "distance threshold", 0.01, 1.0, 0.3, false,
       "Edge map value (f in [0, 1]) from which a point counts as an edge of the distance "
       "force."},
  };
  return specs;
}

const std::vector<ParamField<DistanceParams>>& distanceParamFields() {
  static const std::vector<ParamField<DistanceParams>> fields = {
      {"distance-threshold", &DistanceParams::threshold}};
  return fields;
}

DistanceParams DistanceParams::defaults() {
  return defaultsOf(distanceParamSpecs(), distanceParamFields());
}

void DistanceParams::validate() const {
  validateFields(*this, distanceParamSpecs(), distanceParamFields());
}

}  // namespace gvflab
