#include "viewer/render/race_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>
#include <string>

namespace gvflab::viewer {

ImU32 raceLaneColor(int lane) {
  return lane == RaceSession::kEuler ? IM_COL32(255, 170, 60, 255) : IM_COL32(90, 200, 255, 255);
}

RaceView::RaceView(const TransferChoice& choice, cl::Context& context) : context_(context()) {
  // Not the host copy unless the viewer's own view uses it: at 2048² on the H200 the two lanes'
  // host copies took 30 of a 38 ms frame.
  for (auto& p : presenters_) p = std::make_unique<Presenter>(choice, &context);
}

RaceView::RaceView(const DeviceInfo& device) {
  for (auto& p : presenters_) p = std::make_unique<Presenter>(device);
}

void RaceView::forgetFields() {
  for (auto& p : presenters_) p->forgetField();
  shownRace_ = nullptr;
}

void RaceView::upload(RaceSession& race, Session& session) {
  if (&race == shownRace_ && race.fieldVersion() == shownField_ &&
      session.imageVersion() == shownImage_)
    return;
  const GvfInput& plane = session.planeInput();
  for (int i = 0; i < 2; ++i)
    presenters_[i]->upload(session.context().queue(), race.planeField(i), plane.width,
                           plane.height);
  shownRace_ = &race;
  shownField_ = race.fieldVersion();
  shownImage_ = session.imageVersion();
}

float RaceView::draw(Renderer& renderer, const Viewport& area, const LayerSettings& layers,
                     int captionStrip, int gap) {
  Viewport maps{area.x, area.y + captionStrip, area.width, std::max(area.height - captionStrip, 1)};
  const int w = std::max((maps.width - gap) / 2, 1);  // side by side, a small gap between them
  viewports_ = {Viewport{maps.x, maps.y, w, maps.height},
                Viewport{maps.x + maps.width - w, maps.y, w, maps.height}};
  const float range = layers.autoRange
                          ? std::max(presenters_[0]->maxMagnitude(), presenters_[1]->maxMagnitude())
                          : layers.fixedRangeMax;
  for (int i = 0; i < 2; ++i) {
    const Viewport& v = viewports_[i];
    const FieldTextureRef field = presenters_[i]->texture();
    ViewTransform view;  // fitted: both maps at the same scale, side by side
    view.viewSize = {static_cast<float>(v.width), static_cast<float>(v.height)};
    view.imageSize = {static_cast<float>(field.width), static_cast<float>(field.height)};
    renderer.draw(v, view, layers, field, std::max(range, 1e-12f));
  }
  return range;
}

void RaceView::drawCaptions(const RaceSession& race, int framebufferHeight, int captionStrip,
                            float dpr) const {
  ImDrawList* captions = ImGui::GetBackgroundDrawList();
  // The longest form that fits under both maps (a narrow view drops words, not letters; both
  // captions read alike).
  auto caption = [&](int i, int form) {
    const RaceLane& lane = race.lane(i);
    const char* name = i == RaceSession::kEuler ? "Euler" : "multigrid";
    const char* formats[] = {"%s: %ld iterations, %.0f ms", "%s: %ld it., %.0f ms", "%s: %ld it."};
    char text[96];
    std::snprintf(text, sizeof text, formats[form], name, lane.solver->iterations(),
                  lane.budget.totalMs());
    return std::string(text);
  };
  int form = 0;
  for (; form < 2; ++form) {
    bool fits = true;
    for (int i = 0; i < 2; ++i)
      fits = fits && ImGui::CalcTextSize(caption(i, form).c_str()).x <=
                         static_cast<float>(viewports_[i].width) / dpr - 4;
    if (fits) break;
  }
  for (int i = 0; i < 2; ++i) {
    const Viewport& v = viewports_[i];
    const std::string text = caption(i, form);
    // Centred in the strip under the map; ImGui's y runs down, GL's viewport y up.
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const ImVec2 at((v.x + 0.5f * v.width) / dpr - 0.5f * size.x,
                    (framebufferHeight - v.y + 0.5f * captionStrip) / dpr - 0.5f * size.y);
    captions->AddText(at, raceLaneColor(i), text.c_str());
  }
}

}  // namespace gvflab::viewer
