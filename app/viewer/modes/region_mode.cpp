#include "viewer/modes/region_mode.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/error.hpp"

namespace gvflab::viewer {

RegionMode::RegionMode(Session& session, const RegionStartup& startup)
    : session_(session), region_(session, startup.params, startup.rect) {
  panel_.enabled = startup.enabled;
  if (startup.syntheticMpix > 0) {
    panel_.syntheticMpix = static_cast<float>(startup.syntheticMpix);
    region_.makeSynthetic(startup.syntheticMpix);
  }
  if (panel_.enabled) session_.setRunning(false);
}

RegionMode::~RegionMode() = default;

Vec2 RegionMode::ownImageSize() const {
  const std::array<int, 2> size = region_.imageSize();
  return {float(size[0]), float(size[1])};
}

void RegionMode::step(ErrorLog& errors, int steps) {
  if (!panel_.enabled) return;
  if (!errors.guard("Preparing the region snake", [&] { region_.ensureBuilt(); })) {
    panel_.enabled = false;
    return;
  }
  if (!panel_.running || region_.snake()->finished()) return;
  errors.guard("Stepping the region snake", [&] { region_.step(steps); });
}

void RegionMode::advance(ErrorLog& errors) { step(errors, panel_.stepsPerFrame); }

void RegionMode::setEnabled(bool on) {
  panel_.enabled = on;
  if (on) session_.setRunning(false);
}

void RegionMode::drawPanels(const PanelPlace& place, ErrorLog& errors) {
  RegionPanelHooks hooks;
  hooks.enabled = [&] { session_.setRunning(false); };
  hooks.step = [&] {
    const bool was = panel_.running;
    panel_.running = true;
    step(errors, 1);
    panel_.running = was;
  };
  hooks.restart = [&] { errors.guard("Restarting the region snake", [&] { region_.restart(); }); };
  hooks.defaultRectangle = [&] {
    errors.guard("Restarting the region snake", [&] { region_.setRect(std::nullopt); });
  };
  hooks.setParams = [&](const RegionSnakeParams& p) {
    errors.guard("Changing the region snake", [&] { region_.setParams(p); });
  };
  hooks.makeSynthetic = [&] {
    errors.guard("Making a synthetic image", [&] {
      region_.makeSynthetic(panel_.syntheticMpix);
      panel_.enabled = true;
      session_.setRunning(false);
    });
  };
  hooks.backToSessionImage = [&] { region_.dropSynthetic(); };
  if (place.panelsShown) drawRegionPanel(panel_, region_, hooks, place.layersWindow);
}

bool RegionMode::drawPicture(ViewFrame& f) {
  if (!ownsImage()) return false;
  view_.drawImage(*f.renderer, region_.ownImage(), region_.ownImageVersion(), f.area, f.view,
                  f.shown);
  return true;
}

void RegionMode::drawOverlay(ViewFrame& f) {
  if (!enabled() || !f.renderer || !f.presenter) return;
  RegionView::drawOverlay(region_, drag_, f.view, static_cast<float>(f.area.x), f.dpr);
}

bool RegionMode::mousePress(PointerEvent& e) {
  if (!enabled() || e.button != Qt::RightButton) return false;
  const Vec2 p = e.view.screenToImage(e.viewPixel);
  drag_ = std::array<Vec2, 2>{p, p};
  return true;
}

bool RegionMode::mouseMove(PointerEvent& e) {
  if (!drag_) return false;
  (*drag_)[1] = e.view.screenToImage(e.viewPixel);
  return true;
}

bool RegionMode::mouseRelease(PointerEvent&) {
  if (!drag_) return false;
  const Vec2 from = (*drag_)[0], to = (*drag_)[1];
  drag_.reset();
  const int x0 = int(std::floor(std::min(from.x, to.x)));
  const int y0 = int(std::floor(std::min(from.y, to.y)));
  const int x1 = int(std::floor(std::max(from.x, to.x)));
  const int y1 = int(std::floor(std::max(from.y, to.y)));
  if (x1 - x0 >= 3 && y1 - y0 >= 3) {
    try {
      region_.setRect(std::array<int, 4>{x0, y0, x1 - x0 + 1, y1 - y0 + 1});
    } catch (const Error&) {
      // outside the image: the default rectangle stays
    }
  }
  return true;
}

}  // namespace gvflab::viewer
