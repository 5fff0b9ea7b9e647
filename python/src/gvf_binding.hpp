#pragma once
// gvflab.gvf(): GVF of an image or volume with either solver, and the run that snake() shares.
#include <pybind11/pybind11.h>

#include <memory>
#include <optional>
#include <string>

#include "gvflab/gvf_input.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/solver.hpp"

namespace gvflab::python {

struct GvfRequest {
  double mu = 0.15;
  // The engine's rule (gvflab/field_solve.hpp) decides what is left unset: by default
  // multigrid to error <= 1e-6; iterations alone are a fixed count of Euler iterations.
  std::optional<long> iterations;  // with target_error: the most to run
  std::optional<double> targetError;
  std::optional<std::string> solver;  // euler | multigrid
  std::string precision = "f32";      // f32 | f16 | snorm16
  std::optional<std::string> memory;  // Euler: buffer | image | local (None: the device's best)
  int mgA = 1, mgB = 2, mgC = 1;      // multigrid cycles and sweeps
};

// What gvf() returns beside the field (attributes of gvflab.GvfReport).
struct GvfReport {
  std::string solver, precision, device, note;
  int width = 0, height = 0, depth = 1, levels = 0;
  double mu = 0, sigma = 0;
  long iterations = 0;
  double error = 0;
  std::optional<double> targetError;
  bool reached = true;
  double openclMs = 0;  // the solver's kernels, from OpenCL events
  double wallMs = 0;
};

// Builds the solver for an input. The one place that knows solver construction, so it can
// switch to the engine's pipeline factory when that lands.
std::unique_ptr<Solver> makeSolver(const std::shared_ptr<ComputeContext>& ctx, GvfInput input,
                                   const GvfRequest& request, SolverKind kind);

struct GvfRun {
  std::unique_ptr<Solver> solver;
  GvfReport report;
};

// Runs the engine's plan for the request (planFieldSolve, runFieldSolve: the CLI's rule and
// loop, so the same request gives the same iteration count). Fills the report but for
// wall time and sigma.
GvfRun runGvf(const std::shared_ptr<ComputeContext>& ctx, const GvfInput& input,
              const GvfRequest& request, const pybind11::object& progress, long progressEvery);

void bindGvf(pybind11::module_& m);

}  // namespace gvflab::python
