#include "viewer/ui/panel.hpp"

#include <imgui.h>

#include <algorithm>
#include <cstdio>

#include "gvflab/mu_rule.hpp"
#include "gvflab/params.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "viewer/model/axis_ticks.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/ui/panel_widgets.hpp"
#include "viewer/ui/plots.hpp"
#include "viewer/ui/solver_panel.hpp"

namespace gvflab::viewer {
namespace {

const ImVec4 kErrorColor(1.0f, 0.42f, 0.38f, 1.0f);
const ImVec4 kNoticeColor(1.0f, 0.82f, 0.30f, 1.0f);

// The readouts' value column: right of the widest label, in the current font.
float readoutColumn() {
  return ImGui::GetStyle().WindowPadding.x +
         labelColumn({"CL->GL transfer", "iterations / s", "OpenCL / frame", "\xce\xb5 (eq. 9)"}) +
         ImGui::GetStyle().ItemSpacing.x;
}

void labelValue(const char* label, const char* fmt, double value) {
  dimLabel(label, readoutColumn());
  ImGui::Text(fmt, value);
}

void labelText(const char* label, const std::string& text) {
  dimLabel(label, readoutColumn());
  ImGui::TextWrapped("%s", text.c_str());
}

void drawMessages(Session& session, ErrorLog& errors) {
  if (!errors.messages().empty()) {
    ImGui::PushStyleColor(ImGuiCol_ChildBg, ImVec4(0.35f, 0.08f, 0.08f, 0.85f));
    // ImGui 1.86 children cannot size to their content: measure the wrapped text.
    const ImGuiStyle& style = ImGui::GetStyle();
    float wrap = ImGui::GetContentRegionAvail().x - 2 * style.WindowPadding.x;
    float h = ImGui::GetFrameHeightWithSpacing() + 2 * style.WindowPadding.y;
    for (const auto& m : errors.messages())
      h += ImGui::CalcTextSize(m.c_str(), nullptr, false, wrap).y + style.ItemSpacing.y;
    ImGui::BeginChild("errors", ImVec2(0, std::min(h, 320.0f)), true);
    ImGui::PopStyleColor();
    ImGui::TextColored(kErrorColor, "Error");
    ImGui::SameLine(ImGui::GetContentRegionAvail().x - 60);
    if (ImGui::SmallButton("Dismiss")) errors.clear();
    ImGui::PushTextWrapPos(0.0f);
    for (const auto& m : errors.messages()) ImGui::TextUnformatted(m.c_str());
    ImGui::PopTextWrapPos();
    ImGui::EndChild();
  }
  if (!session.notice().empty()) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextColored(kNoticeColor, "%s", session.notice().text.c_str());
    ImGui::PopTextWrapPos();
    if (ImGui::SmallButton("OK##notice")) session.clearNotice();
  }
}

void drawSolverControls(Session& session, ErrorLog& errors) {
  const auto& specs = gvfParamSpecs();
  if (ImGui::Button(session.running() ? "Pause" : "Run", ImVec2(80, 0)))
    session.setRunning(!session.running());
  ImGui::SameLine();
  if (ImGui::Button("Step", ImVec2(80, 0))) session.requestSingleStep();
  ImGui::SameLine();
  if (ImGui::Button("Reset", ImVec2(80, 0)))
    errors.guard("Resetting the solver", [&] { session.reset(); });

  // μ: the slider spans the engine's range for this solver and input (mu_rule.hpp), so
  // dragging can never go unstable; a typed value beyond it (Ctrl+click) is clamped by the
  // session, which says so.
  const ParamSpec& muSpec = findSpec(specs, "mu");
  const MuRange muSpan = muRange(session.solverKind(), session.input());
  float mu = static_cast<float>(session.mu());
  float bound = static_cast<float>(muSpan.high);
  char muLabel[64] = "\xce\xbc";
  if (session.solverKind() == SolverKind::Euler)
    std::snprintf(muLabel, sizeof muLabel, "\xce\xbc (max %.4f)", bound);
  if (ImGui::SliderFloat(muLabel, &mu, static_cast<float>(muSpan.low), bound, "%.4f"))
    errors.guard("Setting mu", [&] { session.setMu(mu); });
  itemTooltip(session.solverKind() == SolverKind::Euler
                  ? muSpec.help + "\nStability bound for this image: " + std::to_string(bound) +
                        ". Ctrl+click to type a value."
                  : muSpec.help + "\nMultigrid has no stability bound.");

  // σ rebuilds the edge map and restarts the solver, so it applies when the drag ends.
  const ParamSpec& sigmaSpec = findSpec(specs, "sigma");
  static float sigma = -1;
  if (!ImGui::IsAnyItemActive() || sigma < 0) sigma = static_cast<float>(session.sigma());
  ImGui::SliderFloat("\xcf\x83 (pixels)", &sigma, static_cast<float>(sigmaSpec.minValue),
                     static_cast<float>(sigmaSpec.maxValue), "%.2f");
  if (ImGui::IsItemDeactivatedAfterEdit())
    errors.guard("Changing sigma", [&] { session.setSigma(sigma); });
  itemTooltip(sigmaSpec.help + " Changing it restarts the iterations.");
  bool fromNoise = session.sigmaFromNoise();
  if (ImGui::Checkbox("\xcf\x83 from the image's noise", &fromNoise))
    errors.guard("Changing sigma", [&] {
      if (fromNoise)
        session.setSigmaFromNoise();
      else
        session.setSigma(session.sigma());
    });
  ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
  ImGui::TextWrapped("%s", session.sigmaChoice().reason.c_str());
  ImGui::PopStyleColor();

  int mode = session.v0Mode() == V0Mode::EdgeGradient ? 0 : 1;
  if (ImGui::Combo("V0", &mode, "grad of edge map f\0grad of smoothed image\0"))
    errors.guard("Changing V0", [&] {
      session.setV0Mode(mode == 0 ? V0Mode::EdgeGradient : V0Mode::ImageGradient);
    });
  itemTooltip(
      "Initial field: V0 = grad f with f = |grad(G*I)| (Xu & Prince), or V0 = grad(G*I) "
      "(tube detection). Changing it restarts the iterations.");

  // Euler or multigrid, and how the field is stored.
  drawSolverChoice(session, errors);

  // The spec's range is for headless totals; per frame, more than a few thousand only
  // freezes the window.
  const ParamSpec& itSpec = findSpec(specs, "iterations");
  int iters = session.iterationsPerFrame();
  int itMax = static_cast<int>(std::min(itSpec.maxValue, 4096.0));
  if (ImGui::SliderInt("iterations / frame", &iters, static_cast<int>(itSpec.minValue), itMax, "%d",
                       ImGuiSliderFlags_Logarithmic))
    errors.guard("Setting iterations per frame",
                 [&] { session.setIterationsPerFrame(std::clamp(iters, 0, itMax)); });
  itemTooltip(itSpec.help);
}

void drawReadouts(Session& session, const FrameReadouts& r) {
  char buf[96];
  labelValue("iterations", "%.0f", static_cast<double>(session.iterations()));
  labelValue("\xce\xb5 (eq. 9)", "%.4e", session.epsilon());
  drawConvergencePlot(session);
  labelValue("iterations / s", "%.0f", session.iterationsPerSecond());
  std::snprintf(buf, sizeof buf, "%.2f ms (%.0f fps)", r.frameMs, r.framesPerSecond);
  labelText("frame time", buf);
  std::snprintf(buf, sizeof buf, "%.3f ms", session.clFrameMs());
  labelText("OpenCL / frame", buf);
  std::snprintf(buf, sizeof buf, "%.3f ms (mean %.3f)", r.transferLastMs, r.transferMeanMs);
  labelText("CL->GL transfer", buf);
  labelText("CL->GL path", r.transferPath);
}

void drawKernelTable(Session& session) {
  auto stats = session.context().profiler().stats();
  if (ImGui::BeginTable("kernels", 4,
                        ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerH |
                            ImGuiTableFlags_SizingStretchProp)) {
    ImGui::TableSetupColumn("kernel", ImGuiTableColumnFlags_WidthStretch, 3.0f);
    for (const char* column : {"last", "mean", "p95"})
      ImGui::TableSetupColumn(column, ImGuiTableColumnFlags_WidthStretch, 1.0f);
    ImGui::TableHeadersRow();
    for (const auto& [name, s] : stats) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(name.c_str());
      for (const double ms : {s.lastMs, s.meanMs, s.p95Ms}) {
        ImGui::TableNextColumn();
        ImGui::Text("%.3f", ms);
      }
    }
    if (stats.empty()) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      ImGui::TextColored(kDimColor, "no kernels yet");
    }
    ImGui::EndTable();
  }
}

