#pragma once
// What the viewer is looking at: the OpenCL context (made once), the image, the GVF input built
// from it and the Euler solver, stepped once per frame. Changes that rebuild (image, σ) are
// transactional: on any error the previous image and field stay.
#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/image.hpp"

namespace gvflab::viewer {

class Session {
 public:
  // Creates the context and opens options.image, or options.phantom, or the U phantom.
  // Throws gvflab::Error (main reports startup failures).
  explicit Session(const app::Options& options);

  void openFile(const std::filesystem::path& path);  // throws InputError, DeviceError, ...
  void openPhantom(const std::string& name, int size);
  void setImage(Image2D image, std::string name);

  void setSigma(double sigma);  // rebuilds the input and the solver
  void setV0Mode(V0Mode mode);  // likewise
  // Precision and memory kind of the Euler fields; rebuilds the solver (see storageNote()).
  void setStorage(Precision precision, std::optional<MemoryKind> memory);
  // Clamps to the stability bound (and says so in notice()); never runs an unstable step.
  void setMu(double mu);
  void setIterationsPerFrame(int n);
  // > 0: each frame runs as many iterations as fit this many ms (minus the frame's other
  // work, see advanceFrame); 0: a fixed iterationsPerFrame() (deterministic).
  void setFrameBudgetMs(double ms) { frameBudgetMs_ = std::max(ms, 0.0); }
  double frameBudgetMs() const { return frameBudgetMs_; }

  // Moves everything to another OpenCL device (selector as for --device), or to a new context
  // on the same device with extra properties (GL sharing). The image, parameters and snakes
  // stay; the field starts again from V0. Transactional: on failure the old device stays.
  void switchDevice(const std::string& selector,
                    std::vector<cl_context_properties> extraProperties = {});
  // Bumped by switchDevice: engine objects made on the old context must be made again.
  long contextVersion() const { return contextVersion_; }

  // Live kernel editing (--kernel-dir): when a .cl file there changed since the last look,
  // rebuilds the kernels and the solver. Throws KernelBuildError (with the log) when the new
  // source does not build; the last good kernels keep running. Returns true when reloaded.
  bool reloadKernelsIfChanged();

  void setRunning(bool running) { running_ = running; }
  bool running() const { return running_; }
  void requestSingleStep() { pendingSteps_ += 1; }
  void reset();

  // Once per frame: steps when running (or a single step was asked for), closes the
  // profiler's frame and refreshes ε and the rates. otherWorkMs: the rest of the last frame
  // (drawing, upload), taken off the frame budget. Throws DeviceError on OpenCL failures.
  void advanceFrame(double otherWorkMs = 0);
  int lastFrameIterations() const { return lastSteps_; }
  // Parameters to save (setMu may clamp what was asked for: this is what was asked for).
  double requestedMu() const { return requestedMu_; }

  ComputeContext& context() { return *ctx_; }
  std::shared_ptr<ComputeContext> sharedContext() const { return ctx_; }
  const DeviceInfo& device() const { return ctx_->info(); }
  EulerSolver& solver() { return *solver_; }
  const Image2D& image() const { return image_; }
  const std::string& imageName() const { return imageName_; }
  // Where the image came from, for saved sessions: a file, or a phantom (name, size).
  const std::optional<std::filesystem::path>& imagePath() const { return imagePath_; }
  const std::optional<std::string>& phantomName() const { return phantom_; }
  int phantomSize() const { return phantomSize_; }
  // The --device selector that chose the current device ("" = default).
  const std::string& deviceSelector() const { return ctx_->options().deviceSelector; }
  double sigma() const { return sigma_; }
  V0Mode v0Mode() const { return v0Mode_; }
  Precision precision() const { return solver_->precision(); }
  MemoryKind memory() const { return solver_->memory(); }
  // The fallback the solver took for the requested memory kind, if any.
  const std::string& storageNote() const { return solver_->note(); }
  double mu() const { return solver_->mu(); }
  double muBound() const;  // min(stability bound, parameter range)
  int iterationsPerFrame() const { return itersPerFrame_; }
  long iterations() const { return solver_->iterations(); }
  double epsilon() const { return epsilon_; }
  // ε after each frame that stepped, oldest first (a few hundred frames).
  const std::deque<double>& epsilonHistory() const { return epsilonHistory_; }
  double iterationsPerSecond() const { return itersPerSecond_; }
  double clFrameMs() const { return clFrameMs_; }
  // Bumped whenever the image (imageVersion) or the field (fieldVersion) changes.
  long imageVersion() const { return imageVersion_; }
  long fieldVersion() const { return fieldVersion_; }
  // A warning the user should see (e.g. μ clamped to the stability bound); empty if none.
  const std::string& notice() const { return notice_; }
  void clearNotice() { notice_.clear(); }

 private:
  void rebuild(Image2D image, std::string name, double sigma, V0Mode mode);
  void rebuildOn(std::shared_ptr<ComputeContext> ctx, Image2D image, std::string name,
                 double sigma, V0Mode mode);
  std::filesystem::file_time_type newestKernelTime() const;
  double clampMu(double mu, double bound);
  void updateRate(long stepsDone);
  void recordEpsilon();

  std::shared_ptr<ComputeContext> ctx_;
  std::unique_ptr<EulerSolver> solver_;
  Image2D image_;
  std::string imageName_;
  std::optional<std::filesystem::path> imagePath_;
  std::optional<std::string> phantom_;
  int phantomSize_ = 256;
  double sigma_ = 1.0;
  V0Mode v0Mode_ = V0Mode::EdgeGradient;
  EulerOptions storage_;
  double requestedMu_ = 0.15;
  int itersPerFrame_ = 16;
  bool running_ = true;
  int pendingSteps_ = 0;
  double frameBudgetMs_ = 0;
  double lastSolverMs_ = 0;  // wall time of the last frame's steps
  std::chrono::steady_clock::time_point lastEpsilonAt_{};
  int lastSteps_ = 0;
  long contextVersion_ = 0;
  std::filesystem::file_time_type kernelTime_{};
  int framesSinceKernelLook_ = 0;
  double epsilon_ = 0;
  std::deque<double> epsilonHistory_;
  double itersPerSecond_ = 0;
  double clFrameMs_ = 0;
  long imageVersion_ = 0;
  long fieldVersion_ = 0;
  std::string notice_;
  // (time, iterations done) over the last second, for iterations per second.
  std::deque<std::pair<std::chrono::steady_clock::time_point, long>> rateWindow_;
};

}  // namespace gvflab::viewer
