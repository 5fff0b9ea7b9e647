#include "viewer/ui/device_pace_panel.hpp"

#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {

std::optional<std::string> drawDeviceSection(const Session& session,
                                             const std::vector<DeviceInfo>& devices,
                                             const FrameReadouts& readouts) {
  std::optional<std::string> picked;
  const DeviceInfo& now = session.device();
  if (ImGui::BeginCombo("device", now.name.c_str())) {
    for (const auto& d : devices) {
      const bool current = d.platformIndex == now.platformIndex && d.deviceIndex == now.deviceIndex;
      std::string label = d.name + " (" + d.platformName + ")##" + std::to_string(d.platformIndex) +
                          "." + std::to_string(d.deviceIndex);
      if (ImGui::Selectable(label.c_str(), current) && !current) picked = d.name;
    }
    ImGui::EndCombo();
  }
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Switch the OpenCL device live: the image, parameters and snakes stay; "
        "the field starts again from V0.");
  dimLabel("CL -> GL", 150);
  ImGui::TextWrapped("%s", readouts.transferPath.c_str());
  dimLabel("transfer", 150);
  ImGui::Text("%.2f ms last, %.2f ms mean", readouts.transferLastMs, readouts.transferMeanMs);
  return picked;
}

void drawPaceSection(Session& session, const FrameStats& stats) {
  bool budget = session.frameBudgetMs() > 0;
  if (ImGui::Checkbox("frame budget", &budget)) session.setFrameBudgetMs(budget ? 16.0 : 0.0);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "On: each frame runs as many iterations as fit the budget. Off: the fixed "
        "iterations per frame of the solver section.");
  if (budget) {
    float ms = static_cast<float>(session.frameBudgetMs());
    ImGui::SameLine();
    ImGui::SetNextItemWidth(-1);
    if (ImGui::SliderFloat("##budget", &ms, 4.0f, 100.0f, "%.0f ms")) session.setFrameBudgetMs(ms);
  }
  dimLabel("frame time", 150);
  ImGui::Text("p50 %.1f ms, p95 %.1f ms", stats.p50(), stats.p95());
  dimLabel("GVF iterations", 150);
  ImGui::Text("%.0f /s, %d this frame", session.iterationsPerSecond(),
              session.lastFrameIterations());
}

}  // namespace gvflab::viewer
