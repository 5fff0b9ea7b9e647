#pragma once
// Trails, as in Xu and Prince's figures: each snake's contour kept every N of its iterations
// (its start first), for drawing faded under the live snakes (viewer, figures, recordings).
// Bounded: past kMaxShapes shapes a snake's trail keeps every other one and samples half as
// often, so it always spans the whole run.
#include <glm/vec2.hpp>
#include <map>
#include <vector>

#include "gvflab/parametric_snake.hpp"

namespace gvflab {

struct SnakeTrail {
  int id = 0;
  SnakeForce force = SnakeForce::Gvf;
  std::vector<std::vector<glm::vec2>> shapes;  // oldest first
  bool closed = true;                          // an open snake (its boundary) draws open
};

class SnakeTrails {
 public:
  static constexpr std::size_t kMaxShapes = 48;

  // Every n iterations of each snake; 0: no trails (and forgets them).
  void setEvery(int n);
  int every() const { return every_; }
  // After each step: keeps the shapes that crossed a multiple of the snake's own interval,
  // starts a trail for new snakes, restarts one whose snake went back (a replay), and drops
  // the trails of snakes that are gone.
  void record(const std::vector<SnakeContour>& contours);
  void clear() { trails_.clear(); }
  // In the order of the contours last recorded.
  const std::vector<SnakeTrail>& trails() const { return list_; }

 private:
  struct Kept {
    SnakeTrail trail;
    long interval = 0;       // iterations between shapes (grows when thinned)
    long lastIteration = 0;  // the snake's iterations at the last shape
  };
  int every_ = 0;
  std::map<int, Kept> trails_;
  std::vector<SnakeTrail> list_;
};

}  // namespace gvflab
