#include "viewer/model/session.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/params.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/profiler.hpp"
#include "io/image_loader.hpp"
#include "io/volume_loader.hpp"
#include "viewer/model/frame_stats.hpp"

namespace gvflab::viewer {
Session::Session(const SessionStartup& startup)
    : choice_(startup.solver),
      sigma_(startup.gvf.sigma),
      sigmaFromNoise_(startup.gvf.sigmaFromNoise),
      v0Mode_(startup.gvf.v0Mode),
      spacing_(startup.gvf.spacing),
      load_(startup.load),
      requestedMu_(startup.gvf.mu),
      itersPerFrame_(std::max(startup.iterationsPerFrame, 0)),
      fieldWatch_(startup.targetError),
      fieldIterations_(startup.fieldIterations) {
  if (startup.fixedIterationsPerFrame) {
    itersPerFrame_ = std::clamp(*startup.fixedIterationsPerFrame, 0, 4096);
    mgItersPerFrame_ = std::clamp(*startup.fixedIterationsPerFrame, 0, 64);
  }
  ctx_ = ComputeContext::create(startup.context);
  if (startup.stepsPerFrame > 0) {
    itersPerFrame_ = startup.stepsPerFrame;  // deterministic: no budget
  } else if (startup.frameBudgetMs > 0) {
    frameBudgetMs_ = startup.frameBudgetMs;
  }
  kernelTime_ = newestKernelTime();
  if (startup.image) {
    // A window that says why beats a window that never opens: the phantom stands in.
    try {
      openFile(*startup.image);
      return;
    } catch (const DeviceError&) {
      throw;
    } catch (const Error& e) {
      startupError_ = "Opening '" + *startup.image + "': " + e.what();
    }
  }
  openPhantom(startup.phantom, startup.phantomSize);
}

void Session::openFile(const std::filesystem::path& path) {
  const std::string name = path.filename().string();
  if (app::isVolumeFile(path))
    setVolume(app::loadVolume(path), name);
  else
    setImage(app::loadImage(path), name);
  imagePath_ = std::filesystem::absolute(path);
}

void Session::openPhantom(const std::string& name, int size) {
  setImage(makePhantom(name, size), "phantom '" + name + "'");
  phantom_ = name;
  phantomSize_ = size;
}

void Session::setImage(Image2D image, std::string name) {
  rebuild({std::move(image), nullptr, std::move(name)}, requestedSigma(), v0Mode_);
  imagePath_.reset();
  phantom_.reset();
}

void Session::setVolume(Volume volume, std::string name) {
  rebuild({{}, std::make_shared<const Volume>(std::move(volume)), std::move(name)},
          requestedSigma(), v0Mode_);
  imagePath_.reset();
  phantom_.reset();
}

Session::Source Session::currentSource() const {
  return {volumeData_ ? Image2D{} : image_, volumeData_, imageName_};  // copies: this may throw
}

void Session::setSigma(double sigma) {
  validate(findSpec(gvfParamSpecs(), "sigma"), sigma);
  if (sigma == sigma_) {  // the σ in use, now the user's: nothing to rebuild
    GvfParams given;
    given.sigma = sigma;
    sigmaFromNoise_ = false;
    sigmaChoice_ = chooseSigma(image_, given);
    return;
  }
  rebuild(currentSource(), sigma, v0Mode_);
}

void Session::setSigmaFromNoise() {
  if (!sigmaFromNoise_) rebuild(currentSource(), std::nullopt, v0Mode_);
}

void Session::setV0Mode(V0Mode mode) {
  if (mode != v0Mode_) rebuild(currentSource(), requestedSigma(), mode);
}

void Session::setSolverKind(SolverKind kind) {
  if (kind == choice_.kind) return;
  SolverConfig c = choice_;
  c.kind = kind;
  rebuildSolver(c);
}

void Session::setStorage(Precision precision, std::optional<MemoryKind> memory) {
  SolverConfig c = choice_;
  c.precision = precision;
  c.memory = memory;
  rebuildSolver(c);
}

void Session::setSolverParams(const std::vector<double>& values) {
  solver_->setOwnParamValues(values);  // throws on bad values, before anything changed
  choice_.keepOwnParamValues(values);
}

void Session::rebuild(Source source, std::optional<double> sigma, V0Mode mode,
                      std::shared_ptr<ComputeContext> ctx) {
  if (!ctx) ctx = ctx_;
  // Build everything new first; only swap in once nothing can throw any more. The size check,
  // the start's snakes and surfaces counted beside the field as the headless run counts them,
  // comes before any allocation, so a volume too large is refused with the size and limit.
  const Volume* v = source.volume.get();
  const FieldShape shape = v ? FieldShape{v->width, v->height, v->depth}
                             : FieldShape{source.image.width, source.image.height, 1};
  checkRunFits(*ctx, shape, choice_,
               runNeeds(load_, shape,
                        spacing_.value_or(v ? v->geometry.spacing : std::array<double, 3>{1, 1, 1}),
                        mode != V0Mode::EdgeGradient));
  GvfParams params;
  params.mu = requestedMu_;
  params.sigma = sigma.value_or(sigma_);
  params.sigmaFromNoise = !sigma;
  params.v0Mode = mode;
  params.spacing = spacing_;
  GvfPipeline built = source.volume
                          ? buildGvfPipeline(ctx, *source.volume, params, choice_, MuRule::ClampAll)
                          : buildGvfPipeline(ctx, source.image, params, choice_, MuRule::ClampAll);
  std::unique_ptr<VolumeSlices> slices;
  if (source.volume &&
      !built.input.v0())  // the slices read f and V0 whole: a split made them per slab
    built.input = buildGvfInput(*ctx, *source.volume, built.sigma.sigma, mode, spacing_);
  if (source.volume) {
    // The same volume again (σ, V0 mode): stay on the slice the user chose.
    const bool same = volume_ && volumeData_ == source.volume;
    slices = std::make_unique<VolumeSlices>(ctx, source.volume, built.input,
                                            same ? volume_->axis() : SliceAxis::Axial,
                                            same ? volume_->index() : -1);
  }
  solver_ = std::move(built.solver);
  if (ctx != ctx_) {
    ctx_ = std::move(ctx);
    ++contextVersion_;
  }
  input_ = std::move(built.input);
  volume_ = std::move(slices);
  volumeData_ = std::move(source.volume);
  image_ = std::move(source.image);
  imageName_ = std::move(source.name);
  sigma_ = built.sigma.sigma;
  sigmaFromNoise_ = !sigma;
  sigmaChoice_ = std::move(built.sigma);
  v0Mode_ = mode;
  mu_ = built.mu.mu;
  noteMu(built.mu);
  ++imageVersion_;
  ++inputVersion_;
  restart();
}

void Session::rebuildSolver(const SolverConfig& choice) {
  const MuCheck mu = checkMu(choice.kind, input_, requestedMu_, MuRule::ClampAll);
  // Checks the fit before allocating; on failure the old solver and its options stay.
  std::unique_ptr<Solver> solver = makeSolver(ctx_, input_, mu.mu, choice);
  solver_ = std::move(solver);
  choice_ = choice;
  mu_ = mu.mu;
  noteMu(mu);
  restart();
}

void Session::restart() {
  ++fieldVersion_;
  ++solveVersion_;
  fieldWatch_.reset();
  nextEpsilonAt_ = 0;
  pendingSteps_ = 0;
  rateWindow_.clear();
  itersPerSecond_ = 0;
  convergence_.clear();
  recordEpsilon();
  ctx_->profiler().endFrame();
}

void Session::noteMu(const MuCheck& mu) {
  char bound[32];
  std::snprintf(bound, sizeof bound, "%.4f", mu.bound);
  if (mu.clamped)
    notice_ = {Notice::Kind::MuClamped, mu.refusal + " Clamped to " + bound + "."};
  else if (notice_.kind == Notice::Kind::MuClamped)
    notice_ = {};  // an older clamp no longer applies
}

MemoryKind Session::memory() const {
  if (auto m = solver_->memoryKind()) return *m;
  return choice_.memory.value_or(ctx_->info().isGpu ? MemoryKind::Local : MemoryKind::Buffer);
}

void Session::setMu(double mu) {
  // The engine checks μ: beyond Euler's stability bound it is clamped (and said so), never
  // run; anything else out of range is refused before anything changes.
  const MuCheck checked = checkMu(choice_.kind, input_, mu, MuRule::ClampBound);
  solver_->setMu(checked.mu);
  requestedMu_ = mu;
  if (checked.mu != mu_) {  // another field to solve for
    ++solveVersion_;
    fieldWatch_.reset();
    nextEpsilonAt_ = 0;
  }
  mu_ = checked.mu;
  noteMu(checked);
}

void Session::setTargetError(double target) {
  if (!(std::isfinite(target) && target > 0))
    throw ParameterError("the target error must be a positive number.");
  fieldWatch_ = ConvergenceWatch(target);
  fieldIterations_.reset();  // a target asked for replaces a fixed count
  recordEpsilon();
}

int Session::iterationsPerFrame() const {
  return choice_.kind == SolverKind::Euler ? itersPerFrame_ : mgItersPerFrame_;
}

void Session::setIterationsPerFrame(int n) {
  validate(findSpec(gvfParamSpecs(), "iterations"), n);
  (choice_.kind == SolverKind::Euler ? itersPerFrame_ : mgItersPerFrame_) = n;
}

const cl::Buffer& Session::planeField() {
  return volume_ ? volume_->field(*solver_, fieldVersion_) : solver_->field();
}

void Session::setSlice(SliceAxis axis, int index) {
  if (!volume_) throw ParameterError("Slices apply to volumes; the open file is an image.");
  if (axis == volume_->axis() && index == volume_->index()) return;
  volume_->setSlice(axis, index);
  ++imageVersion_;
  ++fieldVersion_;
}

void Session::reset() {
  solver_->reset();
  restart();
}

void Session::advanceFrame(double elapsedMs) {
  int& perFrame = choice_.kind == SolverKind::Euler ? itersPerFrame_ : mgItersPerFrame_;
  const bool chunked = running_ && frameBudgetMs_ > 0;
  int steps = (running_ && !chunked ? perFrame : 0) + pendingSteps_;
  const bool single = pendingSteps_ > 0;
  pendingSteps_ = 0;
  auto start = std::chrono::steady_clock::now();
  if (chunked) {
    steps = stepBudgeted(elapsedMs, steps);
    perFrame = std::max(steps, 1);  // what the panel shows
  } else if (steps > 0) {
    solver_->step(steps);
  }
  if (steps > 0) {
    // ε (a residual pass and a reduction that waits for the steps) four times a second, and
    // after each single step. Every frame it would cost as much as many iterations on a CPU
    // device, and at ten a second the frames that carry it set the p95 frame time (measured:
    // 768 against 1467 GVF iterations/s at the same p95, docs/BENCHMARKS.md "Viewer").
    // While the snakes wait for the field, ε goes by iterations instead (after 1/16 more, as a
    // headless run to a target checks it), so the frame they start on does not depend on the
    // clock: recordings with fixed steps per frame stay deterministic.
    const bool converging = !fieldWatch_.done();
    const long done = solver_->iterations();
    if (single || (converging ? done >= nextEpsilonAt_
                              : start - lastEpsilonAt_ >= std::chrono::milliseconds(250))) {
      recordEpsilon();
      lastEpsilonAt_ = start;
      nextEpsilonAt_ = done + std::max<long>(done / 16, 1);
    }
    ++fieldVersion_;
  }
  clFrameMs_ = ctx_->profiler().endFrame();
  lastSteps_ = steps;
  lastStepMs_ = msSince(start);
  updateRate(steps);
}

int Session::stepBudgeted(double elapsedMs, int extraSteps) {
  // Sub-chunks, each followed by a marker; one more is queued while the last one runs, so the
  // device does not wait for the host between them. A sub-chunk counts from when it could start
  // (the end of the one before, or its queueing) to its end.
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  struct InFlight {
    int n;
    double predictedMs;
    Clock::time_point queued;
    cl::Event done;
  };
  std::deque<InFlight> inFlight;
  const double window = budget_.windowMs(frameBudgetMs_, elapsedMs);
  int done = 0;
  Clock::time_point lastEnd = start;
  try {
    for (;;) {
      double committed = msSince(start);
      for (const InFlight& c : inFlight) committed += c.predictedMs;
      int n = inFlight.size() < 2 ? budget_.nextChunk(window, committed, done) : 0;
      if (n > 0) {
        if (done == 0) n += extraSteps;  // a single step asked for rides along
        const auto queued = Clock::now();
        solver_->step(n);
        cl::Event marker;
        ctx_->queue().enqueueMarkerWithWaitList(nullptr, &marker);
        ctx_->queue().flush();
        inFlight.push_back({n, budget_.predictedMs(n), queued, marker});
        done += n;
        if (inFlight.size() < 2) continue;
      }
      if (inFlight.empty()) break;
      InFlight& first = inFlight.front();
      first.done.wait();
      const auto end = Clock::now();
      const auto from = std::max(first.queued, lastEnd);
      budget_.measured(first.n, std::chrono::duration<double, std::milli>(end - from).count());
      lastEnd = end;
      inFlight.pop_front();
    }
  } catch (const cl::Error& e) {
    rethrowClError(e, "waiting for the GVF iterations");
  }
  return done;
}

void Session::switchDevice(const std::string& selector,
                           std::vector<cl_context_properties> extraProperties) {
  ContextOptions co = ctx_->options();
  co.deviceSelector = selector;
  co.extraProperties = std::move(extraProperties);
  auto ctx = ComputeContext::create(co);  // throws: nothing changed yet
  rebuild(currentSource(), requestedSigma(), v0Mode_, std::move(ctx));
}

std::filesystem::file_time_type Session::newestKernelTime() const {
  // The clock's minimum, not a default-constructed time: libstdc++'s file clock has its epoch
  // in 2174, so a default start is newer than every real file and no change is ever seen.
  auto newest = std::filesystem::file_time_type::min();
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
  kernelTime_ = t;                              // a failed build is reported once, not every look
  if (!ctx_->kernels().reload()) return false;  // throws KernelBuildError; old programs stay
  // The solver's kernels come from the old programs: make it again with the new ones.
  rebuild(currentSource(), requestedSigma(), v0Mode_);
  return true;
}

void Session::recordEpsilon() {
  epsilon_ = solver_->error();
  fieldWatch_.add(solver_->iterations(), epsilon_);
  const double it = static_cast<double>(solver_->iterations());
  if (convergence_.empty() || convergence_.back()[0] != it)  // else no step this frame
    appendThinned(convergence_, {it, epsilon_});
}

void appendThinned(std::vector<std::array<double, 2>>& series, std::array<double, 2> p) {
  series.push_back(p);
  if (series.size() < Session::kConvergencePoints) return;
  std::size_t kept = 0;
  for (std::size_t i = 0; i < series.size(); i += 2) series[kept++] = series[i];
  series.resize(kept);
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
