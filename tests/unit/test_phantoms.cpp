#include <doctest/doctest.h>

#include "gvflab/error.hpp"
#include "gvflab/phantoms.hpp"

using namespace gvflab;

TEST_CASE("U phantom has a deep, open concavity") {
  Image2D u = makePhantom("u", 200);
  CHECK(u.width == 200);
  CHECK(u.at(100, 60) == 0.0f);   // inside the notch
  CHECK(u.at(100, 120) == 0.0f);  // deep in the notch
  CHECK(u.at(100, 150) == 1.0f);  // the bottom of the U
  CHECK(u.at(60, 60) == 1.0f);    // left arm
  CHECK(u.at(140, 60) == 1.0f);   // right arm
  CHECK(u.at(10, 10) == 0.0f);    // background
}

TEST_CASE("room phantom has walls and a doorway; blob is noisy and deterministic") {
  Image2D room = makePhantom("room", 100);
  CHECK(room.at(17, 50) == 1.0f);  // left wall
  CHECK(room.at(82, 50) == 0.0f);  // doorway
  CHECK(room.at(50, 50) == 0.0f);  // inside
  Image2D a = makePhantom("blob", 64), b = makePhantom("blob", 64);
  CHECK(a.pixels == b.pixels);
  CHECK(a.at(0, 0) != a.at(1, 0));
}

TEST_CASE("phantom errors name the choices") {
  CHECK_THROWS_WITH_AS(makePhantom("x"), doctest::Contains("u, room, blob"), InputError);
  CHECK_THROWS_AS(makePhantom("u", 4), InputError);
}
