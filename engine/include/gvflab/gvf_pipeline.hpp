#pragma once
// The whole GVF pipeline in one place: image or volume -> edge map and V0 (gvf_input.hpp) ->
// solver (Euler or multigrid), with the device fit checked before anything is allocated and
// μ checked by the one rule (mu_rule.hpp). The headless CLI, the viewer and the bench build
// their solvers here; adding a solver means a SolverKind, a case in makeSolver, checkFits and
// its range in mu_rule.cpp.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "gvflab/euler_solver.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/noise_sigma.hpp"
#include "gvflab/params.hpp"
#include "gvflab/snake_types.hpp"
#include "gvflab/solver.hpp"
#include "gvflab/solver_kind.hpp"

namespace gvflab {

class ComputeContext;

// Which solver and its settings.
struct SolverConfig {
  SolverKind kind = SolverKind::Euler;
  Precision precision = Precision::F32;  // both solvers
  std::optional<MemoryKind> memory;      // Euler only; nullopt: the device's default
  int a = kMultigridSweeps.a, b = kMultigridSweeps.b, c = kMultigridSweeps.c;  // multigrid only
  int cycle = kMultigridSweeps.cycle;  // multigrid only (MultigridOptions::cycle)
  int mgCoarseSide = -1;               // multigrid only (MultigridOptions::coarseSide)
  int mgFused = -1;                    // multigrid only (MultigridOptions::fused)
  int mgPersistent = -1;  // multigrid only (MultigridOptions::persistent; -1: `persistent`'s)
  int mgGroups = 0;       // multigrid only (MultigridOptions::persistentGroups)
  int mgSide = -1;        // multigrid only (MultigridOptions::persistentSide)
  bool mgTrace = false;   // multigrid only (MultigridOptions::trace)
  int mgVariant = -1;     // multigrid only (MultigridOptions::persistentVariant)
  // Euler's tuning (tile shapes, one launch per step): the defaults suit every device.
  TileShape tile;
  Tile3D tile3d;
  std::optional<bool> persistent;
  // A volume's Euler solve split in z-slabs over devices (slab_split.hpp): empty for one
  // device; "all" or chooseDevice selectors, the pipeline's context standing for the first.
  // makeSolver opens them, checks each device's fit and refuses multigrid and 2D inputs.
  std::vector<std::string> devices;
  int splitHalo = 4;     // planes exchanged every splitHalo iterations
  int splitLevels = -1;  // multigrid's levels split over the devices (-1: the solver's choice)

