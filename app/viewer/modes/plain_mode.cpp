#include "viewer/modes/plain_mode.hpp"

#include <imgui.h>

#include <algorithm>

#include "viewer/model/lesson.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {

PlainMode::PlainMode(Session& session, const app::SnakeOptions& snakes, ErrorLog& errors)
    : session_(session) {
  if (!errors.guard("Placing the --snake contours",
                    [&] { snakes_ = std::make_unique<SnakeSession>(session, snakes); })) {
    app::SnakeOptions plain = snakes;
    plain.snakes.clear();
    snakes_ = std::make_unique<SnakeSession>(session, plain);
  }
  tool_ = std::make_unique<SnakeTool>(*snakes_);
}

PlainMode::~PlainMode() = default;

void PlainMode::advance(ErrorLog& errors) {
  if (!errors.guard("Moving the snakes", [&] { snakes_->advanceFrame(); }))
    snakes_->setRunning(false);
}

std::string PlainMode::fieldCaption() const {
  const SnakeContour* c = snakes_->selected();
  const std::string whose = c ? " (snake #" + std::to_string(c->id) + ")" : " (new snakes)";
  return std::string("field shown: ") + forceLabel(snakes_->shownForce()) + whose;
}

void PlainMode::drawPanelSections(ErrorLog& errors) {
  SnakeActions actions;
  drawSnakePanel(*snakes_, overlay_, actions, errors);
  act(actions, errors);
}

void PlainMode::drawPanels(const PanelPlace& place, ErrorLog& errors) {
  drawContextMenu(errors);
  if (place.snakesOnCanvas) {
    const CanvasRect view{place.viewLeft, 0, place.viewWidth, place.height};
    // Below the demo's explanation, above the cursor readout's line.
    const CanvasRect below{place.viewLeft, place.canvasTop, place.viewWidth,
                           place.height - place.canvasTop - cursorReadoutHeight()};
    // The snakes' and the image's boxes in ImGui units, where the legend must not go.
    std::vector<Box> boxes;
    Box image, object;
    if (place.view) {
      const auto toUi = [&](Box b) {
        return Box{place.viewLeft + b.x / place.dpr, b.y / place.dpr, b.w / place.dpr,
                   b.h / place.dpr};
      };
      for (const Box& b : snakeBoxes(snakes_->contours(), *place.view)) boxes.push_back(toUi(b));
      image = toUi(imageBox(*place.view));
      if (contentVersion_ != session_.imageVersion())
        content_ = contentBox(session_.image()), contentVersion_ = session_.imageVersion();
      object = toUi(objectBox(snakes_->contours(), *place.view, content_));
    }
    drawSnakeLegend(
        snakeLegendRows(snakes_->contours(), snakes_->selectedId(), snakes_->waitingForField()),
        fieldCaption(), below, boxes, image, legend_, object);
    if (place.hintAllowed && snakes_->contours().empty() && tool_->draft().empty())
      drawFirstStartHint(view);
  }
}

void PlainMode::replay(ErrorLog& errors) {
  errors.guard("Replaying", [&] { viewer::replay(session_, *snakes_); });
}

void PlainMode::act(const SnakeActions& a, ErrorLog& errors) {
  if (a.compare) errors.guard("Comparing the forces", [&] { snakes_->compare(a.compare); });
  if (a.remove) snakes_->remove(a.remove);
  if (a.replay) replay(errors);
}

// Right-click on a snake: Compare / Delete, where the mouse is.
void PlainMode::drawContextMenu(ErrorLog& errors) {
  if (contextId_) {
    ImGui::OpenPopup("snake menu");
    menuId_ = contextId_;
    contextId_ = 0;
  }
  if (!ImGui::BeginPopup("snake menu")) return;
  SnakeActions a;
  ImGui::TextDisabled("Snake #%d", menuId_);
  if (ImGui::MenuItem("Compare", nullptr, false)) a.compare = menuId_;
  itemTooltip("A twin from the same starting contour with the other force.");
  if (ImGui::MenuItem("Delete")) a.remove = menuId_;
  ImGui::EndPopup();
  act(a, errors);
}

bool PlainMode::drawPicture(ViewFrame& f) {
  f.renderer->draw(f.area, f.view, f.shown, f.presenter->texture(), std::max(f.range, 1e-12f));
  return true;
}

// The Overlay pass of the layers (streamlines, snakes, ...) with this mode's snakes.
void PlainMode::drawOverlay(ViewFrame& f) {
  if (!f.renderer) return;
  SnakeScene scene;
  scene.drawing = {&snakes_->contours(), tool_->draft(),        overlay_.showNodes,
                   tool_->hoverId(),     snakes_->selectedId(), &snakes_->trails()};
  scene.showCapture = snakes_->showCapture;
  scene.captureOpacity = overlay_.captureOpacity;
  scene.captureRgba = &snakes_->captureRgba();
  scene.captureWidth = snakes_->width(), scene.captureHeight = snakes_->height();
  scene.captureVersion = snakes_->captureVersion();
  const LayerFrame frame{f.area,
                         f.view,
                         f.layers,
                         {},
                         f.presenter ? f.presenter->texture() : TextureRef{},
                         std::max(f.range, 1e-12f),
                         f.presenter ? &f.presenter->hostField() : nullptr,
                         f.shownFieldVersion,
                         f.fieldHidden,
                         f.snakesHidden ? nullptr : &scene};
  f.renderer->drawOverlays(frame, [&](const std::string& doing, const std::function<void()>& draw) {
    f.errors.guard(doing, draw);
  });
}

// Left button: snake editing (SnakeTool); middle button or Shift + left: pan; right button:
// the snake's menu (Compare / Delete).
bool PlainMode::mousePress(PointerEvent& e) {
  if (e.button == Qt::MiddleButton ||
      (e.button == Qt::LeftButton && (e.modifiers & Qt::ShiftModifier))) {
    panning_ = true;
    panLast_ = e.logical;
  } else if (e.button == Qt::LeftButton) {
    tool_->leftPress(e.image, e.pickRadius);
  } else if (e.button == Qt::RightButton) {
    if (auto id = tool_->rightClick(e.image, e.pickRadius)) contextId_ = *id;
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
