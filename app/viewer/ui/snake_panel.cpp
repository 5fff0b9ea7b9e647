#include "viewer/ui/snake_panel.hpp"

#include <imgui.h>

#include <string>

#include "viewer/ui/panel_widgets.hpp"
#include "viewer/ui/plots.hpp"

namespace gvflab::viewer {
namespace {

void help(const std::string& text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  itemTooltip(text);
}

// One slider per spec; returns true when the value changed.
bool specSlider(const std::string& key, double& value) {
  const ParamSpec& s = findSpec(snakeParamSpecs(), key);
  float v = static_cast<float>(value);
  // Wide ranges get a logarithmic feel by capping the slider at a practical maximum.
  float hi = static_cast<float>(std::min(s.maxValue, key == "dmax" ? 10.0 : key == "dmin" ? 5.0
                                                     : key == "gamma"                   ? 10.0
                                                                                        : 2.0));
  float lo = static_cast<float>(std::max(s.minValue, key == "pressure" ? -1.0 : s.minValue));
  bool changed = ImGui::SliderFloat(s.label.c_str(), &v, lo, hi, "%.3f");
  help(s.help);
  if (changed) value = v;
  return changed;
}

}  // namespace

void drawSnakePanel(SnakeSession& snakes, SnakeOverlay& overlay, ErrorLog& errors) {
  ImGui::Begin("gvflab");  // appends to the left panel
  if (ImGui::CollapsingHeader("Snakes", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::TextWrapped(
        "Drag: circle. Clicks: polygon, double-click closes. Drag a node to move it, "
        "right-click deletes, Ctrl+Z / Ctrl+Shift+Z undo / redo.");
    SnakeParams p = snakes.params();
    bool changed = false;
    for (const char* key : {"alpha", "beta", "gamma", "kappa", "pressure", "dmin", "dmax"}) {
      double* field = key == std::string("alpha")   ? &p.alpha
                      : key == std::string("beta")  ? &p.beta
                      : key == std::string("gamma") ? &p.gamma
                      : key == std::string("kappa") ? &p.kappa
                      : key == std::string("pressure") ? &p.pressure
                      : key == std::string("dmin")     ? &p.dmin
                                                       : &p.dmax;
      changed |= specSlider(key, *field);
    }
    if (changed) errors.guard("Setting the snake parameters", [&] { snakes.setParams(p); });

    int force = snakes.newForce() == SnakeForce::Gvf ? 0 : 1;
    if (ImGui::Combo("force", &force, "GVF\0traditional (grad f)\0"))
      snakes.setForceOfAll(force == 0 ? SnakeForce::Gvf : SnakeForce::Traditional);
    help("External force of the snakes: the GVF field, or the gradient of the edge map f.");
    int perFrame = snakes.frameIterations();
    const ParamSpec& fs = findSpec(snakeParamSpecs(), "snake-frame-iterations");
    if (ImGui::SliderInt("iterations / frame", &perFrame, 1, 50))
      errors.guard("Setting snake iterations", [&] { snakes.setFrameIterations(perFrame); });
    help(fs.help);
    bool running = snakes.running();
    if (ImGui::Checkbox("evolve", &running)) snakes.setRunning(running);
    ImGui::SameLine();
    ImGui::Checkbox("nodes", &overlay.showNodes);
    static int seedSpacing = 32;
    ImGui::SetNextItemWidth(120);
    ImGui::SliderInt("##seed", &seedSpacing, 12, 96, "every %d px");
    ImGui::SameLine();
    if (ImGui::Button("Seed grid"))
      errors.guard("Seeding snakes", [&] { snakes.seedGrid(seedSpacing, seedSpacing * 0.2f); });
    help("A grid of small circles over the whole image: where they end up shows the capture "
         "range of the force.");
    ImGui::SameLine();
    if (ImGui::Button("Clear")) snakes.clear();
    ImGui::BeginDisabled(!snakes.canUndo());
    if (ImGui::Button("Undo")) snakes.undo();
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::BeginDisabled(!snakes.canRedo());
    if (ImGui::Button("Redo")) snakes.redo();
    ImGui::EndDisabled();

    const auto& contours = snakes.contours();
    int converged = 0;
    for (const auto& c : contours) converged += c.converged();
    ImGui::Text("%zu snakes, %d converged", contours.size(), converged);
    if (!contours.empty() &&
        ImGui::BeginTable("snakes", 4, ImGuiTableFlags_RowBg | ImGuiTableFlags_ScrollY,
                          ImVec2(0, std::min(140.0f, 22.0f * (contours.size() + 1))))) {
      ImGui::TableSetupColumn("#");
      ImGui::TableSetupColumn("nodes");
      ImGui::TableSetupColumn("iterations");
      ImGui::TableSetupColumn("state");
      ImGui::TableHeadersRow();
      for (const auto& c : contours) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::Text("%d%s", c.id, c.force == SnakeForce::Traditional ? " t" : "");
        ImGui::TableNextColumn();
        ImGui::Text("%zu", c.points.size());
        ImGui::TableNextColumn();
        ImGui::Text("%ld", c.iterations);
        ImGui::TableNextColumn();
        ImGui::TextColored(c.converged() ? ImVec4(0.3f, 0.95f, 0.4f, 1) : ImVec4(1, 0.6f, 0.1f, 1),
                           c.converged() ? "converged" : "moving");
      }
      ImGui::EndTable();
    }
    drawSnakeProgressPlot(snakes, overlay.plotSnakeId);
  }
  if (ImGui::CollapsingHeader("Capture range", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (ImGui::Checkbox("show map", &snakes.showCapture)) snakes.requestCapture();
    ImGui::SameLine();
    int which = snakes.captureForce == SnakeForce::Gvf ? 0 : 1;
    ImGui::SetNextItemWidth(130);
    if (ImGui::Combo("##capforce", &which, "GVF\0traditional\0")) {
      snakes.captureForce = which == 0 ? SnakeForce::Gvf : SnakeForce::Traditional;
      snakes.requestCapture();
    }
    float threshold = static_cast<float>(snakes.captureParams.threshold);
    if (ImGui::SliderFloat("edge threshold", &threshold, 0.05f, 1.0f, "%.2f")) {
      snakes.captureParams.threshold = threshold;
      snakes.requestCapture();
    }
    help(findSpec(captureParamSpecs(), "capture-threshold").help);
    ImGui::SliderFloat("opacity", &overlay.captureOpacity, 0.1f, 1.0f, "%.2f");
    if (snakes.showCapture) {
      const double total = static_cast<double>(snakes.width()) * snakes.height();
      const long g = snakes.captureArea(SnakeForce::Gvf);
      const long t = snakes.captureArea(SnakeForce::Traditional);
      ImGui::Text("captured: GVF %ld px (%.0f%%)", g, 100.0 * g / total);
      ImGui::Text("          traditional %ld px (%.0f%%)", t, 100.0 * t / total);
      if (t > 0) ImGui::Text("GVF / traditional = %.1f", static_cast<double>(g) / t);
      drawCaptureLegend(snakes);
    }
  }
  ImGui::End();
}

}  // namespace gvflab::viewer
