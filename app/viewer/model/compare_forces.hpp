#pragma once
// The forces a Compare races (issue 43), for the snakes' twins and the surfaces' alike.
#include <cstddef>
#include <optional>
#include <vector>

#include "gvflab/snake_types.hpp"

namespace gvflab::viewer {

// A contour's own pressure as the engine's add() takes it (nullopt: the parameters').
template <class Contour>
std::optional<double> ownPressure(const Contour& c) {
  return c.ownPressure ? std::optional<double>(c.pressure) : std::nullopt;
}

struct CompareForces {
  static constexpr std::size_t kMax = 4;  // contours in one race
  std::vector<SnakeForce> chosen = {SnakeForce::Gvf, SnakeForce::Traditional};  // the lesson

  // The twins' forces for a contour under `own`: the chosen ones but its own, or the lesson's
  // other force when only its own is chosen.
  std::vector<SnakeForce> twinsOf(SnakeForce own) const {
    std::vector<SnakeForce> twins;
    for (SnakeForce f : chosen)
      if (f != own && twins.size() + 1 < kMax) twins.push_back(f);
    if (twins.empty())
      twins.push_back(own == SnakeForce::Gvf ? SnakeForce::Traditional : SnakeForce::Gvf);
    return twins;
  }
};

}  // namespace gvflab::viewer
