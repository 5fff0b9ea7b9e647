#include "viewer/modes/plain_mode.hpp"

#include <algorithm>

namespace gvflab::viewer {

PlainMode::PlainMode(Session& session, const app::SnakeOptions& snakes, ErrorLog& errors) {
  if (!errors.guard("Placing the --snake contours",
                    [&] { snakes_ = std::make_unique<SnakeSession>(session, snakes); })) {
    app::SnakeOptions plain = snakes;
    plain.snakes.clear();
    snakes_ = std::make_unique<SnakeSession>(session, plain);
  }
  tool_ = std::make_unique<SnakeTool>(*snakes_);
}

PlainMode::~PlainMode() = default;

void PlainMode::initGl() {
  snakeLayer_ = std::make_unique<SnakeLayer>();
  streamlines_ = std::make_unique<StreamlineLayer>();
}

void PlainMode::releaseGl() {
  streamlines_.reset();
  snakeLayer_.reset();
}

void PlainMode::advance(ErrorLog& errors) {
  if (!errors.guard("Moving the snakes", [&] { snakes_->advanceFrame(); }))
    snakes_->setRunning(false);
}

void PlainMode::drawPanels(const PanelPlace&, ErrorLog& errors) {
  drawSnakePanel(*snakes_, overlay_, errors);
}

bool PlainMode::drawPicture(ViewFrame& f) {
  f.renderer->draw(f.area, f.view, f.shown, f.presenter->texture(), std::max(f.range, 1e-12f));
  return true;
}

void PlainMode::drawOverlay(ViewFrame& f) {
  if (f.renderer && f.presenter && f.layers.showStreamlines && streamlines_ && !f.fieldHidden)
    f.errors.guard("Drawing the streamlines", [&] {
      streamlines_->draw(f.area, f.view, f.presenter->hostField(), f.presenter->texture().width,
                         f.presenter->texture().height, f.layers, f.shownFieldVersion);
    });
  if (!snakeLayer_ || f.snakesHidden) return;
  f.errors.guard("Drawing the snakes", [&] {
    if (snakes_->captureVersion() != shownCaptureVersion_) {
      snakeLayer_->setCapture(snakes_->captureRgba(), snakes_->width(), snakes_->height());
      shownCaptureVersion_ = snakes_->captureVersion();
    }
    SnakeDrawing d{&snakes_->contours(), tool_->draft(), overlay_.showNodes, tool_->hoverId()};
    snakeLayer_->draw(f.area, f.view, d, snakes_->showCapture, overlay_.captureOpacity);
  });
}

// Left button: snake editing (SnakeTool); middle button or Shift + left: pan; right button:
// delete a snake.
bool PlainMode::mousePress(PointerEvent& e) {
  if (e.button == Qt::MiddleButton ||
      (e.button == Qt::LeftButton && (e.modifiers & Qt::ShiftModifier))) {
    panning_ = true;
    panLast_ = e.logical;
  } else if (e.button == Qt::LeftButton) {
    tool_->leftPress(e.image, e.pickRadius);
  } else if (e.button == Qt::RightButton) {
    e.errors.guard("Deleting a snake", [&] { tool_->rightClick(e.image, e.pickRadius); });
  }
  return true;
}

bool PlainMode::mouseMove(PointerEvent& e) {
  if (!panning_) {
    e.errors.guard("Editing a snake", [&] { tool_->move(e.image, e.pickRadius); });
    return true;
  }
  const QPointF d = e.logical - panLast_;
  panLast_ = e.logical;
  e.view.pan.x += static_cast<float>(d.x()) * e.dpr;
  e.view.pan.y += static_cast<float>(d.y()) * e.dpr;
  return true;
}

bool PlainMode::mouseRelease(PointerEvent& e) {
  if (e.button == Qt::LeftButton && !panning_)
    e.errors.guard("Placing a snake", [&] { tool_->leftRelease(e.image); });
  panning_ = false;
  return true;
}

bool PlainMode::mouseDoubleClick(PointerEvent& e) {
  if (e.button == Qt::LeftButton)
    e.errors.guard("Closing the polygon", [&] { tool_->doubleClick(e.image); });
  return true;
}

bool PlainMode::key(const KeyPress& k) { return tool_->key(k.key, k.ctrl, k.shift); }

}  // namespace gvflab::viewer
