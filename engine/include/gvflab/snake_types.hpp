#pragma once
// What 2D contours (ParametricSnake) and 3D surfaces (SurfaceSnake) share: the force a snake
// feels, its states, its parameters (one table, snakeParamSpecs) and the constants of the
// state rules (parametric_snake.hpp states them; snake_stop.hpp applies them to both).
#include <optional>
#include <string>
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab {

// The external force a snake or surface holds; its value is the field's slot in the snake
// kernels (SNAKE_FORCE in kernels/snake_step.cl), force_fields.hpp builds each field.
enum class SnakeForce {
  Gvf,          // the GVF field (the solver's field())
  Traditional,  // ∇f, f the normalised edge map (GvfInput::v0 in EdgeGradient mode)
  Ggvf,         // generalized GVF (ggvf_solver.hpp)
  Vfc,          // vector field convolution (vfc_field.hpp)
  Distance,     // the distance force (distance_force.hpp)
};
inline constexpr SnakeForce kSnakeForces[] = {SnakeForce::Gvf, SnakeForce::Traditional,
                                              SnakeForce::Ggvf, SnakeForce::Vfc,
                                              SnakeForce::Distance};
inline constexpr int kSnakeForceCount = 5;
enum class SnakeState { Moving, Converged, Stalled, Collapsed };
// Every state, in the order panels and legends list them.
inline constexpr SnakeState kSnakeStates[] = {SnakeState::Moving, SnakeState::Converged,
                                              SnakeState::Collapsed, SnakeState::Stalled};

const char* forceName(SnakeForce force);  // "gvf" | "traditional" | "ggvf" | "vfc" | "distance"
// "moving" | "converged" | "stalled" | "collapsed"
const char* snakeStateName(SnakeState state);
// Throws ParameterError for any other name.
SnakeForce parseForce(const std::string& name);

struct SnakeParams {
  double alpha = 0.05;    // elasticity (pulls nodes together, shrinks the contour)
  double beta = 0.05;     // rigidity (resists bending)
  double gamma = 1.0;     // viscosity: the inverse of the time step
  double kappa = 0.6;     // external force weight
  double pressure = 0.0;  // balloon weight along the outward normal; < 0 deflates
  double dmin = 1.0;      // node spacing bounds kept by resampling (pixels); dmax >= 2 dmin
  double dmax = 2.5;
  double tolerance = 0.5;  // converged when no node moved farther than this (pixels, see
                           // progressMove) ...
  int window = 100;        // ... over this many iterations (checked at resampling times)
  double holdGap = 8.0;    // a stopped snake has converged when no stretch longer than this
                           // (pixels) lacks the force's hold, else it has stalled (see above)
                           // or collapsed
  int resample = 10;       // iterations between read-backs for resampling
  bool normalize = true;   // unit-length external force (per pixel, before interpolation)

  // Defaults from snakeParamSpecs(); checks every value and dmax >= 2 dmin.
  static SnakeParams defaults();
  void validate() const;  // throws ParameterError with a sentence
};

// alpha, beta, gamma, kappa, pressure, dmin, dmax, snake-tolerance, snake-window, snake-hold-gap,
// snake-resample,
// snake-normalize, snake-iterations (headless total), snake-frame-iterations (viewer, per
// frame). Keys are the CLI flags; the capture map has its own table (capture_range.hpp).
const std::vector<ParamSpec>& snakeParamSpecs();
// Each snakeParamSpecs() key but the iteration counts (the caller's loop) bound to its field.
const std::vector<ParamField<SnakeParams>>& snakeParamFields();

// The hold test of the states above (pixels; unit force).
constexpr double kHoldDistance = 1.5;
constexpr double kHoldLevel = 0.2;
// A node's hold when its force holds it off any edge (a sink, as VFC's in a narrow slot).
constexpr float kHoldOffEdge = -2.0f;
// ... and not noise (with an edge map, see setFields): f reaches kHoldEdge within
// kHoldDistance of the node along its normal, or the raw force at both samples is at least
// kHoldStrength times the image's largest |grad f|.
constexpr double kHoldEdge = 0.1;
constexpr double kHoldStrength = 0.08;
// The collapse test (see Collapsed above): area below this fraction of the start's ...
constexpr double kCollapseFraction = 0.05;
// ... and below this many dmin^2 or a strip kCollapseWidth dmin wide along the perimeter.
constexpr double kCollapseArea = 3.0;
constexpr double kCollapseWidth = 0.25;
// Stopping measures progress against the contours of this many past windows (see Moving).
constexpr int kProgressWindows = 4;

}  // namespace gvflab
