#pragma once
// Parametric active contours (Kass et al. 1988; Xu & Prince 1998), closed, many at once in one
// batch on the OpenCL device. Each iteration solves the semi-implicit step
//   (γI + A) x_{t+1} = γ x_t + κ F(x_t) + p n(x_t)
// where A holds elasticity α and rigidity β, F is the external force chosen per snake (GVF, the
// traditional ∇f, GGVF, VFC or the distance force: force_fields.hpp) and p n a pressure (balloon)
// term along the outward normal, p also per snake (its own value, or SnakeParams::pressure when it
// has none).
//
// States (the rules; SnakeContour::state), checked at resampling times:
//   Moving    until it stops. It stops when a convergence window (SnakeParams::window iterations)
//             ends with no node farther than SnakeParams::tolerance from the nearest of the
//             contours at the starts of the last kProgressWindows (4) windows (progressMove),
//             unless it crept on (its area changed one way by tolerance * dmin in each of them, at
//             least two, and it lies farther than the tolerance from the oldest). A snake that only
//             jitters or oscillates (unit forces on noise flip from pixel to pixel) keeps coming
//             back near a recent contour, so it stops within about kProgressWindows windows of its
//             last net progress however large each jump is. A snake that runs out of iterations
//             before that stays Moving.
//   Collapsed stopped at once when it has shrunk to a dot or a line: its area is below
//             kCollapseFraction (5 %) of its starting contour's and below max(kCollapseArea dmin^2,
//             kCollapseWidth dmin * perimeter), i.e. 3 px^2 or a strip 0.25 px wide at dmin = 1
//             (collapsedContour). Such a snake was pulled onto an edge (a capture-range seed ends
//             as 3-6 nodes at a corner) or shrank under its own elasticity where nothing held it,
//             and outlines nothing: it is never Converged, whatever holds it.
//   Converged stopped, and held there by its external force all along: some node is held and its
//             unheld extent (unheldContourExtent: the longest stretch between two held nodes plus
//             the hold test's reach, kHoldDistance, past each of them) is at most
//             SnakeParams::holdGap pixels. A node is held when the unit force sampled kHoldDistance
//             (1.5) px outside and inside it along the contour normal points back towards it with a
//             normal component of at least kHoldLevel (0.2) on both sides (it sits in a sink line
//             of the force), and that sink is not noise (given the edge map, setFields): the edge
//             map f reaches the edge level within 1.5 px of the node along the normal and has a
//             crest across it within 3 px (an edge, not a wall beside the node; snake_step.cl's
//             edge_across), or the raw force at both samples reaches the strength level (GVF
//             bridging a gap, as across the room's doorway; only for the forces in grad f's units,
//             GVF, grad f and GGVF: VFC sums every edge within its radius and the distance force is
//             unit length, so theirs hold at edges). Both levels come from the image's own noise
//             (holdLevels, snake_stop.hpp): kNoiseSpread robust standard deviations above the
//             median of f (of |grad f|), and at least kHoldEdge (0.1) and kHoldStrength (8 %) of
//             the largest |grad f|. Unit grad f on noise points anywhere and its sinks "held"
//             50-80 % of the nodes of a snake lying in noise, and at SNR 5 and below noise's f
//             passes any fixed level.
//   Stalled   stopped (or never moved) where the force is too weak to hold it: no node is held (a
//             traditional snake far from every edge, in flat or noisy regions), or a longer stretch
//             is not (hanging across the mouth of a concavity where grad f vanishes), or a node
//             rests where its force holds it off any edge (kHoldOffEdge: VFC's sink inside a narrow
//             slot).
// Converged, stalled and collapsed snakes no longer move; an edit, new parameters or
// restart() makes them move again.
//
// Coordinates: image pixels, x to the right, y down, origin at the top-left corner of the
// image; pixel (i, j) covers [i, i+1) x [j, j+1), so its centre is (i + 0.5, j + 0.5).
//
// The solve: for a closed contour with uniform α, β, the matrix γI + A is circulant, so its
// inverse is circulant too and is exactly one row of N numbers. That row is computed on the
// host in double from the matrix's eigenvalues (a cosine sum), cached per node count N, and
// the device applies it as a cyclic convolution (one work-item per node, O(N) each). This is
// exact, needs N floats per distinct N instead of N², and has no sequential recurrence that
// would serialise the GPU, unlike a cyclic banded LU with Sherman–Morrison.
//
// Open snakes (SnakeBoundary other than Periodic, scikit-image's active_contour names): a
// polyline whose energy has only the terms its own nodes make, i.e. A = α D1ᵀD1 + β D2ᵀD2 with
// D1 the N−1 first and D2 the N−2 second differences (the natural boundary: nothing pulls or
// bends across the ends). In the interior its rows are the closed stencils. A fixed end is
// pinned: its row is the identity and its right-hand side its position, so it never moves,
// and its neighbours still see it through their own rows. The matrix is no longer circulant:
// the host factors it once per (N, boundary) as a banded LU in double (5 numbers per row) and
// one work-item per open snake runs the forward and back substitutions, O(N). Elasticity
// α > 0 shortens a free snake from its ends (the energy says so); fixed ends hold its length.
// Resampling keeps both ends; the outward normal of an end uses its one segment
// ((t.y, −t.x), t along the node order: pressure pushes to the right of the direction of
// travel on screen, y down); collapse is measured on length instead of area.
#include <cmath>
#include <cstdint>
#include <deque>
#include <glm/vec2.hpp>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/params.hpp"
#include "gvflab/snake_boundary.hpp"
#include "gvflab/snake_stop.hpp"
#include "gvflab/snake_types.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {

