#pragma once
// Placing and editing snakes with the mouse, in image pixels:
//   left press + drag on empty space: a circle (centre, radius);
//   left clicks: polygon points, double-click closes it (Escape cancels);
//   left press on a node: drag it;  left click on a snake: select it;
//   right click on a snake: select it and name it for the context menu (Compare / Delete);
//   Ctrl+Z / Ctrl+Shift+Z (or Ctrl+Y): undo / redo.
#include <glm/vec2.hpp>
#include <optional>
#include <vector>

#include "viewer/model/snake_session.hpp"

namespace gvflab::viewer {

class SnakeTool {
 public:
  explicit SnakeTool(SnakeSession& snakes) : snakes_(snakes) {}

  // pickRadius: how close (image pixels) a press must be to grab a node or a snake.
  void leftPress(glm::vec2 p, float pickRadius);
  void move(glm::vec2 p, float pickRadius);
  void leftRelease(glm::vec2 p);
  void doubleClick(glm::vec2 p);
  // Cancels a polygon being placed, else returns the snake under p (selected) for the menu.
  std::optional<int> rightClick(glm::vec2 p, float pickRadius);
  void cancel();  // drops the draft
  // Ctrl+Z etc.; returns true when the key was used.
  bool key(int qtKey, bool ctrl, bool shift);

  std::vector<glm::vec2> draft() const;  // what to draw for the edit in progress
  int hoverId() const { return hoverId_; }

 private:
  enum class Mode { Idle, Pressed, Circle, DragNode };
  SnakeSession& snakes_;
  Mode mode_ = Mode::Idle;
  glm::vec2 pressAt_{0, 0}, now_{0, 0};
  float pressRadius_ = 0;
  std::vector<glm::vec2> polygon_;
  SnakeSession::NodeHit node_;
  int hoverId_ = 0;
  static constexpr float kDragThreshold = 2.0f;  // image pixels before a press becomes a drag
};

}  // namespace gvflab::viewer
