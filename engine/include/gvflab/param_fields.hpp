#pragma once
// The ParamField bindings (each key to the field it sets) of the tables beside the snake's and
// capture's, defined next to each table; declared here, not in params.hpp, so that few files
// rebuild when one is added. tests/unit/test_param_bindings.cpp checks every key is bound.
#include <vector>

#include "gvflab/force_params.hpp"
#include "gvflab/params.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab {

struct MultigridOptions;  // multigrid_solver.hpp

const std::vector<ParamField<GgvfParams>>& ggvfParamFields();          // ggvf-k
const std::vector<ParamField<VfcParams>>& vfcParamFields();            // radius, gamma, zeta
const std::vector<ParamField<DistanceParams>>& distanceParamFields();  // distance-threshold
const std::vector<ParamField<GvfParams>>& gvfParamFields();  // mu, sigma (iterations: per run)
const std::vector<ParamField<MultigridOptions>>& multigridParamFields();  // mg-a/b/c, mg-vcycles
// d-max, min-segment, max-iterations; "noise" is an enum (NoiseModel), read by name.
const std::vector<ParamField<RegionSnakeParams>>& regionSnakeParamFields();

// A T holding the table's defaults in its bound fields.
template <class T>
T defaultsOf(const std::vector<ParamSpec>& specs, const std::vector<ParamField<T>>& fields) {
  T t;
  setDefaults(t, specs, fields);
  return t;
}

}  // namespace gvflab