// The built-in layers' controls, laid out by hand (their order on screen), then a checkbox for
// each registered layer that asks for one (LayerInfo::checkbox).
void drawLayerControls(LayerSettings& l, float rangeMax, const std::vector<LayerInfo>& layerList) {
  ImGui::Checkbox("image", &l.showImage);
  ImGui::SameLine();
  ImGui::Checkbox("|V| map", &l.showMagnitude);
  ImGui::SameLine();
  ImGui::Checkbox("arrows", &l.showGlyphs);

  if (ImGui::BeginCombo("colormap", std::string(colormapName(l.colormap)).c_str())) {
    for (Colormap c : allColormaps())
      if (ImGui::Selectable(std::string(colormapName(c)).c_str(), c == l.colormap)) l.colormap = c;
    ImGui::EndCombo();
  }
  ImGui::Checkbox("log scale", &l.logScale);
  itemTooltip(
      "Colour by log10 |V|: the top colour at the range maximum, the bottom one the "
      "chosen number of decades below (L toggles).");
  if (l.logScale) {
    ImGui::SameLine();
    ImGui::SetNextItemWidth(80);
    ImGui::SliderFloat("decades", &l.logDecades, 1.0f, 8.0f, "%.0f");
  }
  ImGui::SliderFloat("map opacity", &l.magnitudeOpacity, 0.0f, 1.0f, "%.2f");
  bool wasAuto = l.autoRange;
  ImGui::Checkbox("auto range", &l.autoRange);
  if (wasAuto && !l.autoRange && rangeMax > 0) l.fixedRangeMax = rangeMax;  // start from here
  itemTooltip("Auto: the colour range is [0, max |V|] of the current field, every frame.");
  if (l.autoRange) {
    ImGui::SameLine();
    ImGui::TextColored(kDimColor, "[0, %.4f]", rangeMax);
  } else {
    ImGui::SliderFloat("|V| max", &l.fixedRangeMax, 1e-4f, 2.0f, "%.4f",
                       ImGuiSliderFlags_Logarithmic);
  }

  ImGui::SliderFloat("arrow spacing", &l.glyphSpacing, 8.0f, 96.0f, "%.0f px");
  itemTooltip(
      "Distance between arrows in screen pixels: the same density at any zoom (at "
      "least one image pixel apart when zoomed in).");
  ImGui::SliderFloat("arrow scale", &l.glyphScale, 0.1f, 4.0f, "%.2f");
  itemTooltip(
      "Arrow length in grid spacings (for |V| at the top of the range when not "
      "normalised).");
  ImGui::Checkbox("normalised length", &l.glyphNormalize);
  itemTooltip("Direction only: every arrow has the same length. Arrows where V = 0 are hidden.");
  ImGui::SameLine();
  ImGui::Checkbox("outline", &l.glyphOutline);
  ImGui::ColorEdit4("arrow colour", l.glyphColor.data(),
                    ImGuiColorEditFlags_NoInputs | ImGuiColorEditFlags_AlphaBar);
  ImGui::Checkbox("streamlines", &l.showStreamlines);
  itemTooltip("Field lines traced from a grid of seeds (orange); T toggles.");
  if (l.showStreamlines)
    ImGui::SliderFloat("seed spacing", &l.streamlineSpacing, 6.0f, 64.0f, "%.0f px");
  ImGui::SliderFloat("brightness", &l.imageBrightness, 0.1f, 4.0f, "%.2f",
                     ImGuiSliderFlags_Logarithmic);
  for (const LayerInfo& layer : layerList)
    if (layer.checkbox && layer.shown) ImGui::Checkbox(layer.checkbox, &(l.*layer.shown));
}

