#include "viewer/render/region_view.hpp"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "io/snake_palette.hpp"

namespace gvflab::viewer {

void RegionView::drawImage(Renderer& renderer, const RegionImage& image, long imageVersion,
                           const Viewport& viewport, const ViewTransform& view,
                           const LayerSettings& layers) {
  if (image.empty()) return;
  // The level whose pixels are at least one screen pixel, and the part of it on screen.
  const float k = view.pixelsPerImagePixel();
  int level = 0;
  while (level + 1 < static_cast<int>(image.levels.size()) && k * float(1 << (level + 1)) <= 1.0f)
    ++level;
  const MipLevel& m = image.levels[level];
  const int lw = m.width, lh = m.height;
  const float s = float(1 << level);
  const Vec2 a = view.screenToImage({0, 0}), b = view.screenToImage(view.viewSize);
  const int x0 = std::clamp(int(std::floor(a.x / s)) - 1, 0, lw - 1);
  const int y0 = std::clamp(int(std::floor(a.y / s)) - 1, 0, lh - 1);
  const int x1 = std::clamp(int(std::ceil(b.x / s)) + 1, x0 + 1, lw);
  const int y1 = std::clamp(int(std::ceil(b.y / s)) + 1, y0 + 1, lh);
  const std::array<int, 5> crop = {level, x0, y0, x1 - x0, y1 - y0};
  if (crop != shownCrop_ || imageVersion != shownVersion_) {
    Image2D img(crop[3], crop[4]);
    const float scale = 1.0f / (image.displayHi - image.displayLo);
    for (int y = 0; y < crop[4]; ++y)
      for (int x = 0; x < crop[3]; ++x)
        img.at(x, y) =
            (float(m.pixels[std::size_t(y0 + y) * lw + x0 + x]) - image.displayLo) * scale;
    renderer.setImage(img);
    shownCrop_ = crop;
    shownVersion_ = imageVersion;
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

void RegionView::drawOverlay(const RegionSession& region,
                             const std::optional<std::array<Vec2, 2>>& drag,
                             const ViewTransform& view, float viewLeft, float dpr) {
  ImDrawList* dl = ImGui::GetBackgroundDrawList();
  auto toUi = [&](float x, float y) {  // image pixel centre -> ImGui units
    const Vec2 q = view.imageToScreen({x + 0.5f, y + 0.5f});
    return ImVec2((q.x + viewLeft) / dpr, q.y / dpr);
  };
  const auto& nodes = region.nodes();
  const auto& inserted = region.inserted();
  if (nodes.size() >= 2) {
    std::vector<ImVec2> pts;
    pts.reserve(nodes.size());
    for (const auto& p : nodes) pts.push_back(toUi(float(p.x), float(p.y)));
    dl->AddPolyline(pts.data(), int(pts.size()), IM_COL32(0, 0, 0, 160), ImDrawFlags_Closed, 3.5f);
    const SnakeRgba green = regionColor();  // the same in the contour files' SVG
    dl->AddPolyline(pts.data(), int(pts.size()),
                    ImGui::ColorConvertFloat4ToU32(ImVec4(green[0], green[1], green[2], green[3])),
                    ImDrawFlags_Closed, 1.8f);
    const float r = std::clamp(view.pixelsPerImagePixel() * 1.5f / dpr, 2.0f, 4.0f);
    for (std::size_t i = 0; i < pts.size(); ++i) {
      const bool added = i < inserted.size() && inserted[i];
      dl->AddCircleFilled(pts[i], r + 1, IM_COL32(0, 0, 0, 200));
      dl->AddCircleFilled(pts[i], r,
                          added ? IM_COL32(255, 150, 30, 255) : IM_COL32(240, 240, 80, 255));
    }
  }
  if (drag) {
    const Vec2 from = (*drag)[0], to = (*drag)[1];
    const ImVec2 a = toUi(std::min(from.x, to.x) - 0.5f, std::min(from.y, to.y) - 0.5f);
    const ImVec2 b = toUi(std::max(from.x, to.x) - 0.5f, std::max(from.y, to.y) - 0.5f);
    dl->AddRect(a, b, IM_COL32(80, 200, 255, 255), 0, 0, 2.0f);
  }
}

}  // namespace gvflab::viewer
