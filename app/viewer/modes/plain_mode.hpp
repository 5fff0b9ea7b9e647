#pragma once
// The viewer's plain mode, at the bottom of the modes: the session's image and field (magnitude,
// glyphs, streamlines) with the parametric snakes edited by hand (SnakeTool) over them, and
// panning with the middle button (or Shift + left). Glue between SnakeSession (compute), the
// Renderer's overlay layers (streamlines, snakes: render/layer_registry.cpp) and snake_panel
// (ImGui).
#include <memory>
#include <string>

#include "cli/snake_options.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/modes/snake_tool.hpp"
#include "viewer/modes/viewer_mode.hpp"
#include "viewer/ui/canvas_overlays.hpp"
#include "viewer/ui/snake_panel.hpp"

namespace gvflab::viewer {

class PlainMode : public ViewerMode {
 public:
  // Bad start-up snakes (--snake) are reported in errors; the mode runs without them.
  PlainMode(Session& session, const app::SnakeOptions& snakes, ErrorLog& errors);
  ~PlainMode() override;

  SnakeSession& snakes() { return *snakes_; }
  // The force the field layers show (the selected snake's), and their caption.
  SnakeForce shownForce() const { return snakes_->shownForce(); }
  std::string fieldCaption() const;
  void replay(ErrorLog& errors);  // R: the field and every snake from the start
  CanvasLegendState& legend() { return legend_; }
  // The Snakes and Capture range sections, inside the left panel (drawPanel's lessonSections).
  void drawPanelSections(ErrorLog& errors);

  void advance(ErrorLog& errors) override;
  void drawPanels(const PanelPlace& place, ErrorLog& errors) override;
  bool drawPicture(ViewFrame& frame) override;
  void drawOverlay(ViewFrame& frame) override;
  bool mousePress(PointerEvent& e) override;
  bool mouseMove(PointerEvent& e) override;
  bool mouseRelease(PointerEvent& e) override;
  bool mouseDoubleClick(PointerEvent& e) override;
  bool key(const KeyPress& k) override;

 private:
  void act(const SnakeActions& actions, ErrorLog& errors);
  void drawContextMenu(ErrorLog& errors);

  Session& session_;
  std::unique_ptr<SnakeSession> snakes_;
  std::unique_ptr<SnakeTool> tool_;
  SnakeOverlay overlay_;
  CanvasLegendState legend_;
  Box content_;               // the image's content (contentBox), where the legend keeps off
  long contentVersion_ = -1;  // the session's imageVersion it was found for
  int contextId_ = 0;         // right-clicked snake: its menu opens next frame
  int menuId_ = 0;            // the snake the open menu is for
  bool panning_ = false;
  QPointF panLast_;
};

}  // namespace gvflab::viewer
