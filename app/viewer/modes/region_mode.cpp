#include "viewer/modes/region_mode.hpp"

#include <imgui.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <unordered_set>

namespace gvflab::viewer {
namespace {

double msSince(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t).count();
}

std::uint64_t key(Point2i p) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.x)) << 32) |
         static_cast<std::uint32_t>(p.y);
}

}  // namespace

RegionMode::RegionMode(Session& session, const RegionStartup& startup) : session_(session) {
  params_ = startup.params;
  rect_ = startup.rect;
  enabled_ = startup.enabled;
  if (startup.syntheticMpix > 0) {
    largeMpix_ = static_cast<float>(startup.syntheticMpix);
    makeLarge(startup.syntheticMpix);
  }
}

RegionMode::~RegionMode() = default;

Vec2 RegionMode::imageSize() const {
  if (ownsImage()) return {float(largeSpec_.width), float(largeSpec_.height)};
  return {float(session_.image().width), float(session_.image().height)};
}

void RegionMode::makeLarge(double mpix) {
  const int side = static_cast<int>(std::lround(std::sqrt(mpix * 1e6)));
  largeSpec_ = {};
  largeSpec_.width = largeSpec_.height = side;
  largeSpec_.snr = 2;
  large_.assign(static_cast<std::size_t>(side) * side, 0);
  makeRegionPhantom(largeSpec_, large_.data());
  // Mip levels by 2 x 2 means, down to about 1024 pixels on a side.
  mips_.clear(), mipSize_.clear();
  int w = side, h = side;
  const std::vector<std::uint16_t>* src = &large_;
  while (std::max(w, h) > 1024) {
    const int nw = std::max(1, w / 2), nh = std::max(1, h / 2);
    std::vector<std::uint16_t> m(static_cast<std::size_t>(nw) * nh);
    for (int y = 0; y < nh; ++y)
      for (int x = 0; x < nw; ++x) {
        const std::size_t i = static_cast<std::size_t>(2 * y) * w + 2 * x;
        m[static_cast<std::size_t>(y) * nw + x] =
            static_cast<std::uint16_t>(((*src)[i] + (*src)[i + 1] + (*src)[i + w] + (*src)[i + w + 1] + 2) / 4);
      }
    mips_.push_back(std::move(m));
    mipSize_.push_back({nw, nh});
    src = &mips_.back();
    w = nw, h = nh;
  }
  // Display range: the 1st and 99th percentiles of full-resolution pixels (means of mip levels
  // are less noisy and would clip the noise the snake works against).
  std::vector<std::uint16_t> sample;
  for (std::size_t i = 0; i < large_.size(); i += std::max<std::size_t>(1, large_.size() >> 18))
    sample.push_back(large_[i]);
  std::sort(sample.begin(), sample.end());
  displayLo_ = sample[sample.size() / 100];
  displayHi_ = std::max<float>(sample[sample.size() * 99 / 100], displayLo_ + 1);
  shownCrop_ = {-1, 0, 0, 0, 0};
  builtForImage_ = -2;  // force a rebuild
}

void RegionMode::rebuild() {
  const auto t0 = std::chrono::steady_clock::now();
  snake_.reset();
  auto ctx = session_.sharedContext();
  if (ownsImage())
    snake_ = std::make_unique<RegionSnake>(ctx, large_.data(), largeSpec_.width,
                                           largeSpec_.height, params_);
  else
    snake_ = std::make_unique<RegionSnake>(ctx, session_.image(), params_);
  builtForImage_ = ownsImage() ? -3 : session_.imageVersion();
  buildMs_ = msSince(t0);
  restart();
}

void RegionMode::restart() {
  if (!snake_) return;
  const Vec2 size = imageSize();
  if (rect_)
    snake_->reset(initialRectangle(int(size.x), int(size.y), (*rect_)[0], (*rect_)[1],
                                   (*rect_)[2], (*rect_)[3]));
  else
    snake_->reset();
  nodes_ = snake_->nodes();
  inserted_.assign(nodes_.size(), 0);
  stats_ = snake_->stats();
}

void RegionMode::advance(ErrorLog& errors) {
  if (!enabled_) return;
  const long want = ownsImage() ? -3 : session_.imageVersion();
  if (!snake_ || builtForImage_ != want)
    if (!errors.guard("Preparing the region snake", [&] { rebuild(); })) {
      enabled_ = false;
      return;
    }
  if (!running_ || snake_->finished()) return;
  errors.guard("Stepping the region snake", [&] {
    const auto t0 = std::chrono::steady_clock::now();
    const std::size_t before = nodes_.size();
    std::vector<Point2i> old = nodes_;
    for (int k = 0; k < stepsPerFrame_ && snake_->step(); ++k) {
    }
    lastStepMs_ = msSince(t0);
    nodes_ = snake_->nodes();
    stats_ = snake_->stats();
    if (snake_->finished() && ownsImage())  // once: it scans the image's rows
      largeIoU_ = regionPhantomIoU(largeSpec_, nodes_, std::max(1, largeSpec_.height / 512));
    if (nodes_.size() != before) {  // an insertion: mark the new nodes for this iteration
      std::unordered_set<std::uint64_t> was;
      for (const auto& p : old) was.insert(key(p));
      inserted_.assign(nodes_.size(), 0);
      for (std::size_t i = 0; i < nodes_.size(); ++i) inserted_[i] = !was.count(key(nodes_[i]));
    }
  });
}

