#include "viewer/ui/snake_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <iterator>

#include "viewer/ui/panel_widgets.hpp"
#include "viewer/ui/plots.hpp"

namespace gvflab::viewer {
namespace {

void help(const std::string& text) {
  ImGui::SameLine();
  ImGui::TextDisabled("(?)");
  itemTooltip(text);
}

// One widget per bound parameter (a checkbox for a switch); true when the value changed. Wide
// ranges get a practical cap on the slider (typed values, ctrl-click, reach the rest).
bool paramWidget(const ParamField<SnakeParams>& field, SnakeParams& p) {
  const ParamSpec& s = findSpec(snakeParamSpecs(), field.key);
  bool changed = false;
  if (field.isBool()) {
    bool v = field.get(p) != 0;
    if ((changed = ImGui::Checkbox(s.label.c_str(), &v))) field.set(p, v);
  } else if (s.integer) {
    int v = static_cast<int>(field.get(p));
    changed = ImGui::SliderInt(s.label.c_str(), &v, static_cast<int>(s.minValue),
                               static_cast<int>(s.maxValue), "%d", ImGuiSliderFlags_Logarithmic);
    if (changed) field.set(p, v);
  } else {
    const double cap = s.key == "dmax" || s.key == "gamma" ? 10.0
                       : s.key == "dmin"                   ? 5.0
                       : s.key == "snake-hold-gap"         ? 32.0
                                                           : 2.0;
    float v = static_cast<float>(field.get(p));
    const float lo =
        static_cast<float>(std::max(s.minValue, s.key == "pressure" ? -1.0 : s.minValue));
    changed = ImGui::SliderFloat(s.label.c_str(), &v, lo,
                                 static_cast<float>(std::min(s.maxValue, cap)), "%.3f");
    if (changed) field.set(p, v);
  }
  help(s.help);
  return changed;
}

// GGVF's K, VFC's kernel, radius, gamma and zeta, the distance threshold (forceParamSpecs):
// a new value is applied when the slider is let go, since GGVF's field is solved anew.
void drawForceParams(SnakeSession& snakes, ErrorLog& errors) {
  if (!ImGui::TreeNode("Force parameters (GGVF, VFC, distance)")) return;
  static ForceParams draft;
  static bool editing = false;
  if (!editing) draft = snakes.forceParams();
  editing = false;
  bool apply = false;
  for (const ParamSpec* s : forceParamSpecs()) {
    float v = static_cast<float>(forceParam(draft, s->key));
    const float hi = static_cast<float>(std::min(s->maxValue, s->integer ? 64.0 : s->maxValue));
    if (ImGui::SliderFloat(s->label.c_str(), &v, static_cast<float>(s->minValue), hi,
                           s->integer ? "%.0f" : "%.3g", ImGuiSliderFlags_Logarithmic))
      setForceParam(draft, s->key, s->integer ? std::round(v) : v);
    editing |= ImGui::IsItemActive();
    apply |= ImGui::IsItemDeactivatedAfterEdit();
    help(s->help);
  }
  int kernel = static_cast<int>(draft.vfc.kernel);
  if (ImGui::Combo("VFC kernel", &kernel, "power (r + eps)^-gamma\0gaussian exp(-r^2/zeta^2)\0")) {
    draft.vfc.kernel = static_cast<VfcKernel>(kernel);
    apply = true;
  }
  if (apply) errors.guard("Setting the force parameters", [&] { snakes.setForceParams(draft); });
  ImGui::TreePop();
}

// The selected snake: its force, its own pressure, its state, Compare and Delete.
void drawSelected(SnakeSession& snakes, SnakeActions& actions, ErrorLog& errors) {
  const SnakeContour* c = snakes.selected();
  if (!c) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    ImGui::TextWrapped("No snake selected: click one on the canvas or in the table.");
    ImGui::PopStyleColor();
    return;
  }
  const int id = c->id;
  ImGui::ColorButton("##force colour", toImVec4(forceColor(c->force)),
                     ImGuiColorEditFlags_NoTooltip,
                     ImVec2(ImGui::GetFontSize(), ImGui::GetFontSize()));
  ImGui::SameLine();
  ImGui::Text("Snake #%d:", id);
  ImGui::SameLine();
  ImGui::TextColored(toImVec4(stateColor(c->state)), "%s",
                     shownStateName(c->state, snakes.waitingForField()));
  ImGui::SameLine();
  ImGui::Text("after %ld iterations", c->iterations);
  int force = static_cast<int>(c->force);
  if (ImGui::Combo("its force", &force, kForceMenuItems))
    errors.guard("Setting the snake's force",
                 [&] { snakes.setForce(id, static_cast<SnakeForce>(force)); });
  help(
      "This snake's external force: GVF, the gradient of the edge map f, generalized GVF "
      "(GGVF K), vector field convolution (VFC kernel) or the distance to the nearest edge. "
      "The arrows and streamlines show the selected snake's force.");
  bool own = c->ownPressure;
  if (ImGui::Checkbox("own pressure", &own))
    errors.guard("Setting the snake's pressure", [&] {
      snakes.setPressure(id, own ? std::optional<double>(c->pressure) : std::nullopt);
    });
  help("Off: the pressure of the parameters below. On: this snake's own balloon force.");
  if (own) {
    float p = static_cast<float>(c->pressure);
    ImGui::SameLine();
    ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x);
    if (ImGui::SliderFloat("##own pressure", &p, -1.0f, 1.0f, "%.3f"))
      errors.guard("Setting the snake's pressure", [&] { snakes.setPressure(id, p); });
  }
  if (ImGui::Button("Compare")) actions.compare = id;
  help(
      "Twins from the same starting contour with the forces ticked below; all start again from "
      "there, side by side (also on a right-click on the snake).");
  compareForceBoxes(snakes.compareForces);
  if (ImGui::Button("Delete")) actions.remove = id;
}