void drawImageControls(Session& session, PanelRequests& requests, ErrorLog& errors) {
  if (session.isVolume())
    ImGui::TextWrapped("%s  (%d x %d x %d)", session.imageName().c_str(), session.input().width,
                       session.input().height, session.input().depth);
  else
    ImGui::TextWrapped("%s  (%d x %d)", session.imageName().c_str(), session.image().width,
                       session.image().height);
  if (ImGui::Button("Open... (Ctrl+O)")) requests.openFileDialog = true;
  itemTooltip(
      "Or drop a PNG, JPEG, PGM/PPM, TIFF or BMP image, or a volume (.nii, .nii.gz, 3D "
      ".mha/.mhd), on the window.");
  for (const std::string& name : phantomNames()) {
    ImGui::SameLine();
    if (ImGui::Button(name.c_str())) requests.phantom = name;
    itemTooltip("Built-in phantom '" + name + "'.");
  }
  ImGui::SameLine();
  if (ImGui::Button("Fit")) requests.fitView = true;
  itemTooltip(
      "Fit the image in the view (F). Wheel zooms, drag pans; Space run/pause, S step, "
      "R reset, I/M/G toggle the layers.");
  drawSliceControls(session, errors);
}

void drawLegendBar(const LayerSettings& layers, float rangeMax) {
  ImGui::TextColored(kDimColor, "|V|, %s range%s", layers.autoRange ? "auto" : "fixed",
                     layers.logScale ? ", log" : "");
  const float barW = 22, margin = 8;
  float barH = std::clamp(ImGui::GetContentRegionAvail().y - 2 * margin, 80.0f, 420.0f);
  ImVec2 top = ImGui::GetCursorScreenPos();
  top.x += 6;
  top.y += margin;
  ImDrawList* draw = ImGui::GetWindowDrawList();
  const int segments = 64;
  for (int i = 0; i < segments; ++i) {
    // The top of the bar is the maximum.
    auto c0 = colormapAt(layers.colormap, 1.0f - static_cast<float>(i) / segments);
    auto c1 = colormapAt(layers.colormap, 1.0f - static_cast<float>(i + 1) / segments);
    ImU32 u0 = ImGui::ColorConvertFloat4ToU32(ImVec4(c0.r, c0.g, c0.b, 1));
    ImU32 u1 = ImGui::ColorConvertFloat4ToU32(ImVec4(c1.r, c1.g, c1.b, 1));
    float y0 = top.y + barH * i / segments, y1 = top.y + barH * (i + 1) / segments;
    draw->AddRectFilledMultiColor(ImVec2(top.x, y0), ImVec2(top.x + barW, y1), u0, u0, u1, u1);
  }
  draw->AddRect(ImVec2(top.x - 1, top.y - 1), ImVec2(top.x + barW + 1, top.y + barH + 1),
                IM_COL32(200, 200, 200, 200));
  // Round values (1-2-5 steps; decades on the log scale) where they fall on the bar.
  const float decades = layers.logScale ? layers.logDecades : 0.0f;
  for (const Tick& tick : legendTicks(rangeMax, decades)) {
    const float t = scalePosition(static_cast<float>(tick.value), rangeMax, decades);
    float y = top.y + barH * (1.0f - t);
    draw->AddLine(ImVec2(top.x + barW, y), ImVec2(top.x + barW + 6, y),
                  IM_COL32(220, 220, 220, 255));
    draw->AddText(ImVec2(top.x + barW + 10, y - ImGui::GetFontSize() * 0.5f),
                  IM_COL32(235, 235, 235, 255), tick.label.c_str());
  }
  ImGui::Dummy(ImVec2(barW, barH + 2 * margin));
}

}  // namespace

