#include "viewer/model/race_session.hpp"

#include <algorithm>

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

void RaceSession::computeCapture(const CaptureParams& params) {
  if (!capture_ || captureImageVersion_ != session_.imageVersion()) {
    capture_ = std::make_unique<CaptureRange>(session_.sharedContext(), session_.planeInput());
    captureImageVersion_ = session_.imageVersion();
  }
  for (int i = 0; i < 2; ++i) lanes_[i].captureArea = capture_->compute(planeField(i), params);
}

}  // namespace gvflab::viewer
