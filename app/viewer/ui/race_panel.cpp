#include "viewer/ui/race_panel.hpp"

#include <algorithm>
#include <cmath>
#include <vector>

#include "viewer/model/axis_ticks.hpp"
#include "viewer/render/race_view.hpp"

namespace gvflab::viewer {
namespace {

const char* laneName(int i) { return i == RaceSession::kEuler ? "Euler" : "multigrid"; }

double logEps(double e) { return std::log10(std::max(e, 1e-30)); }

const char* const kLongHeads[] = {"solver",    "iterations",     "\xce\xb5 (eq. 9)",
                                  "OpenCL ms", "ms / iteration", "capture area"};
const char* const kShortHeads[] = {"solver", "it.", "\xce\xb5", "ms", "ms/it.", "capture"};
}  // namespace

float raceReadoutsWidth(bool roomy) {
  const char* widest[] = {"multigrid",
                          "0000000",
                          roomy ? "0.0000e-00" : "0.00e-00",
                          roomy ? "00000.0" : "00000",
                          "0.0000",
                          roomy ? "000000 px (100.0%)" : "100.0%"};
  const char* const* heads = roomy ? kLongHeads : kShortHeads;
  float sum = 0;
  for (int c = 0; c < 6; ++c)
    sum += std::max(ImGui::CalcTextSize(heads[c]).x, ImGui::CalcTextSize(widest[c]).x);
  return sum + 12 * ImGui::GetStyle().CellPadding.x + 6;
}

void drawRaceReadouts(const RaceSession& race, long planePixels) {
  // A projector's 1024x768 leaves the race about 400 px: the short form there.
  const bool roomy = raceReadoutsWidth(true) <= ImGui::GetContentRegionAvail().x;
  if (!ImGui::BeginTable("race", 6,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                             ImGuiTableFlags_SizingStretchProp))
    return;
  for (const char* h : roomy ? kLongHeads : kShortHeads) ImGui::TableSetupColumn(h);
  ImGui::TableHeadersRow();
  for (int i = 0; i < 2; ++i) {
    const RaceLane& lane = race.lane(i);
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(raceLaneColor(i)), "%s", laneName(i));
    ImGui::TableNextColumn();
    ImGui::Text("%ld", lane.solver->iterations());
    ImGui::TableNextColumn();
    ImGui::Text(roomy ? "%.4e" : "%.2e", lane.epsilon);
    ImGui::TableNextColumn();
    ImGui::Text(roomy ? "%.1f" : "%.0f", lane.budget.totalMs());
    ImGui::TableNextColumn();
    const long it = lane.solver->iterations();
    if (it > 0)
      ImGui::Text("%.4g", lane.budget.totalMs() / static_cast<double>(it));
    else
      ImGui::TextDisabled("-");
    ImGui::TableNextColumn();
    const double share = 100.0 * static_cast<double>(lane.captureArea) / std::max(planePixels, 1L);
    if (lane.captureArea < 0)
      ImGui::TextDisabled("-");
    else if (roomy)
      ImGui::Text("%ld px (%.1f%%)", lane.captureArea, share);
    else
      ImGui::Text("%.1f%%", share);
  }
  ImGui::EndTable();
}

void drawRacePlot(const RaceSession& race, ImVec2 size) {
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const ImVec2 origin = ImGui::GetCursorScreenPos();
  ImGui::Dummy(size);
  const float font = ImGui::GetFontSize();
  // The plot area, below the y title (the top tick, rounded out, is at its top).
  const ImVec2 lo(origin.x + 4.5f * font, origin.y + 1.6f * font);
  const ImVec2 hi(origin.x + size.x - 0.5f * font, origin.y + size.y - 2.6f * font);
  if (hi.x - lo.x < 20 || hi.y - lo.y < 20) return;
  draw->AddRectFilled(lo, hi, IM_COL32(20, 20, 26, 255));
  draw->AddRect(lo, hi, IM_COL32(120, 120, 130, 255));

  // Round ticks and extents (axis_ticks.hpp) over both curves.
  std::vector<double> xs, ys;
  for (int i = 0; i < 2; ++i)
    for (const RacePoint& p : race.lane(i).curve)
      xs.push_back(p.ms), ys.push_back(logEps(p.epsilon));
  if (xs.empty()) return;
  const PlotAxes a = plotAxes(xs, ys, /*logY=*/false, /*yFromZero=*/false, 5);
  auto toScreen = [&](double x, double y) {
    return ImVec2(lo.x + static_cast<float>((x - a.xMin) / (a.xMax - a.xMin)) * (hi.x - lo.x),
                  hi.y - static_cast<float>((y - a.yMin) / (a.yMax - a.yMin)) * (hi.y - lo.y));
  };
  const ImU32 grid = IM_COL32(70, 70, 80, 255), text = IM_COL32(200, 200, 210, 255);
  for (const Tick& t : a.xTicks) {
    const float x = toScreen(t.value, a.yMin).x, w = ImGui::CalcTextSize(t.label.c_str()).x;
    draw->AddLine(ImVec2(x, lo.y), ImVec2(x, hi.y), grid);
    draw->AddText(ImVec2(x - w * 0.5f, hi.y + 2), text, t.label.c_str());
  }
  for (const Tick& t : a.yTicks) {
    const float y = toScreen(a.xMin, t.value).y, w = ImGui::CalcTextSize(t.label.c_str()).x;
    draw->AddLine(ImVec2(lo.x, y), ImVec2(hi.x, y), grid);
    draw->AddText(ImVec2(lo.x - w - 4, y - font * 0.5f), text, t.label.c_str());
  }
  const char* xLabel = "OpenCL time of each solver's kernels (ms)";
  draw->AddText(ImVec2(0.5f * (lo.x + hi.x - ImGui::CalcTextSize(xLabel).x), hi.y + 1.3f * font),
                text, xLabel);
  draw->AddText(ImVec2(origin.x, origin.y), text, "log10 \xce\xb5");

  // The curves, thinned to about one point per pixel column.
  draw->PushClipRect(lo, hi, true);
  for (int i = 0; i < 2; ++i) {
    const auto& curve = race.lane(i).curve;
    const std::size_t stride = std::max<std::size_t>(1, curve.size() / 800);
    std::vector<ImVec2> pts;
    for (std::size_t k = 0; k < curve.size(); k += stride)
      pts.push_back(toScreen(curve[k].ms, logEps(curve[k].epsilon)));
    if (!curve.empty() && (curve.size() - 1) % stride != 0)
      pts.push_back(toScreen(curve.back().ms, logEps(curve.back().epsilon)));
    if (pts.size() > 1)
      draw->AddPolyline(pts.data(), static_cast<int>(pts.size()), raceLaneColor(i), 0, 2.0f);
    for (const ImVec2& p : pts.size() <= 40 ? pts : std::vector<ImVec2>{})
      draw->AddCircleFilled(p, 2.5f, raceLaneColor(i));  // few points: show each iteration
  }
  draw->PopClipRect();

  // Legend, top right.
  float y = lo.y + 6;
  for (int i = 0; i < 2; ++i) {
    const float x = hi.x - 7.5f * font;
    draw->AddLine(ImVec2(x, y + font * 0.5f), ImVec2(x + 1.5f * font, y + font * 0.5f),
                  raceLaneColor(i), 2.0f);
    draw->AddText(ImVec2(x + 2 * font, y), text, laneName(i));
    y += font + 2;
  }
}

}  // namespace gvflab::viewer
