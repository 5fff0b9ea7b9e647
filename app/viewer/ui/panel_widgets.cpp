#include "viewer/ui/panel_widgets.hpp"

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

void dimLabel(const char* label, float column) {
  ImGui::TextColored(kDimColor, "%s", label);
  ImGui::SameLine(column);
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

bool beginListTable(const char* id, std::initializer_list<const char*> columns, std::size_t rows,
                    ImGuiTableFlags extra) {
  const float row = ImGui::GetTextLineHeightWithSpacing() + 2;
  if (!ImGui::BeginTable(id, static_cast<int>(columns.size()),
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY | extra,
                         ImVec2(0, std::min(6.5f * row, row * (rows + 1.2f)))))
    return false;
  ImGui::TableSetupScrollFreeze(0, 1);
  for (const char* c : columns) ImGui::TableSetupColumn(c);
  ImGui::TableHeadersRow();
  return true;
}

bool idCell(int id, bool selected, SnakeForce force, SnakeState state, bool waiting) {
  ImGui::TableNextRow();
  ImGui::TableNextColumn();
  const std::string label = std::to_string(id) + "##row";
  const bool clicked =
      ImGui::Selectable(label.c_str(), selected, ImGuiSelectableFlags_SpanAllColumns);
  ImGui::TableNextColumn();
  ImGui::TextColored(toImVec4(forceColor(force)), "%s", forceLabel(force));
  ImGui::TableNextColumn();
  ImGui::TextColored(toImVec4(stateColor(state)), "%s", shownStateName(state, waiting));
  return clicked;
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
