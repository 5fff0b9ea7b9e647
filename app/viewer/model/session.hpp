#pragma once
// What the viewer is looking at: the OpenCL context (made once), the image or volume, the GVF
// input built from it and the chosen solver (Euler or multigrid), stepped once per frame.
// A volume is shown one slice at a time (VolumeSlices). Changes that rebuild (image, σ,
// solver) are transactional: on any error the previous image and field stay.
#include <array>
#include <chrono>
#include <deque>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/image.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "viewer/model/frame_budget.hpp"
#include "viewer/model/startup_config.hpp"
#include "viewer/model/volume_slices.hpp"

namespace gvflab::viewer {

// A warning the user should see, by kind: the panel shows the text, code asks the kind.
struct Notice {
  enum class Kind {
    None,
    MuClamped,  // μ beyond Euler's stability bound, clamped to it
  };
  Kind kind = Kind::None;
  std::string text;
  bool empty() const { return kind == Kind::None; }
};

// Appends p to a plot's series, thinned to every other point when it reaches
// Session::kConvergencePoints, so that it always spans the whole run.
void appendThinned(std::vector<std::array<double, 2>>& series, std::array<double, 2> p);

class Session {
 public:
  // Creates the context and opens startup.image (an image or a volume), or startup.phantom. A file
  // that cannot be opened (unreadable, too large for the device) leaves the U phantom open and its
  // sentence in startupError(). Throws gvflab::Error when there is no OpenCL device (main reports
  // startup failures).
  explicit Session(const SessionStartup& startup);

  // Images and volumes (.nii, .nii.gz, 3D .mha/.mhd). Throws InputError, ResourceError, ...
  void openFile(const std::filesystem::path& path);
  void openPhantom(const std::string& name, int size);
  void setImage(Image2D image, std::string name);
  void setVolume(Volume volume, std::string name);

  void setSigma(double sigma);  // rebuilds the input and the solver; σ is then the user's
  void setSigmaFromNoise();     // σ from the image's noise (noise_sigma.hpp), now and on opens
  void setV0Mode(V0Mode mode);  // likewise
  // Euler or multigrid; rebuilds the solver on the same input (the iterations restart).
  void setSolverKind(SolverKind kind);
  // Precision (both solvers) and memory kind (Euler); rebuilds the solver (see storageNote()).
  void setStorage(Precision precision, std::optional<MemoryKind> memory);
  // The solver's own settings (Solver::ownParams: multigrid's a, b, c), applied to the
  // running solver (its field stays) and kept for the next one. ParameterError: nothing changes.
  void setSolverParams(const std::vector<double>& values);
  // Euler: clamps to the stability bound (and says so in notice()); never runs an unstable
  // step. Multigrid has no bound.
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
  // profiler's frame and refreshes ε and the rates. With a frame budget, the steps go in
  // sub-chunks that stop where the frame would pass it (FrameBudget): elapsedMs is the frame so
  // far; noteFrameRest() gives the work after the solver. Throws DeviceError on OpenCL
  // failures.
  void advanceFrame(double elapsedMs = 0);
  void noteFrameRest(double ms) { budget_.afterSolver(ms); }
  int lastFrameIterations() const { return lastSteps_; }
  double lastFrameStepMs() const { return lastStepMs_; }  // wall time of its steps and ε
  // Parameters to save (setMu may clamp what was asked for: this is what was asked for).
  double requestedMu() const { return requestedMu_; }

  ComputeContext& context() { return *ctx_; }
  std::shared_ptr<ComputeContext> sharedContext() const { return ctx_; }
  const DeviceInfo& device() const { return ctx_->info(); }
  Solver& solver() { return *solver_; }
  const SolverConfig& solverChoice() const { return choice_; }
  SolverKind solverKind() const { return choice_.kind; }
  // The full GVF input (3D for a volume).
  const GvfInput& input() const { return input_; }

  // The plane on screen: the image, or the current slice of a volume (its image, its 2D
  // edge map and V0, and the float2 in-plane field).
  const Image2D& image() const { return volume_ ? volume_->image() : image_; }
  const GvfInput& planeInput() const { return volume_ ? volume_->planeInput() : input_; }
  const cl::Buffer& planeField();
  bool isVolume() const { return volume_ != nullptr; }
  VolumeSlices* volumeSlices() { return volume_.get(); }
  // Moves to another slice (bumps imageVersion and fieldVersion); throws ParameterError.
  void setSlice(SliceAxis axis, int index);

