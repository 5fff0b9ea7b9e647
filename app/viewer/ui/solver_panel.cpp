#include "viewer/ui/solver_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "gvflab/params.hpp"
#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {
namespace {

void tooltip(const std::string& text) { itemTooltip(text); }

void drawCycles(Session& session, ErrorLog& errors) {
  const auto& specs = multigridParamSpecs();
  const SolverConfig& c = session.solverChoice();
  int values[3] = {c.a, c.b, c.c};
  const char* keys[3] = {"mg-a", "mg-b", "mg-c"};
  bool changed = false;
  for (int i = 0; i < 3; ++i) {
    const ParamSpec& spec = findSpec(specs, keys[i]);
    changed |= ImGui::SliderInt(spec.label.c_str(), &values[i], static_cast<int>(spec.minValue),
                                static_cast<int>(spec.maxValue));
    tooltip(spec.help);
  }
  if (changed)
    errors.guard("Setting the multigrid cycles",
                 [&] { session.setMultigridCycles(values[0], values[1], values[2]); });
}

// Which level costs what: the profiler's time per multigrid level (the one-work-group launch
// that solves the coarsest levels together is one row), in ms as the kernel table.
void drawLevelTimes(const MultigridSolver& mg) {
  const auto rows = mg.levelTimes();
  if (rows.empty()) return;
  double sum = 0;
  for (const auto& r : rows) sum += r.stats.meanMs;
  if (!ImGui::BeginTable("mg levels", 5,
                         ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                             ImGuiTableFlags_SizingStretchProp))
    return;
  ImGui::TableSetupColumn("level", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("size", ImGuiTableColumnFlags_WidthStretch, 2.0f);
  ImGui::TableSetupColumn("last", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("mean", ImGuiTableColumnFlags_WidthStretch, 1.2f);
  ImGui::TableSetupColumn("share", ImGuiTableColumnFlags_WidthStretch, 1.0f);
  ImGui::TableHeadersRow();
  for (const auto& r : rows) {
    ImGui::TableNextRow();
    ImGui::TableNextColumn();
    if (r.lastLevel > r.level) ImGui::Text("%d-%d", r.level, r.lastLevel);
    else ImGui::Text("%d", r.level);
    if (r.lastLevel > r.level)
      itemTooltip("Levels " + std::to_string(r.level) + " to " + std::to_string(r.lastLevel) +
                  " are solved together by one work-group in local memory, one launch each "
                  "time the cycle reaches them.");
    ImGui::TableNextColumn();
    if (r.shape.depth > 1) ImGui::Text("%dx%dx%d", r.shape.width, r.shape.height, r.shape.depth);
    else ImGui::Text("%dx%d", r.shape.width, r.shape.height);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.stats.lastMs);
    ImGui::TableNextColumn();
    ImGui::Text("%.3f", r.stats.meanMs);
    ImGui::TableNextColumn();
    ImGui::Text("%.0f%%", sum > 0 ? 100.0 * r.stats.meanMs / sum : 0.0);
  }
  ImGui::EndTable();
}

}  // namespace

void drawSolverChoice(Session& session, ErrorLog& errors) {
  int kind = session.solverKind() == SolverKind::Euler ? 0 : 1;
  if (ImGui::Combo("solver", &kind, "Euler\0multigrid (FMG)\0"))
    errors.guard("Changing the solver", [&] {
      session.setSolverKind(kind == 0 ? SolverKind::Euler : SolverKind::Multigrid);
    });
  tooltip(
      "Euler: explicit iterations, cheap but gradients diffuse one pixel per iteration, and "
      "mu has a stability bound. Multigrid: one iteration is a full-multigrid cycle (second "
      "paper), costlier but diffusing across the whole image at once; no bound on mu. "
      "Changing it restarts the iterations.");

  int precision = static_cast<int>(session.precision());
  if (ImGui::Combo("precision", &precision, "float32\0float16\0snorm16\0"))
    errors.guard("Changing the precision", [&] {
      session.setStorage(static_cast<Precision>(precision), session.solverChoice().memory);
    });
  if (session.solverKind() == SolverKind::Euler) {
    int memory = static_cast<int>(session.memory());
    if (ImGui::Combo("memory", &memory, "buffers\0images\0local tiles\0"))
      errors.guard("Changing the memory kind", [&] {
        session.setStorage(session.precision(), static_cast<MemoryKind>(memory));
      });
    tooltip(
        "Where and how the field lives on the device. 16-bit storage halves the memory "
        "traffic and loses some accuracy (docs/ACCURACY.md); local tiles run several "
        "iterations per launch. Changing either restarts the iterations.");
    if (!session.storageNote().empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "%s", session.storageNote().c_str());
      ImGui::PopTextWrapPos();
    }
  } else {
    drawCycles(session, errors);
    if (MultigridSolver* mg = session.multigrid()) {
      ImGui::TextDisabled("%d levels, %.1f MiB on the device", mg->levels(),
                          static_cast<double>(mg->deviceBytes()) / (1 << 20));
      drawLevelTimes(*mg);
    }
  }
}

void drawSliceControls(Session& session, ErrorLog& errors) {
  VolumeSlices* slices = session.volumeSlices();
  if (!slices) return;
  const Volume& v = slices->volume();
  ImGui::TextDisabled("volume %d x %d x %d, GVF in 3D", v.width, v.height, v.depth);
  int axis = static_cast<int>(slices->axis());
  bool changed = false;
  changed |= ImGui::RadioButton("axial", &axis, 0);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("coronal", &axis, 1);
  ImGui::SameLine();
  changed |= ImGui::RadioButton("sagittal", &axis, 2);
  tooltip(
      "Axial: z fixed (x right, y down); coronal: y fixed (x right, z down); sagittal: x "
      "fixed (y right, z down). Arrows show the field's two in-plane components.");
  if (changed) {
    const SliceAxis a = static_cast<SliceAxis>(axis);
    errors.guard("Changing the slice axis", [&] { session.setSlice(a, slices->count(a) / 2); });
  }
  int index = slices->index();
  if (ImGui::SliderInt("slice", &index, 0, slices->count() - 1))
    errors.guard("Changing the slice", [&] {
      session.setSlice(slices->axis(), std::clamp(index, 0, slices->count() - 1));
    });
}

}  // namespace gvflab::viewer
