#include "viewer/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "common/image_loader.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/kernel_library.hpp"
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
  if (options.stepsPerFrame > 0) {
    itersPerFrame_ = options.stepsPerFrame;  // deterministic: no budget
  } else if (options.frameBudgetMs > 0) {
    frameBudgetMs_ = options.frameBudgetMs;
  }
  kernelTime_ = newestKernelTime();
  if (options.image) {
    std::filesystem::path path(*options.image);
    rebuild(app::loadImage(path), path.filename().string(), sigma_, v0Mode_);
    imagePath_ = std::filesystem::absolute(path);
  } else {
    std::string name = options.phantom.value_or("u");
    rebuild(makePhantom(name, options.phantomSize), "phantom '" + name + "'", sigma_, v0Mode_);
    phantom_ = name;
    phantomSize_ = options.phantomSize;
  }
}

void Session::openFile(const std::filesystem::path& path) {
  rebuild(app::loadImage(path), path.filename().string(), sigma_, v0Mode_);
  imagePath_ = std::filesystem::absolute(path);
  phantom_.reset();
}

void Session::openPhantom(const std::string& name, int size) {
  rebuild(makePhantom(name, size), "phantom '" + name + "'", sigma_, v0Mode_);
  imagePath_.reset();
  phantom_ = name;
  phantomSize_ = size;
}

void Session::setImage(Image2D image, std::string name) {
  rebuild(std::move(image), std::move(name), sigma_, v0Mode_);
  imagePath_.reset();
  phantom_.reset();
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
  rebuildOn(ctx_, std::move(image), std::move(name), sigma, mode);
}

void Session::rebuildOn(std::shared_ptr<ComputeContext> ctx, Image2D image, std::string name,
                        double sigma, V0Mode mode) {
  // Build everything new first; only swap in once nothing can throw any more.
  GvfInput input = buildGvfInput(*ctx, image, sigma, mode);
  double bound = std::min(EulerSolver::stabilityBound(input.maxV0Squared),
                          findSpec(gvfParamSpecs(), "mu").maxValue);
  double mu = clampMu(requestedMu_, bound);
  auto solver = std::make_unique<EulerSolver>(ctx, std::move(input), mu, storage_);
  solver_ = std::move(solver);
  if (ctx != ctx_) {
    ctx_ = std::move(ctx);
    ++contextVersion_;
  }
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

void Session::advanceFrame(double otherWorkMs) {
  if (running_ && frameBudgetMs_ > 0 && lastSolverMs_ > 0) {
    // Feedback rather than a cost model: a frame's solver time has a fixed part (launches,
    // the ε reduction, waiting) that a per-iteration estimate would mistake for slowness.
    double target = std::max(frameBudgetMs_ - otherWorkMs, 0.25 * frameBudgetMs_);
    double ratio = std::clamp(target / lastSolverMs_, 0.7, 1.3);
    itersPerFrame_ = std::clamp(static_cast<int>(std::lround(itersPerFrame_ * ratio)) +
                                    (ratio > 1 ? 1 : 0),
                                1, 4096);
  }
  int steps = (running_ ? itersPerFrame_ : 0) + pendingSteps_;
  const bool single = pendingSteps_ > 0;
  pendingSteps_ = 0;
  auto start = std::chrono::steady_clock::now();
  if (steps > 0) {
    solver_->step(steps);
    // ε (one reduction that waits for the steps) about ten times a second, and after each
    // single step: every frame it would cost as much as many iterations on a CPU device.
    if (single || start - lastEpsilonAt_ >= std::chrono::milliseconds(100)) {
      recordEpsilon();
      lastEpsilonAt_ = start;
    }
    ++fieldVersion_;
  }
  clFrameMs_ = ctx_->profiler().endFrame();
  if (steps > 0)
    lastSolverMs_ =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  lastSteps_ = steps;
  updateRate(steps);
}

void Session::switchDevice(const std::string& selector,
                           std::vector<cl_context_properties> extraProperties) {
  ContextOptions co = ctx_->options();
  co.deviceSelector = selector;
  co.extraProperties = std::move(extraProperties);
  auto ctx = ComputeContext::create(co);  // throws: nothing changed yet
  rebuildOn(std::move(ctx), image_, imageName_, sigma_, v0Mode_);
  lastSolverMs_ = 0;
}

std::filesystem::file_time_type Session::newestKernelTime() const {
  std::filesystem::file_time_type newest{};
  const auto& dir = ctx_->kernels().directory();
  if (!dir) return newest;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(*dir, ec)) {
    auto t = entry.last_write_time(ec);
    if (!ec && t > newest) newest = t;
  }
  return newest;
}

bool Session::reloadKernelsIfChanged() {
  if (!ctx_->kernels().directory() || ++framesSinceKernelLook_ < 15) return false;
  framesSinceKernelLook_ = 0;
  auto t = newestKernelTime();
  if (t == kernelTime_) return false;
  kernelTime_ = t;  // a failed build is reported once, not every look
  if (!ctx_->kernels().reload()) return false;  // throws KernelBuildError; old programs stay
  // The solver's kernels come from the old programs: make it again with the new ones.
  rebuild(image_, imageName_, sigma_, v0Mode_);
  return true;
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
