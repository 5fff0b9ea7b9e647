#include "cli/session_snakes.hpp"

namespace gvflab::app {
namespace {

std::vector<glm::vec2> toVec2(const SavedSnake::Points& points) {
  std::vector<glm::vec2> out;
  for (const auto& p : points) out.push_back({p[0], p[1]});
  return out;
}

}  // namespace

std::vector<SnakeSpec> sessionSnakeSpecs(const SessionFile& s, SessionStart from) {
  std::vector<SnakeSpec> specs;
  for (const auto& sn : s.snakes) {
    SnakeSpec spec;
    spec.text = "session snake";
    const auto& start = sn.initial.empty() ? sn.points : sn.initial;
    spec.polygon = toVec2(from == SessionStart::Initial ? start : sn.points);
    spec.initial = toVec2(start);
    spec.force = sn.force;
    spec.pressure = sn.pressure;
    spec.boundary = sn.boundary;
    specs.push_back(std::move(spec));
  }
  return specs;
}

std::vector<SurfaceSpec> sessionSurfaceSpecs(const SessionFile& s, SessionStart from) {
  std::vector<SurfaceSpec> specs;
  for (const auto& sf : s.surfaces) {
    SurfaceSpec spec;
    spec.text = "session surface";
    const SurfaceMesh& start = sf.initial.empty() ? sf.mesh : sf.initial;
    spec.current = from == SessionStart::Initial ? start : sf.mesh;
    spec.initial = start;
    spec.force = sf.force;
    spec.pressure = sf.pressure;
    specs.push_back(std::move(spec));
  }
  return specs;
}

}  // namespace gvflab::app