PanelLayout panelLayout(float windowWidth, bool panelsShown) {
  PanelLayout l;
  if (!panelsShown) return l;
  if (kPanelWidth + kDisplayPanelWidth <= (1 - kViewShare) * windowWidth) {
    l.left = kPanelWidth, l.right = kDisplayPanelWidth;
    return l;
  }
  l.left = std::min(kPanelWidth, (1 - kViewShare) * windowWidth);
  l.layersInLeft = true;
  return l;
}

void drawPanel(Session& session, LayerSettings&, const FrameReadouts& readouts, ErrorLog& errors,
               PanelRequests& requests, float width, float displayHeight,
               const std::function<void()>& extraSections,
               const std::function<void()>& lessonSections) {
  ImGui::SetNextWindowPos(ImVec2(0, 0));
  ImGui::SetNextWindowSize(ImVec2(width, displayHeight));
  ImGui::Begin("gvflab", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus);
  // Room for the widest label (Solver, Image, Device sections) and a help marker.
  ImGui::PushItemWidth(-labelColumn({"iterations / frame", "\xce\xbc (max 0.0000)",
                                     "\xcf\x83 (pixels)", "precision", "memory"}) -
                       helpMarkerWidth());
  ImGui::Text("gvflab  \xe2\x80\x94  Gradient Vector Flow");
  ImGui::TextColored(kDimColor, "%s (%s)", session.device().name.c_str(),
                     session.device().isGpu ? "GPU" : "CPU");
  ImGui::Separator();
  drawMessages(session, errors);

  if (ImGui::CollapsingHeader("Image", ImGuiTreeNodeFlags_DefaultOpen))
    drawImageControls(session, requests, errors);
  if (ImGui::CollapsingHeader("Solver###solver", ImGuiTreeNodeFlags_DefaultOpen))
    drawSolverControls(session, errors);
  if (lessonSections) lessonSections();
  if (ImGui::CollapsingHeader("Readouts", ImGuiTreeNodeFlags_DefaultOpen))
    drawReadouts(session, readouts);
  if (extraSections) extraSections();
  // Closed at first: the snakes' sections below them are the lesson's.
  if (ImGui::CollapsingHeader("OpenCL kernels (ms per frame)")) drawKernelTable(session);
  ImGui::PopItemWidth();
  ImGui::End();
}

