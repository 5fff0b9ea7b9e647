// Command-line parsing: every bad input is one clear ParameterError.
#include <doctest/doctest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <sstream>

#include "cli/cli_params.hpp"
#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "cli/run_checks.hpp"
#include "demos/demos.hpp"
#include "gvflab/error.hpp"
#include "io/contours_json.hpp"
#include "io/run_outputs.hpp"
#include "io/session_file.hpp"
#include "test_support.hpp"

using namespace gvflab;
using namespace gvflab::app;

TEST_CASE("options parse the documented flags") {
  Options o = parseOptions({"--headless", "--phantom", "room", "--mu", "0.1", "--sigma", "2",
                            "--iterations", "40", "--device", "cpu", "--save-field", "f.mha",
                            "--save-magnitude", "m.png", "--report", "r.json"});
  CHECK(o.mode == Mode::Headless);
  CHECK(*o.phantom == "room");
  CHECK(o.gvf.mu == 0.1);
  CHECK(o.gvf.sigma == 2.0);
  CHECK(o.iterations == 40);
  CHECK(o.device == "cpu");
  CHECK(*o.saveField == "f.mha");
  CHECK(*o.report == "r.json");
  Options v = parseOptions({"image.png"});
  CHECK(v.mode == Mode::Viewer);
  CHECK(*v.image == "image.png");
  CHECK(parseOptions({"--list-devices"}).mode == Mode::ListDevices);
  CHECK(parseOptions({}).gvf.mu == findSpec(gvfParamSpecs(), "mu").defaultValue);
}

TEST_CASE("storage flags pick precision and memory") {
  Options o =
      parseOptions({"--headless", "--phantom", "u", "--precision", "snorm16", "--memory", "image"});
  CHECK(o.storage.precision == Precision::SNorm16);
  REQUIRE(o.storage.memory.has_value());
  CHECK(*o.storage.memory == MemoryKind::Image);
  CHECK_FALSE(parseOptions({"--memory", "auto"}).storage.memory.has_value());
  CHECK(parseOptions({}).storage.precision == Precision::F32);
  CHECK_THROWS_WITH_AS(parseOptions({"--precision", "f64"}), doctest::Contains("f16"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--memory", "texture"}), doctest::Contains("buffer"),
                       ParameterError);
}

TEST_CASE("bad command lines give one sentence each") {
  CHECK_THROWS_WITH_AS(parseOptions({"--mu", "abc"}), doctest::Contains("needs a number"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--mu", "nan"}), doctest::Contains("number"), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--mu", "2e4"}), doctest::Contains("outside"), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--sigma", "-1"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--iterations", "1.5"}), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--mu"}), doctest::Contains("needs a value"), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--bogus"}), doctest::Contains("Unknown option"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--headless"}), doctest::Contains("needs an image"),
                       ParameterError);
  CHECK_THROWS_AS(parseOptions({"--phantom", "square"}), InputError);
  CHECK_THROWS_AS(parseOptions({"a.png", "b.png"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"a.png", "--phantom", "u"}), ParameterError);
}

TEST_CASE("snake flags: specs, force, parameters from the spec table") {
  Options o = parseOptions({"--headless",
                            "--phantom",
                            "u",
                            "--snake",
                            "circle:64,60.5,40",
                            "--snake",
                            "polygon:10,10,30,10,20,25",
                            "--snake-force",
                            "traditional",
                            "--alpha",
                            "0.2",
                            "--beta",
                            "0",
                            "--gamma",
                            "2",
                            "--kappa",
                            "0.5",
                            "--pressure",
                            "-0.1",
                            "--snake-iterations",
                            "77",
                            "--save-contours",
                            "c.json",
                            "--capture-map",
                            "m.png"});
  REQUIRE(o.snakes.snakes.size() == 2);
  CHECK(o.snakes.snakes[0].isCircle());
  CHECK(o.snakes.snakes[0].cy == 60.5);
  CHECK(o.snakes.snakes[0].radius == 40);
  CHECK(o.snakes.snakes[1].polygon.size() == 3);
  CHECK(o.snakes.force == SnakeForce::Traditional);
  CHECK(o.snakes.params.alpha == 0.2);
  CHECK(o.snakes.params.beta == 0);
  CHECK(o.snakes.params.gamma == 2);
  CHECK(o.snakes.params.kappa == 0.5);
  CHECK(o.snakes.params.pressure == -0.1);
  CHECK(o.snakes.iterations == 77);
  CHECK(*o.snakes.saveContours == "c.json");
  CHECK(*o.snakes.captureMap == "m.png");
  Options d = parseOptions({});
  CHECK(d.snakes.params.alpha == findSpec(snakeParamSpecs(), "alpha").defaultValue);
  CHECK(d.snakes.force == SnakeForce::Gvf);
  CHECK(!d.snakes.any());
  CHECK(helpText().find("--snake circle:CX,CY,R") != std::string::npos);
  CHECK(helpText().find("--capture-threshold") != std::string::npos);
}

