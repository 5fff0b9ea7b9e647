#include "viewer/modes/snake_tool.hpp"

#include <Qt>
#include <cmath>
#include <glm/geometric.hpp>

namespace gvflab::viewer {

void SnakeTool::leftPress(glm::vec2 p, float pickRadius) {
  pressAt_ = now_ = p;
  pressRadius_ = pickRadius;
  if (polygon_.empty()) {
    if (auto hit = snakes_.nodeAt(p, pickRadius)) {
      node_ = *hit;
      snakes_.select(hit->id);
      snakes_.beginNodeDrag();
      mode_ = Mode::DragNode;
      return;
    }
  }
  mode_ = Mode::Pressed;
}

void SnakeTool::move(glm::vec2 p, float pickRadius) {
  now_ = p;
  if (mode_ == Mode::Pressed && polygon_.empty() && glm::length(p - pressAt_) > kDragThreshold)
    mode_ = Mode::Circle;
  if (mode_ == Mode::DragNode) snakes_.moveNode(node_.id, node_.node, p);
  auto hover = mode_ == Mode::Idle ? snakes_.snakeAt(p, pickRadius) : std::nullopt;
  hoverId_ = hover.value_or(0);
}

void SnakeTool::leftRelease(glm::vec2 p) {
  now_ = p;
  if (mode_ == Mode::Circle) {
    snakes_.addCircle(pressAt_, glm::length(p - pressAt_));
  } else if (mode_ == Mode::Pressed) {
    // A click on a snake selects it; elsewhere it is one more polygon point.
    const auto onSnake = polygon_.empty() ? snakes_.snakeAt(p, pressRadius_) : std::nullopt;
    if (onSnake)
      snakes_.select(*onSnake);
    else
      polygon_.push_back(p);
  }
  mode_ = Mode::Idle;
}

void SnakeTool::doubleClick(glm::vec2) {
  // The double-click's first press already added its point; a second one would repeat it.
  if (polygon_.size() >= 2 && glm::length(polygon_.back() - polygon_[polygon_.size() - 2]) < 1)
    polygon_.pop_back();
  auto points = std::move(polygon_);
  polygon_.clear();
  mode_ = Mode::Idle;
  if (points.size() >= 3) snakes_.addPolygon(std::move(points));
}

std::optional<int> SnakeTool::rightClick(glm::vec2 p, float pickRadius) {
  if (!polygon_.empty()) {
    cancel();
    return std::nullopt;
  }
  auto id = snakes_.snakeAt(p, pickRadius);
  if (id) snakes_.select(*id);
  return id;
}

void SnakeTool::cancel() {
  polygon_.clear();
  mode_ = Mode::Idle;
}

bool SnakeTool::key(int qtKey, bool ctrl, bool shift) {
  if (qtKey == Qt::Key_Escape && mode_ != Mode::Idle) {  // else Esc is the window's (help)
    cancel();
    return true;
  }
  if (!ctrl) return false;
  if (qtKey == Qt::Key_Z && !shift) return snakes_.undo(), true;
  if ((qtKey == Qt::Key_Z && shift) || qtKey == Qt::Key_Y) return snakes_.redo(), true;
  return false;
}

std::vector<glm::vec2> SnakeTool::draft() const {
  if (mode_ == Mode::Circle) {
    const float r = glm::length(now_ - pressAt_);
    std::vector<glm::vec2> ring;
    for (int i = 0; i <= 48; ++i) {
      const float a = 6.2831853f * i / 48;
      ring.push_back(pressAt_ + r * glm::vec2(std::cos(a), std::sin(a)));
    }
    return ring;
  }
  auto pts = polygon_;
  if (!pts.empty()) pts.push_back(now_);  // rubber band to the mouse
  return pts;
}

}  // namespace gvflab::viewer
