#include "cli/snake_options.hpp"

#include <cmath>

#include "cli/spec_numbers.hpp"
#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {
namespace {

// Short enough that the whole refusal, with 60 echoed characters, stays one line of at most
// 300 (the malformed-input corpus checks it); --help has the coordinates' convention.
const char* kSpecForms =
    "use circle:CX,CY,R or polygon:X1,Y1,... (closed), line:X1,Y1,X2,Y2 or path:X1,Y1,... "
    "(open; :boundary=free|fixed|free-fixed|fixed-free), each optionally @FORCE";

std::string named(const std::string& spec) { return "--snake " + quotedText(spec); }

}  // namespace

void checkSnakeCount(std::size_t count, const std::string& where) {
  if (count > kMaxSnakes)
    throw ParameterError(where + ": more than " + std::to_string(kMaxSnakes) + " snakes; at most " +
                         std::to_string(kMaxSnakes) + " run at once.");
}

std::vector<glm::vec2> SnakeSpec::points(const SnakeParams& params) const {
  if (!isCircle()) return polygon;
  return circleContour(cx, cy, radius, 0.5 * (params.dmin + params.dmax));
}

void SnakeSpec::check(int width, int height, const SnakeParams& params) const {
  // A circle from its numbers first: its nodes are built only once they are known to fit.
  if (isCircle()) ParametricSnake::checkCircle(cx, cy, radius, width, height, params);
  ParametricSnake::checkContour(points(params), width, height, params, boundary);
  if (!initial.empty()) ParametricSnake::checkContour(initial, width, height, params, boundary);
}

const std::vector<ParamField<SnakeOptions>>& snakeLoopFields() {
  static const std::vector<ParamField<SnakeOptions>> fields = {
      {"snake-iterations", &SnakeOptions::iterations},
      {"snake-frame-iterations", &SnakeOptions::frameIterations},
  };
  return fields;
}

SnakeOptions::SnakeOptions() { setDefaults(*this, snakeParamSpecs(), snakeLoopFields()); }

RunLoad SnakeOptions::load() const {
  RunLoad l{snakes.size(), {}, params, {}};
  for (const SnakeSpec& spec : snakes) l.forces.push_back(spec.forceOr(force));
  for (const SurfaceSpec& spec : surfaces) {
    l.surfaceStarts.push_back(spec.mesh(params).vertices.size());
    l.forces.push_back(spec.forceOr(force));
  }
  if (captureMap) l.forces.push_back(force);
  return l;
}

SnakeSpec parseSnakeSpec(const std::string& text) {
  SnakeSpec s;
  s.text = text;
  std::string shape = splitSpecForce(text, named(text), s.force);
  const std::size_t colon = shape.find(':');
  const std::string kind = shape.substr(0, colon);
  const bool open = kind == "line" || kind == "path";
  if (colon == std::string::npos || (kind != "circle" && kind != "polygon" && !open))
    throw ParameterError(named(text) + " is not a snake; " + kSpecForms + ".");
  // An open snake's ends: ":boundary=B" after its numbers.
  const std::size_t option = shape.find(':', colon + 1);
  if (option != std::string::npos) {
    const std::string opt = shape.substr(option + 1);
    if (!open)
      throw ParameterError(named(text) + ": only open snakes (line:, path:) take " +
                           quotedText(opt, 20) + "; a " + kind + " is closed.");
    const std::string key = "boundary=";
    if (opt.rfind(key, 0) != 0)
      throw ParameterError(named(text) + ": " + quotedText(opt, 20) +
                           " is not boundary=free|fixed|free-fixed|fixed-free.");
    const std::string name = opt.substr(key.size());
    if (name == "periodic" || name.empty())
      throw ParameterError(named(text) +
                           ": an open snake's boundary is free, fixed, "
                           "free-fixed or fixed-free (a closed one is a polygon:), not " +
                           quotedText(name, 20) + ".");
    try {
      s.boundary = parseBoundary(name);
    } catch (const ParameterError&) {
      throw ParameterError(named(text) + ": the boundary must be free, fixed, free-fixed or " +
                           "fixed-free, not " + quotedText(name, 20) + ".");
    }
    shape.resize(option);
  } else if (open) {
    s.boundary = SnakeBoundary::Free;
  }
  const auto v = parseSpecNumbers(shape.substr(colon + 1),
                                  {named(text), kSpecForms, "pixels", 2 * kMaxSnakePoints,
                                   " has more than " + std::to_string(kMaxSnakePoints) +
                                       " points, the most a snake may have."});
  if (open) {
    if (v.size() % 2 != 0 || v.size() < 4 || (kind == "line" && v.size() != 4))
      throw ParameterError(
          named(text) + (kind == "line" ? ": a line needs exactly X1,Y1,X2,Y2."
                                        : ": a path needs at least 2 points as X1,Y1,X2,Y2,..."));
    for (std::size_t i = 0; i < v.size(); i += 2)
      s.polygon.push_back({static_cast<float>(v[i]), static_cast<float>(v[i + 1])});
    bool length = false;
    for (const auto& p : s.polygon) length = length || p != s.polygon.front();
    if (!length) throw ParameterError(named(text) + ": the " + kind + " has no length.");
    return s;
  }
  if (kind == "circle") {
    if (v.size() != 3) throw ParameterError(named(text) + ": a circle needs exactly CX,CY,R.");
    if (!(v[2] > 0)) throw ParameterError(named(text) + ": the radius must be > 0.");
    s.cx = v[0];
    s.cy = v[1];
    s.radius = v[2];
    return s;
  }
  if (v.size() % 2 != 0 || v.size() < 6)
    throw ParameterError(named(text) +
                         ": a polygon needs at least 3 points as X1,Y1,X2,Y2,X3,Y3,...");
  for (std::size_t i = 0; i < v.size(); i += 2)
    s.polygon.push_back({static_cast<float>(v[i]), static_cast<float>(v[i + 1])});
  if (std::abs(signedArea2(s.polygon)) == 0)
    throw ParameterError(named(text) + ": the polygon encloses no area.");
  return s;
}

void finishSnakeOptions(SnakeOptions& o) { o.params.validate(); }

}  // namespace gvflab::app