class ComputeContext;

struct SnakeContour {
  int id = 0;
  std::vector<glm::vec2> points;
  SnakeForce force = SnakeForce::Gvf;
  long iterations = 0;  // iterations run while moving
  SnakeState state = SnakeState::Moving;
  std::vector<glm::vec2> initial;  // the starting contour (restart() goes back to it)
  double pressure = 0;             // the pressure this snake feels
  double held = 0;           // fraction of nodes held by the force at the last stop (0 before)
  double holdGap = 0;        // its longest stretch without hold then (pixels; 0 before)
  bool ownPressure = false;  // `pressure` is its own, not SnakeParams::pressure
  SnakeBoundary boundary = SnakeBoundary::Periodic;
  bool converged() const { return state == SnakeState::Converged; }
  bool closed() const { return isClosed(boundary); }
};

// The collapse rule: `points` encloses less than kCollapseFraction of what `initial` did and
// less than max(kCollapseArea dmin^2, kCollapseWidth dmin * perimeter): a dot or a line.
// An open snake (closed = false) has no area: its length fell below kCollapseFraction of its
// start's and below kCollapseArea dmin (a dot).
bool collapsedContour(const std::vector<glm::vec2>& points, const std::vector<glm::vec2>& initial,
                      double dmin, bool closed = true);

// The progress of a window: the largest distance of a node of `now` to the nearest of the
// past contours (each a closed polyline; empty: infinity), not to its own old position:
// resampling inserts and removes nodes, and nodes that only slide along the contour (as in a
// doorway) do not change the shape. A snake whose nodes only come back to where they were
// within those windows makes none, however far they jump meanwhile. Product code.
// closed = false: the past contours are open polylines. A move beyond `within` may come back
// as any value above it (the stop rule only asks whether it is within the tolerance).
double progressMove(const std::vector<glm::vec2>& now,
                    const std::deque<std::vector<glm::vec2>>& past, bool closed = true,
                    double within = INFINITY);

// A circle of nodes about `spacing` apart (at least 8), counter-clockwise on screen.
std::vector<glm::vec2> circleContour(double cx, double cy, double radius, double spacing);
// Twice the signed area (shoelace, in x-right/y-down coordinates); the engine stores every
// contour with a positive value, which makes (t.y, -t.x) the outward normal.
double signedArea2(const std::vector<glm::vec2>& points);

// Removes nodes closer than dmin to the previous kept node, then splits gaps longer than dmax
// into equal pieces, so every gap of the result lies in [dmin, dmax] (needs dmax >= 2 dmin and
// a perimeter of at least 3 dmin; a smaller contour is returned unchanged). Product code.
// closed = false (an open snake): the polyline's first and last nodes stay where they are (a
// node too close to the last one is dropped instead), there is no closing gap, and at least 2
// nodes remain.
std::vector<glm::vec2> resampleContour(const std::vector<glm::vec2>& points, double dmin,
                                       double dmax, bool closed = true);
// How many nodes resampleContour() would give, counted without building them (O(N) time and
// memory for N points, whatever the gaps): checked before resampling an untrusted contour.
std::size_t resampledNodeCount(const std::vector<glm::vec2>& points, double dmin, double dmax,
                               bool closed = true);

// The distance of each point to the closed polyline through `ring` (pixels; empty ring:
// infinity). Segments are bucketed in a grid of cells one longest segment wide, so a contour
// compared with itself a few iterations earlier costs O(N + M), not O(N M): the viewer does
// it every frame for the progress plot, and a snake on a 4096^2 image has thousands of nodes.
// closed = false: the open polyline (no segment from the last point back to the first).
// Distances beyond `within` may come back as any value above it (the search stops there).
std::vector<double> distancesToContour(const std::vector<glm::vec2>& points,
                                       const std::vector<glm::vec2>& ring, bool closed = true,
                                       double within = INFINITY);

