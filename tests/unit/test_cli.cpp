// Command-line parsing: every bad input is one clear ParameterError.
#include <doctest/doctest.h>

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
  CHECK(*o.saveContours == "c.json");
  Options d = parseOptions({"--headless", "--phantom", "blob", "--region-snake", "--report", "r.json"});
  CHECK(d.regionSnake);
  CHECK_FALSE(d.regionRect);
  CHECK(*d.report == "r.json");
  CHECK_THROWS_AS(parseOptions({"--region-snake", "1,2,3"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--region-snake", "1,2,1,1"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--noise", "laplace"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--d-max", "0"}), ParameterError);
}
