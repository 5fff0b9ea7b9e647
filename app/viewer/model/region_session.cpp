#include "viewer/model/region_session.hpp"

#include <algorithm>
#include <unordered_set>

#include "gvflab/profiler.hpp"

namespace gvflab::viewer {
namespace {

constexpr long kOwnImage = -3;  // builtForImage_ for our own image (session versions are >= 0)

std::uint64_t key(Point2i p) {
  return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(p.x)) << 32) |
         static_cast<std::uint32_t>(p.y);
}

}  // namespace

RegionSession::RegionSession(Session& session, const RegionSnakeParams& params,
                             std::optional<std::array<int, 4>> rect)
    : session_(session), params_(params), rect_(rect) {}

std::array<int, 2> RegionSession::imageSize() const {
  if (ownsImage()) return {large_.spec.width, large_.spec.height};
  return {session_.image().width, session_.image().height};
}

long RegionSession::wantedImage() const {
  return ownsImage() ? kOwnImage : session_.imageVersion();
}

void RegionSession::makeSynthetic(double mpix) {
  large_ = makeSyntheticStar(mpix);
  ++ownImageVersion_;
  builtForImage_ = -2;  // force a rebuild
}

void RegionSession::dropSynthetic() {
  large_ = {};
  snake_.reset();
  builtForImage_ = -1;
}

void RegionSession::ensureBuilt() {
  if (!snake_ || builtForImage_ != wantedImage()) rebuild();
}

void RegionSession::rebuild() {
  const auto t0 = std::chrono::steady_clock::now();
  snake_.reset();
  auto ctx = session_.sharedContext();
  if (ownsImage())
    snake_ = std::make_unique<RegionSnake>(ctx, large_.pixels().data(), large_.spec.width,
                                           large_.spec.height, params_);
  else
    snake_ = std::make_unique<RegionSnake>(ctx, session_.image(), params_);
  builtForImage_ = wantedImage();
  buildMs_ = msSince(t0);
  restart();
}

void RegionSession::restart() {
  if (!snake_) return;
  const std::array<int, 2> size = imageSize();
  if (rect_)
    snake_->reset(
        initialRectangle(size[0], size[1], (*rect_)[0], (*rect_)[1], (*rect_)[2], (*rect_)[3]));
  else
    snake_->reset();
  nodes_ = snake_->nodes();
  inserted_.assign(nodes_.size(), 0);
  stats_ = snake_->stats();
}

void RegionSession::setRect(std::optional<std::array<int, 4>> rect) {
  rect_ = rect;
  try {
    restart();
  } catch (...) {
    rect_.reset();
    throw;
  }
}

void RegionSession::setParams(const RegionSnakeParams& params) {
  params_ = params;
  if (!snake_) return;
  snake_->setParams(params_);
  restart();
}

void RegionSession::step(int steps) {
  if (!snake_) return;
  const auto t0 = std::chrono::steady_clock::now();
  const std::size_t before = nodes_.size();
  std::vector<Point2i> old = nodes_;
  for (int k = 0; k < steps && snake_->step(); ++k) {
  }
  lastStepMs_ = msSince(t0);
  nodes_ = snake_->nodes();
  stats_ = snake_->stats();
  if (snake_->finished() && ownsImage())  // once: it scans the image's rows
    largeIoU_ = regionPhantomIoU(large_.spec, nodes_, std::max(1, large_.spec.height / 512));
  if (nodes_.size() != before) {  // an insertion: mark the new nodes for this iteration
    std::unordered_set<std::uint64_t> was;
    for (const auto& p : old) was.insert(key(p));
    inserted_.assign(nodes_.size(), 0);
    for (std::size_t i = 0; i < nodes_.size(); ++i) inserted_[i] = !was.count(key(nodes_[i]));
  }
}

}  // namespace gvflab::viewer