TEST_CASE("bad snake specifications give a clear error") {
  const char* bad[] = {
      "square:1,2,3",      "circle:10,20",    "circle:10,20,0",      "circle:10,x,5",
      "polygon:1,2,3,4,5", "polygon:1,2,3,4", "polygon:0,0,1,1,2,2", "circle",
      "circle:1,,2",       "polygon:"};
  for (const char* spec : bad) {
    CAPTURE(spec);
    CHECK_THROWS_WITH_AS(parseOptions({"--snake", spec}), doctest::Contains("--snake"),
                         ParameterError);
  }
  CHECK_THROWS_WITH_AS(parseOptions({"--snake-force", "balloon"}), doctest::Contains("gvf"),
                       ParameterError);
  CHECK_THROWS_AS(parseOptions({"--alpha", "-1"}), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--dmin", "2", "--dmax", "3"}),
                       doctest::Contains("twice dmin"), ParameterError);
  // --save-contours without snakes: refused with the run's checks (test "a session's snakes").
}

TEST_CASE("--snake SPEC@FORCE sets that snake's force; without @ the --snake-force default") {
  Options o = parseOptions({"--snake", "circle:275,170,100@traditional", "--snake",
                            "polygon:10,10,30,10,20,25@gvf", "--snake", "circle:50,50,20",
                            "--snake-force", "traditional"});
  REQUIRE(o.snakes.snakes.size() == 3);
  CHECK(o.snakes.snakes[0].radius == 100);
  CHECK(o.snakes.snakes[0].forceOr(SnakeForce::Gvf) == SnakeForce::Traditional);
  CHECK(o.snakes.snakes[1].polygon.size() == 3);
  CHECK(o.snakes.snakes[1].forceOr(o.snakes.force) == SnakeForce::Gvf);
  CHECK(!o.snakes.snakes[2].force);
  CHECK(o.snakes.snakes[2].forceOr(o.snakes.force) == SnakeForce::Traditional);
  for (const char* bad : {"circle:1,2,3@balloon", "circle:1,2,3@", "@gvf", "circle:1,2@gvf"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parseOptions({"--snake", bad}), doctest::Contains("--snake"),
                         ParameterError);
  }
  CHECK_THROWS_WITH_AS(parseOptions({"--snake", "circle:1,2,3@balloon"}),
                       doctest::Contains("vfc or distance"), ParameterError);
  CHECK(helpText().find("@traditional") != std::string::npos);
  CHECK(parseOptions({"--snake-hold-gap", "12"}).snakes.params.holdGap == 12);
  CHECK_THROWS_AS(parseOptions({"--snake-hold-gap", "-1"}), ParameterError);
}

