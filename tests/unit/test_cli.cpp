// Command-line parsing: every bad input is one clear ParameterError.
#include <doctest/doctest.h>

#include <sstream>

#include "cli/cli_params.hpp"
#include "cli/options.hpp"
#include "gvflab/error.hpp"

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
  Options o = parseOptions({"--headless", "--phantom", "u", "--precision", "snorm16", "--memory",
                            "image"});
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
  CHECK_THROWS_WITH_AS(parseOptions({"--mu", "0.9"}), doctest::Contains("outside"), ParameterError);
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
  Options o = parseOptions({"--headless", "--phantom", "u", "--snake", "circle:64,60.5,40",
                            "--snake", "polygon:10,10,30,10,20,25", "--snake-force",
                            "traditional", "--alpha", "0.2", "--beta", "0", "--gamma", "2",
                            "--kappa", "0.5", "--pressure", "-0.1", "--snake-iterations", "77",
                            "--save-contours", "c.json", "--capture-map", "m.png"});
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
  const char* bad[] = {"square:1,2,3", "circle:10,20", "circle:10,20,0", "circle:10,x,5",
                       "polygon:1,2,3,4,5", "polygon:1,2,3,4", "polygon:0,0,1,1,2,2",
                       "circle", "circle:1,,2", "polygon:"};
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
  CHECK_THROWS_WITH_AS(parseOptions({"--save-contours", "c.json"}),
                       doctest::Contains("needs at least one --snake"), ParameterError);
}

TEST_CASE("region snake options") {
  Options o = parseOptions({"--headless", "--phantom", "blob", "--region-snake", "10,12,40,30",
                            "--noise", "poisson", "--d-max", "8", "--min-segment", "12",
                            "--save-contours", "c.json"});
  CHECK(o.regionSnake);
  REQUIRE(o.regionRect);
  CHECK((*o.regionRect)[0] == 10);
  CHECK((*o.regionRect)[3] == 30);
  CHECK(o.region.noise == NoiseModel::Poisson);
  CHECK(o.region.dMax == 8);
  CHECK(o.region.minSegment == 12);
  CHECK(*o.snakes.saveContours == "c.json");
  Options d = parseOptions({"--headless", "--phantom", "blob", "--region-snake", "--report", "r.json"});
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
      return s.key == "size" ? t.str() + "x" + t.str() : t.str();
    };
    CHECK_NOTHROW(parseOptions({"--" + s.key, arg(s.minValue)}));
    CHECK_NOTHROW(parseOptions({"--" + s.key, arg(s.maxValue)}));
    CHECK_THROWS_WITH_AS(parseOptions({"--" + s.key, arg(s.maxValue * 2 + 1)}),
                         doctest::Contains(("--" + s.key).c_str()), ParameterError);
    CHECK_THROWS_WITH_AS(parseOptions({"--" + s.key, arg(s.minValue / 2 - 1)}),
                         doctest::Contains(("--" + s.key).c_str()), ParameterError);
    CHECK(helpText().find("--" + s.key) != std::string::npos);
  }
  CHECK(parseOptions({}).phantomSize == findSpec(cliParamSpecs(), "phantom-size").defaultValue);
  CHECK(parseOptions({}).fps == findSpec(cliParamSpecs(), "fps").defaultValue);
}
