#include "viewer/ui/recording_control.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <ctime>
#include <utility>
#include <vector>

#include "gvflab/log.hpp"
#include "io/file_formats.hpp"
#include "viewer/render/gl_resources.hpp"
#include "viewer/ui/panel_widgets.hpp"
#include "viewer/ui/recording_path.hpp"

namespace gvflab::viewer {

RecordingControl::~RecordingControl() {
  if (recorder_) log::warning(stop());  // the window is gone: say it here
}

void RecordingControl::start(const std::string& path, int width, int height, bool deterministic,
                             int fps, int stepsPerFrame) {
  record::EncoderSettings s;
  s.path = path;
  s.format = record::formatForMuxer(app::recordingMuxer(path));
  s.width = width;
  s.height = height;
  s.fps = fps;
  recorder_ = std::make_unique<record::Recorder>(s, deterministic);
  deterministic_ = deterministic;
  frameIndex_ = 0;
  lastPts_ = -1;
  lastMessage_.clear();
  settle_.reset();
  if (deterministic) {
    // Fixed steps per recorded frame: the frame budget would make frames depend on timing.
    savedBudget_ = session_.frameBudgetMs();
    savedIterations_ = session_.iterationsPerFrame();
    session_.setFrameBudgetMs(0);
    session_.setIterationsPerFrame(stepsPerFrame);
  }
}

std::string RecordingControl::stop() {
  if (!recorder_) return lastMessage_;
  lastMessage_ = recorder_->stop();
  recorder_.reset();
  if (deterministic_) {
    session_.setIterationsPerFrame(savedIterations_);
    session_.setFrameBudgetMs(savedBudget_);
  }
  return lastMessage_;
}

int RecordingControl::width() const { return recorder_ ? recorder_->width() : 0; }
int RecordingControl::height() const { return recorder_ ? recorder_->height() : 0; }

bool RecordingControl::wantsFrame() const {
  if (!recorder_) return false;
  if (recorder_->failed() || recorder_->deterministic()) return true;
  return static_cast<long>(std::floor(recorder_->status().elapsedSeconds * recorder_->fps())) >
         lastPts_;
}

bool RecordingControl::nextPts(long& pts, ErrorLog& errors) {
  if (!recorder_) return false;
  if (recorder_->failed()) {
    errors.add("Recording: " + stop());
    return false;
  }
  pts = frameIndex_++;
  if (!recorder_->deterministic()) {
    // Live: stamp by wall time, so the video plays at the speed it was seen.
    pts = static_cast<long>(std::floor(recorder_->status().elapsedSeconds * recorder_->fps()));
    if (pts <= lastPts_) return false;
  }
  lastPts_ = pts;
  return true;
}

void RecordingControl::captureImage(const QImage& image, ErrorLog& errors) {
  long pts = 0;
  if (!nextPts(pts, errors)) return;
  const int w = recorder_->width(), h = recorder_->height();
  QImage frame(w, h, QImage::Format_RGBA8888);
  frame.fill(Qt::black);
  const QImage rgba = image.convertToFormat(QImage::Format_RGBA8888);
  for (int y = 0; y < std::min(h, rgba.height()); ++y)
    std::memcpy(frame.scanLine(y), rgba.constScanLine(y),
                static_cast<std::size_t>(std::min(w, rgba.width())) * 4);
  std::vector<std::uint8_t> bytes(frame.constBits(), frame.constBits() + frame.sizeInBytes());
  recorder_->push(std::move(bytes), /*bottomUp=*/false, pts);
}

void RecordingControl::capture(const Viewport& rect, ErrorLog& errors) {
  long pts = 0;
  if (!nextPts(pts, errors)) return;
  const int w = recorder_->width(), h = recorder_->height();
  // The window may have been resized since the start: keep the size, pad or crop.
  const int rw = std::min(w, rect.width), rh = std::min(h, rect.height);
  pixels_.resize(static_cast<std::size_t>(rw) * rh * 4);
  auto& f = gl();
  f.glPixelStorei(GL_PACK_ALIGNMENT, 1);
  f.glReadPixels(rect.x, rect.y + rect.height - rh, rw, rh, GL_RGBA, GL_UNSIGNED_BYTE,
                 pixels_.data());
  std::vector<std::uint8_t> frame(static_cast<std::size_t>(w) * h * 4, 0);
  // Bottom-up rows; align the top rows of the view with the top of the frame.
  for (int y = 0; y < rh; ++y)
    std::memcpy(&frame[(static_cast<std::size_t>(h - rh + y) * w) * 4],
                &pixels_[static_cast<std::size_t>(y) * rw * 4], static_cast<std::size_t>(rw) * 4);
  for (std::size_t i = 3; i < frame.size(); i += 4) frame[i] = 255;
  recorder_->push(std::move(frame), /*bottomUp=*/true, pts);
}

bool RecordingControl::endIfSettled(bool snakesStopped) {
  if (!recorder_ || !endWhenSettled_) return false;
  // Video time: frames recorded so far (deterministic), or the wall clock (live).
  const double t = recorder_->deterministic()
                       ? static_cast<double>(frameIndex_) / std::max(recorder_->fps(), 1)
                       : recorder_->status().elapsedSeconds;
  if (!settle_.update(snakesStopped, t)) return false;
  stop();
  lastMessage_ += " (ended " + std::to_string(static_cast<int>(settle_.seconds())) +
                  " s after every snake stopped)";
  return true;
}

namespace {

// The video formats of io/file_formats.cpp, each with its first extension, then PNG frames.
const std::vector<std::pair<std::string, std::string>>& kFormatChoices() {
  static const std::vector<std::pair<std::string, std::string>> choices = [] {
    std::vector<std::pair<std::string, std::string>> out;
    for (const app::FileFormat& f : app::fileFormats())
      for (const app::FormatExtension& e : f.extensions)
        if (app::hasRole(e.roles, app::FormatRole::VideoOutput)) {
          out.emplace_back(f.name, e.suffix);
          break;
        }
    out.emplace_back("PNG sequence", "/");
    return out;
  }();
  return choices;
}

}  // namespace

void RecordingControl::startFromSettings(ErrorLog& errors, int viewWidth, int viewHeight,
                                         int windowWidth, int windowHeight) {
  const bool own = !look_.panels && look_.width > 0 && look_.height > 0;
  const int w = look_.panels ? windowWidth : own ? look_.width : viewWidth;
  const int h = look_.panels ? windowHeight : own ? look_.height : viewHeight;
  errors.guard("Starting the recording", [&] {
    const std::string path =
        path_[0] ? std::string(path_)
                 : defaultRecordingPath(kFormatChoices()[formatIndex_].second, std::time(nullptr));
    start(path, w, h, deterministic_, fps_, stepsPerFrame_);
  });
}

bool RecordingControl::drawBadge(float viewLeft, float viewWidth, float top) {
  if (!recorder_) return false;
  const record::RecordingStatus st = recorder_->status();
  const int seconds = static_cast<int>(st.elapsedSeconds);
  ImGui::SetNextWindowPos(ImVec2(viewLeft + viewWidth * 0.5f, top + 6), ImGuiCond_Always,
                          ImVec2(0.5f, 0));
  ImGui::SetNextWindowBgAlpha(0.9f);
  ImGui::Begin("##recording badge", nullptr, kOverlay);
  ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "\xe2\x97\x8f REC");
  ImGui::SameLine();
  ImGui::Text("%02d:%02d  %ld frames", seconds / 60, seconds % 60, st.framesWritten);
  ImGui::SameLine();
  const bool clicked = ImGui::SmallButton("Stop (V)");
  ImGui::End();
  return clicked;
}

