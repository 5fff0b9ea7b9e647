#include "viewer/ui/canvas_overlays.hpp"

#include <imgui.h>

#include <algorithm>
#include <map>

#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {
namespace {

constexpr float kMargin = 10;
constexpr float kBgAlpha = 0.9f;  // dark enough for white text on viridis yellow

// The legend window's size as drawSnakeLegend lays it out (columns, the field line, padding).
ImVec2 legendSize(const std::vector<LegendRow>& rows, const std::string& fieldLine) {
  const ImGuiStyle& style = ImGui::GetStyle();
  float labelW = 0, stateW = 0, widest = 0;
  for (const auto& r : rows) {
    labelW = std::max(labelW, ImGui::CalcTextSize(r.label.c_str()).x);
    stateW = std::max(stateW, ImGui::CalcTextSize(r.state.c_str()).x);
  }
  const float swatch = ImGui::GetFontSize() * 1.6f, gap = style.ItemSpacing.x * 2;
  for (const auto& r : rows) {
    float row =
        swatch + gap + labelW + gap + stateW + gap + ImGui::CalcTextSize(r.iterations.c_str()).x;
    if (r.selected) row += style.ItemSpacing.x + ImGui::CalcTextSize("(selected)").x;
    widest = std::max(widest, row);
  }
  float height = rows.size() * ImGui::GetTextLineHeightWithSpacing() - style.ItemSpacing.y;
  if (!fieldLine.empty()) {
    widest = std::max(widest, ImGui::CalcTextSize(fieldLine.c_str()).x);
    height += 2 * style.ItemSpacing.y + 1 + ImGui::GetTextLineHeight();
  }
  return ImVec2(widest + 2 * style.WindowPadding.x, height + 2 * style.WindowPadding.y);
}

// A message on the view, near its bottom, fading with alpha: an error (red) or a note
// (what was saved, a recording that ended).
void drawToast(const std::string& message, float alpha, const CanvasRect& view, bool error) {
  if (message.empty() || alpha <= 0) return;
  const float width = std::max(std::min(view.width - 2 * kMargin, 520.0f), 120.0f);
  // Above the cursor readout's place at the bottom; the legend and explanation are on top.
  const float bottom = view.top + view.height - 4 * ImGui::GetFrameHeight();
  ImGui::SetNextWindowPos(ImVec2(view.left + view.width * 0.5f, bottom), ImGuiCond_Always,
                          ImVec2(0.5f, 1));
  ImGui::PushStyleVar(ImGuiStyleVar_Alpha, alpha);
  ImGui::PushStyleColor(ImGuiCol_WindowBg, error ? ImVec4(0.45f, 0.08f, 0.08f, 0.92f)
                                                 : ImVec4(0.10f, 0.30f, 0.16f, 0.92f));
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width, view.height));
  ImGui::Begin(error ? "##error toast" : "##note toast", nullptr,
               kOverlay | ImGuiWindowFlags_NoInputs);
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width - 2 * ImGui::GetStyle().WindowPadding.x);
  ImGui::TextUnformatted(message.c_str());
  ImGui::PopTextWrapPos();
  ImGui::End();
  ImGui::PopStyleColor();
  ImGui::PopStyleVar();
}

}  // namespace

std::vector<LegendRow> snakeLegendRows(const std::vector<SnakeContour>& contours, int selectedId,
                                       bool waiting) {
  std::vector<LegendRow> rows;
  if (contours.size() <= kLegendSnakes) {
    for (const auto& c : contours) {
      std::string label = "#";
      label.append(std::to_string(c.id)).append(" ").append(forceLabel(c.force));
      rows.push_back({forceColor(c.force), label, stateColor(c.state),
                      shownStateName(c.state, waiting), std::to_string(c.iterations) + " it",
                      c.id == selectedId});
    }
    return rows;
  }
  for (SnakeForce f : kSnakeForces) {
    std::map<SnakeState, int> count;
    int n = 0;
    long most = 0;
    for (const auto& c : contours)
      if (c.force == f) ++n, ++count[c.state], most = std::max(most, c.iterations);
    if (n == 0) continue;
    std::string states;
    SnakeState worst = SnakeState::Converged;  // the row's colour: the least happy state
    for (SnakeState s :
         {SnakeState::Converged, SnakeState::Moving, SnakeState::Collapsed, SnakeState::Stalled}) {
      if (!count[s]) continue;
      states += (states.empty() ? "" : ", ") + std::to_string(count[s]) + " " +
                shownStateName(s, waiting);
      worst = s;
    }
    rows.push_back({forceColor(f), std::to_string(n) + " " + forceLabel(f), stateColor(worst),
                    states, "<= " + std::to_string(most) + " it", false});
  }
  return rows;
}

