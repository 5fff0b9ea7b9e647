#pragma once
// The viewer's region-snake mode: the PLH polygon stepped live over the session's image (or a
// synthetic image of up to 150 MP made for it), a statistics window, the starting rectangle
// dragged with the right mouse button, and large images shown as the visible crop of a mip
// level (they exceed GL texture limits). Drawn over the view with ImGui's background list.
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/region_phantom.hpp"
#include "gvflab/region_snake.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/startup_config.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/view_transform.hpp"
#include "viewer/ui/error_log.hpp"

namespace gvflab::viewer {

class RegionMode {
 public:
  RegionMode(Session& session, const RegionStartup& startup);
  ~RegionMode();

  bool enabled() const { return enabled_; }
  // A synthetic image of our own replaces the session's image in the view.
  bool ownsImage() const { return !large_.empty(); }
  Vec2 imageSize() const;

  // Once per frame, after the panels: steps the snake when running. Errors go to errors.
  void advance(ErrorLog& errors);
  void drawWindow(ErrorLog& errors, float left, float top);
  // Draws our own image (when ownsImage()) as the visible crop of the right mip level.
  void drawImage(Renderer& renderer, const Viewport& viewport, const ViewTransform& view,
                 const LayerSettings& layers);
  // The polygon, its nodes (inserted ones highlighted) and the rectangle being dragged.
  // viewLeft: framebuffer x of the view; dpr: framebuffer pixels per ImGui unit.
  void drawOverlay(const ViewTransform& view, float viewLeft, float dpr) const;

  // Right-button drag in view pixels sets the starting rectangle; true when consumed.
  bool mousePress(Vec2 viewPixel, bool rightButton, const ViewTransform& view);
  bool mouseMove(Vec2 viewPixel, const ViewTransform& view);
  bool mouseRelease(const ViewTransform& view);

 private:
  void rebuild();  // a new RegionSnake from the current image and parameters
  void makeLarge(double mpix);
  void restart();

  Session& session_;
  bool enabled_ = false;
  bool running_ = true;
  int stepsPerFrame_ = 1;
  RegionSnakeParams params_;
  std::optional<std::array<int, 4>> rect_;  // x, y, w, h; none: default inset
  std::unique_ptr<RegionSnake> snake_;
  long builtForImage_ = -1;
  std::vector<Point2i> nodes_;
  std::vector<char> inserted_;  // per node: added at the last insertion
  RegionStats stats_;
  double lastStepMs_ = 0, buildMs_ = 0;

  // Our own large image, with its mip levels (level l halves level l-1) for display.
  std::vector<std::uint16_t> large_;
  RegionPhantomSpec largeSpec_;
  std::vector<std::vector<std::uint16_t>> mips_;
  std::vector<std::array<int, 2>> mipSize_;
  float displayLo_ = 0, displayHi_ = 65535;
  std::array<int, 5> shownCrop_ = {-1, 0, 0, 0, 0};  // level, x0, y0, w, h
  float largeMpix_ = 20;
  double largeIoU_ = 0;

  bool dragging_ = false;
  Vec2 dragFrom_, dragTo_;  // image pixels
};

}  // namespace gvflab::viewer
