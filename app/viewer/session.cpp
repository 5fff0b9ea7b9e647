#include "viewer/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/image_loader.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/params.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::viewer {
namespace {

std::string formatMu(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4f", v);
  return buf;
}

}  // namespace

Session::Session(const app::Options& options)
    : sigma_(options.gvf.sigma),
      v0Mode_(options.gvf.v0Mode),
      storage_(options.storage),
      requestedMu_(options.gvf.mu),
      itersPerFrame_(std::max(options.gvf.iterationsPerFrame, 0)) {
  // --iterations means "per frame" in the viewer (see the help text), but the parser only
  // fills the headless total; a value other than its default is taken as the user's.
  if (options.iterations != app::Options{}.iterations)
    itersPerFrame_ = std::clamp(options.iterations, 0, 4096);
  ContextOptions co;
  co.deviceSelector = options.device;
  if (options.kernelDir) co.kernelDir = *options.kernelDir;
  ctx_ = ComputeContext::create(co);
  if (options.image) {
    std::filesystem::path path(*options.image);
    rebuild(app::loadImage(path), path.filename().string(), sigma_, v0Mode_);
  } else {
    std::string name = options.phantom.value_or("u");
    rebuild(makePhantom(name, options.phantomSize), "phantom '" + name + "'", sigma_, v0Mode_);
  }
}

void Session::openFile(const std::filesystem::path& path) {
  rebuild(app::loadImage(path), path.filename().string(), sigma_, v0Mode_);
}

void Session::openPhantom(const std::string& name, int size) {
  rebuild(makePhantom(name, size), "phantom '" + name + "'", sigma_, v0Mode_);
}

void Session::setImage(Image2D image, std::string name) {
  rebuild(std::move(image), std::move(name), sigma_, v0Mode_);
}

void Session::setSigma(double sigma) {
  if (sigma == sigma_) return;
  validate(findSpec(gvfParamSpecs(), "sigma"), sigma);
  rebuild(image_, imageName_, sigma, v0Mode_);  // a copy: image_ stays if this throws
}

void Session::setStorage(Precision precision, std::optional<MemoryKind> memory) {
  const EulerOptions before = storage_;
  storage_.precision = precision;
  storage_.memory = memory;
  try {
    rebuild(image_, imageName_, sigma_, v0Mode_);
  } catch (...) {
    storage_ = before;  // the old solver stays, and so do its options
    throw;
  }
}

void Session::setV0Mode(V0Mode mode) {
  if (mode != v0Mode_) rebuild(image_, imageName_, sigma_, mode);
}

void Session::rebuild(Image2D image, std::string name, double sigma, V0Mode mode) {
  // Build everything new first; only swap in once nothing can throw any more.
  GvfInput input = buildGvfInput(*ctx_, image, sigma, mode);
  double bound = std::min(EulerSolver::stabilityBound(input.maxV0Squared),
                          findSpec(gvfParamSpecs(), "mu").maxValue);
  double mu = clampMu(requestedMu_, bound);
  auto solver = std::make_unique<EulerSolver>(ctx_, std::move(input), mu, storage_);
  solver_ = std::move(solver);
  image_ = std::move(image);
  imageName_ = std::move(name);
  sigma_ = sigma;
  v0Mode_ = mode;
  ++imageVersion_;
  ++fieldVersion_;
  rateWindow_.clear();
  itersPerSecond_ = 0;
  epsilonHistory_.clear();
  recordEpsilon();
  ctx_->profiler().endFrame();
}

double Session::clampMu(double mu, double bound) {
  if (mu > bound) {
    notice_ = "mu = " + formatMu(mu) + " exceeds the Euler stability bound " + formatMu(bound) +
              " for this image (max|V0|^2); clamped to " + formatMu(bound) + ".";
    return bound;
  }
  if (notice_.rfind("mu = ", 0) == 0) notice_.clear();  // an older clamp no longer applies
  return mu;
}

double Session::muBound() const {
  return std::min(solver_->stabilityBound(), findSpec(gvfParamSpecs(), "mu").maxValue);
}

void Session::setMu(double mu) {
  const ParamSpec& spec = findSpec(gvfParamSpecs(), "mu");
  if (!std::isfinite(mu) || mu < spec.minValue) validate(spec, mu);  // throws with a sentence
  requestedMu_ = mu;
  solver_->setMu(clampMu(mu, muBound()));
}

void Session::setIterationsPerFrame(int n) {
  validate(findSpec(gvfParamSpecs(), "iterations"), n);
  itersPerFrame_ = n;
}

void Session::reset() {
  solver_->reset();
  pendingSteps_ = 0;
  epsilonHistory_.clear();
  recordEpsilon();
  ctx_->profiler().endFrame();
  rateWindow_.clear();
  itersPerSecond_ = 0;
  ++fieldVersion_;
}

void Session::advanceFrame() {
  int steps = (running_ ? itersPerFrame_ : 0) + pendingSteps_;
  pendingSteps_ = 0;
  if (steps > 0) {
    solver_->step(steps);
    recordEpsilon();  // one small reduction; counted in this frame's timings
    ++fieldVersion_;
  }
  clFrameMs_ = ctx_->profiler().endFrame();
  updateRate(steps);
}

void Session::recordEpsilon() {
  epsilon_ = solver_->error();
  epsilonHistory_.push_back(epsilon_);
  while (epsilonHistory_.size() > 300) epsilonHistory_.pop_front();
}

void Session::updateRate(long stepsDone) {
  auto now = std::chrono::steady_clock::now();
  long total = (rateWindow_.empty() ? 0 : rateWindow_.back().second) + stepsDone;
  rateWindow_.emplace_back(now, total);
  while (rateWindow_.size() > 2 && now - rateWindow_.front().first > std::chrono::seconds(1))
    rateWindow_.pop_front();
  double seconds = std::chrono::duration<double>(now - rateWindow_.front().first).count();
  itersPerSecond_ =
      seconds > 0 ? static_cast<double>(total - rateWindow_.front().second) / seconds : 0;
}

}  // namespace gvflab::viewer
