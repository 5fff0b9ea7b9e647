#include "viewer/ui/panel_widgets.hpp"

#include <imgui.h>

#include <algorithm>

#include "io/snake_palette.hpp"

namespace gvflab::viewer {

void itemTooltip(const std::string& text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

float labelColumn(std::initializer_list<const char*> labels) {
  float widest = 0;
  for (const char* l : labels) widest = std::max(widest, ImGui::CalcTextSize(l, nullptr, true).x);
  return widest + ImGui::GetStyle().ItemInnerSpacing.x + 2.0f;
}

float helpMarkerWidth() { return ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x; }

void sameLineIfFits(const char* label, bool checkbox) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lastEnd = ImGui::GetItemRectMax().x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float text = ImGui::CalcTextSize(label, nullptr, true).x;
  const float width = checkbox ? ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + text
                               : text + 2 * style.FramePadding.x;
  if (lastEnd + style.ItemSpacing.x + width <= right) ImGui::SameLine();
}

void compareForceBoxes(CompareForces& forces) {
  ImGui::PushID(&forces);  // the snakes' boxes and the surfaces' in one window
  ImGui::SameLine();
  ImGui::TextUnformatted("with");
  auto& chosen = forces.chosen;
  for (SnakeForce f : kSnakeForces) {
    const auto at = std::find(chosen.begin(), chosen.end(), f);
    bool on = at != chosen.end();
    sameLineIfFits(forceLabel(f), true);  // five forces pass a 1024 px window's panel
    ImGui::BeginDisabled(!on && chosen.size() >= CompareForces::kMax);
    if (ImGui::Checkbox(forceLabel(f), &on)) {
      if (on)
        chosen.push_back(f);
      else
        chosen.erase(at);
    }
    ImGui::EndDisabled();
  }
  ImGui::PopID();
}

}  // namespace gvflab::viewer
