#include "viewer/window/navigation.hpp"

#include <imgui.h>

#include <Qt>
#include <algorithm>
#include <cmath>

namespace gvflab::viewer {

bool navigationKey(ViewTransform& view, int qtKey) {
  const Vec2 centre{view.viewSize.x / 2, view.viewSize.y / 2};
  const float step = 0.1f * std::max(view.viewSize.x, view.viewSize.y);
  if (qtKey == Qt::Key_Plus || qtKey == Qt::Key_Equal || qtKey == Qt::Key_Minus)
    view.zoomAround(centre, qtKey == Qt::Key_Minus ? 1 / 1.25f : 1.25f);
  else if (qtKey == Qt::Key_Left || qtKey == Qt::Key_Right)
    view.pan.x += qtKey == Qt::Key_Left ? step : -step;
  else if (qtKey == Qt::Key_Up || qtKey == Qt::Key_Down)
    view.pan.y += qtKey == Qt::Key_Up ? step : -step;
  else if (qtKey == Qt::Key_F)
    view.fit();
  else if (qtKey == Qt::Key_1)
    view.actualPixels();
  else
    return false;
  return true;
}

std::optional<CursorReadout> readoutAt(float x, float y, const Image2D& image) {
  if (!(x >= 0 && y >= 0 && x < static_cast<float>(image.width) &&
        y < static_cast<float>(image.height)))
    return std::nullopt;
  CursorReadout r;
  r.x = static_cast<int>(x);
  r.y = static_cast<int>(y);
  r.intensity = image.pixels[static_cast<std::size_t>(r.y) * image.width + r.x];
  return r;
}

void setReadoutVector(CursorReadout& r, float vx, float vy) {
  r.vx = vx;
  r.vy = vy;
  r.magnitude = std::hypot(vx, vy);
}

void drawCursorReadout(const CursorReadout& r, float left, float bottom, float zoomPercent,
                       float maxWidth, bool gradF) {
  ImGui::SetNextWindowPos(ImVec2(left + 8, bottom - 8), ImGuiCond_Always, ImVec2(0, 1));
  ImGui::SetNextWindowBgAlpha(0.75f);
  ImGui::Begin("##cursor", nullptr,
               ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_AlwaysAutoResize |
                   ImGuiWindowFlags_NoFocusOnAppearing | ImGuiWindowFlags_NoNav |
                   ImGuiWindowFlags_NoInputs);
  // Wrapped within the view (a narrow view at 1024x768 gets two lines).
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() +
                         std::max(maxWidth - 16 - 2 * ImGui::GetStyle().WindowPadding.x, 120.0f));
  const char* f = gradF ? "grad f" : "V";  // the field the layers show
  ImGui::TextWrapped("(%d, %d)  I %.3f   %s (%+.4f, %+.4f)  |%s| %.4f   zoom %.0f%%", r.x, r.y,
                     r.intensity, f, r.vx, r.vy, f, r.magnitude, zoomPercent);
  ImGui::PopTextWrapPos();
  ImGui::End();
}

}  // namespace gvflab::viewer