void drawDisplaySections(LayerSettings& layers, float rangeMax, const std::string& fieldCaption,
                         const std::vector<LayerInfo>& layerList) {
  ImGui::PushItemWidth(-labelColumn({"arrow spacing", "arrow colour", "map opacity", "seed spacing",
                                     "brightness", "colormap"}) -
                       helpMarkerWidth());
  if (ImGui::CollapsingHeader("Layers", ImGuiTreeNodeFlags_DefaultOpen)) {
    if (!fieldCaption.empty()) ImGui::TextColored(kNoticeColor, "%s", fieldCaption.c_str());
    drawLayerControls(layers, rangeMax, layerList);
  }
  ImGui::PopItemWidth();
  if (layers.showMagnitude && ImGui::CollapsingHeader("Legend", ImGuiTreeNodeFlags_DefaultOpen))
    drawLegendBar(layers, rangeMax);
}

void drawDisplayPanel(LayerSettings& layers, float rangeMax, float left, float displayHeight,
                      const std::string& fieldCaption, const std::vector<LayerInfo>& layerList) {
  ImGui::SetNextWindowPos(ImVec2(left, 0));
  ImGui::SetNextWindowSize(ImVec2(kDisplayPanelWidth, displayHeight));
  ImGui::Begin("display", nullptr,
               ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                   ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoBringToFrontOnFocus);
  drawDisplaySections(layers, rangeMax, fieldCaption, layerList);
  ImGui::End();
}

}  // namespace gvflab::viewer
