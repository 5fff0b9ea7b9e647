#include <cmath>
#include <sstream>

#include "gvflab/enum_names.hpp"
#include "gvflab/error.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/parametric_snake.hpp"

namespace gvflab {

namespace {
constexpr EnumNames<SnakeForce, kSnakeForceCount> kForceNames{
    {{SnakeForce::Gvf, "gvf"},
     {SnakeForce::Traditional, "traditional"},
     {SnakeForce::Ggvf, "ggvf"},
     {SnakeForce::Vfc, "vfc"},
     {SnakeForce::Distance, "distance"}}};
constexpr EnumNames<SnakeState, 4> kStateNames{{{SnakeState::Moving, "moving"},
                                                {SnakeState::Converged, "converged"},
                                                {SnakeState::Stalled, "stalled"},
                                                {SnakeState::Collapsed, "collapsed"}}};
constexpr EnumNames<SnakeBoundary, 5> kBoundaryNames{{{SnakeBoundary::Periodic, "periodic"},
                                                      {SnakeBoundary::Free, "free"},
                                                      {SnakeBoundary::Fixed, "fixed"},
                                                      {SnakeBoundary::FreeFixed, "free-fixed"},
                                                      {SnakeBoundary::FixedFree, "fixed-free"}}};
}  // namespace

const char* forceName(SnakeForce force) { return enumName(kForceNames, force); }
const char* snakeStateName(SnakeState state) { return enumName(kStateNames, state); }
const char* boundaryName(SnakeBoundary boundary) { return enumName(kBoundaryNames, boundary); }
SnakeBoundary parseBoundary(const std::string& name) {
  return parseEnum(kBoundaryNames, name, "The snake boundary condition");
}
SnakeForce parseForce(const std::string& name) {
  return parseEnum(kForceNames, name, "The snake force");
}

// Defaults follow Xu & Prince's GVF snake demo (α = 0.05, γ = 1, κ = 0.6, unit-length force,
// nodes 0.5..2 px apart), with a little rigidity so corners of hand-drawn polygons do not fold.
// They suit edge maps normalised to [0, 1] on photos and MRI slices of a few hundred pixels:
// the snake moves about κ/γ = 0.6 pixel per iteration where the force is unit length, and
// elasticity stays weak enough (α·spacing) that the snake can still creep into the U
// phantom's deep notch, where GVF's push is only a few percent of unit length. The
// convergence test (0.5 px over 100 iterations, i.e. 0.005 px per iteration) must stay below
// that creep, or snakes stop halfway down long concavities.
const std::vector<ParamSpec>& snakeParamSpecs() {
  static const std::vector<ParamSpec> specs = {
      {"alpha", "alpha", 0.0, 10.0, 0.05, false,
       "Snake elasticity: pulls neighbouring nodes together (and shrinks the contour)."},
      {"beta", "beta", 0.0, 10.0, 0.05, false, "Snake rigidity: resists bending."},
      {"gamma", "gamma", 0.05, 100.0, 1.0, false,
       "Snake viscosity, the inverse time step; larger moves less per iteration."},
      {"kappa", "kappa", 0.0, 10.0, 0.6, false, "Weight of the external force (GVF or grad f)."},
      {"pressure", "pressure", -5.0, 5.0, 0.0, false,
       "Balloon force along the outward normal; > 0 inflates, < 0 deflates."},
      {"dmin", "dmin", 0.1, 50.0, 1.0, false,
       "Smallest node spacing in pixels kept by resampling (closer nodes are removed)."},
      {"dmax", "dmax", 0.2, 100.0, 2.5, false,
       "Largest node spacing in pixels (longer gaps get new nodes); at least 2 x dmin."},
      {"snake-tolerance", "tolerance", 0.0, 10.0, 0.5, false,
       "A snake has converged when no node moved farther than this (pixels, from the contour "
       "at the window start) over a window."},
      {"snake-window", "window", 1, 10000, 100, true,
       "Convergence window in iterations (checked at resampling times)."},
      {"snake-hold-gap", "hold gap", 0.0, 1000.0, 8.0, false,
       "A stopped snake has converged when no stretch of it longer than this (pixels) lacks "
       "the hold of its force (pushed back from both sides: on or near an edge); otherwise "
       "it has stalled."},
      {"snake-resample", "resample every", 1, 1000, 10, true,
       "Iterations between node resamplings (the nodes are read back then)."},
      {"snake-normalize", "normalize force", 0, 1, 1, true,
       "1: unit-length external force (Xu & Prince's demo), so far-away snakes still move; "
       "0: the raw field."},
      {"snake-iterations", "snake iterations", 0, 10000000, 1500, true,
       "Snake iterations (headless total; they stop early when every snake has converged)."},
      {"snake-frame-iterations", "snake iterations / frame", 1, 1000, 4, true,
       "Snake iterations per viewer frame."},
  };
  return specs;
}

const std::vector<ParamField<SnakeParams>>& snakeParamFields() {
  using P = SnakeParams;
  // In SnakeParams' member order (Python's keywords rely on it); a few to a line.
  // clang-format off
  static const std::vector<ParamField<P>> fields = {
      {"alpha", &P::alpha}, {"beta", &P::beta}, {"gamma", &P::gamma}, {"kappa", &P::kappa},
      {"pressure", &P::pressure}, {"dmin", &P::dmin}, {"dmax", &P::dmax},
      {"snake-tolerance", &P::tolerance}, {"snake-window", &P::window},
      {"snake-hold-gap", &P::holdGap}, {"snake-resample", &P::resample},
      {"snake-normalize", &P::normalize}};
  // clang-format on
  return fields;
}

SnakeParams SnakeParams::defaults() { return defaultsOf(snakeParamSpecs(), snakeParamFields()); }

void SnakeParams::validate() const {
  validateFields(*this, snakeParamSpecs(), snakeParamFields());
  if (dmax < 2 * dmin) {
    std::ostringstream msg;
    msg << "dmax = " << dmax << " must be at least twice dmin = " << dmin
        << ", or resampling could not keep every node spacing between them.";
    throw ParameterError(msg.str());
  }
}

}  // namespace gvflab
