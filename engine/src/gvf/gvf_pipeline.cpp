#include "gvflab/gvf_pipeline.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <utility>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/slab_split.hpp"
#include "gvflab/surface_snake.hpp"

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
  return {precision, memory, tile, tile3d, persistent};
}

MultigridOptions SolverConfig::multigridOptions() const {
  MultigridOptions o;
  o.precision = precision;
  o.a = a, o.b = b, o.c = c, o.cycle = cycle;
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
  const auto& fields = multigridParamFields();  // MultigridSolver::ownParamValues' order
  if (kind != SolverKind::Multigrid || values.size() != fields.size()) return;
  MultigridOptions o;
  for (std::size_t i = 0; i < fields.size(); ++i) fields[i].set(o, values[i]);
  a = o.a, b = o.b, c = o.c, cycle = o.cycle;
}

namespace {

// checkFits' solve: how many full fields, and what beyond them per fine point.
std::pair<int, double> solveFields(FieldShape shape, const SolverConfig& config, bool both) {
  const double count = static_cast<double>(shape.count());
  // The multigrid pyramid beyond its two full fields, per fine point.
  const double coarse = static_cast<double>(MultigridSolver::pyramidBytes(shape, config.precision) -
                                            2 * fieldBytes(shape, config.precision)) /
                        count;
  if (both) return {3 + 2, coarse};
  if (config.kind == SolverKind::Multigrid) return {2, coarse};
  return {3, 0.0};
}

std::string gibText(std::uint64_t bytes) {
  std::ostringstream s;
  s.precision(3);
  s << static_cast<double>(bytes) / (1ull << 30) << " GiB";
  return s.str();
}

std::string sizeText(FieldShape s) {
  return std::to_string(s.width) + "x" + std::to_string(s.height) +
         (s.dims() == 3 ? "x" + std::to_string(s.depth) : "");
}

}  // namespace

std::uint64_t solverInputBytes(FieldShape shape) {
  return shape.count() * (4 + 4 * static_cast<std::uint64_t>(shape.dims()));
}

std::uint64_t solverBytes(FieldShape shape, Precision precision, int fields,
                          double extraBytesPerPoint) {
  return fieldBytes(shape, precision) * static_cast<std::uint64_t>(fields) +
         static_cast<std::uint64_t>(extraBytesPerPoint * double(shape.count())) +
         solverInputBytes(shape);
}

void checkSolverFits(const ComputeContext& ctx, FieldShape shape, Precision precision, int fields,
                     double extraBytesPerPoint, std::optional<std::uint64_t> input) {
  const auto& info = ctx.info();
  const std::uint64_t one = fieldBytes(shape, precision);
  const std::uint64_t inputBytes = input.value_or(solverInputBytes(shape));
  const std::uint64_t need =
      solverBytes(shape, precision, fields, extraBytesPerPoint) - solverInputBytes(shape);
  const bool tooBigBuffer = one > info.maxAllocBytes;
  const bool tooBigTotal = need + inputBytes > info.globalMemBytes;
  if (!tooBigBuffer && !tooBigTotal) return;
  const double perPoint = fields * shape.dims() * bytesPerComponent(precision) + extraBytesPerPoint;
  const double budget = std::min<double>(static_cast<double>(info.maxAllocBytes) * fields,
                                         static_cast<double>(info.globalMemBytes)) /
                        (perPoint + 4 + 4 * shape.dims());
  const long side = static_cast<long>(std::floor(std::pow(budget, 1.0 / shape.dims())));
  std::ostringstream msg;
  msg << "A " << sizeText(shape) << " GVF solve in " << precisionName(precision) << " needs "
      << gibText(need) << " (" << perPoint << " B per " << (shape.dims() == 3 ? "voxel" : "pixel")
      << ")";
  if (tooBigBuffer)
    msg << ", and one field of " << gibText(one) << " exceeds the largest allocation of "
        << info.name << " (" << gibText(info.maxAllocBytes) << ")";
  else
    msg << " plus " << gibText(inputBytes) << " of input, more than the "
        << gibText(info.globalMemBytes) << " of " << info.name;
  msg << ". ";
  if (precision == Precision::F32) {
    const std::uint64_t half = fieldBytes(shape, Precision::F16);
    if (half <= info.maxAllocBytes &&
        half * fields + (need - one * fields) + inputBytes <= info.globalMemBytes)
      msg << "16-bit storage (--precision f16) would fit. ";
  }
  msg << "At this precision about " << side << (shape.dims() == 3 ? "^3 voxels" : "^2 pixels")
      << " fit (crop a region or downsample).";
  throw ResourceError(msg.str());
}

void checkFits(const ComputeContext& ctx, FieldShape shape, const SolverConfig& config, bool both) {
  // A split checks each of its devices once they are open (makeSplitSolver).
  if (!config.devices.empty() && !both && shape.depth > 1) return;
  const auto [fields, extra] = solveFields(shape, config, both);
  checkSolverFits(ctx, shape, config.precision, fields, extra);
}

