#include "viewer/ui/surface_panel.hpp"

#include <imgui.h>

#include <string>

#include "viewer/ui/panel_widgets.hpp"

namespace gvflab::viewer {
namespace {

void drawTable(SurfaceSession& surfaces) {
  const auto& list = surfaces.surfaces();
  ImGui::Text("%zu surfaces", list.size());
  // Columns as wide as their words: stretched, "converged" was cut at a 1024 px window.
  if (list.empty() || !beginListTable("surfaces", {"#", "force", "state", "vertices", "iter."},
                                      list.size(), ImGuiTableFlags_SizingFixedFit))
    return;
  for (const SurfaceContour& c : list) {
    if (idCell(c.id, c.id == surfaces.selectedId(), c.force, c.state)) surfaces.select(c.id);
    ImGui::TableNextColumn();
    ImGui::Text("%zu", c.mesh.vertices.size());
    ImGui::TableNextColumn();
    ImGui::Text("%ld", c.iterations);
  }
  ImGui::EndTable();
}

// The surface kernels' rows of the profiler (the Device and pace section lists them all).
void drawKernelTimes(const Profiler& profiler) {
  bool any = false;
  for (const auto& [name, s] : profiler.stats()) {
    if (name.find("surface") == std::string::npos) continue;
    if (!any) ImGui::TextDisabled("OpenCL per kernel (last / mean ms):");
    any = true;
    ImGui::TextDisabled("  %s  %.3f / %.3f", name.c_str(), s.lastMs, s.meanMs);
  }
}
}  // namespace

void drawSurfacePanel(SurfaceSession& surfaces, SurfacePanelState& state, SurfaceActions& actions,
                      const Profiler& profiler) {
  if (!surfaces.active()) return;
  if (!ImGui::CollapsingHeader("Surfaces (3D)", ImGuiTreeNodeFlags_DefaultOpen)) return;
  ImGui::Checkbox("3D view (3)", &state.view3d);
  itemTooltip(
      "The volume in 3D beside the slice: drag to orbit, wheel to zoom, right or middle drag "
      "(or Shift + drag) to pan; double-click frames the volume again.");
  ImGui::SameLine();
  ImGui::Checkbox("cuts", &state.showCuts);
  itemTooltip("Each surface's cut with the slice shown, drawn on the slice in its force's colour.");
  ImGui::SameLine();
  ImGui::Checkbox("cut away", &state.cutAway);
  itemTooltip(
      "The 3D view without the half in front of the coronal slice (nor that slice): the "
      "surfaces in section, inside a well or pocket. The coronal slider moves the cut.");
  int place = state.placeSurfaces ? 0 : 1;
  ImGui::TextUnformatted("drag on the slice places");
  if (ImGui::RadioButton("surface", &place, 0)) state.placeSurfaces = true;
  ImGui::SameLine();
  if (ImGui::RadioButton("2D snake", &place, 1)) state.placeSurfaces = false;
  itemTooltip(
      "Surface: press at its centre on the slice and drag out its radius (a sphere, in "
      "voxels). 2D snake: the Snakes section's tools on the slice.");
  int force = static_cast<int>(surfaces.newForce());
  if (ImGui::Combo("new surfaces", &force, kForceMenuItems))
    surfaces.setNewForce(static_cast<SnakeForce>(force));
  bool running = surfaces.running();
  if (ImGui::Checkbox("evolve##surfaces", &running)) surfaces.setRunning(running);
  ImGui::SameLine();
  if (ImGui::Button("Restart##surfaces")) actions.restart = true;
  itemTooltip("Every surface from its starting sphere, iteration 0.");
  ImGui::SameLine();
  if (ImGui::Button("Clear##surfaces")) actions.clear = true;
  if (surfaces.waitingForField())
    ImGui::TextColored(ImVec4(1.0f, 0.85f, 0.3f, 1.0f), "waiting for the field to settle");
  drawTable(surfaces);
  if (const int id = surfaces.selectedId()) {
    if (ImGui::Button("Compare##surface")) actions.compare = id;
    itemTooltip(
        "Twins from the same starting sphere with the forces ticked beside; all start again.");
    compareForceBoxes(surfaces.compareForces);
    if (ImGui::Button("Delete##surface")) actions.remove = id;
    ImGui::SameLine();
  }
  if (ImGui::Button("Reset 3D view")) actions.resetCamera = true;
  drawKernelTimes(profiler);
}

}  // namespace gvflab::viewer
