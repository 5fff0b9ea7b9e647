#pragma once
// The viewer's snakes: a ParametricSnake batch on the session's field, the hand edits with
// undo / redo, and the capture-range maps (GVF and traditional) with their areas. No GL here.
#include <memory>
#include <optional>
#include <vector>

#include <glm/vec2.hpp>

#include "cli/snake_options.hpp"
#include "gvflab/capture_range.hpp"
#include "gvflab/parametric_snake.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

class SnakeSession {
 public:
  SnakeSession(Session& session, const app::SnakeOptions& options);

  // Once per frame, after the GVF step: follows image changes (the snakes are dropped), steps
  // the snakes by framesIterations() and refreshes the capture maps when asked or stale.
  void advanceFrame();

  // Edits (each one can be undone). Points are in image pixels; they are clamped to the image.
  void addCircle(glm::vec2 centre, float radius);
  void addPolygon(std::vector<glm::vec2> points);
  void moveNode(int id, int node, glm::vec2 to);  // during a drag: no history entry
  void beginNodeDrag();                           // one history entry for a whole drag
  void remove(int id);
  void clear();
  void seedGrid(int spacing, float radius);  // small circles all over the image
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
  SnakeParams params() const { return snakes_->params(); }
  void setParams(const SnakeParams& p);  // throws ParameterError, keeps the old
  SnakeForce newForce() const { return force_; }
  void setNewForce(SnakeForce f) { force_ = f; }
  void setForceOfAll(SnakeForce f);
  int frameIterations() const { return frameIterations_; }
  void setFrameIterations(int n);
  bool running() const { return running_; }
  void setRunning(bool r) { running_ = r; }

  // Capture-range overlay: which force it shows, and the areas of both.
  bool showCapture = false;
  SnakeForce captureForce = SnakeForce::Gvf;
  CaptureParams captureParams = CaptureParams::defaults();
  void requestCapture() { captureStale_ = true; }
  long captureArea(SnakeForce f) const { return f == SnakeForce::Gvf ? areaGvf_ : areaTrad_; }
  // RGBA overlay of the shown force (alpha 0 where not captured); bumps captureVersion().
  const std::vector<unsigned char>& captureRgba() const { return captureRgba_; }
  long captureVersion() const { return captureVersion_; }
  int width() const { return snakes_->width(); }
  int height() const { return snakes_->height(); }

 private:
  struct Saved {
    std::vector<glm::vec2> points;
    SnakeForce force;
  };
  using Snapshot = std::vector<Saved>;
  Snapshot snapshot() const;
  void restore(const Snapshot& s);
  void remember();  // pushes the current state on the undo stack, clears redo
  void rebuildForImage();
  void refreshContours();
  void computeCapture();
  glm::vec2 clampToImage(glm::vec2 p) const;

  Session& session_;
  std::unique_ptr<ParametricSnake> snakes_;
  GvfInput edgeInput_;  // f and ∇f (the traditional force)
  std::unique_ptr<CaptureRange> capture_;
  std::vector<SnakeContour> contours_;
  std::vector<Snapshot> undo_, redo_;
  SnakeForce force_ = SnakeForce::Gvf;
  int frameIterations_ = 4;
  bool running_ = true;
  long imageVersion_ = -1;
  long captureFieldVersion_ = -1;
  bool captureStale_ = true;
  long areaGvf_ = 0, areaTrad_ = 0;
  std::vector<unsigned char> captureRgba_;
  long captureVersion_ = 0;
  int framesSinceCapture_ = 0;
};

}  // namespace gvflab::viewer
