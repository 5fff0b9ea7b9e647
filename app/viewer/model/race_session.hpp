#pragma once
// The race: an Euler and a multigrid solver on the session's GVF input (the image, or the
// whole volume), the same μ and precision, each given the same OpenCL time per frame
// (BudgetStepper). Records ε (eq. 9) against each one's cumulative OpenCL time (the multigrid
// paper's Fig. 6) and, on request, the capture-range area of each field (its Fig. 7) on the
// plane shown. No GL here.
#include <array>
#include <functional>
#include <memory>
#include <vector>

#include "gvflab/capture_range.hpp"
#include "gvflab/race_budget.hpp"
#include "gvflab/solver.hpp"
#include "viewer/model/session.hpp"

namespace gvflab::viewer {

struct RacePoint {
  double ms = 0;       // cumulative OpenCL time of the solver's kernels
  double epsilon = 0;  // ε after it
  long iterations = 0;
};

struct RaceLane {
  std::unique_ptr<Solver> solver;
  BudgetStepper budget;
  std::vector<RacePoint> curve;  // one point per frame that stepped, and the start
  double epsilon = 0;
  double lastFrameMs = 0;
  long captureArea = -1;  // -1: not computed
  cl::Buffer plane;       // a volume's slice of the field (float2)
};

// Rows of the next capture-range band: scaled to targetMs from the last band's rows and OpenCL
// ms (lastMs <= 0: not measured, the same rows again), at most twice as many (the next rows may
// cost more) and at least `multiple`, in multiples of it. first: the rows before any band.
int captureBandRows(int lastRows, double lastMs, double targetMs, int multiple, int first = 16);

class RaceSession {
 public:
  static constexpr int kEuler = 0, kMultigrid = 1;

  // Both solvers on session.input() with session's precision and multigrid a, b, c; μ is
  // the session's, within Euler's stability bound (both solve the same equation). Throws
  // ResourceError (naming the size and the limit) when both do not fit the device.
  explicit RaceSession(Session& session);

  // When running: each lane's share of OpenCL time, then ε. Throws DeviceError.
  void advanceFrame();
  void reset();  // both back to V0, curves cleared

  bool running = true;
  double budgetMs = 20;  // OpenCL ms per solver per frame
  // The time charged for a chunk of n iterations of lane i, given its measured OpenCL ms: by
  // default the measurement. Tests set a logical clock, so that the schedule they check does
  // not depend on how busy the machine is.
  std::function<double(int lane, int n, double openclMs)> chargeMs;

  const RaceLane& lane(int i) const { return lanes_[i]; }
  RaceLane& lane(int i) { return lanes_[i]; }  // tests step a lane by iterations
  double mu() const { return mu_; }
  long fieldVersion() const { return fieldVersion_; }
  long inputVersion() const { return inputVersion_; }  // the session's, when built

  // The field of lane i on the plane shown (float2, planeInput's size).
  const cl::Buffer& planeField(int i);
  // Capture-range areas of both lanes on the plane shown, in bands over frames, so that no
  // frame carries a whole map (206 ms for both lanes at 2048² on the H200): beginCapture()
  // starts a refresh on both lanes' fields as they are now; each continueCapture() queues about
  // targetMs of OpenCL time (captureBandRows) and returns true when both areas are in (each lane's
  // area changes when its map is done).
  void beginCapture(const CaptureParams& params);
  bool continueCapture(double targetMs);
  bool capturing() const { return captureLane_ >= 0; }

 private:
  void recordPoint(RaceLane& lane);
  Session& session_;
  std::array<RaceLane, 2> lanes_;
  double mu_ = 0;
  long fieldVersion_ = 0;
  long inputVersion_ = -1;
  std::array<long, 2> cutVersion_ = {-1, -1};
  std::array<long, 2> cutImageVersion_ = {-1, -1};
  void captureOnPlane();
  std::array<std::unique_ptr<CaptureRange>, 2> capture_;  // one a lane: both copy at begin
  long captureImageVersion_ = -1;
  CaptureParams captureParams_;
  int captureLane_ = -1;  // the lane whose map is in progress; -1: none
  int bandRows_ = 0;      // the last band's rows
};

}  // namespace gvflab::viewer
