#pragma once
// gvflab.gvf(): GVF of an image or volume with either solver, and the run that snake() shares.
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/solver.hpp"

namespace gvflab::python {

// The defaults of the engine's parameter tables (gvfParamSpecs, multigridParamSpecs).
double gvfDefault(const char* key);
int multigridDefault(const char* key);
std::string multigridChoice(const char* key);  // the default's name

struct GvfRequest {
  // None: the parameter table's default fitted to the input as the CLI does without --mu
  // (MuRule::FitDefault: lowered to the solver's top where that is lower, e.g. Euler in 3D);
  // a value: checked as given (MuRule::Refuse).
  std::optional<double> mu;
  // The engine's rule (gvflab/field_solve.hpp) decides what is left unset: by default
  // multigrid to error <= 1e-6; iterations alone are a fixed count of Euler iterations.
  std::optional<long> iterations;  // with target_error: the most to run
  std::optional<double> targetError;
  std::optional<std::string> solver;   // euler | multigrid
  std::string precision = "f32";       // f32 | f16 | snorm16
  std::optional<std::string> memory;   // Euler: buffer | image | local (None: the device's best)
  int mgA = multigridDefault("mg-a");  // multigrid cycles and sweeps
  int mgB = multigridDefault("mg-b");
  int mgC = multigridDefault("mg-c");
  std::string mgCycle = multigridChoice("mg-cycle");  // a MultigridCycle's name
  // A volume's solve split over devices (gvflab/slab_split.hpp); empty: one device.
  std::vector<std::string> devices;

  // The engine's plan for this request (iterations, target, solver checked): ParameterError.
  FieldSolvePlan plan() const;
  SolverConfig config(SolverKind kind) const;
};

// ResourceError unless the run fits the device for an input of this shape: the request's solve
// (none when solve is false: a traditional force) and the snakes or surfaces of `load` beside
// it, counted as the CLI counts them (checkRunFits), from the array's shape before any copy.
void checkGvfFits(const ComputeContext& ctx, FieldShape shape, const GvfRequest& request,
                  const RunLoad& load = {}, const std::optional<GridSpacing>& spacing = {},
                  bool solve = true);

// What gvf() returns beside the field (attributes of gvflab.GvfReport).
struct GvfReport {
  std::string solver, precision, device, note;
  std::string split;  // a split's slabs and devices (the solver's "split" fact); '' for one
  std::string cycle;  // multigrid's schedule as resolved ("mg_cycle" fact); '' for Euler
  int width = 0, height = 0, depth = 1, levels = 0;
  double mu = 0, sigma = 0;
  long iterations = 0;
  double error = 0;
  std::optional<double> targetError;
  bool reached = true;
  bool settled = false;  // stopped early: the error settled above the target (its floor here)
  double openclMs = 0;   // the solver's kernels, from OpenCL events
  double wallMs = 0;
};

// Builds the solver for an input, with μ by the request's rule (mu_rule.hpp). The one place
// that knows solver construction.
std::unique_ptr<Solver> makeSolver(const std::shared_ptr<ComputeContext>& ctx, GvfInput input,
                                   const GvfRequest& request, SolverKind kind);

struct GvfRun {
  std::unique_ptr<Solver> solver;
  GvfReport report;
};

// Runs the engine's plan for the request (planFieldSolve, runFieldSolve: the CLI's rule and
// loop, so the same request gives the same iteration count) on `made`, or a solver of input.
// Fills the report but for wall time and sigma. Call with the GIL held: the device work runs
// without it.
GvfRun runGvf(const std::shared_ptr<ComputeContext>& ctx, const GvfInput& input,
              const GvfRequest& request, const pybind11::object& progress, long progressEvery,
              std::unique_ptr<Solver> made = nullptr);

// gvf()'s and snake()'s input: built from the image, or the caller's own edge_map and/or v0
// arrays (None: not given; edge_map must have the image's shape). The device work runs
// without the GIL.
struct PixelArray;
GvfInput gvfInputOf(ComputeContext& ctx, const PixelArray& pixels, double sigma,
                    const pybind11::object& v0, const pybind11::object& edgeMap,
                    const std::optional<GridSpacing>& spacing);

// spacing= in the array's axis order ((rows, cols) or (planes, rows, cols)) as the engine's
// x, y[, z]; ParameterError naming spacing unless one value in [1e-6, 1e6] per axis.
GridSpacing gridSpacingOf(const std::vector<double>& spacing, int dims);

void bindGvf(pybind11::module_& m);

}  // namespace gvflab::python