  const std::string& imageName() const { return imageName_; }
  // Where the image came from, for saved sessions: a file, or a phantom (name, size).
  const std::optional<std::filesystem::path>& imagePath() const { return imagePath_; }
  const std::optional<std::string>& phantomName() const { return phantom_; }
  int phantomSize() const { return phantomSize_; }
  // The --device selector that chose the current device ("" = default).
  const std::string& deviceSelector() const { return ctx_->options().deviceSelector; }
  double sigma() const { return sigma_; }
  bool sigmaFromNoise() const { return sigmaFromNoise_; }
  const SigmaChoice& sigmaChoice() const { return sigmaChoice_; }  // σ in use, and why
  V0Mode v0Mode() const { return v0Mode_; }
  Precision precision() const { return choice_.precision; }
  // The solver's memory kind in use (Solver::memoryKind); for one without a choice (multigrid)
  // the one an Euler solver would be asked for.
  MemoryKind memory() const;
  // The fallback the solver took for the requested storage, if any (Solver::storageNote).
  std::string storageNote() const { return solver_->storageNote(); }
  double mu() const { return mu_; }
  double muBound() const { return solver_->muBound(); }  // the engine's (gvf_pipeline.hpp)
  // Per solver kind: an Euler iteration is cheap, a multigrid one is a whole FMG cycle.
  int iterationsPerFrame() const;
  long iterations() const { return solver_->iterations(); }
  double epsilon() const { return epsilon_; }
  // (iterations, ε) since the last restart, for the plot (appendThinned).
  static constexpr std::size_t kConvergencePoints = 1024;
  const std::vector<std::array<double, 2>>& convergence() const { return convergence_; }
  double iterationsPerSecond() const { return itersPerSecond_; }
  double clFrameMs() const { return clFrameMs_; }
  // Whether the field is done for snakes to judge (gvflab/field_solve.hpp): ε reached the
  // target (default 1e-6, eq. 9) or settled above it. Starts over with every new field, solver
  // or μ. The snakes wait for it unless SnakeSession::setWaitForField(false).
  bool fieldReady() const {
    return fieldIterations_ ? solver_->iterations() >= *fieldIterations_ : fieldWatch_.done();
  }
  // The fixed count the snakes wait for (none: they wait for fieldWatch()'s target).
  std::optional<long> fieldIterations() const { return fieldIterations_; }
  const ConvergenceWatch& fieldWatch() const { return fieldWatch_; }
  void setTargetError(double target);  // ParameterError unless a positive number
  // Bumped whenever the image (imageVersion) or the field (fieldVersion) changes.
  long imageVersion() const { return imageVersion_; }
  long fieldVersion() const { return fieldVersion_; }
  // Bumped whenever the GVF input (image, volume, σ, V0 mode) is rebuilt.
  long inputVersion() const { return inputVersion_; }
  // Bumped when the field is solved anew (a new input, solver or μ, a reset): snakes judged on
  // the old field start again from their starts (SnakeSession::followImage).
  long solveVersion() const { return solveVersion_; }
  // A warning the user should see (e.g. μ clamped to the stability bound); empty if none.
  const Notice& notice() const { return notice_; }
  void clearNotice() { notice_ = {}; }
  // Why the file given at start-up was not opened (shown in the panel); empty if it was.
  const std::string& startupError() const { return startupError_; }

 private:
  struct Source {  // what the input is built from: an image, or a volume
    Image2D image;
    std::shared_ptr<const Volume> volume;
    std::string name;
  };
  Source currentSource() const;
  // sigma: nullopt chooses it from the image's noise. ctx: another context (null: this one).
  void rebuild(Source source, std::optional<double> sigma, V0Mode mode,
               std::shared_ptr<ComputeContext> ctx = nullptr);
  std::optional<double> requestedSigma() const {
    return sigmaFromNoise_ ? std::nullopt : std::optional<double>(sigma_);
  }
  void rebuildSolver(const SolverConfig& choice);
  void restart();  // after a new solver: fresh history and rates
  std::filesystem::file_time_type newestKernelTime() const;
  void noteMu(const MuCheck& mu);  // a notice for a clamped μ, or clears an older one
  void updateRate(long stepsDone);
  void recordEpsilon();

  std::shared_ptr<ComputeContext> ctx_;
  SolverConfig choice_;
  GvfInput input_;
  std::unique_ptr<Solver> solver_;
  std::unique_ptr<VolumeSlices> volume_;
  Image2D image_;  // 2D images (empty for a volume)
  std::shared_ptr<const Volume> volumeData_;
  std::string imageName_;
  std::optional<std::filesystem::path> imagePath_;
  std::optional<std::string> phantom_;
  int phantomSize_ = 256;
  double sigma_ = 1.0;
  bool sigmaFromNoise_ = false;
  SigmaChoice sigmaChoice_;
  V0Mode v0Mode_ = V0Mode::EdgeGradient;
  std::optional<std::array<double, 3>> spacing_;  // --spacing: instead of the input's own
  RunLoad load_;                                  // counted beside the field (checkRunFits)
  double requestedMu_ = 0.15;
  double mu_ = 0.15;
  int itersPerFrame_ = 16;   // Euler
  int mgItersPerFrame_ = 1;  // multigrid
  bool running_ = true;
  int pendingSteps_ = 0;
  double frameBudgetMs_ = 0;
  FrameBudget budget_;
  int stepBudgeted(double elapsedMs, int extraSteps);
  std::chrono::steady_clock::time_point lastEpsilonAt_{};
  int lastSteps_ = 0;
  double lastStepMs_ = 0;
  long contextVersion_ = 0;
  std::filesystem::file_time_type kernelTime_{};
  int framesSinceKernelLook_ = 0;
  double epsilon_ = 0;
  ConvergenceWatch fieldWatch_;
  std::optional<long> fieldIterations_;
  long nextEpsilonAt_ = 0;  // while converging: ε after this many iterations
  std::vector<std::array<double, 2>> convergence_;
  double itersPerSecond_ = 0;
  double clFrameMs_ = 0;
  long imageVersion_ = 0;
  long fieldVersion_ = 0;
  long inputVersion_ = 0;
  long solveVersion_ = 0;
  Notice notice_;
  std::string startupError_;
  // (time, iterations done) over the last second, for iterations per second.
  std::deque<std::pair<std::chrono::steady_clock::time_point, long>> rateWindow_;
};

}  // namespace gvflab::viewer
