#pragma once
// The viewer's snakes: a ParametricSnake batch on the session's field, the hand edits with
// undo / redo, and the capture-range maps (one per force) with their areas. No GL here.
#include <array>
#include <glm/vec2.hpp>
#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "cli/snake_options.hpp"
#include "gvflab/capture_range.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/snake_trails.hpp"
#include "viewer/model/compare_forces.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

// A capture map as the overlay draws it: captureMapRgb's colours, see-through where a pixel is
// not captured.
std::vector<unsigned char> captureOverlayRgba(const std::vector<int>& steps, int maxSteps);

class SnakeSession {
 public:
  SnakeSession(Session& session, const app::SnakeOptions& options);

  // Once per frame, after the GVF step: follows image changes (the snakes are dropped), steps
  // the snakes by framesIterations() and refreshes the capture maps when asked or stale.
  void advanceFrame();
  // Follows a new image now (the snakes are dropped) without stepping.
  void followImage();

  // Edits (each one can be undone). Points are in image pixels; they are clamped to the image.
  // New snakes take newForce() unless a force is given, and become the selected snake.
  void addCircle(glm::vec2 centre, float radius);
  int addPolygon(std::vector<glm::vec2> points, std::optional<SnakeForce> force = std::nullopt);
  void moveNode(int id, int node, glm::vec2 to);  // during a drag: no history entry
  void beginNodeDrag();                           // one history entry for a whole drag
  void remove(int id);
  void clear();
  // Replaces every snake by these (one undo step): their force, pressure, starting contour.
  void replaceAll(const std::vector<app::SnakeSpec>& specs);
  void seedGrid(int spacing, float radius);  // small circles all over the image
  // The lesson and the race of forces: a twin of snake `id` from its starting contour for each
  // of compareForces.twinsOf its force (the same pressure); all start again from there.
  // Returns the last twin's id. Snake `id` keeps its number and stays selected (the field
  // layers keep showing its force).
  int compare(int id);
  CompareForces compareForces;
  void setForce(int id, SnakeForce f);
  // This snake's own pressure (nullopt: the parameters' pressure). Throws ParameterError.
  void setPressure(int id, std::optional<double> pressure);
  // Every snake back to its starting contour, 0 iterations, moving (the replay); their
  // progress plots start again.
  void restart();
  bool undo();
  bool redo();
  bool canUndo() const { return !undo_.empty(); }
  bool canRedo() const { return !redo_.empty(); }

  // Hit tests in image pixels: the nearest node within maxDistance, or the snake whose
  // polyline passes within maxDistance.
  struct NodeHit {
    int id = 0;
    int node = 0;
  };
  std::optional<NodeHit> nodeAt(glm::vec2 p, float maxDistance) const;
  std::optional<int> snakeAt(glm::vec2 p, float maxDistance) const;

  const std::vector<SnakeContour>& contours() const { return contours_; }
  // The snake the panel edits and whose force the field layers show (0: none).
  int selectedId() const { return selected_; }
  void select(int id);
  const SnakeContour* selected() const;
  // The force the field layers show: the selected snake's, else the force of new snakes.
  SnakeForce shownForce() const;
  // A force as a float2 field of the plane shown: GVF (the solver's), or from force_fields.hpp.
  const cl::Buffer& forceField(SnakeForce f);
  const ForceParams& forceParams() const { return forceParams_; }
  // GGVF, VFC and distance force parameters; their fields and maps are built again. Throws
  // ParameterError (and keeps the old).
  void setForceParams(const ForceParams& p);
  // Bumped by each setForceParams: the view copies the field it shows again.
  long forcesVersion() const { return forcesVersion_; }
  // A snake's progress: (its iterations, mean node displacement per iteration in pixels) after
  // each frame it moved. The displacement is the mean distance of the new nodes from the
  // previous contour (resampling-proof), divided by the iterations in between. Empty for an
  // unknown id; thinned to every other point at Session::kConvergencePoints.
  const std::vector<std::array<double, 2>>& progress(int id) const;
  SnakeParams params() const { return snakes_->params(); }
  void setParams(const SnakeParams& p);           // throws ParameterError, keeps the old
  SnakeForce newForce() const { return force_; }  // the force of snakes placed by hand
  void setNewForce(SnakeForce f) { force_ = f; }
  int frameIterations() const { return frameIterations_; }
  void setFrameIterations(int n);
  bool running() const { return running_; }
  void setRunning(bool r) { running_ = r; }
  // The next advanceFrame steps frameIterations() even when not running (S, one step).
  void requestSingleStep() { pendingStep_ = true; }
  // The snakes start once the field is done (Session::fieldReady): a snake judged on a field
  // still diffusing stops where the field ends, not where the object is. On by default.
  bool waitForField() const { return waitForField_; }
  const Session& session() const { return session_; }
  void setWaitForField(bool wait) { waitForField_ = wait; }
  // Trails: each snake drawn every n of its iterations (0: off), for the view and figures.
  void setTrailEvery(int n) {
    trails_.setEvery(n);
    trails_.record(contours_);
  }
  int trailEvery() const { return trails_.every(); }
  const std::vector<SnakeTrail>& trails() const { return trails_.trails(); }
  // Running, with snakes, and held back this frame because the field is not done yet.
  bool waitingForField() const {
    return running_ && waitForField_ && snakes_->size() > 0 && !session_.fieldReady();
  }

