#pragma once
// The viewer's 3D surfaces (issue 30): a SurfaceSnake batch over the session's volume, fed the
// 3D field whenever it changes and stepped under the frame budget, the 3D counterpart of
// SnakeSession. Empty and idle while the input is an image. No GL here.
#include <algorithm>
#include <array>
#include <glm/vec3.hpp>
#include <memory>
#include <optional>
#include <vector>

#include "cli/snake_options.hpp"
#include "gvflab/surface_snake.hpp"
#include "viewer/model/compare_forces.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

// What the surfaces start from (window/viewer_startup.cpp makes it from --surface).
struct SurfaceStartup {
  std::vector<app::SurfaceSpec> surfaces;
  SnakeParams params = SnakeParams::defaults();
  SnakeForce force = SnakeForce::Gvf;  // of surfaces without "@FORCE" and placed by hand
  ForceParams forces;                  // GGVF, VFC and distance force parameters
  int frameIterations = 4;  // per frame without a frame budget (--snake-frame-iterations)
};

class SurfaceSession {
 public:
  // Bad start-up surfaces throw (ParameterError, ResourceError); the caller reports them.
  SurfaceSession(Session& session, const SurfaceStartup& startup);

  // Once per frame, after the field step: follows a new volume (the surfaces are dropped) or
  // device, hands the surfaces the field when it changed and steps them, as many iterations as
  // fit budgetMs (0: frameIterations(), deterministic), once the field is ready.
  void advanceFrame(double budgetMs = 0);
  bool active() const { return snakes_ != nullptr; }  // the input is a volume

  // Voxel coordinates. New surfaces take newForce() unless given; they become selected.
  int addSphere(const glm::dvec3& centre, double radius,
                std::optional<SnakeForce> force = std::nullopt);
  // A twin of surface `id` from its starting mesh for each of compareForces.twinsOf its force;
  // all start again. Returns the last twin's id (0: no such surface).
  int compare(int id);
  CompareForces compareForces;
  void remove(int id);
  void clear();
  void restart();  // every surface back to its start (the replay)
  // A demo's surfaces, with its parameters and forces' parameters, instead of these, placed
  // on the next frame (its volume is open by then).
  void replaceAll(const app::SnakeOptions& demo);
  void select(int id) { selected_ = id; }
  int selectedId() const { return selected_; }

  const std::vector<SurfaceContour>& surfaces() const { return surfaces_; }
  // Bumped whenever surfaces() changed (the 3D view uploads its meshes again then).
  long version() const { return version_; }
  SnakeForce newForce() const { return force_; }
  void setNewForce(SnakeForce f) { force_ = f; }
  bool running() const { return running_; }
  void setRunning(bool r) { running_ = r; }
  int frameIterations() const { return frameIterations_; }
  void setFrameIterations(int n) { frameIterations_ = std::max(n, 1); }
  int lastFrameIterations() const { return lastSteps_; }
  bool waitingForField() const;
  std::array<int, 3> dims() const;  // width, height, depth of the volume (0s for an image)
  SnakeParams params() const { return params_; }
  // Those of the fields once built on a volume.
  const ForceParams& forceParams() const { return forces_ ? forces_->params() : forceParams_; }

 private:
  void rebuild();
  void refresh();
  void addSpecs(const std::vector<app::SurfaceSpec>& specs);

  Session& session_;
  SnakeParams params_;
  SnakeForce force_;
  ForceParams forceParams_;
  std::unique_ptr<ForceFields> forces_;  // the fields beside GVF, of the volume
  std::unique_ptr<SurfaceSnake> snakes_;
  std::vector<SurfaceContour> surfaces_;
  std::vector<app::SurfaceSpec> pending_;  // start-up surfaces, placed once a volume is open
  long inputVersion_ = -1, contextVersion_ = -1;
  long version_ = 0;
  int selected_ = 0;
  int frameIterations_ = 2;
  int lastSteps_ = 0;
  double msPerIteration_ = 0;  // measured, for the budget
  bool running_ = true;
};

}  // namespace gvflab::viewer