TEST_CASE("a force per snake and the forces' parameters from the one table") {
  const Options o = parseOptions({"--snake", "circle:20,20,5@ggvf", "--snake", "circle:20,20,5@vfc",
                                  "--snake", "circle:20,20,5@distance", "--ggvf-k", "0.2",
                                  "--vfc-radius", "12", "--vfc-kernel", "gaussian", "--vfc-zeta",
                                  "4", "--distance-threshold", "0.5", "--snake-force", "vfc"});
  REQUIRE(o.snakes.snakes.size() == 3);
  CHECK(o.snakes.snakes[0].forceOr(SnakeForce::Gvf) == SnakeForce::Ggvf);
  CHECK(o.snakes.snakes[1].forceOr(SnakeForce::Gvf) == SnakeForce::Vfc);
  CHECK(o.snakes.snakes[2].forceOr(SnakeForce::Gvf) == SnakeForce::Distance);
  CHECK(o.snakes.force == SnakeForce::Vfc);
  CHECK(o.snakes.forces.ggvf.k == doctest::Approx(0.2));
  CHECK(o.snakes.forces.vfc.radius == 12);
  CHECK(o.snakes.forces.vfc.kernel == VfcKernel::Gaussian);
  CHECK(o.snakes.forces.vfc.zeta == doctest::Approx(4));
  CHECK(o.snakes.forces.distance.threshold == doctest::Approx(0.5));
  // Ranges and sentences from force_params.cpp's tables.
  CHECK_THROWS_WITH_AS(parseOptions({"--ggvf-k", "100"}), doctest::Contains("ggvf-k"),
                       ParameterError);
  CHECK_THROWS_AS(parseOptions({"--vfc-radius", "0"}), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--vfc-kernel", "box"}), doctest::Contains("gaussian"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--snake", "circle:20,20,5@balloon"}),
                       doctest::Contains("ggvf"), ParameterError);
}

TEST_CASE("--demo NAME stands for its flags; later flags override them") {
  REQUIRE(demos().size() == 8);
  for (const auto& d : demos()) {
    CAPTURE(d.name);
    Options o = parseOptions({"--headless", "--demo", d.name});
    CHECK(*o.demo == d.name);
    CHECK((o.image || o.phantom));
    CHECK(!d.explanation[0].empty());
    CHECK(!d.explanation[1].empty());
    if (o.image) CHECK(std::filesystem::exists(*o.image));  // the shipped asset is there
  }
  Options u = parseOptions({"--headless", "--demo", "u-concavity", "--iterations", "40"});
  CHECK(*u.phantom == "u");
  CHECK(u.iterations == 40);  // overrides the demo's 1500
  REQUIRE(u.snakes.snakes.size() == 2);
  CHECK(u.snakes.snakes[0].polygon == u.snakes.snakes[1].polygon);  // twins from one contour
  CHECK(u.snakes.snakes[0].forceOr(SnakeForce::Traditional) == SnakeForce::Gvf);
  CHECK(u.snakes.snakes[1].forceOr(SnakeForce::Gvf) == SnakeForce::Traditional);
  CHECK(parseOptions({"--demo", "capture-range"}).snakes.snakes.size() == 16);
  CHECK(parseOptions({"--demo", "region"}).regionSnake);
  const Options forces = parseOptions({"--demo", "forces"});
  REQUIRE(forces.snakes.snakes.size() == 8);  // around the U and the slot, under four forces
  CHECK(forces.snakes.snakes[2].forceOr(SnakeForce::Gvf) == SnakeForce::Ggvf);
  CHECK(forces.snakes.snakes[7].forceOr(SnakeForce::Gvf) == SnakeForce::Distance);
  CHECK(forces.snakes.forces.ggvf.k == doctest::Approx(0.2));
  CHECK_THROWS_WITH_AS(parseOptions({"--demo", "teapot"}), doctest::Contains("u-concavity"),
                       ParameterError);
  CHECK_THROWS_AS(parseOptions({"--demo", "room", "--demo", "u-concavity"}), ParameterError);
  CHECK(helpText().find("--demo NAME") != std::string::npos);
}

