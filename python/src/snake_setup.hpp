#pragma once
// What gvflab.snake() and gvflab.surface_snake() share around their geometry: the field the
// snakes follow (device, edge map, GVF solve), and the result's state and hold test from the
// engine's one snake core (gvflab/snake_types.hpp). Each binding keeps its starts (points,
// sphere or box), its snake class and its output arrays; the keywords and the stepping loop
// are in snake_common.hpp.
#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <vector>

#include "context_cache.hpp"
#include "gvf_binding.hpp"
#include "gvflab/snake_types.hpp"

namespace gvflab::python {

struct PixelArray;

// The GVF keywords of a snake call (gvf()'s mu, iterations, target_error, solver, precision).
GvfRequest snakeGvfRequest(std::optional<double> mu, std::optional<long> iterations,
                           std::optional<double> targetError, std::optional<std::string> solver,
                           const std::string& precision);

// A snake call's device and field, set up with the GIL held once the pixels' shape and the
// starts were checked: spacing= checked, the device leased and the run (the GVF solve for the
// 'gvf' force, the snakes or surfaces of `load`) checked against it before any copy, the edge map
// built from the pixels with sigma (or the caller's edge_map) and, for the 'gvf' force, the field
// solved with progress.
struct SnakeField {
  DeviceLease lease;
  GvfInput input;
  std::optional<GvfRun> gvf;

  SnakeField(const PixelArray& pixels, SnakeForce force, const GvfRequest& request, double sigma,
             const std::string& device, const std::optional<std::vector<double>>& spacing,
             const pybind11::object& edgeMap, const pybind11::object& progress, long progressEvery,
             const RunLoad& load);
  ComputeContext& ctx() const { return *lease.ctx; }
  // What the snakes follow with the 'gvf' force; the traditional force is input.v0 = grad f.
  const cl::Buffer& field() const { return gvf ? gvf->solver->field() : input.v0; }
};

// What SnakeResult and SurfaceResult share: one snake's force, state and hold test as the
// engine left them, the call's OpenCL time and GVF report.
struct SnakeOutcome {
  std::string force;
  std::string state;  // snakeStateName: "moving" | "converged" | "stalled" | "collapsed"
  long iterations = 0;
  double held = 0, holdGap = 0;  // the hold test at its last stop
  double openclMs = 0;           // every snake of the call together
  std::optional<GvfReport> gvf;  // None for the traditional force
};

// A SnakeContour's or SurfaceContour's outcome.
template <class Contour>
SnakeOutcome outcomeOf(const Contour& c, double openclMs, const SnakeField& field) {
  return {forceName(c.force),
          snakeStateName(c.state),
          c.iterations,
          c.held,
          c.holdGap,
          openclMs,
          field.gvf ? std::optional(field.gvf->report) : std::nullopt};
}

// SnakeOutcome's attributes on a result class; heldDoc and gapDoc say what held and hold_gap
// count there (nodes and pixels, vertices and voxels).
template <class Result>
void defOutcome(pybind11::class_<Result>& cls, const char* heldDoc, const char* gapDoc) {
  cls.def_readonly("force", &Result::force)
      .def_readonly("state", &Result::state,
                    "'moving', 'converged', 'stalled' or 'collapsed' (the CLI's states, one "
                    "engine rule for contours and surfaces; see gvflab.SNAKE_STATES).")
      .def_property_readonly("converged", [](const Result& r) { return r.state == "converged"; })
      .def_readonly("iterations", &Result::iterations, "Iterations run while moving.")
      .def_readonly("held", &Result::held, heldDoc)
      .def_readonly("hold_gap", &Result::holdGap, gapDoc)
      .def_readonly("opencl_ms", &Result::openclMs,
                    "OpenCL time of the snake kernels (all snakes of the call).")
      .def_readonly("gvf", &Result::gvf, "The GVF solve's report (None for traditional).");
}

}  // namespace gvflab::python
