#include <doctest/doctest.h>

#include <cmath>

#include "gvflab/error.hpp"
#include "gvflab/surface_mesh.hpp"

using namespace gvflab;

TEST_CASE("remesh keeps a mesh already in range and checks its bounds") {
  SurfaceMesh sphere = sphereMesh({0, 0, 0}, 8, 1);
  SurfaceMesh same = remesh(sphere, 0.4, 1.2);
  CHECK(same.vertices.size() == sphere.vertices.size());
  CHECK(same.faces.size() == sphere.faces.size());
  CHECK(meshVolume(same) == doctest::Approx(meshVolume(sphere)));
  CHECK_THROWS_AS(remesh(sphere, 0.7, 1.2), ParameterError);  // dmax < 2 dmin
  CHECK_THROWS_AS(remesh(sphere, 0, 1.2), ParameterError);
  CHECK_THROWS_AS(remesh(sphere, NAN, 1.2), ParameterError);
}
