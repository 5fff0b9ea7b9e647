#include "viewer/ui/race_panel.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <vector>

#include "viewer/render/race_view.hpp"

namespace gvflab::viewer {
namespace {

const char* laneName(int i) { return i == RaceSession::kEuler ? "Euler" : "multigrid"; }

double logEps(double e) { return std::log10(std::max(e, 1e-30)); }

// Round tick spacing (1, 2 or 5 times a power of ten) for about `count` ticks over span.
double tickStep(double span, int count) {
  const double raw = span / std::max(count, 1);
  const double p = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (m * p >= raw) return m * p;
  return 10 * p;
}

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
  const ImVec2 lo(origin.x + 4.5f * font, origin.y + 0.5f * font);  // plot area
  const ImVec2 hi(origin.x + size.x - 0.5f * font, origin.y + size.y - 2.6f * font);
  if (hi.x - lo.x < 20 || hi.y - lo.y < 20) return;
  draw->AddRectFilled(lo, hi, IM_COL32(20, 20, 26, 255));
  draw->AddRect(lo, hi, IM_COL32(120, 120, 130, 255));

  double xMax = 0, yMin = std::numeric_limits<double>::infinity(), yMax = -yMin;
  for (int i = 0; i < 2; ++i)
    for (const RacePoint& p : race.lane(i).curve) {
      xMax = std::max(xMax, p.ms);
      yMin = std::min(yMin, logEps(p.epsilon));
      yMax = std::max(yMax, logEps(p.epsilon));
    }
  if (!(yMax >= yMin)) return;
  xMax = std::max(xMax, 1e-3);
  if (yMax - yMin < 0.1) yMin -= 0.05, yMax += 0.05;
  auto toScreen = [&](double x, double y) {
    return ImVec2(lo.x + static_cast<float>(x / xMax) * (hi.x - lo.x),
                  hi.y - static_cast<float>((y - yMin) / (yMax - yMin)) * (hi.y - lo.y));
  };

  // Ticks and grid.
  char label[32];
  const ImU32 grid = IM_COL32(70, 70, 80, 255), text = IM_COL32(200, 200, 210, 255);
  const double dx = tickStep(xMax, 5);
  for (double x = 0; x <= xMax * 1.0001; x += dx) {
    ImVec2 p = toScreen(x, yMin);
    draw->AddLine(ImVec2(p.x, lo.y), ImVec2(p.x, hi.y), grid);
    std::snprintf(label, sizeof label, "%g", x);
    draw->AddText(ImVec2(p.x - ImGui::CalcTextSize(label).x * 0.5f, hi.y + 2), text, label);
  }
  const double dy = tickStep(yMax - yMin, 4);
  for (double y = std::ceil(yMin / dy) * dy; y <= yMax + 1e-9; y += dy) {
    ImVec2 p = toScreen(0, y);
    draw->AddLine(ImVec2(lo.x, p.y), ImVec2(hi.x, p.y), grid);
    std::snprintf(label, sizeof label, "%.3g", y);
    draw->AddText(ImVec2(lo.x - ImGui::CalcTextSize(label).x - 4, p.y - font * 0.5f), text, label);
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