  EulerOptions eulerOptions() const;
  MultigridOptions multigridOptions() const;
  // Keeps the values a running solver took through Solver::setOwnParamValues (same order),
  // so the next solver of this kind is built with them. Unchecked: the solver checked them.
  void keepOwnParamValues(const std::vector<double>& values);
};

// Refuses (ResourceError naming the size, the limit and what would fit) a solve that would not
// fit the device, before anything is allocated. both = true: an Euler and a multigrid solver
// together (the viewer's race).
void checkFits(const ComputeContext& ctx, FieldShape shape, const SolverConfig& config,
               bool both = false);

// The split chosen when none was asked for (issue 41): a volume whose solve does not fit
// ctx's device runs over "all" devices (slab_split.hpp) when that names more than one; each
// slab's fit is then checked on its device (makeSolver).
void chooseSplit(const ComputeContext& ctx, FieldShape shape, SolverConfig& config);

// Device memory a run holds beside its field solve (snakes, surfaces, a second edge input):
// `what` names it in the refusal ("12 surfaces"), `largest` is its largest single buffer.
struct DeviceNeed {
  std::string what;
  std::uint64_t bytes = 0;
  std::uint64_t largest = 0;
};
// checkFits, then the solve and everything `beside` it counted together against the device:
// ResourceError naming each part, before anything is allocated. solve = false: a run without a
// field solve (a traditional-force snake) holds only its input, f and V0.
void checkRunFits(const ComputeContext& ctx, FieldShape shape, const SolverConfig& config,
                  const std::vector<DeviceNeed>& beside, bool solve = true);

// What a run moves beside its field (the headless run, the viewer's start, Python's snakes).
struct RunLoad {
  std::size_t snakes = 0;                        // parametric snakes, on an image
  std::vector<std::size_t> surfaceStarts;        // each surface's start vertices, on a volume
  SnakeParams params = SnakeParams::defaults();  // dmin sets the surfaces' vertex budgets
  std::vector<SnakeForce> forces;                // the forces they hold (repeats allowed)
};
// Its device needs for checkRunFits: the snakes at kMaxNodes nodes each on an image (depth 1),
// the surfaces at their vertex budgets in a volume of this spacing and their own edge input
// where the solved V0 is not grad f (ownEdgeInput); each at the doubled capacity it grows to;
// and each force's own field once (forceFieldBytes: GGVF, VFC, the distance force).
std::vector<DeviceNeed> runNeeds(const RunLoad& load, FieldShape shape,
                                 const std::array<double, 3>& spacing, bool ownEdgeInput);

// The input for a solver of this config: checkFits first, then f and V0 on the device, in
// `spacing` or else the data's geometry.spacing. Throws as buildGvfInput and checkFits.
GvfInput makeGvfInput(ComputeContext& ctx, const Image2D& image, double sigma, V0Mode mode,
                      const SolverConfig& config,
                      const std::optional<GridSpacing>& spacing = std::nullopt);
GvfInput makeGvfInput(ComputeContext& ctx, const Volume& volume, double sigma, V0Mode mode,
                      const SolverConfig& config,
                      const std::optional<GridSpacing>& spacing = std::nullopt);

// A solver on an input: checkFits, then the solver of config.kind (which checks μ: ParameterError
// beyond muBound() for Euler). The typed ones are for callers that use a solver's own API
// (the bench's tile shapes); config.kind is ignored there.
std::unique_ptr<Solver> makeSolver(std::shared_ptr<ComputeContext> ctx, const GvfInput& input,
                                   double mu, const SolverConfig& config);
std::unique_ptr<EulerSolver> makeEulerSolver(std::shared_ptr<ComputeContext> ctx,
                                             const GvfInput& input, double mu,
                                             const SolverConfig& config);
std::unique_ptr<MultigridSolver> makeMultigridSolver(std::shared_ptr<ComputeContext> ctx,
                                                     const GvfInput& input, double mu,
                                                     const SolverConfig& config);

// Image or volume to a ready solver: checkFits, σ (chooseSigma: params.sigma, or from the
// image's noise when params.sigmaFromNoise), the input, checkMu (params.mu by rule), the
// solver. Nothing is kept when any step throws.
struct GvfPipeline {
  GvfInput input;
  std::unique_ptr<Solver> solver;
  MuCheck mu;         // the μ the solver runs with, and whether it was clamped
  SigmaChoice sigma;  // the σ f was made with, and why
};
GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, const Image2D& image,
                             const GvfParams& params, const SolverConfig& config, MuRule rule);
GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, const Volume& volume,
                             const GvfParams& params, const SolverConfig& config, MuRule rule);
// A volume split over devices (opened: openSplitDevices, or sub-devices) with each slab's f and
// V0 built on its device from the volume's planes (VolumeInputPlanes): no device holds the whole
// input, and `input` has the volume's sizes, spacing and max |V0|² but no buffers. The volume
// overload above takes this path when config.devices (or chooseSplit) names several devices.
GvfPipeline buildSplitPipeline(const std::vector<std::shared_ptr<ComputeContext>>& devices,
                               const Volume& volume, const GvfParams& params,
                               const SolverConfig& config, MuRule rule);
// The same from an input already built (a researcher's own f and V0, gvfInputFrom): checkFits,
// checkMu on its max |V0|², the solver. params.sigma and v0Mode are not used (sigma.reason
// says so).
GvfPipeline buildGvfPipeline(std::shared_ptr<ComputeContext> ctx, GvfInput input,
                             const GvfParams& params, const SolverConfig& config, MuRule rule);

}  // namespace gvflab
