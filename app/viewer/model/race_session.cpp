#include "viewer/model/race_session.hpp"

#include <algorithm>
#include <cmath>

#include "gvflab/device.hpp"
#include "gvflab/profiler.hpp"

namespace gvflab::viewer {

RaceSession::RaceSession(Session& session) : session_(session) {
  const GvfInput& input = session.input();
  SolverConfig choice = session.solverChoice();
  checkFits(session.context(), {input.width, input.height, input.depth}, choice, true);
  // One μ both lanes run: the session's, within Euler's range (the stricter; mu_rule.hpp).
  mu_ = checkMu(SolverKind::Euler, input, session.mu(), MuRule::ClampAll).mu;
  auto ctx = session.sharedContext();
  choice.kind = SolverKind::Euler;
  lanes_[kEuler].solver = makeSolver(ctx, input, mu_, choice);
  choice.kind = SolverKind::Multigrid;
  lanes_[kMultigrid].solver = makeSolver(ctx, input, mu_, choice);
  inputVersion_ = session.inputVersion();
  for (RaceLane& lane : lanes_) recordPoint(lane);
  ctx->profiler().endFrame();
}

void RaceSession::recordPoint(RaceLane& lane) {
  lane.epsilon = lane.solver->error();
  lane.curve.push_back({lane.budget.totalMs(), lane.epsilon, lane.solver->iterations()});
}

void RaceSession::advanceFrame() {
  if (!running) return;
  Profiler& profiler = session_.context().profiler();
  profiler.endFrame();  // what ran before (ε, display) is not the race's
  bool stepped = false;
  for (int i = 0; i < static_cast<int>(lanes_.size()); ++i) {
    RaceLane& lane = lanes_[i];
    const std::string prefix = lane.solver->kernelPrefix();
    BudgetStepper::Frame f = lane.budget.run(budgetMs, [&](int n) {
      const double before = profiler.totalMs(prefix);
      lane.solver->step(n);
      profiler.endFrame();  // waits for the chunk's kernels
      const double ms = profiler.totalMs(prefix) - before;
      return chargeMs ? chargeMs(i, n, ms) : ms;
    });
    lane.lastFrameMs = f.ms;
    if (f.iterations > 0) {
      recordPoint(lane);
      stepped = true;
    }
  }
  if (stepped) ++fieldVersion_;
  profiler.endFrame();
}

void RaceSession::reset() {
  for (RaceLane& lane : lanes_) {
    lane.solver->reset();
    lane.budget.reset();
    lane.curve.clear();
    lane.captureArea = -1;
    lane.lastFrameMs = 0;
    recordPoint(lane);
  }
  ++fieldVersion_;
  session_.context().profiler().endFrame();
}

const cl::Buffer& RaceSession::planeField(int i) {
  RaceLane& lane = lanes_[i];
  VolumeSlices* slices = session_.volumeSlices();
  if (!slices) return lane.solver->field();
  if (cutVersion_[i] != fieldVersion_ || cutImageVersion_[i] != session_.imageVersion()) {
    const GvfInput& plane = session_.planeInput();
    const std::size_t bytes =
        static_cast<std::size_t>(plane.width) * plane.height * 2 * sizeof(float);
    if (lane.plane() == nullptr || lane.plane.getInfo<CL_MEM_SIZE>() != bytes)
      lane.plane = cl::Buffer(session_.context().context(), CL_MEM_READ_WRITE, bytes);
    slices->cutField(*lane.solver, lane.plane);
    cutVersion_[i] = fieldVersion_;
    cutImageVersion_[i] = session_.imageVersion();
  }
  return lane.plane;
}

int captureBandRows(int lastRows, double lastMs, double targetMs, int multiple, int first) {
  multiple = std::max(multiple, 1);
  double rows = lastRows <= 0 ? first : lastRows;
  if (lastRows > 0 && lastMs > 0) rows = std::min(rows * targetMs / lastMs, 2.0 * lastRows);
  const long whole = std::lround(std::ceil(std::max(rows, 1.0) / multiple));
  return static_cast<int>(std::clamp<long>(whole, 1, 1L << 20) * multiple);
}

void RaceSession::captureOnPlane() {
  if (!capture_[0] || captureImageVersion_ != session_.imageVersion()) {
    for (auto& c : capture_)
      c = std::make_unique<CaptureRange>(session_.sharedContext(), session_.planeInput());
    captureImageVersion_ = session_.imageVersion();
    captureLane_ = -1;  // a map in progress was for the old plane
  }
}

void RaceSession::beginCapture(const CaptureParams& params) {
  captureOnPlane();
  for (int i = 0; i < 2; ++i) capture_[i]->begin(planeField(i), params);  // both fields now
  captureLane_ = kEuler;
  bandRows_ = 0;
}

bool RaceSession::continueCapture(double targetMs) {
  if (captureLane_ < 0) return true;
  CaptureRange& capture = *capture_[captureLane_];
  double lastMs = 0;
  const cl::Event& band = capture.bandEvent();
  if (bandRows_ > 0 && band() && session_.context().profiler().enabled()) {
    try {  // queued last frame, before the race's steps, which were waited for
      lastMs = static_cast<double>(band.getProfilingInfo<CL_PROFILING_COMMAND_END>() -
                                   band.getProfilingInfo<CL_PROFILING_COMMAND_START>()) *
               1e-6;
    } catch (const cl::Error&) {
      lastMs = 0;  // no profiling on this queue: bands of the same rows
    }
  }
  bandRows_ = captureBandRows(bandRows_, lastMs, targetMs, capture.rowMultiple());
  try {
    capture.computeRows(bandRows_);
  } catch (...) {
    captureLane_ = -1;
    throw;
  }
  if (capture.rowsLeft() > 0) return false;
  lanes_[captureLane_].captureArea = capture.finish();
  bandRows_ = 0;
  captureLane_ = captureLane_ == kEuler ? kMultigrid : -1;
  return captureLane_ < 0;
}

}  // namespace gvflab::viewer