void chooseSplit(const ComputeContext& ctx, FieldShape shape, SolverConfig& config) {
  if (!config.devices.empty() || shape.depth <= 1) return;
  try {
    checkFits(ctx, shape, config);
  } catch (const ResourceError&) {
    const auto n = static_cast<int>(splitCandidates(ctx.info()).size());
    if (n < 2) return;
    // A slab too large for one device either: the one-device refusal names the whole volume,
    // before any voxel is read.
    FieldShape slab = shape;
    slab.depth = (shape.depth + n - 1) / n;
    try {
      checkFits(ctx, slab, config);
    } catch (const ResourceError&) {
      return;
    }
    config.devices = {"all"};
  }
}

void checkRunFits(const ComputeContext& ctx, FieldShape shape, const SolverConfig& config,
                  const std::vector<DeviceNeed>& beside, bool solve) {
  if (solve) checkFits(ctx, shape, config);
  const auto& info = ctx.info();
  const auto [fields, extra] = solveFields(shape, config, false);
  // A split spreads the field over its devices; what runs beside it is on this one.
  const bool split = !config.devices.empty() && shape.depth > 1;
  std::uint64_t total = !solve  ? solverInputBytes(shape)
                        : split ? 0
                                : solverBytes(shape, config.precision, fields, extra);
  std::string parts =
      split && solve ? "" : (solve ? "the field solve " : "the input ") + gibText(total);
  for (const DeviceNeed& need : beside) {
    if (need.bytes == 0) continue;
    if (need.largest > info.maxAllocBytes)
      throw ResourceError(need.what + " need a buffer of " + gibText(need.largest) +
                          ", more than the largest allocation of " + info.name + " (" +
                          gibText(info.maxAllocBytes) + "); run fewer or smaller ones.");
    total += need.bytes;
    parts += (parts.empty() ? "" : ", ") + need.what + " " + gibText(need.bytes);
  }
  if (total <= info.globalMemBytes) return;
  throw ResourceError("The run needs up to " + gibText(total) + " of device memory (" + parts +
                      "), more than the " + gibText(info.globalMemBytes) + " of " + info.name +
                      "; run fewer or smaller snakes or surfaces, or a smaller input.");
}

std::vector<DeviceNeed> runNeeds(const RunLoad& load, FieldShape shape,
                                 const std::array<double, 3>& spacing, bool ownEdgeInput) {
  std::vector<DeviceNeed> needs;
  if (shape.depth == 1 && load.snakes > 0) {
    const std::size_t nodes = load.snakes * std::size_t(ParametricSnake::kMaxNodes);
    needs.push_back({std::to_string(load.snakes) + " snakes",
                     ParametricSnake::deviceBytes(load.snakes, nodes),
                     ParametricSnake::deviceBytes(1, nodes) / 2});
  }
  if (shape.depth > 1 && !load.surfaceStarts.empty()) {
    const glm::dvec3 extent = glm::dvec3(shape.width, shape.height, shape.depth) *
                              glm::dvec3(spacing[0], spacing[1], spacing[2]);
    std::size_t vertices = 0;
    for (std::size_t start : load.surfaceStarts)
      vertices += SurfaceSnake::vertexBudget(extent, load.params, start);
    const std::size_t count = load.surfaceStarts.size();
    needs.push_back({std::to_string(count) + " surfaces",
                     SurfaceSnake::deviceBytes(count, vertices), 2 * vertices * sizeof(cl_float4)});
    if (ownEdgeInput) {
      const std::uint64_t edges = solverInputBytes(shape);
      needs.push_back({"their edge map", edges, edges});
    }
  }
  for (SnakeForce force : kSnakeForces) {
    const std::uint64_t bytes = forceFieldBytes(force, shape.width, shape.height, shape.depth);
    if (bytes && std::find(load.forces.begin(), load.forces.end(), force) != load.forces.end())
      needs.push_back({std::string("the ") + forceName(force) + " field", bytes,
                       shape.count() * shape.dims() * sizeof(float)});
  }
  return needs;
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
  SolverConfig c = config;
  chooseSplit(*ctx, {volume.width, volume.height, volume.depth}, c);
  if (!c.devices.empty()) {
    const auto devices = openSplitDevices(ctx, c.devices);
    if (devices.size() > 1) return buildSplitPipeline(devices, volume, params, c, rule);
    c.devices.clear();  // they came to one: the plain solver, checked as such
  }
  return buildPipeline(std::move(ctx), volume, params, c, rule);
}

GvfPipeline buildSplitPipeline(const std::vector<std::shared_ptr<ComputeContext>>& devices,
                               const Volume& volume, const GvfParams& params,
                               const SolverConfig& config, MuRule rule) {
  GvfPipeline p;
  p.sigma = chooseSigma(volume, params);
  const VolumeInputPlanes planes(devices, volume, p.sigma.sigma, params.v0Mode, params.spacing);
  // μ is checked once the slabs' max |V0|² is known: the solver starts at one its kind takes.
  auto split = makeSplitSolver(
      devices, {volume.width, volume.height, volume.depth},
      [&](ComputeContext& device, const Slab& s) { return planes(device, s.lo, s.hi); },
      muRange(config.kind, 3).lowOpen ? muRange(config.kind, 3).high : 0.0, config);
  p.input = split->input();
  p.mu = checkMu(config.kind, p.input, params.mu, rule);
  split->setMu(p.mu.mu);
  p.solver = std::move(split);
  return p;
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
