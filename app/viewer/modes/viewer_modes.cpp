#include "viewer/modes/viewer_modes.hpp"

#include <algorithm>

#include "viewer/modes/plain_mode.hpp"
#include "viewer/modes/race_mode.hpp"
#include "viewer/modes/region_mode.hpp"
#include "viewer/modes/surface_mode.hpp"

namespace gvflab::viewer {

ViewerModes::ViewerModes(Session& session, const app::SnakeOptions& snakes,
                         const RegionStartup& region, bool raceOn, double raceBudgetMs,
                         ErrorLog& errors, const SurfaceStartup& surfaces)
    : region_(std::make_unique<RegionMode>(session, region)),
      race_(std::make_unique<RaceMode>(session, raceOn, raceBudgetMs)),
      surface_(std::make_unique<SurfaceMode>(session, surfaces, errors)),
      plain_(std::make_unique<PlainMode>(session, snakes, errors)),
      modes_{race_.get(), region_.get(), surface_.get(), plain_.get()} {}

ViewerModes::~ViewerModes() = default;

void ViewerModes::releaseGl() {
  std::erase(modes_, race_.get());
  race_.reset();  // its presenters hold GL textures
  surface_->releaseGl();
}

bool ViewerModes::any(bool (ViewerMode::*says)() const) const {
  return std::any_of(modes_.begin(), modes_.end(), [&](auto* m) { return (m->*says)(); });
}

Vec2 ViewerModes::ownImageSize() const {
  for (const ViewerMode* m : modes_)
    if (m->ownsImage()) return m->ownImageSize();
  return {};
}

bool ViewerModes::sessionPictureShown() const {
  return !ownsImage() && !(race_ && race_->enabled());
}

bool ViewerModes::firstStartHintAllowed() const {
  return !region_->enabled() && surface_->surfaces().surfaces().empty();
}

SnakeSession& ViewerModes::snakes() { return plain_->snakes(); }
const SnakeSession& ViewerModes::snakes() const { return plain_->snakes(); }
SnakeForce ViewerModes::shownForce() const { return plain_->shownForce(); }
std::string ViewerModes::fieldCaption() const { return plain_->fieldCaption(); }
CanvasLegendState& ViewerModes::legend() { return plain_->legend(); }
void ViewerModes::replay(ErrorLog& errors) {
  plain_->replay(errors);
  surface_->replay();
}
void ViewerModes::drawSnakeSections(ErrorLog& errors) {
  // On a volume the surfaces are the lesson: their section first, the slice's snakes after.
  const bool surfacesFirst = surface_->surfaces().active();
  if (surfacesFirst) surface_->drawPanelSections(errors);
  plain_->drawPanelSections(errors);
  if (!surfacesFirst) surface_->drawPanelSections(errors);
}

SurfaceSession& ViewerModes::surfaces() { return surface_->surfaces(); }
bool ViewerModes::sideViewShown() const {
  return surface_->sideViewShown() && sessionPictureShown() && !region_->enabled();
}
void ViewerModes::drawSideView(const Viewport& area, ErrorLog& errors) {
  surface_->drawSideView(area, errors);
}
void ViewerModes::sidePress(Qt::MouseButton button, Qt::KeyboardModifiers modifiers, Vec2 at) {
  surface_->sidePress(button, modifiers, at);
}
void ViewerModes::sideMove(Vec2 at, float viewHeight) { surface_->sideMove(at, viewHeight); }
void ViewerModes::sideRelease() { surface_->sideRelease(); }
void ViewerModes::sideWheel(float steps) { surface_->sideWheel(steps); }
void ViewerModes::sideDoubleClick() { surface_->sideDoubleClick(); }

void ViewerModes::leaveForDemo(ErrorLog& errors) {
  if (race_->enabled()) race_->setEnabled(false, errors);
  region_->setEnabled(false);
}

void ViewerModes::setRegionSnake(bool on) { region_->setEnabled(on); }

void ViewerModes::advance(ErrorLog& errors) {
  for (auto m = modes_.rbegin(); m != modes_.rend(); ++m) (*m)->advance(errors);
}

void ViewerModes::drawPanels(const PanelPlace& place, ErrorLog& errors) {
  for (auto m = modes_.rbegin(); m != modes_.rend(); ++m) (*m)->drawPanels(place, errors);
}

void ViewerModes::drawPicture(ViewFrame& frame) {
  for (ViewerMode* m : modes_)
    if (m->drawPicture(frame)) break;
}

void ViewerModes::drawOverlays(ViewFrame& frame, bool glOnly) {
  // The other modes' overlays go through ImGui's canvas list, which belongs to the window.
  // The surfaces' cuts lie on the session's slice: not over another mode's picture.
  if (glOnly) {
    plain_->drawOverlay(frame);
    if (sessionPictureShown() && !frame.snakesHidden) surface_->drawOverlay(frame);
  } else {
    for (ViewerMode* m : modes_)
      if (m != surface_.get() || (sessionPictureShown() && !frame.snakesHidden))
        m->drawOverlay(frame);
  }
}

long ViewerModes::frameIterations() const {
  long n = 0;
  for (const ViewerMode* m : modes_) n += m->frameIterations();
  return n;
}

void ViewerModes::printStats(std::ostream& out) const {
  for (const ViewerMode* m : modes_) m->printStats(out);
}

}  // namespace gvflab::viewer