void RegionMode::drawWindow(ErrorLog& errors, float left, float top) {
  ImGui::SetNextWindowPos(ImVec2(left + 10, top + 10), ImGuiCond_FirstUseEver);
  ImGui::SetNextWindowCollapsed(!enabled_, ImGuiCond_FirstUseEver);
  if (!ImGui::Begin("Region snake (PLH)", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
    ImGui::End();
    return;
  }
  if (ImGui::Checkbox("Region snake mode", &enabled_) && enabled_) session_.setRunning(false);
  ImGui::SameLine();
  ImGui::Checkbox("Run", &running_);
  if (ImGui::Button("Step")) {
    bool was = running_;
    running_ = true;
    const int keep = stepsPerFrame_;
    stepsPerFrame_ = 1;
    advance(errors);
    stepsPerFrame_ = keep, running_ = was;
  }
  ImGui::SameLine();
  if (ImGui::Button("Restart")) errors.guard("Restarting the region snake", [&] { restart(); });
  ImGui::SameLine();
  if (ImGui::Button("Default rectangle")) {
    rect_.reset();
    errors.guard("Restarting the region snake", [&] { restart(); });
  }
  ImGui::PushItemWidth(170);
  ImGui::SliderInt("steps / frame", &stepsPerFrame_, 1, 64);
  int noise = static_cast<int>(params_.noise);
  bool changed = ImGui::Combo("noise", &noise, "Gaussian\0Gamma\0Poisson\0");
  changed |= ImGui::SliderInt("d max", &params_.dMax, 1, 256);
  float minSeg = static_cast<float>(params_.minSegment);
  changed |= ImGui::SliderFloat("min segment", &minSeg, 2, 200, "%.0f px");
  if (changed) {
    params_.noise = static_cast<NoiseModel>(noise);
    params_.minSegment = minSeg;
    if (snake_) errors.guard("Changing the region snake", [&] { snake_->setParams(params_); restart(); });
  }
  ImGui::PopItemWidth();
  ImGui::TextDisabled("Right-drag in the view: new starting rectangle");

  if (snake_ && enabled_) {
    const RegionStats& s = stats_;
    ImGui::Separator();
    ImGui::Text("iteration %d   step d = %d px   steps %ld", s.iteration, s.step, s.steps);
    ImGui::Text("nodes %d%s", s.nodes, s.converged ? "   (converged)" : snake_->finished() ? "   (stopped)" : "");
    if (ImGui::BeginTable("regions", 3, ImGuiTableFlags_BordersInnerH)) {
      ImGui::TableSetupColumn("");
      ImGui::TableSetupColumn("target T");
      ImGui::TableSetupColumn("background B");
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
    ImGui::Text("last frame's steps %.2f ms, setup %.1f ms", lastStepMs_, buildMs_);
    ImGui::Text("%.1f B/px on the device (prefix images %.1f ms)", snake_->bytesPerPixel(),
                snake_->precomputeMs());
  }
  ImGui::Separator();
  ImGui::PushItemWidth(170);
  ImGui::SliderFloat("MP", &largeMpix_, 1, 150, "%.0f");
  ImGui::PopItemWidth();
  ImGui::SameLine();
  if (ImGui::Button("Synthetic star"))
    errors.guard("Making a synthetic image", [&] {
      makeLarge(largeMpix_);
      enabled_ = true;
      session_.setRunning(false);
    });
  if (ownsImage()) {
    ImGui::Text("%d x %d synthetic star, SNR 2", largeSpec_.width, largeSpec_.height);
    if (ImGui::Button("Back to the session's image")) {
      large_.clear(), mips_.clear(), mipSize_.clear();
      snake_.reset();
      builtForImage_ = -1;
    }
    if (snake_ && snake_->finished())
      ImGui::Text("IoU with the true star (sampled rows): %.4f", largeIoU_);
  }
  ImGui::End();
}

void RegionMode::drawImage(Renderer& renderer, const Viewport& viewport, const ViewTransform& view,
                           const LayerSettings& layers) {
  if (!ownsImage()) return;
  // The level whose pixels are at least one screen pixel, and the part of it on screen.
  const float k = view.pixelsPerImagePixel();
  int level = 0;
  while (level < static_cast<int>(mips_.size()) && k * float(1 << (level + 1)) <= 1.0f) ++level;
  const int lw = level ? mipSize_[level - 1][0] : largeSpec_.width;
  const int lh = level ? mipSize_[level - 1][1] : largeSpec_.height;
  const std::uint16_t* src = level ? mips_[level - 1].data() : large_.data();
  const float s = float(1 << level);
  const Vec2 a = view.screenToImage({0, 0}), b = view.screenToImage(view.viewSize);
  const int x0 = std::clamp(int(std::floor(a.x / s)) - 1, 0, lw - 1);
  const int y0 = std::clamp(int(std::floor(a.y / s)) - 1, 0, lh - 1);
  const int x1 = std::clamp(int(std::ceil(b.x / s)) + 1, x0 + 1, lw);
  const int y1 = std::clamp(int(std::ceil(b.y / s)) + 1, y0 + 1, lh);
  const std::array<int, 5> crop = {level, x0, y0, x1 - x0, y1 - y0};
  if (crop != shownCrop_) {
    Image2D img(crop[3], crop[4]);
    const float scale = 1.0f / (displayHi_ - displayLo_);
    for (int y = 0; y < crop[4]; ++y)
      for (int x = 0; x < crop[3]; ++x)
        img.at(x, y) = (float(src[std::size_t(y0 + y) * lw + x0 + x]) - displayLo_) * scale;
    renderer.setImage(img);
    shownCrop_ = crop;
  }
  // The same screen mapping, expressed for the crop's pixels.
  ViewTransform v;
  v.viewSize = view.viewSize;
  v.imageSize = {float(crop[3]), float(crop[4])};
  const float fit = std::min(v.viewSize.x / v.imageSize.x, v.viewSize.y / v.imageSize.y);
  v.zoom = k * s / fit;
  const Vec2 origin = view.imageToScreen({x0 * s, y0 * s});
  v.pan = {origin.x - v.viewSize.x / 2 + v.imageSize.x / 2 * k * s,
           origin.y - v.viewSize.y / 2 + v.imageSize.y / 2 * k * s};
  LayerSettings imageOnly = layers;
  imageOnly.showMagnitude = imageOnly.showGlyphs = false;
  imageOnly.showImage = true;
  renderer.draw(viewport, v, imageOnly, FieldTextureRef{}, 1.0f);
}

void RegionMode::drawOverlay(const ViewTransform& view, float viewLeft, float dpr) const {
  if (!enabled_) return;
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  auto toUi = [&](float x, float y) {  // image pixel centre -> ImGui units
    const Vec2 q = view.imageToScreen({x + 0.5f, y + 0.5f});
    return ImVec2((q.x + viewLeft) / dpr, q.y / dpr);
  };
  if (nodes_.size() >= 2) {
    std::vector<ImVec2> pts;
    pts.reserve(nodes_.size());
    for (const auto& p : nodes_) pts.push_back(toUi(float(p.x), float(p.y)));
    dl->AddPolyline(pts.data(), int(pts.size()), IM_COL32(0, 0, 0, 160), ImDrawFlags_Closed, 3.5f);
    dl->AddPolyline(pts.data(), int(pts.size()), IM_COL32(60, 230, 90, 255), ImDrawFlags_Closed, 1.8f);
    const float r = std::clamp(view.pixelsPerImagePixel() * 1.5f / dpr, 2.0f, 4.0f);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const bool added = i < inserted_.size() && inserted_[i];
      dl->AddCircleFilled(pts[i], r + 1, IM_COL32(0, 0, 0, 200));
      dl->AddCircleFilled(pts[i], r, added ? IM_COL32(255, 150, 30, 255) : IM_COL32(240, 240, 80, 255));
    }
  }
  if (dragging_) {
    const ImVec2 a = toUi(std::min(dragFrom_.x, dragTo_.x) - 0.5f, std::min(dragFrom_.y, dragTo_.y) - 0.5f);
    const ImVec2 b = toUi(std::max(dragFrom_.x, dragTo_.x) - 0.5f, std::max(dragFrom_.y, dragTo_.y) - 0.5f);
    dl->AddRect(a, b, IM_COL32(80, 200, 255, 255), 0, 0, 2.0f);
  }
}

bool RegionMode::mousePress(Vec2 viewPixel, bool rightButton, const ViewTransform& view) {
  if (!enabled_ || !rightButton) return false;
  dragging_ = true;
  dragFrom_ = dragTo_ = view.screenToImage(viewPixel);
  return true;
}

bool RegionMode::mouseMove(Vec2 viewPixel, const ViewTransform& view) {
  if (!dragging_) return false;
  dragTo_ = view.screenToImage(viewPixel);
  return true;
}

bool RegionMode::mouseRelease(const ViewTransform&) {
  if (!dragging_) return false;
  dragging_ = false;
  const int x0 = int(std::floor(std::min(dragFrom_.x, dragTo_.x)));
  const int y0 = int(std::floor(std::min(dragFrom_.y, dragTo_.y)));
  const int x1 = int(std::floor(std::max(dragFrom_.x, dragTo_.x)));
  const int y1 = int(std::floor(std::max(dragFrom_.y, dragTo_.y)));
  if (x1 - x0 >= 3 && y1 - y0 >= 3) {
    rect_ = std::array<int, 4>{x0, y0, x1 - x0 + 1, y1 - y0 + 1};
    try {
      restart();
    } catch (const Error&) {
      rect_.reset();  // outside the image: keep the default
    }
  }
  return true;
}

}  // namespace gvflab::viewer
