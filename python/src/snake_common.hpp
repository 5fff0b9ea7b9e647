#pragma once
// What gvflab.snake() and gvflab.surface_snake() share: the snake parameters from their
// keywords (one table, snakeParamSpecs) and the stepping loop with progress.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace gvflab::python {

// The number of snake keywords: snakeParamFields() and snake-iterations.
inline constexpr std::size_t kSnakeKeywords = 13;

// The table's default of a key as Python shows it: a bool, an int or a float.
inline pybind11::object snakeValue(const ParamSpec& spec, double v) {
  for (const auto& f : snakeParamFields())
    if (f.isBool() && spec.key == f.key) return pybind11::bool_(v != 0);
  if (spec.integer) return pybind11::int_(static_cast<long long>(v));
  return pybind11::float_(v);
}

// snake()'s and surface_snake()'s keywords alpha ... iterations, one per bound key of the table
// (paramKeyword names, the table's defaults), in the order of the functions' parameters; bind
// them with std::apply. A key added to the table fails here until the functions take it.
template <std::size_t... I>
auto snakeKeywordArgsOf(std::index_sequence<I...>) {
  static const std::vector<const ParamSpec*> specs = [] {
    std::vector<const ParamSpec*> out;
    for (const auto& f : snakeParamFields()) out.push_back(&findSpec(snakeParamSpecs(), f.key));
    out.push_back(&findSpec(snakeParamSpecs(), "snake-iterations"));
    if (out.size() != kSnakeKeywords) throw std::logic_error("snake keywords out of step");
    return out;
  }();
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const ParamSpec* s : specs) out.push_back(paramKeyword(s->key));
    return out;
  }();
  return std::make_tuple(
      pybind11::arg_v(names[I].c_str(), snakeValue(*specs[I], specs[I]->defaultValue))...);
}

inline auto snakeKeywordArgs() {
  return snakeKeywordArgsOf(std::make_index_sequence<kSnakeKeywords>());
}

// The snake keywords as SnakeParams, checked through the table's bindings, with the CLI's
// sentences.
inline SnakeParams checkedSnakeParams(double alpha, double beta, double gamma, double kappa,
                                      double pressure, double dmin, double dmax, double tolerance,
                                      int window, double holdGap, int resample, bool normalize,
                                      int iterations) {
  const SnakeParams p{.alpha = alpha,
                      .beta = beta,
                      .gamma = gamma,
                      .kappa = kappa,
                      .pressure = pressure,
                      .dmin = dmin,
                      .dmax = dmax,
                      .tolerance = tolerance,
                      .window = window,
                      .holdGap = holdGap,
                      .resample = resample,
                      .normalize = normalize};
  p.validate();
  validate(findSpec(snakeParamSpecs(), "snake-iterations"), iterations);
  return p;
}

// The parameters a snake ran with, {keyword: value} (SnakeResult.params, SurfaceResult.params).
inline constexpr const char* kParamsDoc =
    "The snake parameters it ran with, {keyword: value} (alpha ... normalize).";
inline pybind11::dict snakeParamsDict(const SnakeParams& p) {
  pybind11::dict out;
  for (const auto& f : snakeParamFields())
    out[pybind11::str(paramKeyword(f.key))] =
        snakeValue(findSpec(snakeParamSpecs(), f.key), f.get(p));
  return out;
}

// force_params={"ggvf_k": 0.2, "vfc_radius": 16, "vfc_kernel": "gaussian", ...}: the keys of
// forceParamSpecs() with '_' for '-', and "vfc_kernel"; each number checked by its table's
// range (ParameterError with the table's sentence), an unknown key refused.
inline ForceParams forceParamsFrom(const pybind11::object& dict, int dims) {
  ForceParams p;
  if (dict.is_none()) return p;
  for (const auto& [key, value] : pybind11::cast<pybind11::dict>(dict)) {
    std::string name = pybind11::cast<std::string>(key);
    if (name == "vfc_kernel") {
      p.vfc.kernel =
          parseVfcKernel(pybind11::cast<std::string>(value), "force_params['vfc_kernel']");
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