// The longest stretch of a closed contour between two held nodes (pixels along the polyline;
// the whole perimeter when no node is held, 0 when every node is). Product code.
// closed = false: an open polyline, whose stretches before the first and after the last held
// node count too.
double longestUnheldStretch(const std::vector<glm::vec2>& points, const std::vector<bool>& held,
                            bool closed = true);

// The unheld extent the states judge (snake_stop.hpp): the longest unheld stretch plus the
// hold test's reach (kHoldDistance) past each held node that bounds it, since a node that near
// the end of an edge is held by an edge it does not lie on (beside each wall of a bridged
// mouth). 0 when no node is unheld, the whole stretch when none is held. Product code.
double unheldContourExtent(const std::vector<glm::vec2>& points, const std::vector<bool>& held,
                           bool closed = true);

// First row c of (γI + A)^{-1} for N nodes; x_i = Σ_k c[k] b[(i + k) mod N]. Product code.
std::vector<double> circulantInverseRow(int n, double alpha, double beta, double gamma);

// The banded LU of (γI + A) for an open snake of N >= 2 nodes (see "Open snakes" above), 5
// numbers per row i: L[i][i-2], L[i][i-1], 1 / U[i][i], U[i][i+1], U[i][i+2] (0 outside the
// matrix); L has a unit diagonal. Product code.
std::vector<double> openSnakeFactors(int n, double alpha, double beta, double gamma,
                                     SnakeBoundary boundary);

class ParametricSnake {
 public:
  static constexpr int kMinNodes = 3;      // closed snakes
  static constexpr int kMinOpenNodes = 2;  // open ones
  static constexpr int kMaxNodes = 16384;  // per snake

  ParametricSnake(std::shared_ptr<ComputeContext> ctx, int width, int height,
                  SnakeParams params = SnakeParams::defaults());
  // The rule add() applies, usable before any device work (the CLI checks every snake before it
  // opens an output): ParameterError when a point is not finite or lies outside the width x
  // height image, or fewer than 3 points enclose an area (open snakes: fewer than 2 distinct
  // points); ResourceError when resampling to params' spacing would give more than kMaxNodes
  // nodes.
  static void checkContour(const std::vector<glm::vec2>& points, int width, int height,
                           const SnakeParams& params,
                           SnakeBoundary boundary = SnakeBoundary::Periodic);
  // The same for a circle, from its centre and radius alone (before its nodes are built):
  // ParameterError when it is not finite or reaches outside the image, ResourceError when it
  // would have more than kMaxNodes nodes at params' spacing.
  static void checkCircle(double cx, double cy, double radius, int width, int height,
                          const SnakeParams& params);
  // ResourceError when a snake would have more than kMaxNodes nodes.
  static void checkNodeCount(std::size_t nodes);
  // The most device memory `snakes` snakes of `nodes` nodes in all can hold (upload()'s
  // buffers at their doubled capacity), for a run's fit check before anything is allocated.
  static std::uint64_t deviceBytes(std::size_t snakes, std::size_t nodes);
  ~ParametricSnake();
  ParametricSnake(const ParametricSnake&) = delete;
  ParametricSnake& operator=(const ParametricSnake&) = delete;

  // The force fields (float2 interleaved, width * height). Set them again before step() when
  // they change: a solver's field() alternates between two buffers.
  void setFields(const cl::Buffer& gvf, const cl::Buffer& traditional);
  // The same with the traditional force from `edges` (its v0 = grad f), whose edge map f and
  // max |grad f| also let the hold test tell edges from noise (kHoldEdge, kHoldStrength);
  // without them every sink of the unit force holds, noise included.
  void setFields(const cl::Buffer& gvf, const GvfInput& edges);
  // Any forces' fields (force_fields.hpp), with `edges` as above; step() throws InputError
  // when a snake's force has no field.
  void setFields(const ForceFieldSet& fields, const GvfInput& edges);

