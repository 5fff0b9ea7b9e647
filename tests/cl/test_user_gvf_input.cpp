// A researcher's own f and V0 (gvfInputFrom, replaceV0): f as given with V0 = grad f by the
// very kernel buildGvfInput uses (so the built edge map given back reproduces its input to the
// bit), V0 as given with its max |V0|^2 for the mu rule, the traditional force from the given
// f, and refusals that name the input.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "cl/cl_fixture.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/phantoms.hpp"
#include "test_support.hpp"

using namespace gvflab;

TEST_CASE("a given edge map reproduces the built input, V0 = grad f") {
  auto ctx = test::sharedContext();
  const Image2D img = test::randomImage(37, 29, 5);
  const GvfInput built = buildGvfInput(*ctx, img, 1.0);
  const Image2D f = readEdgeMap(*ctx, built);
  const GvfInput mine = gvfInputFrom(*ctx, f);
  CHECK_FALSE(mine.userV0);
  CHECK(readEdgeMap(*ctx, mine).pixels == f.pixels);
  CHECK(readV0(*ctx, mine).data == readV0(*ctx, built).data);
  CHECK(mine.maxV0Squared == built.maxV0Squared);

  Volume vol(12, 10, 6);
  for (std::size_t i = 0; i < vol.voxels.size(); ++i) vol.voxels[i] = std::sin(0.37 * i);
  const GvfInput built3 = buildGvfInput(*ctx, vol, 1.0);
  const GvfInput mine3 = gvfInputFrom(*ctx, readEdgeVolume(*ctx, built3));
  CHECK(readV0Volume(*ctx, mine3).data == readV0Volume(*ctx, built3).data);
  CHECK(mine3.maxV0Squared == built3.maxV0Squared);
}

TEST_CASE("a given V0 is used as it is; the traditional force stays grad f") {
  auto ctx = test::sharedContext();
  const Image2D img = makePhantom("u", 32);
  GvfInput input = buildGvfInput(*ctx, img, 1.0);
  const Field2D gradF = readV0(*ctx, input);
  Field2D v0(32, 32);
  for (std::size_t i = 0; i < v0.data.size(); i += 2) v0.data[i] = 0.6f, v0.data[i + 1] = -0.8f;
  replaceV0(*ctx, input, v0);
  CHECK(input.userV0);
  CHECK(readV0(*ctx, input).data == v0.data);
  CHECK(input.maxV0Squared == doctest::Approx(1.0).epsilon(1e-6));
  const GvfInput edges = edgeGradientInput(*ctx, input, V0Mode::EdgeGradient, img, 1.0);
  CHECK(readV0(*ctx, edges).data == gradF.data);
  const GvfInput both = gvfInputFrom(*ctx, readEdgeMap(*ctx, input), &v0);
  CHECK(readV0(*ctx, both).data == v0.data);
}

TEST_CASE("given inputs are refused with their names") {
  auto ctx = test::sharedContext();
  Image2D f(16, 16);
  Field2D small(8, 16);
  auto message = [&](auto&& call) {
    try {
      call();
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK(message([&] {
          gvfInputFrom(*ctx, f, &small, "F", "--v0 'v.mha'");
        }).find("--v0 'v.mha' is 8x16") != std::string::npos);
  Field2D nan(16, 16);
  nan.data[7] = NAN;
  CHECK(message([&] { gvfInputFrom(*ctx, f, &nan, "F", "v0"); }).find("v0 contains NaN") !=
        std::string::npos);
  f.pixels[3] = INFINITY;
  CHECK(message([&] {
          gvfInputFrom(*ctx, f, nullptr, "edge_map");
        }).find("edge_map contains NaN") != std::string::npos);
  GvfInput input = buildGvfInput(*ctx, makePhantom("u", 16), 1.0);
  CHECK(message([&] { replaceV0(*ctx, input, Field3D(16, 16, 2), "v0"); }).find("3D field") !=
        std::string::npos);
}
