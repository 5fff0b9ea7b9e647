#include "viewer/ui/panel_widgets.hpp"

#include <imgui.h>

#include <algorithm>

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

}  // namespace gvflab::viewer

namespace gvflab::viewer {

float helpMarkerWidth() { return ImGui::CalcTextSize("(?)").x + ImGui::GetStyle().ItemSpacing.x; }

void sameLineIfFits(const char* label) {
  const ImGuiStyle& style = ImGui::GetStyle();
  const float lastEnd = ImGui::GetItemRectMax().x;
  const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  const float button = ImGui::CalcTextSize(label).x + 2 * style.FramePadding.x;
  if (lastEnd + style.ItemSpacing.x + button <= right) ImGui::SameLine();
}

}  // namespace gvflab::viewer