Box drawSnakeLegend(const std::vector<LegendRow>& rows, const std::string& fieldLine,
                    const CanvasRect& view, const std::vector<Box>& snakes, const Box& image,
                    CanvasLegendState& state, const Box& object) {
  if (rows.empty() || !state.shown) return {};  // no snakes: the first-start hint speaks
  // Last frame's size; before ImGui has sized the window, measured from its text.
  const ImVec2 guess = legendSize(rows, fieldLine);
  const float w = state.lastW > 0 ? state.lastW : guess.x;
  const float h = state.lastH > 0 ? state.lastH : guess.y;
  const Box area{view.left, view.top, view.width, view.height};
  // The last automatic place while the view and the legend's size are the same and it still
  // covers no snake: no jumping about as the snakes move.
  Box at{state.automatic.x, state.automatic.y, w, h};
  const bool same = state.area.x == area.x && state.area.y == area.y && state.area.w == area.w &&
                    state.area.h == area.h && state.automatic.w == w && state.automatic.h == h;
  if (!state.placed || !same || !coversNoSnake(at, snakes)) {
    at = placeLegend(area, image, snakes, w, h, kMargin, object);
    state.automatic = at;
    state.area = area;
    state.placed = true;
  }
  if (state.userPlaced) {  // kept inside the view
    at.x = std::clamp(view.left + state.offsetX, view.left, std::max(view.left, area.right() - w));
    at.y = std::clamp(view.top + state.offsetY, view.top, std::max(view.top, area.bottom() - h));
  }
  ImGui::SetNextWindowPos(ImVec2(at.x, at.y), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(1.0f);  // opaque: the field's arrows never show through the text
  // NoMove: the drag is ours (ImGui's would be undone by the position set every frame).
  ImGui::Begin("##snake legend", nullptr, kOverlay);
  // Columns from the widest entry of each, in the current font.
  float labelW = 0, stateW = 0;
  for (const auto& r : rows) {
    labelW = std::max(labelW, ImGui::CalcTextSize(r.label.c_str()).x);
    stateW = std::max(stateW, ImGui::CalcTextSize(r.state.c_str()).x);
  }
  const float swatch = ImGui::GetFontSize() * 1.6f, gap = ImGui::GetStyle().ItemSpacing.x * 2;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  for (const auto& r : rows) {
    const ImVec2 cursor = ImGui::GetCursorScreenPos();
    const float y = cursor.y + ImGui::GetTextLineHeight() * 0.5f;
    // A piece of snake: dark outline under the force's colour, as on the canvas.
    draw->AddLine(ImVec2(cursor.x, y), ImVec2(cursor.x + swatch, y), IM_COL32(0, 0, 0, 220), 6.0f);
    draw->AddLine(ImVec2(cursor.x, y), ImVec2(cursor.x + swatch, y),
                  ImGui::ColorConvertFloat4ToU32(toImVec4(r.color)), 3.0f);
    ImGui::Dummy(ImVec2(swatch, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0, gap);
    const float x0 = ImGui::GetCursorPosX();
    if (r.selected)
      ImGui::Text("%s", r.label.c_str());
    else
      ImGui::TextColored(ImVec4(0.85f, 0.86f, 0.9f, 1), "%s", r.label.c_str());
    ImGui::SameLine(x0 + labelW + gap);
    ImGui::TextColored(toImVec4(r.stateColor), "%s", r.state.c_str());
    ImGui::SameLine(x0 + labelW + stateW + 2 * gap);
    ImGui::TextUnformatted(r.iterations.c_str());
    if (r.selected) {
      ImGui::SameLine();
      ImGui::TextDisabled("(selected)");
    }
  }
  if (!fieldLine.empty()) {
    if (!rows.empty()) ImGui::Separator();
    ImGui::TextDisabled("%s", fieldLine.c_str());
  }
  // Dragged with the left button; a double-click gives the place back to the rule.
  const ImGuiIO& io = ImGui::GetIO();
  if (ImGui::IsWindowHovered() && ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left)) {
    state.userPlaced = state.dragging = false;
  } else if (ImGui::IsWindowHovered() && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
    state.dragging = true;
  }
  if (state.dragging && ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
    if (io.MouseDelta.x != 0 || io.MouseDelta.y != 0) {
      state.offsetX = at.x - view.left + io.MouseDelta.x;
      state.offsetY = at.y - view.top + io.MouseDelta.y;
      state.userPlaced = true;
    }
  } else {
    state.dragging = false;
  }
  if (ImGui::IsWindowHovered() && !state.dragging) {
    // Beside the legend (below it, or above where it meets the view's bottom), never over it.
    // Within the view: its right edge no further than the view's.
    const char* hint = "Drag to move; double-click: back to its automatic place.";
    const float hintW = ImGui::CalcTextSize(hint).x + 2 * ImGui::GetStyle().WindowPadding.x;
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float x = std::max(view.left, std::min(pos.x, view.left + view.width - hintW));
    const bool below =
        pos.y + size.y + 4 + ImGui::GetTextLineHeightWithSpacing() * 2 < view.top + view.height;
    ImGui::SetNextWindowPos(ImVec2(x, below ? pos.y + size.y + 4 : pos.y - 4), ImGuiCond_Always,
                            ImVec2(0.0f, below ? 0.0f : 1.0f));
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(hint);
    ImGui::EndTooltip();
  }
  if (!ImGui::IsWindowAppearing()) {  // an appearing window's size is not its own yet
    state.lastW = ImGui::GetWindowSize().x;
    state.lastH = ImGui::GetWindowSize().y;
  }
  ImGui::End();
  return {at.x, at.y, state.lastW, state.lastH};
}

float drawExplanation(const std::string& title, const std::string& line1, const std::string& line2,
                      bool* open, const CanvasRect& view) {
  const float width = std::max(view.width - 2 * kMargin, 120.0f);
  ImGui::SetNextWindowPos(ImVec2(view.left + kMargin, view.top + kMargin), ImGuiCond_Always);
  ImGui::SetNextWindowBgAlpha(kBgAlpha);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(width, view.height));
  ImGui::Begin("##demo explanation", nullptr, kOverlay);
  // Two lines where they fit, else one paragraph wrapped to the view.
  const float room = width - 2 * ImGui::GetStyle().WindowPadding.x;
  const float wide =
      std::max(ImGui::CalcTextSize(line1.c_str()).x, ImGui::CalcTextSize(line2.c_str()).x);
  ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1), "%s", title.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("(E hides)");
  ImGui::SameLine();
  if (ImGui::SmallButton("x##close explanation")) *open = false;
  ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + room);
  if (wide <= room) {
    ImGui::TextUnformatted(line1.c_str());
    ImGui::TextUnformatted(line2.c_str());
  } else {
    ImGui::TextWrapped("%s %s", line1.c_str(), line2.c_str());
  }
  ImGui::PopTextWrapPos();
  const float bottom = ImGui::GetWindowPos().y + ImGui::GetWindowSize().y;
  ImGui::End();
  return bottom;
}

