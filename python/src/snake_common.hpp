#pragma once
// What gvflab.snake() and gvflab.surface_snake() share: the snake parameters from their
// keywords (one table, snakeParamSpecs) and the stepping loop with progress.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <string>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace gvflab::python {

inline double snakeDefault(const char* key) {
  return findSpec(snakeParamSpecs(), key).defaultValue;
}

struct SnakeKeywords {
  double alpha, beta, gamma, kappa, pressure, dmin, dmax, tolerance;
  int window;
  double holdGap;
  int resample;
  bool normalize;
  int iterations;

  // The engine's checks, with the same sentences as the CLI's.
  SnakeParams params() const {
    SnakeParams p = SnakeParams::defaults();
    p.alpha = alpha, p.beta = beta, p.gamma = gamma, p.kappa = kappa;
    p.pressure = pressure, p.dmin = dmin, p.dmax = dmax;
    p.tolerance = tolerance, p.window = window, p.resample = resample;
    p.holdGap = holdGap;
    p.normalize = normalize;
    p.validate();
    validate(findSpec(snakeParamSpecs(), "snake-iterations"), iterations);
    return p;
  }
};

// force_params={"ggvf_k": 0.2, "vfc_radius": 16, "vfc_kernel": "gaussian", ...}: the keys of
// forceParamSpecs() with '_' for '-', and "vfc_kernel"; each number checked by its table's
// range (ParameterError with the table's sentence), an unknown key refused.
inline ForceParams forceParamsFrom(const pybind11::object& dict, int dims) {
  ForceParams p;
  if (dict.is_none()) return p;
  for (const auto& [key, value] : pybind11::cast<pybind11::dict>(dict)) {
    std::string name = pybind11::cast<std::string>(key);
    if (name == "vfc_kernel") {
      const std::string kernel = pybind11::cast<std::string>(value);
      if (!parseVfcKernel(kernel))
        throw ParameterError("force_params['vfc_kernel'] must be 'power' or 'gaussian', not '" +
                             kernel + "'.");
      p.vfc.kernel = *parseVfcKernel(kernel);
      continue;
    }
    std::string specKey = name;
    for (char& c : specKey) c = c == '_' ? '-' : c;
    const ParamSpec* spec = nullptr;
    std::string known = "vfc_kernel";
    for (const ParamSpec* s : forceParamSpecs()) {
      if (s->key == specKey) spec = s;
      std::string k = s->key;
      for (char& c : k) c = c == '-' ? '_' : c;
      known += ", " + k;
    }
    if (!spec)
      throw ParameterError("force_params has no key '" + name + "' (the keys: " + known + ").");
    const double v = pybind11::cast<double>(value);
    validate(*spec, v);
    setForceParam(p, spec->key, v);
  }
  p.validate(dims);
  return p;
}

// Steps the snakes (2D or 3D) in chunks until every one stopped or the iterations ran out,
// reporting progress; the profiler then holds the snakes' kernels only. Call without the GIL.
template <class Snakes>
void stepWithProgress(ComputeContext& ctx, Snakes& snakes, long iterations,
                      ProgressReporter& reporter) {
  ctx.profiler().endFrame();
  ctx.profiler().reset();
  const long chunk = std::min<long>(256, reporter.every());
  long done = 0;
  while (done < iterations && !snakes.allStopped()) {
    const long n = std::min<long>(chunk, iterations - done);
    snakes.step(static_cast<int>(n));
    ctx.profiler().endFrame();
    done += n;
    reporter.update(done, iterations);
  }
  reporter.update(done, iterations, {}, true);
}

}  // namespace gvflab::python
