#pragma once
// The region snake's compute in the viewer: a RegionSnake (PLH polygon) on the session's image
// or on a synthetic star of our own, rebuilt when the image changes, stepped on request, with
// the nodes inserted by the last step marked. No GL, no ImGui (see RegionMode for the glue).
#include <array>
#include <memory>
#include <optional>
#include <vector>

#include "gvflab/region_snake.hpp"
#include "viewer/model/region_image.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

class RegionSession {
 public:
  RegionSession(Session& session, const RegionSnakeParams& params,
                std::optional<std::array<int, 4>> rect);

  // A synthetic image of our own replaces the session's image.
  bool ownsImage() const { return !large_.empty(); }
  const RegionImage& ownImage() const { return large_; }
  long ownImageVersion() const { return ownImageVersion_; }  // bumped by makeSynthetic
  std::array<int, 2> imageSize() const;                      // ours, or the session's
  void makeSynthetic(double mpix);
  void dropSynthetic();  // back to the session's image

  // (Re)builds the snake when the image it was made for is no longer the one shown.
  void ensureBuilt();
  // Up to steps steps (fewer when it finishes); marks the nodes an insertion added.
  void step(int steps);
  void restart();  // from the starting rectangle (or the default inset)
  // A new starting rectangle (x, y, w, h), or none for the default; restarts. Throws (and
  // falls back to the default rectangle) when it does not fit the image.
  void setRect(std::optional<std::array<int, 4>> rect);
  const RegionSnakeParams& params() const { return params_; }
  void setParams(const RegionSnakeParams& params);  // restarts a built snake

  const RegionSnake* snake() const { return snake_.get(); }
  const std::vector<Point2i>& nodes() const { return nodes_; }
  const std::vector<char>& inserted() const { return inserted_; }  // per node
  const RegionStats& stats() const { return stats_; }
  double lastStepMs() const { return lastStepMs_; }
  double buildMs() const { return buildMs_; }
  double syntheticIoU() const { return largeIoU_; }  // once finished on our own image

 private:
  void rebuild();
  long wantedImage() const;

  Session& session_;
  RegionSnakeParams params_;
  std::optional<std::array<int, 4>> rect_;
  std::unique_ptr<RegionSnake> snake_;
  long builtForImage_ = -1;
  std::vector<Point2i> nodes_;
  std::vector<char> inserted_;
  RegionStats stats_;
  double lastStepMs_ = 0, buildMs_ = 0;
  RegionImage large_;
  long ownImageVersion_ = 0;
  double largeIoU_ = 0;
};

}  // namespace gvflab::viewer
