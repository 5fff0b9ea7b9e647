#include "viewer/ui/panel_widgets.hpp"

#include <imgui.h>

namespace gvflab::viewer {

void itemTooltip(const std::string& text) {
  if (!ImGui::IsItemHovered()) return;
  ImGui::BeginTooltip();
  ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
  ImGui::TextUnformatted(text.c_str());
  ImGui::PopTextWrapPos();
  ImGui::EndTooltip();
}

}  // namespace gvflab::viewer
