#include "viewer/model/snake_session.hpp"

#include <algorithm>
#include <glm/geometric.hpp>
#include <numeric>
#include <string>
#include <utility>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"

namespace gvflab::viewer {

std::vector<unsigned char> captureOverlayRgba(const std::vector<int>& steps, int maxSteps) {
  const auto rgb = captureMapRgb(steps, maxSteps);
  std::vector<unsigned char> rgba(steps.size() * 4, 0);
  for (std::size_t i = 0; i < steps.size(); ++i) {
    std::copy_n(&rgb[3 * i], 3, &rgba[4 * i]);
    rgba[4 * i + 3] = steps[i] >= 0 ? 150 : 0;  // uncaptured pixels stay see-through
  }
  return rgba;
}

SnakeSession::SnakeSession(Session& session, const app::SnakeOptions& options)
    : session_(session),
      forceParams_(options.forces),
      force_(options.force),
      frameIterations_(options.frameIterations) {
  captureParams = options.capture;
  showCapture = options.captureMap.has_value();  // in the viewer: start with the overlay on
  rebuildForImage();
  snakes_->setParams(options.params);
  trails_.setEvery(options.trails);
  addSpecs(options.snakes);
  refreshContours();
}

// Each snake with its own force (SPEC@FORCE), pressure and starting contour (sessions); the
// first one is selected (a demo's first snake is its GVF one).
void SnakeSession::addSpecs(const std::vector<app::SnakeSpec>& specs) {
  for (const auto& spec : specs) {
    auto pts = spec.points(snakes_->params());
    for (auto& p : pts) p = clampToImage(p);
    const int id = snakes_->add(pts, spec.forceOr(force_), spec.pressure, spec.boundary);
    const int number = adopt(id);
    if (!selected_) selected_ = number;
    if (!spec.initial.empty()) {
      auto start = spec.initial;
      for (auto& p : start) p = clampToImage(p);
      snakes_->setInitial(id, start);
    }
  }
}

void SnakeSession::replaceAll(const std::vector<app::SnakeSpec>& specs) {
  remember();
  const Snapshot before = undo_.back();
  snakes_->clear();
  engineOf_.clear(), numberOf_.clear();
  nextNumber_ = 1;  // a new set of snakes (a demo) numbers from 1
  selected_ = 0;
  try {
    addSpecs(specs);
  } catch (...) {
    restore(before);
    undo_.pop_back();
    throw;
  }
  refreshContours();
}

glm::vec2 SnakeSession::clampToImage(glm::vec2 p) const {
  return {std::clamp(p.x, 0.0f, static_cast<float>(snakes_->width())),
          std::clamp(p.y, 0.0f, static_cast<float>(snakes_->height()))};
}

// The traditional force is ∇f: the solver's V0 in the default mode, else built apart. On a
// volume the snakes live on the slice shown, in the field's in-plane components.
void SnakeSession::rebuildForImage() {
  const GvfInput& plane = session_.planeInput();
  const int w = plane.width, h = plane.height;
  SnakeParams params = snakes_ ? snakes_->params() : SnakeParams::defaults();
  Snapshot keep;
  if (snakes_ && snakes_->width() == w && snakes_->height() == h) keep = snapshot();
  // A new image, σ or V0 gives another field: each snake starts again from its start, so its
  // verdict is the one a replay with these parameters gives (issue 39).
  for (Saved& saved : keep)
    if (!saved.initial.empty()) saved.points = saved.initial;
  snakes_ = std::make_unique<ParametricSnake>(session_.sharedContext(), w, h, params);
  forces_ =
      std::make_unique<ForceFields>(session_.sharedContext(),
                                    edgeGradientInput(session_.context(), plane, session_.v0Mode(),
                                                      session_.image(), session_.sigma()),
                                    forceParams_);
  capture_ = std::make_unique<CaptureRange>(session_.sharedContext(), forces_->edges());
  restore(keep);
  progress_.clear();
  if (keep.empty()) undo_.clear(), redo_.clear(), nextNumber_ = 1;
  imageVersion_ = session_.imageVersion();
  solveVersion_ = session_.solveVersion();
  captureStale_ = true;
}

void SnakeSession::followImage() {
  if (session_.imageVersion() != imageVersion_) rebuildForImage();
  // Another field on the same input (μ, the solver): the snakes start again too.
  if (session_.solveVersion() != solveVersion_) {
    solveVersion_ = session_.solveVersion();
    restart();
  }
}

void SnakeSession::advanceFrame() {
  followImage();
  snakes_->setFields(forces_->fields(snakes_->forces(), session_.planeField()), forces_->edges());
  const bool step = running_ || std::exchange(pendingStep_, false);
  // Snakes wait for the field (a single step too); the field itself steps in Session.
  const bool fieldWait = waitForField_ && !session_.fieldReady();
  if (step && snakes_->size() > 0 && !fieldWait) {
    const std::vector<SnakeContour> before = contours_;
    snakes_->step(frameIterations_);
    refreshContours();
    recordProgress(before);
  } else {
    refreshContours();
  }
  if (showCapture) computeCapture();
}

void SnakeSession::computeCapture() {
  constexpr int kCaptureEveryFrames = 30;  // while GVF runs, refresh the map about twice a second
  const bool paramsChanged = captureParams.threshold != captureThresholdUsed_;
  const bool fieldMoved = session_.fieldVersion() != captureFieldVersion_;
  ++framesSinceCapture_;
  const bool fresh = steps_[0].empty() || recolour_;  // just switched on, or a force change
  const bool all = captureStale_ || paramsChanged || steps_[1].empty();
  const bool doGvf = all || (fieldMoved && (fresh || framesSinceCapture_ >= kCaptureEveryFrames));
  bool any = false;
  for (SnakeForce f : kSnakeForces) {
    std::vector<int>& steps = steps_[static_cast<int>(f)];
    // GVF and grad f always (the panel compares them), another force once shown.
    const bool wanted =
        f == SnakeForce::Gvf || f == SnakeForce::Traditional || f == captureForce || !steps.empty();
    if (!wanted || !(f == SnakeForce::Gvf ? doGvf : all || steps.empty())) continue;
    area_[static_cast<int>(f)] =
        capture_->compute(forces_->field(f, session_.planeField()), captureParams);
    steps = capture_->readSteps();
    ++captureComputations_;
    any = true;
  }
  if (doGvf) {
    captureFieldVersion_ = session_.fieldVersion();
    framesSinceCapture_ = 0;
  }
  if (!any && !recolour_) return;
  captureThresholdUsed_ = captureParams.threshold;
  recolour_ = false;
  captureRgba_ = captureOverlayRgba(steps_[static_cast<int>(captureForce)], capture_->maxSteps());
  ++captureVersion_;
  captureStale_ = false;
}

// Mean distance of the nodes of `now` from the closed polyline `was` (every frame, per snake).
static double meanDistanceFrom(const std::vector<glm::vec2>& now,
                               const std::vector<glm::vec2>& was) {
  if (now.empty() || was.empty()) return 0;
  const std::vector<double> d = distancesToContour(now, was);
  return std::accumulate(d.begin(), d.end(), 0.0) / static_cast<double>(d.size());
}

void SnakeSession::recordProgress(const std::vector<SnakeContour>& before) {
  for (const auto& c : contours_) {
    auto old = std::find_if(before.begin(), before.end(), [&](auto& b) { return b.id == c.id; });
    if (old == before.end() || c.iterations <= old->iterations) continue;
    appendThinned(progress_[c.id], {static_cast<double>(c.iterations),
                                    meanDistanceFrom(c.points, old->points) /
                                        static_cast<double>(c.iterations - old->iterations)});
  }
}

const std::vector<std::array<double, 2>>& SnakeSession::progress(int id) const {
  static const std::vector<std::array<double, 2>> none;
  auto it = progress_.find(id);
  return it == progress_.end() ? none : it->second;
}

void SnakeSession::refreshContours() {
  contours_ = snakes_->contours();
  for (auto& c : contours_) {
    auto it = numberOf_.find(c.id);
    c.id = it != numberOf_.end() ? it->second : adopt(c.id);
  }
  trails_.record(contours_);
}

int SnakeSession::adopt(int engineId, int number) {
  if (number <= 0) number = nextNumber_;
  nextNumber_ = std::max(nextNumber_, number + 1);
  engineOf_[number] = engineId;
  numberOf_[engineId] = number;
  return number;
}

int SnakeSession::engine(int number) const {
  auto it = engineOf_.find(number);
  return it == engineOf_.end() ? 0 : it->second;
}

void SnakeSession::forget(int number) {
  auto it = engineOf_.find(number);
  if (it == engineOf_.end()) return;
  numberOf_.erase(it->second);
  engineOf_.erase(it);
}

SnakeSession::Snapshot SnakeSession::snapshot() const {
  Snapshot s;
  for (const auto& c : contours_)
    s.push_back({c.points, c.initial, c.force, ownPressure(c), c.id, c.boundary});
  return s;
}

// The engine numbers the snakes anew; each keeps its own number (and the selection its
// snake, where it comes back).
void SnakeSession::restore(const Snapshot& s) {
  const int wasSelected = selected_;
  snakes_->clear();
  engineOf_.clear(), numberOf_.clear();
  selected_ = 0;
  for (const Saved& saved : s) {
    try {
      const int id = snakes_->add(saved.points, saved.force, saved.pressure, saved.boundary);
      if (!saved.initial.empty()) snakes_->setInitial(id, saved.initial);
      const int number = adopt(id, saved.id);
      if (number == wasSelected) selected_ = number;
    } catch (const ParameterError&) {
      // A collapsed snake cannot come back; the others still do.
    }
  }
  refreshContours();
}

const SnakeContour* SnakeSession::find(int id) const {
  for (const auto& c : contours_)
    if (c.id == id) return &c;
  return nullptr;
}

void SnakeSession::select(int id) { selected_ = find(id) ? id : 0; }

const SnakeContour* SnakeSession::selected() const { return find(selected_); }

SnakeForce SnakeSession::shownForce() const {
  const SnakeContour* c = selected();
  return c ? c->force : force_;
}

const cl::Buffer& SnakeSession::forceField(SnakeForce f) {
  followImage();
  return forces_->field(f, session_.planeField());
}

void SnakeSession::setForceParams(const ForceParams& p) {
  forces_->setParams(p);
  forceParams_ = p;
  ++forcesVersion_;
  captureStale_ = true;
  restart();  // another field: each snake starts again (as for σ)
}

int SnakeSession::compare(int id) {
  const SnakeContour* c = find(id);
  if (!c) throw ParameterError("There is no snake " + std::to_string(id) + " to compare.");
  const SnakeContour original = *c;
  remember();
  std::vector<int> twins;
  try {
    // All anew from the starting contour (iteration 0), so they race from the same place.
    snakes_->remove(engine(id));
    forget(id);
    adopt(snakes_->add(original.initial, original.force, ownPressure(original), original.boundary),
          id);
    for (SnakeForce f : compareForces.twinsOf(original.force))
      twins.push_back(
          adopt(snakes_->add(original.initial, f, ownPressure(original), original.boundary)));
  } catch (...) {
    restore(undo_.back());
    undo_.pop_back();
    throw;
  }
  selected_ = id;       // the field shown stays the one the user was looking at
  progress_.erase(id);  // all race anew from iteration 0
  for (int twin : twins) progress_.erase(twin);
  refreshContours();
  return twins.back();
}

void SnakeSession::setForce(int id, SnakeForce f) {
  const SnakeContour* c = find(id);
  if (!c || c->force == f) return;
  remember();
  snakes_->setForce(engine(id), f);
  refreshContours();
}

void SnakeSession::setPressure(int id, std::optional<double> pressure) {
  if (!find(id)) return;
  snakes_->setPressure(engine(id), pressure);
  refreshContours();
}

void SnakeSession::restart() {
  snakes_->restart();
  progress_.clear();
  refreshContours();
}

void SnakeSession::remember() {
  constexpr std::size_t kUndoDepth = 100;
  undo_.push_back(snapshot());
  if (undo_.size() > kUndoDepth) undo_.erase(undo_.begin());
  redo_.clear();
}

bool SnakeSession::undo() { return travel(undo_, redo_); }

bool SnakeSession::redo() { return travel(redo_, undo_); }

bool SnakeSession::travel(std::vector<Snapshot>& from, std::vector<Snapshot>& to) {
  if (from.empty()) return false;
  to.push_back(snapshot());
  restore(from.back());
  from.pop_back();
  return true;
}

void SnakeSession::addCircle(glm::vec2 centre, float radius) {
  const auto p = snakes_->params();
  auto pts = circleContour(centre.x, centre.y, std::max(radius, 1.0f), 0.5 * (p.dmin + p.dmax));
  addPolygon(std::move(pts));
}

int SnakeSession::addPolygon(std::vector<glm::vec2> points, std::optional<SnakeForce> force) {
  for (auto& q : points) q = clampToImage(q);
  remember();
  try {
    selected_ = adopt(snakes_->add(points, force.value_or(force_)));
  } catch (...) {
    undo_.pop_back();
    throw;
  }
  refreshContours();
  return selected_;
}

void SnakeSession::beginNodeDrag() { remember(); }

void SnakeSession::moveNode(int id, int node, glm::vec2 to) {
  for (const auto& c : contours_) {
    if (c.id != id || node < 0 || node >= static_cast<int>(c.points.size())) continue;
    auto pts = c.points;
    pts[node] = clampToImage(to);
    snakes_->setPoints(engine(id), pts);
    refreshContours();
    return;
  }
}

void SnakeSession::remove(int id) {
  remember();
  snakes_->remove(engine(id));
  forget(id);
  progress_.erase(id);
  if (selected_ == id) selected_ = 0;
  refreshContours();
}

void SnakeSession::clear() {
  if (contours_.empty()) return;
  remember();
  snakes_->clear();
  engineOf_.clear(), numberOf_.clear();
  selected_ = 0;
  refreshContours();
}

void SnakeSession::seedGrid(int spacing, float radius) {
  remember();
  const int w = snakes_->width(), h = snakes_->height();
  const auto p = snakes_->params();
  for (float y = spacing * 0.5f; y < h; y += spacing)
    for (float x = spacing * 0.5f; x < w; x += spacing)
      if (x - radius >= 0 && y - radius >= 0 && x + radius <= w && y + radius <= h)
        adopt(snakes_->add(circleContour(x, y, radius, std::min(p.dmax, 2 * p.dmin)), force_));
  refreshContours();
}

void SnakeSession::setParams(const SnakeParams& p) {
  snakes_->setParams(p);
  refreshContours();
}

void SnakeSession::setFrameIterations(int n) {
  validate(findSpec(snakeParamSpecs(), "snake-frame-iterations"), n);
  frameIterations_ = n;
}

std::optional<SnakeSession::NodeHit> SnakeSession::nodeAt(glm::vec2 p, float maxDistance) const {
  std::optional<NodeHit> best;
  float bestD = maxDistance;
  for (const auto& c : contours_)
    for (std::size_t i = 0; i < c.points.size(); ++i) {
      float d = glm::length(c.points[i] - p);
      if (d <= bestD) bestD = d, best = NodeHit{c.id, static_cast<int>(i)};
    }
  return best;
}

std::optional<int> SnakeSession::snakeAt(glm::vec2 p, float maxDistance) const {
  std::optional<int> best;
  float bestD = maxDistance;
  for (const auto& c : contours_) {
    const auto d = static_cast<float>(distancesToContour({p}, c.points, true, bestD)[0]);
    if (d <= bestD) bestD = d, best = c.id;
  }
  return best;
}

}  // namespace gvflab::viewer