void drawTable(SnakeSession& snakes) {
  const auto& contours = snakes.contours();
  int count[std::size(kSnakeStates)] = {};
  for (const auto& c : contours) ++count[static_cast<int>(c.state)];
  ImGui::TextUnformatted(snakeCountLine(contours.size(), snakes.session().isVolume()).c_str());
  for (SnakeState s : kSnakeStates) {
    // Converged and stalled always (the lesson's two outcomes); the others when there are
    // any, so the line fits the panel.
    if (!count[static_cast<int>(s)] && (s == SnakeState::Moving || s == SnakeState::Collapsed))
      continue;
    ImGui::SameLine();
    ImGui::TextColored(toImVec4(stateColor(s)), "%d %s", count[static_cast<int>(s)],
                       shownStateName(s, snakes.waitingForField()));
  }
  if (contours.empty() ||
      !beginListTable("snakes", {"#", "force", "state", "iterations"}, contours.size()))
    return;
  for (const auto& c : contours) {
    if (idCell(c.id, c.id == snakes.selectedId(), c.force, c.state, snakes.waitingForField()))
      snakes.select(c.id);
    ImGui::TableNextColumn();
    ImGui::Text("%ld", c.iterations);
  }
  ImGui::EndTable();
}

// Trails: each snake drawn every N of its iterations, faded (as in Xu and Prince's figures).
void drawTrails(SnakeSession& snakes) {
  static int every = 50;  // kept while trails are off
  if (snakes.trailEvery() > 0) every = snakes.trailEvery();
  bool on = snakes.trailEvery() > 0;
  if (ImGui::Checkbox("trails", &on)) snakes.setTrailEvery(on ? every : 0);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(ImGui::CalcTextSize("every 0000 it.").x +
                          2 * ImGui::GetStyle().FramePadding.x);
  ImGui::BeginDisabled(!on);
  if (ImGui::SliderInt("##trail", &every, 5, 500, "every %d it.", ImGuiSliderFlags_Logarithmic))
    snakes.setTrailEvery(every);
  ImGui::EndDisabled();
  help(
      "Each snake drawn every N of its iterations, fainter the older: the path it took (also "
      "in figures and recordings; --trails N).");
}

// Whether the snakes wait for the field, and while they do, how far the field still has to go.
void drawFieldWait(SnakeSession& snakes) {
  bool wait = snakes.waitForField();
  if (ImGui::Checkbox("wait for the field", &wait)) snakes.setWaitForField(wait);
  help(
      "Snakes start once the GVF field is solved to its target error (eq. 9 of the multigrid "
      "paper, default 1e-6) or its error stopped falling: on a field still diffusing a snake "
      "stops where the field ends, not at the object.");
  if (!snakes.waitingForField()) return;
  const ConvergenceWatch& w = snakes.session().fieldWatch();
  ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.75f, 0.2f, 1.0f));
  if (const auto count = snakes.session().fieldIterations())
    ImGui::TextWrapped("Field still diffusing: iteration %ld of %ld. Snakes wait.",
                       snakes.session().iterations(), *count);
  else
    ImGui::TextWrapped("Field still converging: error %.2g, target %.0e. Snakes wait.", w.last(),
                       w.target());
  ImGui::PopStyleColor();
  if (snakes.session().fieldIterations()) return;
  if (snakes.session().solverKind() == SolverKind::Euler)
    ImGui::TextWrapped("(Multigrid, in the Solver section, gets there in a few cycles.)");
}

}  // namespace

