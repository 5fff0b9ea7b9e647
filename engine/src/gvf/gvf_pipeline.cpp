#include "gvflab/gvf_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/slab_split.hpp"

namespace gvflab {

const char* solverKindName(SolverKind kind) {
  return kind == SolverKind::Multigrid ? "multigrid" : "euler";
}

std::optional<SolverKind> parseSolverKind(std::string_view name) {
  if (name == "euler") return SolverKind::Euler;
  if (name == "multigrid") return SolverKind::Multigrid;
  return std::nullopt;
}

EulerOptions SolverConfig::eulerOptions() const {
  EulerOptions o;
  o.precision = precision;
  o.memory = memory;
  o.tile = tile;
  o.tile3d = tile3d;
  o.persistent = persistent;
  o.cpuBandSteps = cpuBandSteps;
  return o;
}

MultigridOptions SolverConfig::multigridOptions() const {
  MultigridOptions o;
  o.precision = precision;
  o.a = a, o.b = b, o.c = c;
  o.coarseSide = mgCoarseSide;
  o.fused = mgFused;
  // The one-launch choice is the storage options' (--persistent), as Euler's tiles.
  o.persistent = mgPersistent >= 0 ? mgPersistent : (persistent ? int(*persistent) : -1);
  o.persistentGroups = mgGroups;
  o.trace = mgTrace;
  o.persistentVariant = mgVariant;
  o.persistentSide = mgSide;
  return o;
}

void SolverConfig::keepOwnParamValues(const std::vector<double>& values) {
  if (kind == SolverKind::Multigrid && values.size() == 3)
    a = static_cast<int>(values[0]), b = static_cast<int>(values[1]),
    c = static_cast<int>(values[2]);
}

void checkFits(const ComputeContext& ctx, FieldShape shape, const SolverConfig& config, bool both) {
  // A split checks each of its devices once they are open (makeSplitSolver).
  if (!config.devices.empty() && !both && shape.depth > 1 && config.kind == SolverKind::Euler)
    return;
  const double count = static_cast<double>(shape.count());
  // The multigrid pyramid beyond its two full fields, per fine point.
  const double coarse = static_cast<double>(MultigridSolver::pyramidBytes(shape, config.precision) -
                                            2 * fieldBytes(shape, config.precision)) /
                        count;
  if (both)
    checkSolverFits(ctx, shape, config.precision, 3 + 2, coarse);
  else if (config.kind == SolverKind::Multigrid)
    checkSolverFits(ctx, shape, config.precision, 2, coarse);
  else
    checkSolverFits(ctx, shape, config.precision, 3);
}

GvfInput makeGvfInput(ComputeContext& ctx, const Image2D& image, double sigma, V0Mode mode,
                      const SolverConfig& config, const std::optional<GridSpacing>& spacing) {
  checkFits(ctx, {image.width, image.height, 1}, config);
  return buildGvfInput(ctx, image, sigma, mode, spacing);
}

GvfInput makeGvfInput(ComputeContext& ctx, const Volume& volume, double sigma, V0Mode mode,
                      const SolverConfig& config, const std::optional<GridSpacing>& spacing) {
  checkFits(ctx, {volume.width, volume.height, volume.depth}, config);
  return buildGvfInput(ctx, volume, sigma, mode, spacing);
}

std::unique_ptr<EulerSolver> makeEulerSolver(std::shared_ptr<ComputeContext> ctx,
                                             const GvfInput& input, double mu,
                                             const SolverConfig& config) {
  SolverConfig c = config;
  c.kind = SolverKind::Euler;
  checkFits(*ctx, {input.width, input.height, input.depth}, c);
  return std::make_unique<EulerSolver>(std::move(ctx), input, mu, c.eulerOptions());
}

std::unique_ptr<MultigridSolver> makeMultigridSolver(std::shared_ptr<ComputeContext> ctx,
                                                     const GvfInput& input, double mu,
                                                     const SolverConfig& config) {
  SolverConfig c = config;
  c.kind = SolverKind::Multigrid;
  checkFits(*ctx, {input.width, input.height, input.depth}, c);
  return std::make_unique<MultigridSolver>(std::move(ctx), input, mu, c.multigridOptions());
}

std::unique_ptr<Solver> makeSolver(std::shared_ptr<ComputeContext> ctx, const GvfInput& input,
                                   double mu, const SolverConfig& config) {
  if (!config.devices.empty()) {
    if (auto split = makeSplitSolver(ctx, input, mu, config)) return split;
    SolverConfig one = config;  // the devices came to one: the plain solver, checked as such
    one.devices.clear();
    return makeSolver(std::move(ctx), input, mu, one);
  }
  if (config.kind == SolverKind::Multigrid)
    return makeMultigridSolver(std::move(ctx), input, mu, config);
  return makeEulerSolver(std::move(ctx), input, mu, config);
}

namespace {

template <class Source>
GvfPipeline buildPipeline(std::shared_ptr<ComputeContext> ctx, const Source& source,
                          const GvfParams& params, const SolverConfig& config, MuRule rule) {
  GvfPipeline p;
  p.sigma = chooseSigma(source, params);
  p.input = makeGvfInput(*ctx, source, p.sigma.sigma, params.v0Mode, config, params.spacing);
  p.mu = checkMu(config.kind, p.input, params.mu, rule);
  p.solver = makeSolver(std::move(ctx), p.input, p.mu.mu, config);
  return p;
}

}  // namespace

GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, const Image2D& image,
                             const GvfParams& params, const SolverConfig& config, MuRule rule) {
  return buildPipeline(std::move(ctx), image, params, config, rule);
}

GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, const Volume& volume,
                             const GvfParams& params, const SolverConfig& config, MuRule rule) {
  return buildPipeline(std::move(ctx), volume, params, config, rule);
}

GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, GvfInput input,
                             const GvfParams& params, const SolverConfig& config, MuRule rule) {
  checkFits(*ctx, {input.width, input.height, input.depth}, config);
  GvfPipeline p;
  p.sigma.sigma = params.sigma;
  char reason[96];
  std::snprintf(reason, sizeof reason, "sigma %.2f (own edge map or V0: no noise estimate).",
                params.sigma);
  p.sigma.reason = reason;
  p.input = std::move(input);
  p.mu = checkMu(config.kind, p.input, params.mu, rule);
  p.solver = makeSolver(std::move(ctx), p.input, p.mu.mu, config);
  return p;
}

}  // namespace gvflab
