#pragma once
// The viewer's region-snake mode: the PLH polygon stepped live over the session's image (or a
// synthetic image of up to 150 MP made for it), its window, and the starting rectangle dragged
// with the right mouse button. Glue between RegionSession (compute), RegionView (drawing) and
// region_panel (ImGui).
#include <array>
#include <optional>

#include "viewer/model/region_session.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/startup_config.hpp"
#include "viewer/modes/viewer_mode.hpp"
#include "viewer/render/region_view.hpp"
#include "viewer/ui/region_panel.hpp"

namespace gvflab::viewer {

class RegionMode : public ViewerMode {
 public:
  RegionMode(Session& session, const RegionStartup& startup);  // on: pauses the session
  ~RegionMode() override;

  bool enabled() const { return panel_.enabled; }
  void setEnabled(bool on);  // on pauses the session (its field is hidden)

  // Once per frame: (re)builds the snake for the image shown and steps it when running.
  void advance(ErrorLog& errors) override;
  void drawPanels(const PanelPlace& place, ErrorLog& errors) override;
  // While on, the field is hidden: the region snake draws over the image alone.
  bool ownsImage() const override { return region_.ownsImage(); }
  Vec2 ownImageSize() const override;
  bool hidesField() const override { return enabled(); }
  bool drawPicture(ViewFrame& frame) override;  // our own image, when there is one
  void drawOverlay(ViewFrame& frame) override;  // the polygon and the rectangle being dragged
  // Right-button drag sets the starting rectangle.
  bool mousePress(PointerEvent& e) override;
  bool mouseMove(PointerEvent& e) override;
  bool mouseRelease(PointerEvent& e) override;

 private:
  void step(ErrorLog& errors, int steps);
  Session& session_;
  RegionSession region_;
  RegionView view_;
  RegionPanelState panel_;
  std::optional<std::array<Vec2, 2>> drag_;  // from, to (image pixels)
};

}  // namespace gvflab::viewer
