#pragma once
// The viewer's modes, built here and only here: race, region, surfaces and plain, top first (see
// viewer_mode.hpp for how the window walks them). The window holds one ViewerModes and asks
// it, never a concrete mode; adding a mode is a ViewerMode class and a line in the constructor.
#include <memory>
#include <vector>

#include "cli/snake_options.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/model/startup_config.hpp"
#include "viewer/model/surface_session.hpp"
#include "viewer/modes/viewer_mode.hpp"
#include "viewer/ui/canvas_overlays.hpp"

namespace gvflab::viewer {

class PlainMode;
class RaceMode;
class RegionMode;
class SurfaceMode;

class ViewerModes {
 public:
  // raceOn, raceBudgetMs: RaceMode's; bad start-up snakes are reported in errors.
  ViewerModes(Session& session, const app::SnakeOptions& snakes, const RegionStartup& region,
              bool raceOn, double raceBudgetMs, ErrorLog& errors,
              const SurfaceStartup& surfaces = {});
  ~ViewerModes();
  // Before the GL context goes: modes holding GL objects drop them (the race's presenters).
  void releaseGl();

  const std::vector<ViewerMode*>& topFirst() const { return modes_; }

  // What the modes do to the view this frame (any of them).
  bool ownsImage() const { return any(&ViewerMode::ownsImage); }
  Vec2 ownImageSize() const;  // the top-most owner's; {} when none
  bool hidesField() const { return any(&ViewerMode::hidesField); }
  bool hidesSnakes() const { return any(&ViewerMode::hidesSnakes); }
  // The session's own picture is on the view (no mode owns it, no race of two views): the
  // cursor readout and the snakes' legend apply.
  bool sessionPictureShown() const;
  // The first-start hint may show (no mode with its own instructions is on).
  bool firstStartHintAllowed() const;

  // The parametric snakes over the session's field (the plain mode's).
  SnakeSession& snakes();
  const SnakeSession& snakes() const;
  SnakeForce shownForce() const;  // the force the field layers show
  std::string fieldCaption() const;
  CanvasLegendState& legend();
  void replay(ErrorLog& errors);             // R
  void drawSnakeSections(ErrorLog& errors);  // inside the left panel
  // Before a demo loads (window/demo_loader.hpp): the race and the region snake off; after,
  // the region snake on when the demo asks for it.
  void leaveForDemo(ErrorLog& errors);
  void setRegionSnake(bool on);

  // The 3D surfaces (volumes) and the 3D view beside the slice, while the session's own
  // picture is shown. Side-view positions: framebuffer pixels from its top-left corner.
  SurfaceSession& surfaces();
  bool sideViewShown() const;
  void drawSideView(const Viewport& area, ErrorLog& errors);
  void sidePress(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, Vec2 at);
  void sideMove(Vec2 at, float viewHeight);
  void sideRelease();
  void sideWheel(float steps);
  void sideDoubleClick();

  void advance(ErrorLog& errors);                              // bottom first
  void drawPanels(const PanelPlace& place, ErrorLog& errors);  // bottom first
  // The picture (the top-most mode that draws one), then overlays: every mode's, or only
  // those drawn with GL (glOnly: offscreen pictures, where ImGui's canvas list is not drawn).
  void drawPicture(ViewFrame& frame);
  void drawOverlays(ViewFrame& frame, bool glOnly);
  void printStats(std::ostream& out) const;
  long frameIterations() const;  // every mode's ViewerMode::frameIterations

 private:
  bool any(bool (ViewerMode::*says)() const) const;  // whether one of the modes says so
  std::unique_ptr<RegionMode> region_;
  std::unique_ptr<RaceMode> race_;
  std::unique_ptr<SurfaceMode> surface_;
  std::unique_ptr<PlainMode> plain_;
  std::vector<ViewerMode*> modes_;  // top first: race, region, surface, plain
};

}  // namespace gvflab::viewer