void drawFirstStartHint(const CanvasRect& view) {
  const char* items[] = {"Drag to place a snake", "Demos menu for a lesson", "F1 help"};
  const std::string oneLine =
      std::string(items[0]) + "  \xc2\xb7  " + items[1] + "  \xc2\xb7  " + items[2];
  ImGui::SetNextWindowPos(ImVec2(view.left + view.width * 0.5f, view.top + 10), ImGuiCond_Always,
                          ImVec2(0.5f, 0.0f));
  ImGui::SetNextWindowBgAlpha(kBgAlpha);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(std::max(view.width - 20, 100.0f), view.height));
  ImGui::Begin("##first start", nullptr, kOverlay | ImGuiWindowFlags_NoInputs);
  // One line where it fits, else one item per line.
  if (ImGui::CalcTextSize(oneLine.c_str()).x <= view.width - 40) {
    ImGui::TextUnformatted(oneLine.c_str());
  } else {
    for (const char* item : items) ImGui::TextUnformatted(item);
  }
  ImGui::End();
}

float cursorReadoutHeight() {
  return ImGui::GetTextLineHeightWithSpacing() + 2 * ImGui::GetStyle().WindowPadding.y + 8;
}

void drawPauseBadge(const CanvasRect& view) {
  ImGui::SetNextWindowPos(
      ImVec2(view.left + 10, view.top + view.height - 10 - cursorReadoutHeight()), ImGuiCond_Always,
      ImVec2(0.0f, 1.0f));
  ImGui::SetNextWindowBgAlpha(kBgAlpha);
  ImGui::Begin("##paused", nullptr, kOverlay | ImGuiWindowFlags_NoInputs);
  ImGui::TextColored(ImVec4(1.0f, 0.75f, 0.25f, 1.0f), "PAUSED");
  ImGui::SameLine();
  ImGui::TextUnformatted("Space runs, S steps");
  ImGui::End();
}

