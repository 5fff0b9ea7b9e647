#pragma once
// How the region mode looks: its own (large) image as the visible crop of the right mip level
// (large images exceed GL texture limits), and the polygon with its nodes and the rectangle
// being dragged, drawn over the view with ImGui's background list.
#include <array>
#include <optional>

#include "viewer/model/region_session.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/view_transform.hpp"

namespace gvflab::viewer {

class RegionView {
 public:
  // The crop of image shown in view; uploads only when the crop changed. GL context current.
  void drawImage(Renderer& renderer, const RegionImage& image, long imageVersion,
                 const Viewport& viewport, const ViewTransform& view, const LayerSettings& layers);
  // viewLeft: framebuffer x of the view; dpr: framebuffer pixels per ImGui unit. drag: the
  // starting rectangle being dragged (two corners in image pixels).
  static void drawOverlay(const RegionSession& region,
                          const std::optional<std::array<Vec2, 2>>& drag, const ViewTransform& view,
                          float viewLeft, float dpr);

 private:
  std::array<int, 5> shownCrop_ = {-1, 0, 0, 0, 0};  // level, x0, y0, w, h
  long shownVersion_ = -1;
};

}  // namespace gvflab::viewer
