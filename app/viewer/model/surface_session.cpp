#include "viewer/model/surface_session.hpp"

#include <chrono>

#include "gvflab/error.hpp"

namespace gvflab::viewer {

SurfaceSession::SurfaceSession(Session& session, const SurfaceStartup& startup)
    : session_(session),
      params_(startup.params),
      force_(startup.force),
      forceParams_(startup.forces) {
  setFrameIterations(startup.frameIterations);
  pending_ = startup.surfaces;
  rebuild();
}

std::array<int, 3> SurfaceSession::dims() const {
  if (!snakes_) return {0, 0, 0};
  return {snakes_->width(), snakes_->height(), snakes_->depth()};
}

// A new volume (or σ, V0 mode, device): the surfaces start over on it; start-up surfaces wait
// for the first volume. On an image there is nothing to move.
void SurfaceSession::rebuild() {
  inputVersion_ = session_.inputVersion();
  contextVersion_ = session_.contextVersion();
  const bool keep = snakes_ && session_.isVolume() && [&] {
    const GvfInput& in = session_.input();
    return in.width == snakes_->width() && in.height == snakes_->height() &&
           in.depth == snakes_->depth();
  }();
  std::vector<SurfaceContour> kept = keep ? surfaces_ : std::vector<SurfaceContour>{};
  snakes_.reset();
  forces_.reset();
  surfaces_.clear();
  ++version_;
  if (!session_.isVolume()) return;
  const GvfInput& in = session_.input();
  forces_ = std::make_unique<ForceFields>(session_.sharedContext(), in, forceParams_);
  snakes_ = std::make_unique<SurfaceSnake>(session_.sharedContext(), in.width, in.height, in.depth,
                                           params_);
  for (const SurfaceContour& c : kept) {
    const int id = snakes_->add(c.initial, c.force, ownPressure(c));
    if (c.id == selected_) selected_ = id;
  }
  if (kept.empty()) selected_ = 0;
  auto specs = std::exchange(pending_, {});
  addSpecs(specs);
  refresh();
}

void SurfaceSession::addSpecs(const std::vector<app::SurfaceSpec>& specs) {
  for (const auto& spec : specs) {
    spec.check(snakes_->width(), snakes_->height(), snakes_->depth(), params_);
    const int id = snakes_->add(spec.mesh(params_), spec.forceOr(force_), spec.pressure);
    if (!spec.initial.empty()) snakes_->setInitial(id, spec.initial);  // a session's start
    if (!selected_) selected_ = id;
  }
}

void SurfaceSession::refresh() {
  surfaces_ = snakes_ ? snakes_->surfaces() : std::vector<SurfaceContour>{};
  ++version_;
}

bool SurfaceSession::waitingForField() const {
  return running_ && snakes_ && snakes_->size() > 0 && !session_.fieldReady();
}

void SurfaceSession::advanceFrame(double budgetMs) {
  lastSteps_ = 0;
  if (session_.inputVersion() != inputVersion_ || session_.contextVersion() != contextVersion_ ||
      (snakes_ != nullptr) != session_.isVolume())
    rebuild();
  if (!snakes_ || snakes_->size() == 0 || !running_ || snakes_->allStopped()) return;
  if (!session_.fieldReady()) return;  // judged on a field still diffusing, they stop short
  // Every frame: a new surface may hold a force whose field is built now (then kept).
  snakes_->setFields(forces_->fields(snakes_->forces(), session_.solver().field()),
                     forces_->edges());
  constexpr int kMaxFrameIterations = 64;
  int n = frameIterations_;
  if (budgetMs > 0 && msPerIteration_ > 0)
    n = std::clamp(static_cast<int>(budgetMs / msPerIteration_), 1, kMaxFrameIterations);
  const auto start = std::chrono::steady_clock::now();
  snakes_->step(n);
  refresh();  // reads back: the time below includes the device's
  const double ms =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const double perIteration = ms / n;
  msPerIteration_ = msPerIteration_ > 0 ? 0.8 * msPerIteration_ + 0.2 * perIteration : perIteration;
  lastSteps_ = n;
}

int SurfaceSession::addSphere(const glm::dvec3& centre, double radius,
                              std::optional<SnakeForce> force) {
  if (!snakes_) throw ParameterError("Surfaces need a volume; the open file is an image.");
  const int id = snakes_->addSphere(centre, radius, force.value_or(force_));
  selected_ = id;
  refresh();
  return id;
}

int SurfaceSession::compare(int id) {
  const auto it = std::find_if(surfaces_.begin(), surfaces_.end(),
                               [&](const SurfaceContour& c) { return c.id == id; });
  if (!snakes_ || it == surfaces_.end()) return 0;
  int twin = 0;  // surfaces_ stays as it is until refresh()
  for (SnakeForce f : compareForces.twinsOf(it->force))
    twin = snakes_->add(it->initial, f, ownPressure(*it));
  snakes_->restart();
  refresh();
  return twin;
}

void SurfaceSession::remove(int id) {
  if (!snakes_) return;
  snakes_->remove(id);
  if (selected_ == id) selected_ = 0;
  refresh();
}

void SurfaceSession::clear() {
  if (!snakes_) return;
  snakes_->clear();
  selected_ = 0;
  refresh();
}

void SurfaceSession::replaceAll(const app::SnakeOptions& demo) {
  snakes_.reset();  // nothing kept: the next frame builds anew on the volume then open
  surfaces_.clear();
  ++version_;
  selected_ = 0;
  params_ = demo.params;
  force_ = demo.force;
  forceParams_ = demo.forces;
  pending_ = demo.surfaces;
  inputVersion_ = -1;
}

void SurfaceSession::restart() {
  if (!snakes_) return;
  snakes_->restart();
  refresh();
}

}  // namespace gvflab::viewer
