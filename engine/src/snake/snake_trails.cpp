#include "gvflab/snake_trails.hpp"

#include <algorithm>
#include <iterator>
#include <set>

namespace gvflab {

void SnakeTrails::setEvery(int n) {
  n = std::max(n, 0);
  if (n == every_) return;
  every_ = n;
  trails_.clear();
  list_.clear();
}

void SnakeTrails::record(const std::vector<SnakeContour>& contours) {
  list_.clear();
  if (every_ <= 0) return;
  std::set<int> alive;
  for (const auto& c : contours) {
    alive.insert(c.id);
    auto it = trails_.find(c.id);
    const bool restarted = it != trails_.end() && c.iterations < it->second.lastIteration;
    if (it == trails_.end() || restarted) {
      Kept k;
      k.trail.id = c.id;
      k.interval = every_;
      k.trail.shapes.push_back(c.points);
      k.lastIteration = c.iterations;
      it = trails_.insert_or_assign(c.id, std::move(k)).first;
    }
    Kept& k = it->second;
    k.trail.force = c.force;
    k.trail.closed = c.closed();
    if (c.iterations == 0) k.trail.shapes.assign(1, c.points);  // edited before it moved
    if (c.iterations / k.interval > k.lastIteration / k.interval) {
      k.trail.shapes.push_back(c.points);
      k.lastIteration = c.iterations;
      if (k.trail.shapes.size() > kMaxShapes) {  // every other one, the start kept
        std::vector<std::vector<glm::vec2>> kept;
        for (std::size_t i = 0; i < k.trail.shapes.size(); i += 2)
          kept.push_back(std::move(k.trail.shapes[i]));
        k.trail.shapes = std::move(kept);
        k.interval *= 2;
      }
    }
    list_.push_back(k.trail);
  }
  for (auto it = trails_.begin(); it != trails_.end();)
    it = alive.count(it->first) ? std::next(it) : trails_.erase(it);
}

}  // namespace gvflab
