#include "viewer/modes/race_mode.hpp"

#include <imgui.h>

#include <Qt>
#include <algorithm>

#include "viewer/ui/panel_widgets.hpp"
#include "viewer/ui/race_panel.hpp"

namespace gvflab::viewer {
namespace {
constexpr int kCaptureEveryFrames = 30;   // the map follows every pixel: not every frame
constexpr double kCaptureMsPerFrame = 3;  // OpenCL ms of capture-range rows a frame
}  // namespace

RaceMode::RaceMode(Session& session, bool startOn, double budgetMs)
    : session_(session),
      budgetMs_(budgetMs > 0             ? budgetMs
                : session.device().isGpu ? 2.0
                                         : 20.0) {
  if (startOn) {
    ErrorLog startup;
    setEnabled(true, startup);
    for (const auto& m : startup.messages()) pendingErrors_.push_back(m);
  }
}

RaceMode::~RaceMode() = default;

void RaceMode::rebuild() {
  if (view_) view_->forgetFields();
  race_.reset();  // free the old pair first: the device may only hold one
  race_ = std::make_unique<RaceSession>(session_);
  race_->running = running_;
  race_->budgetMs = budgetMs_;
  captureFieldVersion_ = captureImageVersion_ = -1;
  framesSinceCapture_ = kCaptureEveryFrames;
}

void RaceMode::setEnabled(bool on, ErrorLog& errors) {
  if (on == enabled_) return;
  if (on) {
    if (!errors.guard("Starting the race", [&] { rebuild(); })) return;
    sessionWasRunning_ = session_.running();
    session_.setRunning(false);  // the race has the device to itself
  } else {
    if (view_) view_->forgetFields();
    race_.reset();
    session_.setRunning(sessionWasRunning_);
  }
  enabled_ = on;
}

void RaceMode::advance(ErrorLog& errors) {
  for (const auto& m : pendingErrors_) errors.add(m);
  pendingErrors_.clear();
  frameIterations_ = 0;
  if (!enabled_) return;
  if (!race_ || race_->inputVersion() != session_.inputVersion())
    if (!errors.guard("Starting the race", [&] { rebuild(); })) {
      setEnabled(false, errors);
      return;
    }
  race_->running = running_;
  race_->budgetMs = budgetMs_;
  auto iterations = [&] {
    return race_->lane(RaceSession::kEuler).solver->iterations() +
           race_->lane(RaceSession::kMultigrid).solver->iterations();
  };
  const long before = iterations();
  if (!errors.guard("Running the race", [&] { race_->advanceFrame(); })) running_ = false;
  frameIterations_ = std::max(iterations() - before, 0L);  // a reset counts none
  if (!showCapture_) return;
  const bool moved = race_->fieldVersion() != captureFieldVersion_;
  const bool newPlane = session_.imageVersion() != captureImageVersion_;
  // A refresh starts on both fields as they are and goes in bands of about kCaptureMsPerFrame
  // over the next frames (RaceSession::continueCapture): no frame carries whole maps.
  const bool start =
      newPlane || (!race_->capturing() && moved && ++framesSinceCapture_ >= kCaptureEveryFrames);
  if (!start && !race_->capturing()) return;
  if (!errors.guard("Computing the capture ranges", [&] {
        if (start) race_->beginCapture(captureParams_);
        race_->continueCapture(kCaptureMsPerFrame);
      }))
    showCapture_ = false;
  if (start) {
    captureFieldVersion_ = race_->fieldVersion();
    captureImageVersion_ = session_.imageVersion();
    framesSinceCapture_ = 0;
  }
}

bool RaceMode::drawPicture(ViewFrame& frame) {
  if (!enabled_) return false;
  if (!race_) return true;
  Renderer& renderer = *frame.renderer;
  const Viewport& area = frame.area;
  const float dpr = frame.dpr;
  ErrorLog& errors = frame.errors;
  // The lanes reach GL by the view's own path; a device switch makes a new context and view.
  cl::Context& context = session_.context().context();
  if (view_ && view_->context() != context()) view_.reset();
  if (!view_ && !errors.guard("Setting up the race view", [&] {
        view_ = frame.presenter ? std::make_unique<RaceView>(frame.presenter->choice(), context)
                                : std::make_unique<RaceView>(session_.device());
      }))
    return true;
  // The window covers the bottom of the view; the maps take the rest.
  const int below = static_cast<int>(windowHeight_ * dpr);
  Viewport maps{area.x, area.y + below, area.width, std::max(area.height - below, 1)};
  errors.guard("Drawing the race", [&] {
    view_->upload(*race_, session_);
    const int strip = static_cast<int>(24 * dpr);
    view_->draw(renderer, maps, frame.shown, strip, static_cast<int>(8 * dpr));
    view_->drawCaptions(*race_, frame.framebufferHeight, strip, dpr);
  });
  return true;
}

void RaceMode::drawPanels(const PanelPlace& place, ErrorLog& errors) {
  const float left = place.viewLeft, width = place.viewWidth, height = place.height;
  const ImGuiWindowFlags fixed = ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize |
                                 ImGuiWindowFlags_NoCollapse |
                                 ImGuiWindowFlags_NoBringToFrontOnFocus;
  if (!enabled_) {
    windowHeight_ = 0;
    if (!place.panelsShown) return;
    // Docked in the left panel: nothing floats over the image.
    ImGui::Begin("gvflab");
    if (ImGui::CollapsingHeader("Race", ImGuiTreeNodeFlags_DefaultOpen)) {
      bool on = false;
      if (ImGui::Checkbox("Race: Euler vs multigrid", &on)) setEnabled(true, errors);
      itemTooltip(
          "Both solvers side by side on this image (or slice) with the same OpenCL time per "
          "frame: their |V| maps, \xce\xb5, iterations and time, and \xce\xb5 against time.");
    }
    ImGui::End();
    return;
  }
  windowHeight_ = std::clamp(0.42f * height, 250.0f, 440.0f);
  ImGui::SetNextWindowPos(ImVec2(left, height - windowHeight_), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(width, windowHeight_), ImGuiCond_Always);
  ImGui::Begin("Race: Euler vs multigrid, same OpenCL time per frame", nullptr, fixed);
  bool on = true;
  if (ImGui::Checkbox("race", &on) && !on) {
    setEnabled(false, errors);
    ImGui::End();
    return;
  }
  ImGui::SameLine();
  if (ImGui::Button(running_ ? "Pause" : "Run", ImVec2(60, 0))) running_ = !running_;
  ImGui::SameLine();
  if (ImGui::Button("Restart")) errors.guard("Restarting the race", [&] { rebuild(); });
  itemTooltip(
      "Both solvers from V0 again, with the panel's current \xce\xbc, precision "
      "and multigrid a, b, c.");
  // The slider and the checkbox on the same line where they fit (widths from the font).
  const ImGuiStyle& style = ImGui::GetStyle();
  const float sliderW = ImGui::CalcTextSize("200.0").x * 2.5f;
  const float rest = sliderW + ImGui::CalcTextSize("ms / frame each").x +
                     ImGui::CalcTextSize("capture range").x + ImGui::GetFrameHeight() +
                     6 * style.ItemSpacing.x;
  const float lineEnd = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
  if (lineEnd - ImGui::GetItemRectMax().x > rest) ImGui::SameLine();
  ImGui::PushItemWidth(sliderW);
  float budget = static_cast<float>(budgetMs_);
  if (ImGui::SliderFloat("ms / frame each", &budget, 0.1f, 200.0f, "%.1f",
                         ImGuiSliderFlags_Logarithmic))
    budgetMs_ = std::clamp(static_cast<double>(budget), 0.1, 200.0);
  ImGui::PopItemWidth();
  itemTooltip(
      "OpenCL time each solver's kernels get per frame. A multigrid iteration "
      "longer than this runs every few frames; the time is paid back.");
  ImGui::SameLine();
  ImGui::Checkbox("capture range", &showCapture_);
  if (ImGui::IsItemHovered())
    ImGui::SetTooltip(
        "Area from which a snake following each field reaches an edge (edge map "
        ">= %.2f), on the plane shown; refreshed %d frames after the last refresh, "
        "computed in parts over a few frames.",
        captureParams_.threshold, kCaptureEveryFrames);
  if (race_) {
    const GvfInput& plane = session_.planeInput();
    ImGui::TextDisabled("\xce\xbc = %.4f for both (within Euler's bound), %s; %s", race_->mu(),
                        precisionName(session_.precision()),
                        session_.isVolume() ? "3D fields, the slice shown" : "2D");
    drawRaceReadouts(*race_, static_cast<long>(plane.width) * plane.height);
    const ImVec2 avail = ImGui::GetContentRegionAvail();
    drawRacePlot(*race_, ImVec2(avail.x, std::max(avail.y, 80.0f)));
  }
  ImGui::End();
}

bool RaceMode::key(const KeyPress& k) {
  if (!enabled_) return false;
  if (k.key == Qt::Key_Space)
    running_ = !running_;
  else if (k.key == Qt::Key_R)
    k.errors.guard("Restarting the race", [&] { rebuild(); });
  else
    return false;
  return true;
}

void RaceMode::printStats(std::ostream& out) const {
  if (!race_) return;
  out << "race: " << budgetMs_ << " ms of OpenCL time per solver per frame, mu " << race_->mu()
      << "; lines: solver, OpenCL ms so far, epsilon (eq. 9), iterations\n";
  const char* names[] = {"euler", "multigrid"};
  for (int i : {RaceSession::kEuler, RaceSession::kMultigrid})
    for (const RacePoint& p : race_->lane(i).curve)
      out << "race " << names[i] << " " << p.ms << " " << p.epsilon << " " << p.iterations << "\n";
  if (!view_) return;  // drawn: how the lanes reached GL (the race view's frame time)
  for (int i : {RaceSession::kEuler, RaceSession::kMultigrid}) {
    const Presenter::Totals& t = view_->presenter(i).totals();
    out << "race view " << names[i] << ": " << view_->presenter(i).choice().description
        << ", CL->GL mean " << t.ms / static_cast<double>(std::max(t.uploads, 1L)) << " ms, "
        << t.uploads << " uploads, " << t.hostFieldCopies << " whole-field host copies\n";
  }
}

}  // namespace gvflab::viewer