  // Adds a closed contour (resampled to the spacing bounds), which is also its starting
  // contour. pressure: this snake's own, else SnakeParams::pressure. Throws ParameterError
  // when a point lies outside the image or is not finite, or there are fewer than 3 distinct
  // points.
  // boundary: closed (Periodic, the default) or an open snake with its ends' rule; an open
  // snake keeps its node order (no orientation) and needs 2 points spanning a length.
  int add(const std::vector<glm::vec2>& points, SnakeForce force = SnakeForce::Gvf,
          std::optional<double> pressure = std::nullopt,
          SnakeBoundary boundary = SnakeBoundary::Periodic);
  void remove(int id);  // unknown ids are ignored
  void clear();
  // Replaces a snake's nodes (hand editing), which become its starting contour; it starts
  // moving again.
  void setPoints(int id, const std::vector<glm::vec2>& points);
  // Only the starting contour (a session resumed from its current contours keeps its start).
  void setInitial(int id, const std::vector<glm::vec2>& points);
  void setForce(int id, SnakeForce force);
  // This snake's own pressure; nullopt: SnakeParams::pressure. Throws ParameterError out of
  // the pressure's range.
  void setPressure(int id, std::optional<double> pressure);
  // Every snake back to its starting contour, 0 iterations, moving (a demo's replay).
  void restart();
  // New parameters; every snake starts moving again. Throws ParameterError (and keeps the old).
  void setParams(const SnakeParams& params);
  const SnakeParams& params() const { return params_; }

  // n iterations of every moving snake; every `resample` iterations the nodes are read back
  // and resampled, and snakes whose window is full are checked for convergence. Stops early
  // when no snake moves any more (allStopped). Throws when setFields was never called.
  void step(int n);

  std::vector<SnakeContour> contours();  // reads back when the device is ahead
  // Per snake (contours() order), per node: how firmly its force holds the node now (the
  // states' hold test: held when >= kHoldLevel). Throws when setFields was never called.
  std::vector<std::vector<float>> holdStrengths();
  std::size_t size() const { return snakes_.size(); }
  std::vector<SnakeForce> forces() const;  // each snake's, in contours() order (no read-back)
  bool allConverged() const;               // every snake converged
  bool allStopped() const;                 // no snake moves (each converged, stalled or collapsed)
  std::size_t nodeCount() const;
  int width() const { return width_; }
  int height() const { return height_; }

 private:
  struct Snake {
    int id;
    SnakeForce force;
    SnakeBoundary boundary = SnakeBoundary::Periodic;
    std::optional<double> pressure;  // own pressure, else params_.pressure
    std::vector<glm::vec2> points;   // authoritative when !deviceAhead_
    std::vector<glm::vec2> initial;  // starting contour
    // The contours at the starts of the last kProgressWindows convergence windows, oldest
    // first (the newest is the current window's start).
    std::deque<std::vector<glm::vec2>> references;
    StopStatus stop;
  };
  class Stops;  // the tracker's view of the snakes (snake_stop.hpp)
  static void checkPointsIn(const std::vector<glm::vec2>& points, int width, int height,
                            SnakeBoundary boundary);
  void download();          // device -> snakes_[].points
  void upload();            // snakes_ -> device (layout, coefficients, positions)
  void checkAndResample();  // convergence of full windows, resampling
  void syncLayout();        // after edits: upload, every window starting from the current nodes
  std::size_t fieldBytes() const;
  ForceFieldSet boundFields() const;  // kernelFields of the snakes' forces
  std::vector<float> deviceHold();    // per node, on the device positions (snake_hold)
  void runIterations(int n);
  const std::vector<float>& coefficients(int n, SnakeBoundary boundary);

  std::shared_ptr<ComputeContext> ctx_;
  int width_, height_;
  SnakeParams params_;
  std::vector<Snake> snakes_;
  int nextId_ = 1;
  bool deviceAhead_ = false;  // the device has newer positions than snakes_
  bool layoutDirty_ = true;   // snakes_ changed: upload before the next iteration
  // (node count, boundary) -> circulant row (closed) or banded LU factors (open)
  std::map<std::pair<int, SnakeBoundary>, std::vector<float>> coefCache_;

  ForceFieldSet fields_;  // by SnakeForce
  cl::Buffer edge_;
  bool haveFields_ = false;
  bool haveEdge_ = false;
  HoldLevels levels_;  // the edge levels of the hold test, from the image's noise
  cl::Buffer pos_[2], rhs_, hold_, nodeSnake_, meta_, coef_, pressure_;
  std::size_t nodeCapacity_ = 0, snakeCapacity_ = 0, pressureCapacity_ = 0, coefCapacity_ = 0;
  int current_ = 0;
  int sinceResample_ = 0;
  std::size_t totalNodes_ = 0;
  // pos, rhs, node_snake, meta, the five fields, total, width, height, gamma, kappa, pressure,
  // unit_force
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float, cl_float, cl::Buffer,
              cl_int>
      forceKernel_;
  // rhs, pos, out, node_snake, meta, coef, total, width, height
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int,
              cl_int, cl_int>
      solveKernel_;
  // pos, hold, node_snake, meta, the five fields, total, width, height, d, edge, have_edge,
  // edge_level, edge_noise, min_strength
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_float, cl::Buffer, cl_int,
              cl_float, cl_float, cl_float>
      holdKernel_;
};

}  // namespace gvflab
