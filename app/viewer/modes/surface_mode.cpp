#include "viewer/modes/surface_mode.hpp"

#include <imgui.h>

#include <cmath>
#include <glm/geometric.hpp>

#include "viewer/model/frame_budget.hpp"
#include "viewer/model/surface_cut.hpp"

namespace gvflab::viewer {
namespace {
constexpr float kMinRadius = 1.5f;     // voxels: a shorter drag places nothing
constexpr double kBudgetShare = 0.35;  // of the session's frame budget, for the surfaces
}  // namespace

SurfaceMode::SurfaceMode(Session& session, const SurfaceStartup& startup, ErrorLog& errors)
    : session_(session) {
  if (!errors.guard("Placing the --surface surfaces",
                    [&] { surfaces_ = std::make_unique<SurfaceSession>(session, startup); })) {
    SurfaceStartup plain = startup;
    plain.surfaces.clear();
    surfaces_ = std::make_unique<SurfaceSession>(session, plain);
  }
}

SurfaceMode::~SurfaceMode() = default;

void SurfaceMode::releaseGl() {
  view_.reset();
  cutOverlay_.reset();
}

void SurfaceMode::advance(ErrorLog& errors) {
  // A surface iteration a frame took the demo 150 frames on a CPU to reach its picture.
  const double budget =
      followerBudgetMs(kBudgetShare, session_.frameBudgetMs(), session_.lastFrameStepMs());
  if (!errors.guard("Moving the surfaces", [&] { surfaces_->advanceFrame(budget); }))
    surfaces_->setRunning(false);
  if (!surfaces_->active()) return;
  const auto dims = surfaces_->dims();
  if (session_.inputVersion() != inputSeen_) {  // a new volume: its middle slices, framed
    inputSeen_ = session_.inputVersion();
    ++volumeVersion_;
    if (dims != framed_) slices_ = {dims[2] / 2, dims[1] / 2, dims[0] / 2}, framed_ = {};
  }
  if (framed_ != dims) {
    camera_.frame(glm::vec3(dims[0], dims[1], dims[2]));
    framed_ = dims;
  }
  if (const VolumeSlices* v = session_.volumeSlices())
    slices_[static_cast<int>(v->axis())] = v->index();
}

SurfaceScene SurfaceMode::scene() const {
  SurfaceScene s;
  s.surfaces = &surfaces_->surfaces();
  s.surfacesVersion = surfaces_->version();
  s.selectedId = surfaces_->selectedId();
  if (VolumeSlices* v = session_.volumeSlices()) {
    s.volume = &v->volume();
    s.volumeVersion = volumeVersion_;
    s.slices = slices_;
  }
  s.dims = surfaces_->dims();
  s.cutAway = panel_.cutAway;
  return s;
}

void SurfaceMode::drawSideView(const Viewport& area, ErrorLog& errors) {
  errors.guard("Drawing the 3D view", [&] {
    if (!view_) view_ = std::make_unique<SurfaceView>();
    view_->draw(area, camera_, scene());
  });
}

void SurfaceMode::drawPanelSections(ErrorLog& errors) {
  SurfaceActions a;
  drawSurfacePanel(*surfaces_, panel_, a, session_.context().profiler());
  if (a.compare) errors.guard("Comparing the forces", [&] { surfaces_->compare(a.compare); });
  if (a.remove) surfaces_->remove(a.remove);
  if (a.clear) surfaces_->clear();
  if (a.restart) surfaces_->restart();
  if (a.resetCamera) framed_ = {};
}

std::vector<glm::vec2> SurfaceMode::draft() const {
  std::vector<glm::vec2> ring;
  if (!placing_) return ring;
  const float r = glm::length(now_ - pressAt_);
  if (r < kMinRadius) return ring;
  for (int i = 0; i <= 64; ++i) {
    const float a = 6.2831853f * static_cast<float>(i) / 64;
    ring.push_back(pressAt_ + r * glm::vec2(std::cos(a), std::sin(a)));
  }
  return ring;
}

// The surfaces' cuts with the slice shown, and the sphere being placed.
void SurfaceMode::drawOverlay(ViewFrame& f) {
  const VolumeSlices* v = session_.volumeSlices();
  if (!f.renderer || !v || !surfaces_->active()) return;
  const int axis = static_cast<int>(v->axis()), index = v->index();
  if (cutsVersion_ != surfaces_->version() || cutsAxis_ != axis || cutsIndex_ != index) {
    cuts_.clear();
    for (const SurfaceContour& c : surfaces_->surfaces())
      cuts_.push_back({sliceCut(c.mesh, v->axis(), index, surfaces_->dims()[2]), c.force,
                       c.id == surfaces_->selectedId()});
    cutsVersion_ = surfaces_->version(), cutsAxis_ = axis, cutsIndex_ = index;
  }
  static const std::vector<SurfaceCut> none;
  f.errors.guard("Drawing the surfaces' cuts", [&] {
    if (!cutOverlay_) cutOverlay_ = std::make_unique<SurfaceCutOverlay>();
    cutOverlay_->draw(f.area, f.view, panel_.showCuts ? cuts_ : none, draft());
  });
}

bool SurfaceMode::mousePress(PointerEvent& e) {
  if (!surfaces_->active() || !panel_.placeSurfaces || !session_.volumeSlices() ||
      e.button != Qt::LeftButton || (e.modifiers & Qt::ShiftModifier))
    return false;
  placing_ = true;
  pressAt_ = now_ = e.image;
  return true;
}

bool SurfaceMode::mouseMove(PointerEvent& e) {
  if (!placing_) return false;
  now_ = e.image;
  return true;
}

bool SurfaceMode::mouseRelease(PointerEvent& e) {
  if (!placing_) return false;
  placing_ = false;
  now_ = e.image;
  const float radius = glm::length(now_ - pressAt_);
  const VolumeSlices* v = session_.volumeSlices();
  if (radius < kMinRadius || !v) return true;
  e.errors.guard("Placing a surface", [&] {
    surfaces_->addSphere(sliceToVoxel(v->axis(), v->index(), pressAt_, surfaces_->dims()[2]),
                         radius);
  });
  return true;
}

bool SurfaceMode::key(const KeyPress& k) {
  if (k.key == Qt::Key_3 && !k.ctrl && surfaces_->active())
    panel_.view3d = !panel_.view3d;
  else if (k.key == Qt::Key_Escape && placing_)
    placing_ = false;
  else
    return false;
  return true;
}

// Left drag orbits; right or middle drag, or Shift + left, pans.
void SurfaceMode::sidePress(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, Vec2 at) {
  dragLast_ = at;
  const bool pan = button == Qt::RightButton || button == Qt::MiddleButton ||
                   (button == Qt::LeftButton && (modifiers & Qt::ShiftModifier));
  drag_ = pan ? Drag::Pan : button == Qt::LeftButton ? Drag::Orbit : Drag::None;
}

void SurfaceMode::sideMove(Vec2 at, float viewHeight) {
  const glm::vec2 d{at.x - dragLast_.x, at.y - dragLast_.y};
  dragLast_ = at;
  if (drag_ == Drag::Orbit) camera_.orbit(d);
  if (drag_ == Drag::Pan) camera_.pan(d, viewHeight);
}

void SurfaceMode::sideRelease() { drag_ = Drag::None; }

}  // namespace gvflab::viewer