TEST_CASE("sessions keep starting and current contours and restart from either") {
  SessionFile f;
  f.phantom = "u";
  SavedSnake a;
  a.force = SnakeForce::Traditional;
  a.pressure = 0.25;
  a.points = {{10, 10}, {30, 10}, {20, 25}};
  a.initial = {{5, 5}, {40, 5}, {20, 35}, {4, 30}};
  SavedSnake b;
  b.points = {{50, 50}, {70, 50}, {60, 65}};
  b.initial = b.points;
  f.snakes = {a, b};
  const SessionFile back = sessionFromJson(sessionToJson(f));
  REQUIRE(back.snakes.size() == 2);
  CHECK(back.snakes[0].points == a.points);
  CHECK(back.snakes[0].initial == a.initial);
  CHECK(back.snakes[0].force == SnakeForce::Traditional);
  CHECK(*back.snakes[0].pressure == 0.25);
  CHECK(!back.snakes[1].pressure);

  Options current, initial;
  applySession(back, current);
  applySession(back, initial, SessionStart::Initial);
  REQUIRE(current.snakes.snakes.size() == 2);
  CHECK(current.snakes.snakes[0].polygon.size() == 3);  // resumes from the current contour
  CHECK(initial.snakes.snakes[0].polygon.size() == 4);  // replays from the start
  CHECK(current.snakes.snakes[0].initial.size() == 4);  // and keeps the start either way
  CHECK(current.snakes.snakes[0].forceOr(SnakeForce::Gvf) == SnakeForce::Traditional);
  CHECK(current.snakes.snakes[1].forceOr(SnakeForce::Traditional) == SnakeForce::Gvf);
  CHECK(*current.snakes.snakes[0].pressure == 0.25);

  // Sessions written before starting contours were saved start from their points.
  const std::string old = R"({"gvflab_session": 1, "phantom": "u",
      "snakes": [{"force": "gvf", "points": [[1, 1], [9, 1], [5, 8]]}]})";
  const SessionFile o = sessionFromJson(old);
  CHECK(o.snakes[0].initial == o.snakes[0].points);
  CHECK_THROWS_AS(sessionFromJson(R"({"gvflab_session": 1, "phantom": "u", "snakes": [
      {"points": [[1, 1], [9, 1], [5, 8]], "initial_points": [[1, 1]]}]})"),
                  InputError);
  CHECK(parseOptions({"--session-start", "initial"}).sessionFromInitial);
  CHECK_THROWS_AS(parseOptions({"--session-start", "middle"}), ParameterError);
}

TEST_CASE("contours JSON: force, state and initial points beside the old members") {
  ContourRecord r;
  r.points = {{1, 2}, {3, 4}, {5, 1}};
  r.initialPoints = ContourRecord::Points{{0, 0}, {6, 0}, {3, 5}};
  r.force = "traditional";
  r.state = "stalled";
  r.iterations = 100;
  const auto c = nlohmann::json::parse(contoursJson({r}))["contours"][0];
  CHECK(c["initial_points"] == nlohmann::json::parse("[[0, 0], [6, 0], [3, 5]]"));
  CHECK(c["force"] == "traditional");
  CHECK(c["state"] == "stalled");
  CHECK(c["converged"] == false);
  ContourRecord region;  // region snakes write only the old members
  region.points = r.points;
  CHECK(contoursJson({region}).find("state") == std::string::npos);
}