void RecordingControl::drawSection(ErrorLog& errors, int viewWidth, int viewHeight, int windowWidth,
                                   int windowHeight) {
  const auto& kChoices = kFormatChoices();
  if (recorder_) {
    const record::RecordingStatus st = recorder_->status();
    const int seconds = static_cast<int>(st.elapsedSeconds);
    ImGui::TextColored(ImVec4(1.0f, 0.35f, 0.3f, 1.0f), "\xe2\x97\x8f REC");
    ImGui::SameLine();
    ImGui::Text("%02d:%02d  %s  %ld frames%s", seconds / 60, seconds % 60,
                record::formatBytes(st.bytes).c_str(), st.framesWritten,
                recorder_->deterministic() ? "" : " (live)");
    ImGui::TextWrapped("%s", st.path.c_str());
    if (st.framesDropped > 0)
      ImGui::Text("%ld frames dropped (encoder too slow)", st.framesDropped);
    if (ImGui::Button("Stop recording (V)", ImVec2(-1, 0))) stop();
    return;
  }
  auto formatName = [](void*, int i, const char** name) {
    *name = kFormatChoices()[i].first.c_str();
    return true;
  };
  if (ImGui::Combo("Format", &formatIndex_, formatName, nullptr,
                   static_cast<int>(kChoices.size())) &&
      path_[0]) {
    // Keep the name, change the extension.
    std::string p = path_;
    for (const auto& [name, e] : kChoices)
      if (p.ends_with(e)) {
        p.resize(p.size() - e.size());
        break;
      }
    p += kChoices[formatIndex_].second;
    std::snprintf(path_, sizeof path_, "%s", p.c_str());
  }
  static const std::string folder = defaultRecordingFolder().string();
  const std::string hint = folder + "/gvflab-<date>" + kChoices[formatIndex_].second;
  ImGui::InputTextWithHint("File", hint.c_str(), path_, sizeof path_);
  if (!path_[0]) ImGui::TextDisabled("(empty: a dated name in %s)", folder.c_str());
  ImGui::Checkbox("With the panels", &look_.panels);
  if (!look_.panels) {
    ImGui::SameLine();
    ImGui::Checkbox("legend", &look_.legend);
    ImGui::SameLine();
    ImGui::Checkbox("caption", &look_.caption);
    int size[2] = {look_.width, look_.height};
    if (ImGui::InputInt2("size (0: view)", size)) {
      look_.width = std::clamp(size[0], 0, 8192);
      look_.height = std::clamp(size[1], 0, 8192);
    }
    itemTooltip(
        "Frame size in pixels, drawn offscreen at that size; 0 x 0 records the "
        "view as it is on screen.");
  }
  ImGui::Checkbox("Deterministic", &deterministic_);
  itemTooltip(
      "Fixed solver iterations per recorded frame and a fixed frame rate: the "
      "same input and parameters give the same frames.");
  if (deterministic_) ImGui::SliderInt("Steps/frame", &stepsPerFrame_, 1, 500);
  ImGui::SliderInt("FPS", &fps_, 10, 60);
  ImGui::Checkbox("End after the snakes stop", &endWhenSettled_);
  itemTooltip(
      "Stops the recording this long (video time) after every snake stopped "
      "(converged or stalled): no frame count to guess.");
  if (endWhenSettled_) {
    float wait = static_cast<float>(settle_.seconds());
    if (ImGui::SliderFloat("seconds after", &wait, 0.0f, 10.0f, "%.1f s")) settle_.setSeconds(wait);
  }
  if (ImGui::Button("Start recording (V)", ImVec2(-1, 0)))
    startFromSettings(errors, viewWidth, viewHeight, windowWidth, windowHeight);
  if (!lastMessage_.empty()) ImGui::TextWrapped("%s", lastMessage_.c_str());
}

}  // namespace gvflab::viewer
