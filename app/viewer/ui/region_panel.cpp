#include "viewer/ui/region_panel.hpp"

#include <imgui.h>

#include <cstdio>

#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {
namespace {

void drawStats(const RegionSession& region) {
  const RegionStats& s = region.stats();
  const RegionSnake& snake = *region.snake();
  ImGui::Separator();
  // Each readout whole: a narrow panel wraps between them, never inside one.
  char part[3][48];
  std::snprintf(part[0], sizeof part[0], "iteration %d", s.iteration);
  std::snprintf(part[1], sizeof part[1], "step d = %d px", s.step);
  std::snprintf(part[2], sizeof part[2], "steps %ld", s.steps);
  for (int i = 0; i < 3; ++i) {
    if (i > 0) sameLineIfFits(part[i]);
    ImGui::TextUnformatted(part[i]);
  }
  ImGui::Text("nodes %d%s", s.nodes,
              s.converged        ? "   (converged)"
              : snake.finished() ? "   (stopped)"
                                 : "");
  if (ImGui::BeginTable("regions", 3, ImGuiTableFlags_BordersInnerH)) {
    ImGui::TableSetupColumn("");
    ImGui::TableSetupColumn("target");
    ImGui::TableSetupColumn("backgr.");
    ImGui::TableHeadersRow();
    auto row = [](const char* name, double t, double b, const char* fmt) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name);
      ImGui::TableNextColumn();
      ImGui::Text(fmt, t);
      ImGui::TableNextColumn();
      ImGui::Text(fmt, b);
    };
    row("N", double(s.target.n), double(s.background.n), "%.0f");
    row("mean", s.meanT, s.meanB, "%.1f");
    row("sigma", s.sigmaT, s.sigmaB, "%.1f");
    ImGui::EndTable();
  }
  ImGui::Text("criterion %.6g", s.criterion);
  ImGui::TextWrapped("last frame's steps %.2f ms, setup %.1f ms", region.lastStepMs(),
                     region.buildMs());
  ImGui::TextWrapped("%.1f B/px on the device (prefix images %.1f ms)", snake.bytesPerPixel(),
                     snake.precomputeMs());
}

}  // namespace

void drawRegionPanel(RegionPanelState& state, const RegionSession& region,
                     const RegionPanelHooks& hooks, const char* window) {
  // Docked in the panel, under the layers: nothing floats over the image.
  ImGui::Begin(window);
  if (!ImGui::CollapsingHeader("Region snake (PLH)",
                               state.enabled ? ImGuiTreeNodeFlags_DefaultOpen : 0)) {
    ImGui::End();
    return;
  }
  ImGui::PushItemWidth(-labelColumn({"steps / frame", "min segment", "noise", "d max"}));
  if (ImGui::Checkbox("Region snake mode", &state.enabled) && state.enabled) hooks.enabled();
  ImGui::SameLine();
  ImGui::Checkbox("Run", &state.running);
  if (ImGui::Button("Step")) hooks.step();
  ImGui::SameLine();
  if (ImGui::Button("Restart")) hooks.restart();
  sameLineIfFits("Default rectangle");
  if (ImGui::Button("Default rectangle")) hooks.defaultRectangle();
  ImGui::SliderInt("steps / frame", &state.stepsPerFrame, 1, 64);
  RegionSnakeParams params = region.params();
  int noise = static_cast<int>(params.noise);
  bool changed = ImGui::Combo("noise", &noise, "Gaussian\0Gamma\0Poisson\0");
  changed |= ImGui::SliderInt("d max", &params.dMax, 1, 256);
  float minSeg = static_cast<float>(params.minSegment);
  changed |= ImGui::SliderFloat("min segment", &minSeg, 2, 200, "%.0f px");
  if (changed) {
    params.noise = static_cast<NoiseModel>(noise);
    params.minSegment = minSeg;
    hooks.setParams(params);
  }
  ImGui::TextWrapped("Right-drag in the view: new starting rectangle");

  if (region.snake() && state.enabled) drawStats(region);
  ImGui::Separator();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("150 MP").x + 4 * ImGui::GetStyle().FramePadding.x);
  ImGui::SliderFloat("##MP", &state.syntheticMpix, 1, 150, "%.0f MP");
  ImGui::SameLine();
  if (ImGui::Button("Synthetic star")) hooks.makeSynthetic();
  if (region.ownsImage()) {
    const RegionPhantomSpec& spec = region.ownImage().spec;
    ImGui::Text("%d x %d synthetic star, SNR 2", spec.width, spec.height);
    if (ImGui::Button("Back to the session's image")) hooks.backToSessionImage();
    if (region.snake() && region.snake()->finished())
      ImGui::TextWrapped("IoU with the true star (sampled rows): %.4f", region.syntheticIoU());
  }
  ImGui::PopItemWidth();
  ImGui::End();
}

}  // namespace gvflab::viewer