TEST_CASE("region snake options") {
  Options o =
      parseOptions({"--headless", "--phantom", "blob", "--region-snake", "10,12,40,30", "--noise",
                    "poisson", "--d-max", "8", "--min-segment", "12", "--save-contours", "c.json"});
  CHECK(o.regionSnake);
  REQUIRE(o.regionRect);
  CHECK((*o.regionRect)[0] == 10);
  CHECK((*o.regionRect)[3] == 30);
  CHECK(o.region.noise == NoiseModel::Poisson);
  CHECK(o.region.dMax == 8);
  CHECK(o.region.minSegment == 12);
  CHECK(*o.snakes.saveContours == "c.json");
  Options d =
      parseOptions({"--headless", "--phantom", "blob", "--region-snake", "--report", "r.json"});
  CHECK(d.regionSnake);
  CHECK_FALSE(d.regionRect);
  CHECK(*d.report == "r.json");
  CHECK_THROWS_AS(parseOptions({"--region-snake", "1,2,3"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--region-snake", "1,2,1,1"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--noise", "laplace"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--d-max", "0"}), ParameterError);
}

TEST_CASE("every numeric flag of the command line is checked against its spec") {
  for (const ParamSpec& s : cliParamSpecs()) {
    CAPTURE(s.key);
    auto arg = [&](double v) {
      std::ostringstream t;
      t << v;
      if (s.key == "spacing") return t.str() + "," + t.str();
      return s.key == "size" ? t.str() + "x" + t.str() : t.str();
    };
    // --page is a headless flag (the viewer opens a TIFF stack as a volume).
    const auto parse = [&](const std::string& value) {
      std::vector<std::string> args;
      if (s.key == "page") args = {"--headless", "in.tif"};
      args.insert(args.end(), {"--" + s.key, value});
      return parseOptions(args);
    };
    CHECK_NOTHROW(parse(arg(s.minValue)));
    CHECK_NOTHROW(parse(arg(s.maxValue)));
    CHECK_THROWS_WITH_AS(parse(arg(s.maxValue * 2 + 1)), doctest::Contains(("--" + s.key).c_str()),
                         ParameterError);
    CHECK_THROWS_WITH_AS(parse(arg(s.minValue / 2 - 1)), doctest::Contains(("--" + s.key).c_str()),
                         ParameterError);
    CHECK(helpText().find("--" + s.key) != std::string::npos);
  }
  CHECK_THROWS_WITH_AS(parseOptions({"in.tif", "--page", "2"}), doctest::Contains("--headless"),
                       ParameterError);
  CHECK(parseOptions({}).phantomSize == findSpec(cliParamSpecs(), "phantom-size").defaultValue);
  CHECK(parseOptions({}).fps == findSpec(cliParamSpecs(), "fps").defaultValue);
  CHECK(parseOptions({"--race-budget", "0.5"}).raceBudgetMs == 0.5);
  CHECK(parseOptions({}).raceBudgetMs == 0);  // the device's default
}

// ---- Issue 18: every input checked before any output; nothing substituted; nothing left.

namespace {
std::filesystem::path writeText(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
  return p;
}
}  // namespace

// --session snakes were not counted by --save-contours: parsing refused "needs at least one
// --snake" before the session's snakes were applied.
TEST_CASE("a session's snakes count for --save-contours") {
  const auto dir = test::scratchDir("cli_session_contours");
  const auto session = writeText(dir / "s.json", R"({"gvflab_session": 1, "phantom": "u",
      "phantom_size": 64, "snakes": [{"points": [[10, 10], [50, 10], [30, 50]]}]})");
  const std::string out = (dir / "c.json").string();
  Options o =
      parseCommandLine({"--headless", "--session", session.string(), "--save-contours", out});
  const RunInput in = checkHeadlessRun(o);  // as main does
  CHECK(in.width() == 64);
  REQUIRE(o.snakes.snakes.size() == 1);
  // Without snakes anywhere it is still refused, naming the flag.
  Options none = parseOptions({"--headless", "--phantom", "u", "--save-contours", out});
  CHECK_THROWS_WITH_AS(checkHeadlessRun(none), doctest::Contains("--save-contours needs"),
                       ParameterError);
}

// An image on the command line with a --session naming no image: the session replaced the
// image with nothing and the run dereferenced an empty optional (ASan: use after free).
TEST_CASE("an image on the command line wins over a session naming none; nothing is substituted") {
  const auto dir = test::scratchDir("cli_session_image");
  const auto session = writeText(dir / "s.json", R"({"gvflab_session": 1})");
  Options o =
      parseCommandLine({"--headless", (dir / "given.png").string(), "--session", session.string()});
  REQUIRE(o.image);
  CHECK(*o.image == (dir / "given.png").string());
  // It does not exist: the run says so and never falls back to a phantom.
  CHECK_THROWS_WITH_AS(loadRunInput(o), doctest::Contains("given.png' does not exist"), InputError);
  Options bare = parseCommandLine({"--headless", "--session", session.string()});
  CHECK_THROWS_WITH_AS(loadRunInput(bare), doctest::Contains("names no image or phantom"),
                       ParameterError);
}

// A session replaced what the command line named (--mu, --snake, the image or phantom).
TEST_CASE("flags on the command line win over a --session; --snake adds to its snakes") {
  const auto dir = test::scratchDir("cli_session_flags");
  const auto session = writeText(dir / "s.json", R"({"gvflab_session": 1, "phantom": "room",
      "phantom_size": 64, "solver": {"mu": 0.12, "sigma": 2},
      "snakes": [{"points": [[10, 10], [50, 10], [30, 50]]}]})");
  const Options plain = parseCommandLine({"--headless", "--session", session.string()});
  CHECK(*plain.phantom == "room");
  CHECK(plain.gvf.mu == 0.12);
  CHECK(plain.muGiven);
  CHECK(plain.snakes.snakes.size() == 1);
  const Options o = parseCommandLine({"--headless", "--session", session.string(), "--mu", "0.05",
                                      "--phantom", "u", "--snake", "circle:32,32,10"});
  CHECK(*o.phantom == "u");
  CHECK(o.gvf.mu == 0.05);
  CHECK(o.gvf.sigma == 2);  // not on the command line: the session's
  CHECK(o.snakes.snakes.size() == 2);
  const Options img =
      parseCommandLine({"--headless", (dir / "a.png").string(), "--session", session.string()});
  CHECK(*img.image == (dir / "a.png").string());
  CHECK_FALSE(img.phantom);
}

// Invalid snakes and outputs were found only after the field was written.
TEST_CASE("snakes and output paths are refused before anything runs") {
  const auto dir = test::scratchDir("cli_run_checks");
  auto opts = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = {"--headless",
                                     "--phantom",
                                     "u",
                                     "--phantom-size",
                                     "64",
                                     "--save-field",
                                     (dir / "f.mha").string()};
    args.insert(args.end(), extra.begin(), extra.end());
    return parseOptions(args);
  };
  CHECK_NOTHROW(checkHeadlessRun(opts({"--snake", "circle:32,32,20"})));
  CHECK_THROWS_WITH_AS(checkHeadlessRun(opts({"--snake", "circle:60,32,20"})),
                       doctest::Contains("lies outside the 64x64 image"), ParameterError);
  CHECK_THROWS_WITH_AS(
      checkHeadlessRun(opts({"--snake", "circle:32,32,31", "--phantom-size", "1024", "--dmin",
                             "0.1", "--dmax", "0.2", "--snake", "circle:500,500,490"})),
      doctest::Contains("at most 16384"), ParameterError);
  Options nan = opts({"--snake", "circle:32,32,20"});
  nan.snakes.snakes[0].polygon = {{1, 1}, {std::numeric_limits<float>::quiet_NaN(), 3}, {9, 2}};
  CHECK_THROWS_WITH_AS(checkHeadlessRun(nan), doctest::Contains("NaN"), ParameterError);
  Options flat = opts({"--snake", "circle:32,32,20"});
  flat.snakes.snakes[0].polygon = {{1, 1}, {2, 2}, {3, 3}};  // as a session could hold
  CHECK_THROWS_WITH_AS(checkHeadlessRun(flat), doctest::Contains("enclose an area"),
                       ParameterError);
  CHECK_THROWS_WITH_AS(checkHeadlessRun(opts({"--report", (dir / "no" / "r.json").string()})),
                       doctest::Contains("does not exist"), ParameterError);
  CHECK_THROWS_WITH_AS(checkHeadlessRun(opts({"--report", (dir / "f.mha").string()})),
                       doctest::Contains("are the same file"), ParameterError);
  CHECK_THROWS_WITH_AS(checkHeadlessRun(opts({"--report", dir.string()})),
                       doctest::Contains("is a folder"), ParameterError);
  CHECK_THROWS_WITH_AS(checkHeadlessRun(opts({"--save-magnitude", (dir / "m.jpg").string()})),
                       doctest::Contains("must end in .png"), ParameterError);
  CHECK(std::filesystem::is_empty(dir));  // nothing was written by any of them
}

