#include "viewer/ui/solver_panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <variant>
#include <vector>

#include "gvflab/params.hpp"
#include "gvflab/solver.hpp"
#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {
namespace {

// The solver's own settings (Solver::ownParams: multigrid's a, b, c, cycle), as integer
// sliders; a 0/1 setting as a checkbox, one with named choices as a combo.
void drawOwnParams(Session& session, ErrorLog& errors) {
  const auto& specs = session.solver().ownParams();
  if (specs.empty()) return;
  std::vector<double> values = session.solver().ownParamValues();
  bool changed = false;
  for (std::size_t i = 0; i < specs.size() && i < values.size(); ++i) {
    const ParamSpec& spec = specs[i];
    const int low = static_cast<int>(spec.minValue);
    int v = static_cast<int>(values[i]);
    bool on = v != 0;
    const bool flag = spec.integer && spec.minValue == 0 && spec.maxValue == 1;
    bool set = false;
    if (!spec.choices.empty()) {
      // The choice as the solver resolved it where that says more ("auto (twogrid)"): its
      // fact of the same name (mg-cycle: mg_cycle).
      std::vector<std::string> shown = spec.choices;
      int index = v - low;
      const SolverFact* fact = findFact(session.solver().facts(), paramKeyword(spec.key));
      if (fact && index >= 0 && index < static_cast<int>(shown.size()))
        if (const auto* resolved = std::get_if<std::string>(&fact->value);
            resolved && *resolved != shown[index])
          shown[index] += " (" + *resolved + ")";
      std::vector<const char*> names;
      for (const std::string& name : shown) names.push_back(name.c_str());
      set = ImGui::Combo(spec.label.c_str(), &index, names.data(), static_cast<int>(names.size()));
      v = index + low;
    } else if (flag) {
      set = ImGui::Checkbox(spec.label.c_str(), &on);
      v = on ? 1 : 0;
    } else {
      set = ImGui::SliderInt(spec.label.c_str(), &v, low, static_cast<int>(spec.maxValue));
    }
    if (set) {
      values[i] = v;
      changed = true;
    }
    itemTooltip(spec.help);
  }
  if (changed)
    errors.guard("Setting the " + session.solver().name() + " solver",
                 [&] { session.setSolverParams(values); });
}

// Where the solver's time goes (multigrid: per level, the one-work-group launch that solves
// the coarsest levels together one row), in ms as the kernel table.
void drawTimingRows(const Solver& solver) {
  const auto rows = solver.timingRows();
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
    ImGui::TextUnformatted(r.label.c_str());
    if (!r.tooltip.empty()) itemTooltip(r.tooltip);
    ImGui::TableNextColumn();
    ImGui::TextUnformatted(r.size.c_str());
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
  itemTooltip(
      "Euler: explicit iterations, cheap but gradients diffuse one pixel per iteration, and "
      "mu has a stability bound. Multigrid: one iteration is a full-multigrid cycle (second "
      "paper), costlier but diffusing across the whole image at once; no bound on mu. "
      "Changing it restarts the iterations.");

  int precision = static_cast<int>(session.precision());
  if (ImGui::Combo("precision", &precision, "float32\0float16\0snorm16\0"))
    errors.guard("Changing the precision", [&] {
      session.setStorage(static_cast<Precision>(precision), session.solverChoice().memory);
    });
  // What this solver has beyond the common interface (Solver's capability queries).
  Solver& solver = session.solver();
  if (solver.memoryKind()) {
    int memory = static_cast<int>(session.memory());
    if (ImGui::Combo("memory", &memory, "buffers\0images\0local tiles\0"))
      errors.guard("Changing the memory kind", [&] {
        session.setStorage(session.precision(), static_cast<MemoryKind>(memory));
      });
    itemTooltip(
        "Where and how the field lives on the device. 16-bit storage halves the memory "
        "traffic and loses some accuracy (docs/ACCURACY.md); local tiles run several "
        "iterations per launch. Changing either restarts the iterations.");
    const std::string note = solver.storageNote();
    if (!note.empty()) {
      ImGui::PushTextWrapPos(0.0f);
      ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "%s", note.c_str());
      ImGui::PopTextWrapPos();
    }
  }
  drawOwnParams(session, errors);
  const std::string structure = solver.structure();
  if (!structure.empty())
    ImGui::TextDisabled("%s, %.1f MiB on the device", structure.c_str(),
                        static_cast<double>(solver.deviceBytes()) / (1 << 20));
  drawTimingRows(solver);
}

void drawSliceControls(Session& session, ErrorLog& errors) {
  VolumeSlices* slices = session.volumeSlices();
  if (!slices) return;
  const Volume& v = slices->volume();
  ImGui::TextDisabled("volume %d x %d x %d, GVF in 3D", v.width, v.height, v.depth);
  int axis = static_cast<int>(slices->axis());
  bool changed = false;
  for (int a = 0; a < 3; ++a) {
    if (a > 0) ImGui::SameLine();
    changed |= ImGui::RadioButton(sliceAxisName(static_cast<SliceAxis>(a)).c_str(), &axis, a);
  }
  itemTooltip(
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
