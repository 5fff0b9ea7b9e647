#pragma once
// The viewer's 3D surfaces (issue 30), between the region and plain modes: on a volume it
// moves the SurfaceSession's surfaces, draws the 3D view beside the slice (SurfaceView, through
// ViewerModes' side view), draws each surface's cut on the slice, and places a surface by a
// press at its centre on the slice and a drag out to its radius (the 2D snakes' circle
// gesture; the panel can give the drag back to the 2D snakes). Idle on an image.
#include <array>
#include <memory>
#include <vector>

#include "viewer/model/session.hpp"
#include "viewer/model/surface_session.hpp"
#include "viewer/modes/viewer_mode.hpp"
#include "viewer/render/orbit_camera.hpp"
#include "viewer/render/surface_cut_overlay.hpp"
#include "viewer/render/surface_view.hpp"
#include "viewer/ui/surface_panel.hpp"

namespace gvflab::viewer {

class SurfaceMode : public ViewerMode {
 public:
  // Bad start-up surfaces (--surface) are reported in errors; the mode runs without them.
  SurfaceMode(Session& session, const SurfaceStartup& startup, ErrorLog& errors);
  ~SurfaceMode() override;
  void releaseGl();  // before the GL context goes

  SurfaceSession& surfaces() { return *surfaces_; }
  bool sideViewShown() const { return surfaces_->active() && panel_.view3d; }
  void drawSideView(const Viewport& area, ErrorLog& errors);
  void drawPanelSections(ErrorLog& errors);
  void replay() { surfaces_->restart(); }

  // The 3D view's mouse: positions in framebuffer pixels from its top-left corner.
  void sidePress(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, Vec2 at);
  void sideMove(Vec2 at, float viewHeight);
  void sideRelease();
  void sideWheel(float steps) { camera_.zoom(steps); }
  void sideDoubleClick() { framed_ = {}; }

  void advance(ErrorLog& errors) override;
  void drawPanels(const PanelPlace&, ErrorLog&) override {}
  void drawOverlay(ViewFrame& frame) override;
  bool mousePress(PointerEvent& e) override;
  bool mouseMove(PointerEvent& e) override;
  bool mouseRelease(PointerEvent& e) override;
  bool key(const KeyPress& k) override;

 private:
  SurfaceScene scene() const;
  std::vector<glm::vec2> draft() const;

  Session& session_;
  std::unique_ptr<SurfaceSession> surfaces_;
  SurfacePanelState panel_;
  OrbitCamera camera_;
  std::array<int, 3> framed_ = {0, 0, 0};  // the volume size the camera was framed for
  std::array<int, 3> slices_ = {-1, -1, -1};
  long volumeVersion_ = 0;
  long inputSeen_ = -1;
  std::unique_ptr<SurfaceView> view_;
  std::unique_ptr<SurfaceCutOverlay> cutOverlay_;
  // The cuts on the slice shown, made again when the surfaces or the slice changed.
  std::vector<SurfaceCut> cuts_;
  long cutsVersion_ = -1;
  int cutsAxis_ = -1, cutsIndex_ = -1;
  // Placing a surface on the slice, and dragging in the 3D view.
  bool placing_ = false;
  glm::vec2 pressAt_{0, 0}, now_{0, 0};
  enum class Drag { None, Orbit, Pan } drag_ = Drag::None;
  Vec2 dragLast_;
};

}  // namespace gvflab::viewer