TEST_CASE("a failed run removes the outputs it already wrote") {
  const auto dir = test::scratchDir("cli_run_outputs");
  {
    RunOutputs outputs;
    outputs.write((dir / "a.txt").string(), [&] { writeText(dir / "a.txt", "a"); });
    CHECK(std::filesystem::exists(dir / "a.txt"));
  }  // not committed: the run failed
  CHECK_FALSE(std::filesystem::exists(dir / "a.txt"));
  {
    RunOutputs outputs;
    outputs.write((dir / "b.txt").string(), [&] { writeText(dir / "b.txt", "b"); });
    outputs.commit();
  }
  CHECK(std::filesystem::exists(dir / "b.txt"));
}

TEST_CASE("--mu is checked by the solver's rule, --quiet parses") {
  // Multigrid has its own range (no stability bound): --mu 0.5 parses for either solver and
  // is refused or run by checkMu (tests/cli/cli_test.cmake runs both).
  CHECK(parseOptions({"--solver", "multigrid", "--mu", "0.5"}).gvf.mu == 0.5);
  CHECK(parseOptions({"--mu", "0.1"}).muGiven);
  CHECK_FALSE(parseOptions({}).muGiven);
  CHECK_THROWS_WITH_AS(parseOptions({"--mu", "nan"}), doctest::Contains("--mu"), ParameterError);
  CHECK(parseOptions({"--headless", "--phantom", "u", "--quiet"}).quiet);
  CHECK(helpText().find("--quiet") != std::string::npos);
}

