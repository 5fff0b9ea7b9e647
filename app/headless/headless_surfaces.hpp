#pragma once
// The surface part of a headless run on a volume: after the GVF iterations, evolve the
// --surface meshes (SurfaceSnake, the snakes' parameters and --snake-iterations), write
// --save-surfaces (F-1.ply, F-2.ply, ...) and return the report's surface entries.
#include <nlohmann/json.hpp>
#include <string>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/image.hpp"
#include "gvflab/solver.hpp"
#include "io/run_outputs.hpp"

namespace gvflab::app {

struct SurfaceRunSummary {
  nlohmann::ordered_json report = nlohmann::ordered_json::object();  // "surfaces": [...]
  std::string consoleLine;  // one line for stdout ("" when no surface ran)
};

// Writes through outputs (removed if the run fails later). Throws gvflab::Error (an
// unwritable file, Interrupted, ...); the surfaces were checked before (cli/run_checks.hpp).
// input: the solved field's input; volume: the input volume (the traditional force's f when
// the field's V0 is not grad f).
SurfaceRunSummary runHeadlessSurfaces(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                      const GvfInput& input, const Volume& volume,
                                      const Options& options, RunOutputs& outputs);

}  // namespace gvflab::app
