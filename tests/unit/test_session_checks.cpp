// Session contents and snake specs validated before any geometry is built (issue 25): a wrong
// type is an error naming the field and the type it must have; numbers are range-checked before
// they become ints; counts are bounded; user text is echoed short.
#include <doctest/doctest.h>

#include <string>

#include "cli/cli_params.hpp"
#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "gvflab/error.hpp"
#include "io/session_file.hpp"

using namespace gvflab;
using namespace gvflab::app;

namespace {
std::string sessionWith(const std::string& fields) {
  return R"({"gvflab_session": 1, "phantom": "u", "phantom_size": 64)" +
         (fields.empty() ? "" : ", " + fields) + "}";
}
std::string errorOf(const std::string& json) {
  try {
    sessionFromJson(json);
  } catch (const InputError& e) {
    return e.what();
  }
  return "(accepted)";
}
}  // namespace

TEST_CASE("a session field of the wrong type is an error naming the field and its type") {
  const std::pair<const char*, const char*> cases[] = {
      {R"("solver": {"mu": "abc"})", R"("solver.mu" must be a number, not a string.)"},
      {R"("solver": {"sigma": []})", R"("solver.sigma" must be a number, not an array.)"},
      {R"("solver": {"v0": 1})", R"("solver.v0" must be a string, not a number.)"},
      {R"("solver": {"name": true})", R"("solver.name" must be a string, not true or false.)"},
      {R"("solver": {"iterations_per_frame": "5"})",
       R"("solver.iterations_per_frame" must be a number)"},
      {R"("solver": {"frame_budget_ms": null})",
       R"("solver.frame_budget_ms" must be a number, not null.)"},
      {R"("solver": 3)", R"("solver" must be an object, not a number.)"},
      {R"("device": 0)", R"("device" must be a string (a device selector), not a number.)"},
      {R"("snake_params": {"alpha": "a"})", R"("snake_params.alpha" must be a number)"},
      {R"("snake_params": {"normalize": "yes"})",
       R"("snake_params.normalize" must be true or false)"},
      {R"("snakes": {})", R"("snakes" must be an array, not an object.)"},
      {R"("snakes": [5])", R"("snakes[0]" must be an object, not a number.)"},
      {R"("snakes": [{"points": "x"}])", R"("snakes[0].points" must be an array, not a string.)"},
      {R"("snakes": [{"points": [[1, 1], 3, [5, 8]]}])",
       R"("snakes[0].points[1]" must be a pair [x, y], not a number.)"},
      {R"("snakes": [{"points": [[1, 1], [9, "1"], [5, 8]]}])",
       R"("snakes[0].points[1][1]" must be a number, not a string.)"},
      {R"("snakes": [{"force": 2, "points": [[1, 1], [9, 1], [5, 8]]}])",
       R"("snakes[0].force" must be a string)"},
      {R"("snakes": [{"pressure": "1", "points": [[1, 1], [9, 1], [5, 8]]}])",
       R"("snakes[0].pressure" must be a number)"},
      {R"("snakes": [{"points": [[1, 1], [9, 1], [5, 8]], "initial_points": 4}])",
       R"("snakes[0].initial_points" must be an array)"},
      {R"("display": {"colormap": 7})", R"("display.colormap" must be a string, not a number.)"},
      {R"("display": {"log_scale": 1})",
       R"("display.log_scale" must be true or false, not a number.)"},
  };
  for (const auto& [fields, expected] : cases) {
    CAPTURE(fields);
    CHECK(errorOf(sessionWith(fields)).find(expected) != std::string::npos);
  }
  CHECK(errorOf(R"({"gvflab_session": 1, "image": 12345})") ==
        R"("image" must be a string (a file name), not a number.)");
  CHECK(errorOf(R"({"gvflab_session": 1, "phantom": 5})").find(R"("phantom" must be a string)") ==
        0);
  CHECK(
      errorOf(sessionWith(R"("phantom_size": "64")")).find(R"("phantom_size" must be a number)") ==
      0);
  // Unknown fields are ignored (a newer version's additions); known ones never.
  CHECK_NOTHROW(
      sessionFromJson(sessionWith(R"("future_field": [1, 2], "solver": {"extra": "x"})")));
}

TEST_CASE("session numbers are range-checked before they become ints") {
  // Was "-2.1e9": the double was cast to int first.
  CHECK(errorOf(sessionWith(R"("snake_params": {"window": 1e30})")) ==
        R"("snake_params.window" = 1e+30 is too large: it must lie in [1, 10000].)");
  CHECK(errorOf(sessionWith(R"("snake_params": {"resample": 2.5})")) ==
        R"("snake_params.resample" = 2.5 must be a whole number.)");
  CHECK(errorOf(sessionWith(R"("phantom_size": 1e12)")).find("[16, 16384]") != std::string::npos);
  CHECK(errorOf(sessionWith(R"("solver": {"iterations_per_frame": -3})"))
            .find("outside its range [0, 1e+07]") != std::string::npos);
  // A finite 1e308 in a contour was reported as NaN (after a cast to float).
  CHECK(errorOf(sessionWith(R"("snakes": [{"points": [[1e308, 1], [9, 1], [5, 8]]}])")) ==
        R"("snakes[0].points[0][0]" = 1e+308 is too large: it must lie in [-1e+07, 1e+07].)");
}

