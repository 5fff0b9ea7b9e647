#include "viewer/ui/plots.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "gvflab/capture_range.hpp"
#include "viewer/model/axis_ticks.hpp"

namespace gvflab::viewer {
namespace {

const ImU32 kAxis = IM_COL32(170, 172, 180, 255);
const ImU32 kGrid = IM_COL32(90, 92, 100, 120);
const ImU32 kText = IM_COL32(215, 217, 224, 255);
const ImU32 kLine = IM_COL32(255, 196, 60, 255);

// One line plot with labelled, ticked axes filling the panel's width.
void drawAxesPlot(const char* id, const std::vector<std::array<double, 2>>& points, bool logY,
                  const char* yTitle, const char* xTitle, float height) {
  std::vector<double> xs, ys;
  for (const auto& p : points) xs.push_back(p[0]), ys.push_back(p[1]);
  const float width = ImGui::GetContentRegionAvail().x;
  // As many x ticks as labels like "100000" fit side by side.
  const int xTicks =
      std::max(2, static_cast<int>(width / (ImGui::CalcTextSize("1000000").x * 1.6f)));
  const PlotAxes axes = plotAxes(xs, ys, logY, /*yFromZero=*/!logY, xTicks);
  ImGui::PushID(id);
  ImGui::TextUnformatted(yTitle);
  const float font = ImGui::GetFontSize();
  float labelWidth = 0;
  for (const Tick& t : axes.yTicks)
    labelWidth = std::max(labelWidth, ImGui::CalcTextSize(t.label.c_str()).x);
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  // Plot area: room for the y labels on the left, x labels and title below.
  const float left = origin.x + labelWidth + 6, right = origin.x + width - 6;
  const float top = origin.y + font * 0.5f, bottom = origin.y + height - 2 * font - 4;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  auto px = [&](double x) {
    return static_cast<float>(left + (x - axes.xMin) / (axes.xMax - axes.xMin) * (right - left));
  };
  auto py = [&](double y) {
    return static_cast<float>(bottom - (y - axes.yMin) / (axes.yMax - axes.yMin) * (bottom - top));
  };
  for (const Tick& t : axes.yTicks) {
    const float y = py(t.value);
    draw->AddLine(ImVec2(left, y), ImVec2(right, y), kGrid);
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(ImVec2(left - 4 - size.x, y - size.y * 0.5f), kText, t.label.c_str());
  }
  for (const Tick& t : axes.xTicks) {
    const float x = px(t.value);
    draw->AddLine(ImVec2(x, bottom), ImVec2(x, bottom + 3), kAxis);
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    const float lx = std::clamp(x - size.x * 0.5f, left - labelWidth, right - size.x);
    draw->AddText(ImVec2(lx, bottom + 3), kText, t.label.c_str());
  }
  draw->AddLine(ImVec2(left, top), ImVec2(left, bottom), kAxis);
  draw->AddLine(ImVec2(left, bottom), ImVec2(right, bottom), kAxis);
  const ImVec2 xt = ImGui::CalcTextSize(xTitle);
  draw->AddText(ImVec2(right - xt.x, bottom + 3 + font), kText, xTitle);
  std::vector<ImVec2> line;
  for (std::size_t i = 0; i < xs.size(); ++i) {
    if (!std::isfinite(ys[i]) || (logY && !(ys[i] > 0))) continue;
    line.emplace_back(px(xs[i]), py(logY ? std::log10(ys[i]) : ys[i]));
  }
  if (line.size() >= 2)
    draw->AddPolyline(line.data(), static_cast<int>(line.size()), kLine, 0, 1.5f);
  else if (line.size() == 1)
    draw->AddCircleFilled(line[0], 2.5f, kLine);
  ImGui::Dummy(ImVec2(width, height));
  ImGui::PopID();
}

}  // namespace

void drawConvergencePlot(const Session& session) {
  const auto& points = session.convergence();
  if (points.size() < 2) {
    ImGui::TextDisabled("\xce\xb5 plot: after the first iterations");
    return;
  }
  drawAxesPlot("eps", points, true, "\xce\xb5 (eq. 9), log scale", "iterations", 120);
}

void drawSnakeProgressPlot(SnakeSession& snakes) {
  const auto& contours = snakes.contours();
  if (contours.empty()) {
    ImGui::TextDisabled("Snake progress: place a snake first");
    return;
  }
  // The selected snake's progress; picking another here selects it (and the field it shows).
  const int selectedId = snakes.selectedId() != 0 ? snakes.selectedId() : contours.front().id;
  std::string current = "snake " + std::to_string(selectedId);
  ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8);
  if (ImGui::BeginCombo("##progress-snake", current.c_str())) {
    for (const auto& c : contours) {
      std::string name = "snake " + std::to_string(c.id) + " (" + forceName(c.force) + ", " +
                         snakeStateName(c.state) + ")";
      if (ImGui::Selectable(name.c_str(), c.id == selectedId)) snakes.select(c.id);
    }
    ImGui::EndCombo();
  }
  ImGui::SameLine();
  ImGui::TextDisabled("progress");
  const auto& points = snakes.progress(selectedId);
  if (points.empty()) {
    ImGui::TextDisabled("not moved yet");
    return;
  }
  drawAxesPlot("progress", points, false, "mean node displacement per iteration (px)",
               "snake iterations", 120);
}

void drawCaptureLegend(const SnakeSession& snakes) {
  const int maxSteps = std::max(snakes.captureMaxSteps(), 1);
  ImGui::TextUnformatted("steps from a pixel to an edge:");
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  const float width = ImGui::GetContentRegionAvail().x - 12, barH = 12;
  const float left = origin.x + 6;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int segments = 64;
  std::vector<int> steps(segments);
  for (int i = 0; i < segments; ++i) steps[i] = 1 + (maxSteps - 1) * i / (segments - 1);
  const auto rgb = captureMapRgb(steps, maxSteps);
  for (int i = 0; i < segments; ++i) {
    const float x0 = left + width * i / segments, x1 = left + width * (i + 1) / segments;
    draw->AddRectFilled(ImVec2(x0, origin.y), ImVec2(x1 + 0.5f, origin.y + barH),
                        IM_COL32(rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2], 255));
  }
  for (const Tick& t : linearTicks(0, maxSteps, 4)) {
    const float x = left + static_cast<float>(t.value / maxSteps) * width;
    draw->AddLine(ImVec2(x, origin.y + barH), ImVec2(x, origin.y + barH + 3), kAxis);
    const ImVec2 size = ImGui::CalcTextSize(t.label.c_str());
    draw->AddText(
        ImVec2(std::clamp(x - size.x * 0.5f, left, left + width - size.x), origin.y + barH + 3),
        kText, t.label.c_str());
  }
  ImGui::Dummy(ImVec2(width, barH + ImGui::GetFontSize() + 6));
  ImGui::TextWrapped(
      "White: on an edge (0 steps). No colour: the force never leads to an edge "
      "(outside the capture range).");
}

}  // namespace gvflab::viewer