void Toast::note(const std::string& message, double now) {
  text_ = message;
  error_ = false;
  start_ = now;
}

void Toast::draw(const ErrorLog& errors, double now, const CanvasRect& view) {
  // A new error shows as a toast for a few seconds (and stays in the panel's log).
  constexpr double kToastSeconds = 6, kFadeSeconds = 1.5;
  if (errors.added() != seen_ && !errors.messages().empty()) {
    seen_ = errors.added();
    start_ = now;
    text_ = errors.messages().back();
    error_ = true;
  }
  if (start_ >= 0 && now - start_ < kToastSeconds) {
    const double left = kToastSeconds - (now - start_);
    drawToast(text_, static_cast<float>(std::min(1.0, left / kFadeSeconds)), view, error_);
  }
}

const std::vector<Shortcut>& shortcuts() {
  static const std::vector<Shortcut> all = {
      {"Space", "run / pause the field and the snakes"},
      {"S or .", "pause, then one step: a field iteration and the snakes' iterations / frame"},
      {"V", "start / stop recording (the Recording section's settings)"},
      {"R", "replay: the field from V0, every snake from its start"},
      {"Tab", "hide / show the side panels"},
      {"F1 or ?", "this list"},
      {"E", "hide / show a demo's explanation"},
      {"I  M  G  T", "image, |V| map, arrows, streamlines"},
      {"L", "log colour scale"},
      {"wheel, + / -", "zoom (to the cursor)"},
      {"arrows", "pan"},
      {"middle drag, Shift+drag", "pan"},
      {"F / 1", "fit / one image pixel per screen pixel"},
      {"drag", "place a circle snake"},
      {"clicks, double-click", "place a polygon snake (Esc cancels)"},
      {"click a snake", "select it (the panel edits it, the arrows show its force)"},
      {"drag the legend", "move it (double-click: back to its own place; View menu hides it)"},
      {"drag a node", "move it"},
      {"right-click a snake", "Compare (twins under the ticked forces) / Delete"},
      {"Ctrl+Z, Ctrl+Shift+Z / Ctrl+Y", "undo / redo snake edits"},
      {"Ctrl+O", "open an image or volume"},
      {"Ctrl+S", "save a figure: size, legend, caption, panels"},
      {"Ctrl+Shift+S", "save the session"},
      {"F11", "full screen"},
  };
  return all;
}

void drawShortcutOverlay(bool* open, const CanvasRect& view) {
  if (!*open) return;
  ImGui::SetNextWindowPos(ImVec2(view.left + view.width * 0.5f, view.top + view.height * 0.5f),
                          ImGuiCond_Always, ImVec2(0.5f, 0.5f));
  ImGui::SetNextWindowBgAlpha(0.92f);
  // Within the view (a 1024 px window leaves it ~660 px): long actions wrap, none is clipped.
  const float maxW = std::max(view.width - 20, 200.0f);
  ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0),
                                      ImVec2(maxW, std::max(view.height - 20, 100.0f)));
  if (ImGui::Begin("Keys and mouse (F1, ? or Esc closes)", open,
                   ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoCollapse |
                       ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoMove)) {
    float keysW = 0;
    for (const auto& s : shortcuts()) keysW = std::max(keysW, ImGui::CalcTextSize(s.keys).x);
    const float actionX =
        keysW + 2 * ImGui::GetStyle().ItemSpacing.x + ImGui::GetStyle().WindowPadding.x;
    ImGui::PushTextWrapPos(maxW - ImGui::GetStyle().WindowPadding.x);
    for (const auto& s : shortcuts()) {
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.4f, 1), "%s", s.keys);
      ImGui::SameLine(actionX);
      ImGui::TextUnformatted(s.action);
    }
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace gvflab::viewer