  // Capture-range overlay: which force it shows, and the areas of GVF, grad f and each force
  // shown since. The maps are computed only when the overlay is on and their input changed:
  // the fixed fields' when the image or the threshold changes, the GVF one also when the field
  // moved (while the solver runs, at most every kCaptureEveryFrames frames). Switching the force
  // shown recolours, no compute.
  bool showCapture = false;
  SnakeForce captureForce = SnakeForce::Gvf;
  CaptureParams captureParams = CaptureParams::defaults();
  void requestCapture() { recolour_ = true; }  // after a change of force, threshold or switch
  // CaptureRange::compute calls so far (one per force map), for the tests and the panel.
  long captureComputations() const { return captureComputations_; }
  // 0 for a force not mapped yet.
  long captureArea(SnakeForce f) const { return area_[static_cast<int>(f)]; }
  // RGBA overlay of the shown force (alpha 0 where not captured); bumps captureVersion().
  const std::vector<unsigned char>& captureRgba() const { return captureRgba_; }
  long captureVersion() const { return captureVersion_; }
  int captureMaxSteps() const { return capture_ ? capture_->maxSteps() : 0; }
  int width() const { return snakes_->width(); }
  int height() const { return snakes_->height(); }

 private:
  struct Saved {
    std::vector<glm::vec2> points, initial;
    SnakeForce force;
    std::optional<double> pressure;  // its own
    int id = 0;                      // its number, kept across undo, redo and rebuilds
    SnakeBoundary boundary = SnakeBoundary::Periodic;
  };
  using Snapshot = std::vector<Saved>;
  Snapshot snapshot() const;
  void restore(const Snapshot& s);
  const SnakeContour* find(int id) const;
  void remember();  // pushes the current state on the undo stack, clears redo
  // Undo or redo: the newest state of `from` comes back, the current one goes onto `to`.
  bool travel(std::vector<Snapshot>& from, std::vector<Snapshot>& to);
  void rebuildForImage();
  void addSpecs(const std::vector<app::SnakeSpec>& specs);
  void refreshContours();
  void computeCapture();
  glm::vec2 clampToImage(glm::vec2 p) const;
  // Snake numbers: the engine numbers snakes anew whenever they are added again (undo, redo,
  // Compare, a σ change rebuild them); the user's number stays for the snake's whole life.
  int adopt(int engineId, int number = 0);  // maps engineId to number (0: the next free one)
  int engine(int number) const;             // 0 when unknown
  void forget(int number);
  std::map<int, int> engineOf_, numberOf_;  // number -> engine id, engine id -> number
  int nextNumber_ = 1;

  Session& session_;
  std::unique_ptr<ParametricSnake> snakes_;
  ForceParams forceParams_;
  long forcesVersion_ = 0;
  std::unique_ptr<ForceFields> forces_;  // f, ∇f and the fields beside GVF, of the plane
  std::unique_ptr<CaptureRange> capture_;
  std::vector<SnakeContour> contours_;
  std::map<int, std::vector<std::array<double, 2>>> progress_;
  void recordProgress(const std::vector<SnakeContour>& before);
  std::vector<Snapshot> undo_, redo_;
  SnakeForce force_ = SnakeForce::Gvf;
  int selected_ = 0;
  int frameIterations_ = 4;
  bool running_ = true;
  bool pendingStep_ = false;
  bool waitForField_ = true;
  SnakeTrails trails_;
  long imageVersion_ = -1;
  long solveVersion_ = -1;  // Session::solveVersion the snakes started on
  long captureFieldVersion_ = -1;
  bool captureStale_ = true;  // the image changed: both maps
  bool recolour_ = false;
  double captureThresholdUsed_ = -1;
  long captureComputations_ = 0;
  std::array<std::vector<int>, kSnakeForceCount> steps_;  // per force; empty: not mapped
  std::array<long, kSnakeForceCount> area_{};
  std::vector<unsigned char> captureRgba_;
  long captureVersion_ = 0;
  int framesSinceCapture_ = 0;
};

}  // namespace gvflab::viewer
