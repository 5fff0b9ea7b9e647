#include "headless/headless_surfaces.hpp"

#include <sstream>

#include "gvflab/surface_mesh.hpp"
#include "gvflab/surface_snake.hpp"
#include "headless/run_progress.hpp"
#include "headless/state_tally.hpp"
#include "io/surface_file.hpp"

namespace gvflab::app {
namespace {

// The traditional force's input, f and grad f: the solved input itself where its V0 is grad f
// (the default) and it is whole on this device, else f's gradient (a user's V0) or the
// volume's edge map built anew (a split built it per slab).
GvfInput edgeInputOf(ComputeContext& ctx, const GvfInput& solved, const Volume& volume,
                     const Options& o) {
  if (solved.userV0) return gvfInputFrom(ctx, readEdgeVolume(ctx, solved));
  if (o.gvf.v0Mode == V0Mode::EdgeGradient && solved.v0()) return solved;
  return buildGvfInput(ctx, volume, o.gvf.sigma, V0Mode::EdgeGradient, solved.spacing);
}

}  // namespace

SurfaceRunSummary runHeadlessSurfaces(const std::shared_ptr<ComputeContext>& ctx, Solver& solver,
                                      const GvfInput& input, const Volume& volume, const Options& o,
                                      RunOutputs& outputs) {
  const SnakeOptions& so = o.snakes;
  SurfaceRunSummary out;
  if (so.surfaces.empty()) return out;
  ForceFields forces(ctx, edgeInputOf(*ctx, input, volume, o), so.forces);
  SurfaceSnake snakes(ctx, solver.width(), solver.height(), solver.depth(), so.params);
  std::vector<SnakeForce> used;
  for (const auto& spec : so.surfaces) used.push_back(spec.forceOr(so.force));
  snakes.setFields(forces.fields(used, solver.field()), forces.edges());
  for (const auto& spec : so.surfaces) {
    const int id = snakes.add(spec.mesh(so.params), spec.forceOr(so.force), spec.pressure);
    if (!spec.initial.empty()) snakes.setInitial(id, spec.initial);
  }
  // A signal is polled every resampling period: each is bounded by the surfaces' vertex
  // budgets (SurfaceSnake::vertexBudget), so the stage stops within a second as every other.
  RunProgress progress(RunProgress::wanted(o.quiet), so.iterations, "surfaces");
  stepUntilStopped(*ctx, snakes, so.iterations, so.params.resample, "surface iterations",
                   [&](int done) { progress.update(done, nullptr); });
  snakes.settleMeshes();  // what is written is remeshed and untangled
  const std::vector<SurfaceContour> surfaces = snakes.surfaces();

  const SurfaceCoordinates coordinates =
      resolveSurfaceCoordinates(so.surfaceCoordinates, volume.geometry);
  auto& list = out.report["surfaces"] = nlohmann::ordered_json::array();
  StateTally tally;
  for (std::size_t i = 0; i < surfaces.size(); ++i) {
    const SurfaceContour& s = surfaces[i];
    nlohmann::ordered_json entry = {{"force", forceName(s.force)},
                                    {"state", snakeStateName(s.state)},
                                    {"iterations", s.iterations},
                                    {"converged", s.converged()},
                                    {"vertices", s.mesh.vertices.size()},
                                    {"faces", s.mesh.faces.size()},
                                    {"volume", meshVolume(s.mesh)},
                                    {"area", meshArea(s.mesh)},
                                    {"held", s.held},
                                    {"hold_gap", s.holdGap}};
    if (so.saveSurfaces) {
      const std::string file = surfaceFileName(*so.saveSurfaces, i + 1);
      outputs.write(file, [&] {
        writeSurface(file,
                     coordinates == SurfaceCoordinates::World
                         ? surfaceInWorld(s.mesh, volume.geometry)
                         : s.mesh,
                     surfaceCoordinatesNote(coordinates));
      });
      entry["file"] = file;
    }
    list.push_back(std::move(entry));
    tally.add(s.state, s.force);
  }
  out.report["surface_coordinates"] = surfaceCoordinatesName(coordinates);
  std::ostringstream console;
  console << tally.line("surfaces");
  for (std::size_t i = 0; i < surfaces.size(); ++i)
    console << (i ? "; " : " (") << snakeStateName(surfaces[i].state) << " after "
            << surfaces[i].iterations << (i + 1 == surfaces.size() ? ")" : "");
  out.consoleLine = console.str();
  return out;
}

}  // namespace gvflab::app