std::string snakeCountLine(std::size_t count, bool onSlice) {
  return std::to_string(count) + (onSlice ? " 2D snakes on this slice:" : " snakes:");
}

void drawSnakePanel(SnakeSession& snakes, SnakeOverlay& overlay, SnakeActions& actions,
                    ErrorLog& errors) {
  if (ImGui::CollapsingHeader("Snakes", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushItemWidth(-labelColumn({"iterations / frame", "new snakes", "its force",
                                       "own pressure", "pressure", "alpha", "gamma"}) -
                         helpMarkerWidth());
    ImGui::TextWrapped(
        "Drag: circle. Clicks: polygon, double-click closes. Click a snake to select it, "
        "drag a node to move it, right-click for Compare / Delete.");
    if (ImGui::Button("Replay (R)")) actions.replay = true;
    help("The field from V0 again and every snake from its starting contour, iteration 0.");
    ImGui::SameLine();
    bool running = snakes.running();
    if (ImGui::Checkbox("evolve", &running)) snakes.setRunning(running);
    ImGui::SameLine();
    ImGui::Checkbox("nodes", &overlay.showNodes);
    drawTrails(snakes);
    drawFieldWait(snakes);
    drawSelected(snakes, actions, errors);
    ImGui::Separator();
    drawTable(snakes);
    ImGui::Separator();
    int force = static_cast<int>(snakes.newForce());
    if (ImGui::Combo("new snakes", &force, kForceMenuItems))
      snakes.setNewForce(static_cast<SnakeForce>(force));
    help("The force of snakes placed by hand or seeded from now on.");
    int perFrame = snakes.frameIterations();
    const ParamSpec& fs = findSpec(snakeParamSpecs(), "snake-frame-iterations");
    if (ImGui::SliderInt("iterations / frame", &perFrame, 1, 50))
      errors.guard("Setting snake iterations", [&] { snakes.setFrameIterations(perFrame); });
    help(fs.help);
    if (ImGui::TreeNode("Parameters (every snake)")) {
      SnakeParams p = snakes.params();
      bool changed = false;
      for (const auto& field : snakeParamFields()) changed |= paramWidget(field, p);
      if (changed) errors.guard("Setting the snake parameters", [&] { snakes.setParams(p); });
      ImGui::TreePop();
    }
    drawForceParams(snakes, errors);
    static int seedSpacing = 32;
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("every 000 px").x +
                            2 * ImGui::GetStyle().FramePadding.x);
    ImGui::SliderInt("##seed", &seedSpacing, 12, 96, "every %d px");
    ImGui::SameLine();
    if (ImGui::Button("Seed grid"))
      errors.guard("Seeding snakes", [&] { snakes.seedGrid(seedSpacing, seedSpacing * 0.2f); });
    help(
        "A grid of small circles over the whole image: where they end up shows the capture "
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
    ImGui::PopItemWidth();
    drawSnakeProgressPlot(snakes);
  }
  if (ImGui::CollapsingHeader("Capture range", ImGuiTreeNodeFlags_DefaultOpen)) {
    ImGui::PushItemWidth(-labelColumn({"edge threshold", "opacity"}) - helpMarkerWidth());
    if (ImGui::Checkbox("show map", &snakes.showCapture)) snakes.requestCapture();
    ImGui::SameLine();
    int which = static_cast<int>(snakes.captureForce);
    ImGui::SetNextItemWidth(ImGui::CalcTextSize("traditional").x + ImGui::GetFrameHeight() +
                            2 * ImGui::GetStyle().FramePadding.x);
    if (ImGui::Combo("##capforce", &which, "GVF\0traditional\0GGVF\0VFC\0distance\0")) {
      snakes.captureForce = static_cast<SnakeForce>(which);
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
      for (SnakeForce f : kSnakeForces)
        if (const long a = snakes.captureArea(f); a > 0 || f == SnakeForce::Gvf)
          ImGui::Text("%s %s %ld px (%.0f%%)", f == SnakeForce::Gvf ? "captured:" : "         ",
                      forceLabel(f), a, 100.0 * a / total);
      if (t > 0) ImGui::Text("GVF / traditional = %.1f", static_cast<double>(g) / t);
      drawCaptureLegend(snakes);
    }
    ImGui::PopItemWidth();
  }
}

}  // namespace gvflab::viewer