TEST_CASE("open snake specs: line and path with their boundary, kept by sessions") {
  Options o = parseOptions({"--snake", "line:1,2,30,2", "--snake",
                            "path:5,5,10,8,15,5:boundary=fixed-free@traditional"});
  REQUIRE(o.snakes.snakes.size() == 2);
  CHECK(o.snakes.snakes[0].boundary == SnakeBoundary::Free);
  CHECK(o.snakes.snakes[0].polygon.size() == 2);
  CHECK(o.snakes.snakes[1].boundary == SnakeBoundary::FixedFree);
  CHECK(o.snakes.snakes[1].polygon.size() == 3);
  CHECK(*o.snakes.snakes[1].force == SnakeForce::Traditional);
  CHECK(parseOptions({"--snake", "circle:20,20,5"}).snakes.snakes[0].boundary ==
        SnakeBoundary::Periodic);
  for (const char* bad : {"line:1,2,3", "line:1,2,3,4,5,6", "path:1,1", "line:5,5,5,5",
                          "polygon:1,1,9,1,5,7:boundary=free", "path:1,1,5,5:boundary=open",
                          "path:1,1,5,5:boundary=periodic", "path:1,1,5,5:ends=free"}) {
    CAPTURE(bad);
    CHECK_THROWS_WITH_AS(parseOptions({"--snake", bad}), doctest::Contains("--snake"),
                         ParameterError);
  }
  SessionFile f;
  f.phantom = "u";
  SavedSnake s;
  s.points = {{10, 10}, {30, 10}};
  s.initial = s.points;
  s.boundary = SnakeBoundary::Fixed;
  f.snakes = {s};
  const SessionFile back = sessionFromJson(sessionToJson(f));
  CHECK(back.snakes[0].boundary == SnakeBoundary::Fixed);
  Options resumed;
  applySession(back, resumed);
  CHECK(resumed.snakes.snakes[0].boundary == SnakeBoundary::Fixed);
}

TEST_CASE("--edge-map and --v0 FILE: headless only, named files") {
  const Options o =
      parseOptions({"--headless", "--phantom", "u", "--edge-map", "f.png", "--v0", "v.nrrd"});
  CHECK(*o.edgeMap == "f.png");
  CHECK(*o.v0File == "v.nrrd");
  CHECK(o.gvf.v0Mode == V0Mode::EdgeGradient);
  CHECK_THROWS_WITH_AS(parseOptions({"--phantom", "u", "--edge-map", "f.png"}),
                       doctest::Contains("--headless"), ParameterError);
  CHECK_THROWS_WITH_AS(parseOptions({"--headless", "--phantom", "u", "--v0", "v.txt"}),
                       doctest::Contains("field file"), ParameterError);
  CHECK_THROWS_WITH_AS(
      parseOptions({"--headless", "--phantom", "u", "--edge-map", "f.png", "--v0", "image"}),
      doctest::Contains("--v0 image"), ParameterError);
  CHECK_THROWS_AS(
      parseOptions({"--headless", "--phantom", "u", "--edge-map", "a.png", "--edge-map", "b.png"}),
      ParameterError);
}
