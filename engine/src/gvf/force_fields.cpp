#include "gvflab/force_fields.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include "gvflab/distance_force.hpp"
#include "gvflab/error.hpp"
#include "gvflab/ggvf_solver.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/vfc_field.hpp"

namespace gvflab {

ForceFieldSet kernelFields(const ForceFieldSet& set, const std::vector<SnakeForce>& used,
                           std::size_t bytes, const char* what) {
  const std::string who(what);
  for (SnakeForce f : used)
    if (!set[static_cast<int>(f)]())
      throw InputError("The " + who + " have no " + forceName(f) + " force field (setFields).");
  ForceFieldSet out = set;
  const cl::Buffer* any = nullptr;
  for (const cl::Buffer& b : set)
    if (b()) {
      if (b.getInfo<CL_MEM_SIZE>() < bytes)
        throw InputError("The " + who + "' force fields are smaller than their grid.");
      any = &b;
    }
  if (!any) throw InputError("The " + who + " have no force field yet (call setFields).");
  for (cl::Buffer& b : out)
    if (!b()) b = *any;
  return out;
}

std::vector<const ParamSpec*> forceParamSpecs() {
  std::vector<const ParamSpec*> out;
  for (const auto* table : {&ggvfParamSpecs(), &vfcParamSpecs(), &distanceParamSpecs()})
    for (const ParamSpec& s : *table) out.push_back(&s);
  return out;
}

namespace {
// use(binding, part) with the ParamField of `key` and the part of p it binds.
template <class P, class Use>
auto withForceField(P& p, const std::string& key, Use use) {
  for (const auto& f : ggvfParamFields())
    if (key == f.key) return use(f, p.ggvf);
  for (const auto& f : vfcParamFields())
    if (key == f.key) return use(f, p.vfc);
  for (const auto& f : distanceParamFields())
    if (key == f.key) return use(f, p.distance);
  throw std::logic_error("no force parameter " + key);
}
}  // namespace

double forceParam(const ForceParams& params, const std::string& key) {
  return withForceField(params, key, [](const auto& f, const auto& part) { return f.get(part); });
}

void setForceParam(ForceParams& params, const std::string& key, double value) {
  withForceField(params, key, [&](const auto& f, auto& part) { f.set(part, value); });
}

VfcParams ForceParams::vfcFor(int dims) const {
  VfcParams p = vfc;
  if (dims == 3 && p.radius == VfcParams::defaults().radius) p.radius = kVfcMaxRadius3D;
  return p;
}

void ForceParams::validate(int dims) const {
  ggvf.validate();
  vfcFor(dims).validate(dims);
  distance.validate();
}

std::uint64_t forceFieldBytes(SnakeForce force, int width, int height, int depth) {
  const std::uint64_t n = std::uint64_t(width) * height * depth, dims = depth > 1 ? 3 : 2;
  const std::uint64_t floats = force == SnakeForce::Ggvf  ? 2 * dims + 2
                               : force == SnakeForce::Vfc ? dims
                               : force == SnakeForce::Distance
                                   ? std::max<std::uint64_t>(4, dims + 1)
                                   : 0;
  return n * floats * sizeof(float);
}

namespace {
double ggvfStep(const GvfInput& input) { return 0.9 * ggvfMuRange(input).high; }
}  // namespace

long ggvfIterations(const GvfInput& input) {
  const double side = std::max({input.width, input.height, input.depth});
  return static_cast<long>(std::ceil(side * side / (8 * ggvfStep(input))));
}

ForceFields::ForceFields(std::shared_ptr<ComputeContext> ctx, GvfInput edges, ForceParams params)
    : ctx_(std::move(ctx)), edges_(std::move(edges)), params_(params) {
  params_.validate(edges_.dims());
}

ForceFields::~ForceFields() = default;

const cl::Buffer& ForceFields::field(SnakeForce force, const cl::Buffer& gvf) {
  switch (force) {
    case SnakeForce::Gvf:
      return gvf;
    case SnakeForce::Traditional:
      return edges_.v0;
    case SnakeForce::Ggvf:
      if (!ggvf_) {
        ggvf_ = std::make_unique<GgvfSolver>(ctx_, edges_, ggvfStep(edges_), params_.ggvf);
        ggvf_->step(static_cast<int>(ggvfIterations(edges_)));
      }
      return ggvf_->field();
    case SnakeForce::Vfc:
      if (!vfc_()) vfc_ = vfcField(*ctx_, edges_, params_.vfcFor(edges_.dims()));
      return vfc_;
    case SnakeForce::Distance:
      if (!distance_()) distance_ = distanceForce(*ctx_, edges_, params_.distance);
      return distance_;
  }
  return gvf;
}

ForceFieldSet ForceFields::fields(const std::vector<SnakeForce>& forces, const cl::Buffer& gvf) {
  ForceFieldSet set;
  set[static_cast<int>(SnakeForce::Gvf)] = gvf;  // free, and a set is never empty
  for (SnakeForce f : forces) set[static_cast<int>(f)] = field(f, gvf);
  return set;
}

void ForceFields::setParams(const ForceParams& params) {
  params.validate(edges_.dims());
  if (params.ggvf.k != params_.ggvf.k) ggvf_.reset();
  const VfcParams a = params.vfc, b = params_.vfc;
  if (a.kernel != b.kernel || a.radius != b.radius || a.gamma != b.gamma || a.zeta != b.zeta)
    vfc_ = cl::Buffer();
  if (params.distance.threshold != params_.distance.threshold) distance_ = cl::Buffer();
  params_ = params;
}

}  // namespace gvflab