TEST_CASE("sessions keep each snake's force and the forces' parameters, checked by their table") {
  SessionFile f;
  f.phantom = "u";
  SavedSnake a;
  a.force = SnakeForce::Ggvf;
  a.points = {{10, 10}, {30, 10}, {20, 25}};
  SavedSnake b = a;
  b.force = SnakeForce::Distance;
  f.snakes = {a, b};
  f.forces.ggvf.k = 0.2;
  f.forces.vfc.kernel = VfcKernel::Gaussian;
  f.forces.vfc.radius = 9;
  f.forces.distance.threshold = 0.4;
  const SessionFile back = sessionFromJson(sessionToJson(f));
  REQUIRE(back.snakes.size() == 2);
  CHECK(back.snakes[0].force == SnakeForce::Ggvf);
  CHECK(back.snakes[1].force == SnakeForce::Distance);
  CHECK(back.forces.ggvf.k == doctest::Approx(0.2));
  CHECK(back.forces.vfc.kernel == VfcKernel::Gaussian);
  CHECK(back.forces.vfc.radius == 9);
  CHECK(back.forces.distance.threshold == doctest::Approx(0.4));
  Options o;
  applySession(back, o);
  CHECK(o.snakes.forces.ggvf.k == doctest::Approx(0.2));
  CHECK(errorOf(sessionWith(R"("force_params": {"ggvf-k": 50})")).find("ggvf-k") !=
        std::string::npos);
  CHECK(errorOf(sessionWith(R"("force_params": {"vfc-radius": 2.5})")) ==
        R"("force_params.vfc-radius" = 2.5 must be a whole number.)");
  CHECK(errorOf(sessionWith(R"("force_params": {"vfc-kernel": "box"})")).find("gaussian") !=
        std::string::npos);
  CHECK(errorOf(
            sessionWith(R"("snakes": [{"force": "balloon", "points": [[1, 1], [9, 1], [5, 8]]}])"))
            .find("ggvf") != std::string::npos);
}

TEST_CASE("session counts are bounded before any snake is built") {
  std::string many = R"("snakes": [)";
  for (int i = 0; i < 257; ++i)
    many += std::string(i ? "," : "") + R"({"points": [[1,1],[9,1],[5,8]]})";
  CHECK(errorOf(sessionWith(many + "]")) ==
        R"("snakes" has more than 256 snakes; at most 256 run at once.)");
  // Counted while the text streams by, before a document is built; values and depth too.
  std::string values = R"("junk": [)";
  for (int i = 0; i < 4000001; ++i) values += i ? ",0" : "0";
  CHECK(errorOf(sessionWith(values + "]")).find("more than 4000000 JSON values") !=
        std::string::npos);
  CHECK(errorOf(sessionWith(R"("junk": )" + std::string(100, '[') + std::string(100, ']')))
            .find("nests deeper than 64") != std::string::npos);
  std::string big = R"("snakes": [{"points": [)";
  for (int i = 0; i < 100001; ++i) big += std::string(i ? "," : "") + "[1,1]";
  CHECK(errorOf(sessionWith(big + "]}]")).find("at most 100000") != std::string::npos);
  CHECK(errorOf(std::string(17u << 20, ' ')).find("at most 16 MiB") != std::string::npos);
  // The colormap echoed short, whatever its length.
  const std::string message =
      errorOf(sessionWith(R"("display": {"colormap": ")" + std::string(1 << 20, 'x') + "\"}"));
  CHECK(message.find("\"display.colormap\" must be gray, viridis or inferno") == 0);
  CHECK(message.size() < 200);
}

TEST_CASE("snake specs and the region rectangle are bounded before any work") {
  CHECK_THROWS_WITH_AS(parseOptions({"--snake", "circle:128,128,1e8"}),
                       doctest::Contains("is too large"), ParameterError);
  CHECK_NOTHROW(parseOptions({"--snake", "circle:128,128,1e6"}));  // refused against the image
  std::vector<std::string> args;
  for (int i = 0; i < 257; ++i) {
    args.push_back("--snake");
    args.push_back("circle:20,20,5");
  }
  CHECK_THROWS_WITH_AS(parseOptions(args), doctest::Contains("at most 256"), ParameterError);
  // Huge values are refused as doubles, before they become ints (UBSan overflow before).
  CHECK_THROWS_WITH_AS(parseRegionRect("2147483647,2147483647,2147483647,2147483647"),
                       doctest::Contains("--region-snake takes X,Y,W,H"), ParameterError);
  CHECK_THROWS_AS(parseRegionRect("99999999999,0,5,5"), ParameterError);
  CHECK_THROWS_AS(parseRegionRect("1,2,3"), ParameterError);
  CHECK_THROWS_AS(parseRegionRect("1,2,3,4,5"), ParameterError);
  CHECK_THROWS_AS(parseRegionRect("1.5,2,3,4"), ParameterError);
  CHECK_THROWS_AS(parseRegionRect("0,0,2,4"), ParameterError);
  CHECK(parseRegionRect("10,20,30,40") == std::array<int, 4>{10, 20, 30, 40});
  // Long values are echoed short.
  try {
    parseOptions({"--colormap", std::string(100000, 'c')});
    FAIL("accepted");
  } catch (const ParameterError& e) {
    CHECK(std::string(e.what()).size() < 200);
  }
}
