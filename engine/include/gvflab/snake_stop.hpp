#pragma once
// The one stop tracker of 2D contours (ParametricSnake) and 3D surfaces (SurfaceSnake): each
// member's iterations and convergence window, the collapse and progress tests at a read-back,
// the hold test against the image's own noise, and the state rule (snake_state_rule.hpp).
// Each class supplies only its geometry through StopGeometry: how its shape collapses, whether
// a window made progress, its hold strengths, and how far its unheld part extends (a length
// along a contour, the area of a patch of a surface).
#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

#include "gvflab/gvf_input.hpp"
#include "gvflab/snake_types.hpp"

namespace gvflab {

class ComputeContext;

// One contour's or surface's stop status (SnakeContour and SurfaceContour report it).
struct StopStatus {
  SnakeState state = SnakeState::Moving;
  long iterations = 0;  // iterations run while moving
  int sinceWindow = 0;  // iterations into the current convergence window
  double held = 0;      // fraction of nodes held at the last stop (0 before)
  double holdGap = 0;   // the unheld extent then (pixels or voxels; 0 before)

  bool moving() const { return state == SnakeState::Moving; }
  // Back to the start: moving, 0 iterations, no verdict.
  void restart() { *this = StopStatus{}; }
  // n iterations ran on the device (counted while moving only).
  void advance(int n) {
    if (!moving()) return;
    iterations += n;
    sinceWindow += n;
  }
  bool windowEnds(const SnakeParams& params) const { return sinceWindow >= params.window; }
};

// The levels above which an edge is real, from the image's own noise (robust: the median and
// the MAD of the edge map f and of |grad f| over the whole image, sampled to at most
// kNoiseSamples values): a hold counts where f reaches `edge` within kHoldDistance of the node
// along its normal, or the raw force at both samples reaches `strength`. On a clean image the
// spread is 0 and the fixed floors kHoldEdge and kHoldStrength max|grad f| rule; in noise the
// levels rise to kNoiseSpread robust standard deviations above the noise's median. A user's V0
// (GvfInput::userV0) is not grad f: its strength level is the fixed floor.
struct HoldLevels {
  double edge = kHoldEdge;
  double strength = 0;
  double edgeNoise = 0;  // the robust standard deviation of f (1.4826 MAD)
};
constexpr double kNoiseSpread = 6.0;
constexpr std::size_t kNoiseSamples = std::size_t(1) << 21;
HoldLevels holdLevels(ComputeContext& ctx, const GvfInput& edges);
// The same from values on the host (f and |grad f| samples; maxGradient = max |grad f|).
HoldLevels holdLevelsOf(std::vector<float> edge, std::vector<float> gradient, double maxGradient);

// A batch of contours or surfaces as the tracker sees it: member k's status and geometry.
class StopGeometry {
 public:
  virtual ~StopGeometry() = default;
  virtual std::size_t members() const = 0;
  virtual StopStatus& status(std::size_t k) = 0;
  virtual std::size_t nodes(std::size_t k) const = 0;  // its nodes (vertices)
  virtual bool collapsed(std::size_t k) = 0;           // the collapse rule on its shape
  // Its window ended: whether it made no progress (within tolerance of the shapes at the starts
  // of its last kProgressWindows windows); the geometry records this window's start.
  virtual bool still(std::size_t k) = 0;
  // Per node of every member in order: the hold strength now (the hold test, on the device).
  virtual std::vector<float> holdStrengths() = 0;
  // How far member k's widest unheld part extends, given its held nodes, counting the reach of
  // the hold test (kHoldDistance) past the held nodes that bound it: a node that near the end
  // of an edge is held by an edge it does not lie on, as beside each wall of a bridged mouth.
  virtual double unheldExtent(std::size_t k, const std::vector<bool>& held) = 0;
};

// One check at a read-back: every moving member that collapsed, or whose window ended without
// progress, stops; one hold test for the batch then names each stopped member's state by the
// state rule. Returns the members that stopped.
std::vector<std::size_t> checkStops(StopGeometry& batch, const SnakeParams& params);
// Names stopped member k's state (its held fraction, hold gap and state) from its nodes' hold
// strengths, `hold` (batch.nodes(k) of them).
void nameStop(StopGeometry& batch, std::size_t k, const float* hold, const SnakeParams& params);

// The batch's own calls over its members (contours or surfaces: each with an id, a force and
// its StopStatus `stop`).
template <class Member>
bool allStoppedIn(const std::vector<Member>& members) {
  return std::none_of(members.begin(), members.end(), [](auto& m) { return m.stop.moving(); });
}
template <class Member>
bool allConvergedIn(const std::vector<Member>& members) {
  return std::all_of(members.begin(), members.end(),
                     [](auto& m) { return m.stop.state == SnakeState::Converged; });
}
template <class Member>
Member* findMember(std::vector<Member>& members, int id) {  // null for an unknown id
  const auto it =
      std::find_if(members.begin(), members.end(), [id](auto& m) { return m.id == id; });
  return it == members.end() ? nullptr : &*it;
}
// Member `id` edited by `edit` and moving again; false for an unknown id (ignored).
template <class Member, class Edit>
bool editMember(std::vector<Member>& members, int id, Edit edit) {
  Member* m = findMember(members, id);
  if (!m) return false;
  edit(*m);
  m->stop.state = SnakeState::Moving;
  return true;
}
template <class Member>
std::vector<SnakeForce> forcesOf(const std::vector<Member>& members) {
  std::vector<SnakeForce> out;
  for (const Member& m : members) out.push_back(m.force);
  return out;
}
// Per-node values of the whole batch (`all`, in member order) cut into one list per member, of
// nodes(member) values each.
template <class Member, class Nodes>
std::vector<std::vector<float>> perMember(const std::vector<float>& all,
                                          const std::vector<Member>& members, Nodes nodes) {
  std::vector<std::vector<float>> out;
  auto at = all.begin();
  for (const Member& m : members) {
    out.emplace_back(at, at + static_cast<std::ptrdiff_t>(nodes(m)));
    at += static_cast<std::ptrdiff_t>(nodes(m));
  }
  return out;
}

// Whether a contour or surface crept on (a tip down a slot or a pocket, a seed shrinking, under
// the tolerance a window): its size (area, volume) at the starts of its past windows and now
// changed the same way by at least `step` in each window (at least two). Jitter does not keep
// one sign long.
bool creptSteadily(const std::vector<double>& sizes, double step);
// Whether it changed by at least `step` a window on the whole from the first size to the last
// (at least two windows), pausing in some maybe, but going back in none by more than it went on
// a window on average: noise drives a surface back as far as on.
bool creptOverall(const std::vector<double>& sizes, double step);

// ParameterError unless a snake's own pressure lies in the table's range (nullopt: none).
void checkSnakePressure(std::optional<double> pressure);

}  // namespace gvflab
