#pragma once
// The external force fields a run's snakes and surfaces hold (SnakeForce), each built once from
// one edge input and kept: GVF is the caller's solver's field (it alternates, so it is passed
// in), grad f the input's V0, GGVF solved here (ggvf_solver.hpp), VFC and the distance force
// computed here (vfc_field.hpp, distance_force.hpp). The headless CLI, the viewer and the
// Python module take every field but GVF's from here.
#include <array>
#include <memory>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/force_params.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/snake_types.hpp"

namespace gvflab {

class ComputeContext;
class GgvfSolver;

// One buffer per SnakeForce (its value the index); an empty buffer: no snake holds that force.
using ForceFieldSet = std::array<cl::Buffer, kSnakeForceCount>;

// The snake kernels take all five fields: the set with each empty slot filled by a field that
// is set. InputError when `used` (the snakes' forces) holds a force without a field, or a field
// is smaller than `bytes`; `what` names the snakes ("snakes", "surfaces").
ForceFieldSet kernelFields(const ForceFieldSet& set, const std::vector<SnakeForce>& used,
                           std::size_t bytes, const char* what);

// The parameters of the forces beside GVF, each from its ParamSpec table (force_params.hpp).
struct ForceParams {
  GgvfParams ggvf = GgvfParams::defaults();
  VfcParams vfc = VfcParams::defaults();
  DistanceParams distance = DistanceParams::defaults();
  // The VFC radius a volume gets: the table's default is an image's, above kVfcMaxRadius3D.
  VfcParams vfcFor(int dims) const;
  void validate(int dims) const;  // ParameterError with the table's sentence
};
// The three tables' specs (ggvf, vfc, distance) in order: the CLI flags, session keys and
// Python keywords loop over them.
std::vector<const ParamSpec*> forceParamSpecs();
// A number of `params` by its spec key; std::logic_error for a key of no table above.
double forceParam(const ForceParams& params, const std::string& key);
void setForceParam(ForceParams& params, const std::string& key, double value);  // unchecked

// The device bytes a force's field takes beside the run's GVF solve, at its peak while built:
// GGVF's solver (V twice, g and its residual), VFC's field, the distance force's field or its
// transform (two grids and a pass's scratch), whichever is larger; 0 for GVF and grad f.
std::uint64_t forceFieldBytes(SnakeForce force, int width, int height, int depth);

// GGVF's explicit iterations on this input: diffusion at step μ spreads about sqrt(2 μ n)
// samples in n iterations, and no point lies farther than half the largest side from the
// border, so n = L² / (8 μ), μ at 90 % of ggvfMuRange's bound (5120 for a 96x96 image).
long ggvfIterations(const GvfInput& input);

class ForceFields {
 public:
  // edges: the input in EdgeGradient mode (V0 = grad f: the traditional force, GGVF's V0 and
  // the edge map of VFC and the distance force). Throws ParameterError for params.
  ForceFields(std::shared_ptr<ComputeContext> ctx, GvfInput edges, ForceParams params);
  ~ForceFields();
  ForceFields(const ForceFields&) = delete;
  ForceFields& operator=(const ForceFields&) = delete;

  // The field of one force, built on first use; GVF's is `gvf`, the caller's solver's.
  const cl::Buffer& field(SnakeForce force, const cl::Buffer& gvf);
  // The fields of `forces` and GVF's (the others left empty), for the snakes' setFields.
  ForceFieldSet fields(const std::vector<SnakeForce>& forces, const cl::Buffer& gvf);
  const GvfInput& edges() const { return edges_; }
  const ForceParams& params() const { return params_; }
  // New parameters (checked first); the fields they change are built again on next use.
  void setParams(const ForceParams& params);

 private:
  std::shared_ptr<ComputeContext> ctx_;
  GvfInput edges_;
  ForceParams params_;
  std::unique_ptr<GgvfSolver> ggvf_;
  cl::Buffer vfc_, distance_;
};

}  // namespace gvflab
