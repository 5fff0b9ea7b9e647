// Grid spacing in world units (gvflab/grid_spacing.hpp): the helpers, the double reference's
// gradients and Laplacians on anisotropic grids, and the Euler stability bound with spacing
// (mu_rule.hpp), which the reference's checkerboard confirms on both sides.
#include <doctest/doctest.h>

#include "gvflab/error.hpp"
#include "gvflab/grid_spacing.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/multigrid_reference.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace ref = gvflab::reference;

TEST_CASE("grid spacing helpers: unit spacing, checks and build options") {
  CHECK(isUnitSpacing({1, 1, 1}, 3));
  CHECK(isUnitSpacing({1, 1, 5}, 2));  // an image's z is never used
  CHECK(!isUnitSpacing({1, 1, 2}, 3));
  CHECK(spacingBuildOptions({1, 1, 7}, 2).empty());  // the unit-spacing kernels, unchanged
  const std::string o = spacingBuildOptions({0.8, 0.5, 2}, 3);
  CHECK(o.find("-DWORLD_SPACING") != std::string::npos);
  CHECK(o.find("-DLAP_WY=4.000000000e+00f") != std::string::npos);
  CHECK(inverseSquareSum({1, 1, 2}, 3) == doctest::Approx(2.25));
  CHECK(inverseSquareSum({1, 1, 1}, 2) == 2.0);
  CHECK(spacingText({0.8, 0.5, 2}, 3) == "0.8x0.5x2");
  for (double bad : {0.0, -1.0, double(NAN), double(INFINITY), 1e-9})
    CHECK_THROWS_WITH_AS(checkSpacing({1, bad, 1}, 2, "--spacing"),
                         doctest::Contains("--spacing must be positive and finite"),
                         ParameterError);
  CHECK_NOTHROW(checkSpacing({0.8, 0.5, 2}, 3, "--spacing"));
}

TEST_CASE("the edge map's blur is round in the world: sigma in samples of the finest axis") {
  CHECK(blurSigma(1.5, {1, 1, 1}, 3, 2) == 1.5);  // unit spacing: sigma as given
  CHECK(blurSigma(1.0, {1, 1, 2}, 3, 0) == 1.0);
  CHECK(blurSigma(1.0, {1, 1, 2}, 3, 2) == 0.5);
  CHECK(blurSigma(1.0, {0.5, 2, 9}, 2, 1) == 0.25);  // an image's z plays no part
  // A point blurred on 1 x 1 x 2 mm voxels spreads as far in millimetres along z as along x.
  ref::Grid point{31, 3, std::vector<double>(31 * 3 * 31, 0.0), 31, {1, 1, 2}};
  point.values[(15 * 3 + 1) * 31 + 15] = 1;
  const ref::Grid blurred = ref::gaussianBlur(point, 2.0);
  double sumX = 0, varX = 0, sumZ = 0, varZ = 0;  // along the lines through the point, mm^2
  for (int k = 0; k < 31; ++k) {
    const double x = blurred.values[(15 * 3 + 1) * 31 + k],
                 z = blurred.values[(k * 3 + 1) * 31 + 15];
    sumX += x, varX += x * (k - 15) * (k - 15);
    sumZ += z, varZ += z * 4.0 * (k - 15) * (k - 15);
  }
  CHECK(varX / sumX == doctest::Approx(4.0).epsilon(0.02));  // sigma 2 mm
  CHECK(varZ / sumZ == doctest::Approx(varX / sumX).epsilon(0.05));
}

// The refined build itself is checked against the device in tests/cl/test_spacing.cpp (1x0.7x2:
// z refined 3 times) and judged on balls in tests/cl/test_surface_meshes.cpp.
TEST_CASE("f and V0 of anisotropic volumes are built on a grid refined to the finest spacing") {
  using K = std::array<int, 3>;
  CHECK(edgeRefinement({1, 1, 1}, 3) == K{1, 1, 1});
  CHECK(edgeRefinement({1, 1, 2}, 3) == K{1, 1, 2});
  CHECK(edgeRefinement({1, 0.7, 2}, 3) == K{1, 1, 3});  // round(h / min h): 1.43, 2.86
  CHECK(edgeRefinement({0.8, 0.5, 2}, 3) == K{2, 1, 4});
  CHECK(edgeRefinement({0.1, 0.1, 5}, 3) == K{1, 1, kMaxRefinement});
  CHECK(edgeRefinement({1, 3, 9}, 2) == K{1, 1, 1});  // images as they are
}

TEST_CASE("Euler's stability bound with spacing: (2 - max|V0|^2) / (4 sum 1/h^2)") {
  CHECK(eulerStabilityBound(0.0, 2) == 0.25);
  CHECK(eulerStabilityBound(0.2, 3, {1, 1, 1}) == doctest::Approx(1.8 / 12));
  CHECK(eulerStabilityBound(0.2, 3, {1, 1, 2}) == doctest::Approx(1.8 / 9));
  CHECK(eulerStabilityBound(0.0, 2, {1, 0.5, 1}) == doctest::Approx(0.1));
  CHECK(eulerStabilityBound(3.0, 2, {1, 0.5, 1}) == 0.0);
  GvfInput in;
  in.width = in.height = 8;
  in.depth = 4;
  in.maxV0Squared = 0.2;
  in.spacing = {1, 1, 2};
  CHECK(muRange(SolverKind::Euler, in).high == doctest::Approx(0.2));
  CHECK(muBound(SolverKind::Multigrid, in) == kMultigridMuMax);
  const std::string why = muRefusal(SolverKind::Euler, in, 0.25);
  CHECK(why.find("spacing 1x1x2") != std::string::npos);
  CHECK(why.find("(2 - max|V0|^2) / 9") != std::string::npos);
  CHECK(muRefusal(SolverKind::Euler, in, 0.19).empty());
  in.spacing = {1, 1, 1};  // unit spacing keeps its sentence
  CHECK(muRefusal(SolverKind::Euler, in, 0.25).find("(2 - max|V0|^2) / 12") != std::string::npos);
}

TEST_CASE("the reference checkerboard grows just above the anisotropic bound, not below") {
  // V0 = 0: the bound is 2 / (4 (1 + 4)) = 0.1 on a 1 x 0.5 grid (0.25 with unit spacing).
  ref::Field v0{10, 9, std::vector<double>(2 * 90, 0.0)};
  v0.spacing = {1, 0.5, 1};
  ref::Field checker = v0;
  for (int y = 0; y < 9; ++y)
    for (int x = 0; x < 10; ++x) checker.values[2 * (y * 10 + x)] = (x + y) % 2 ? 1e-3 : -1e-3;
  CHECK(test::maxAbs(ref::eulerIterate(checker, v0, 0.105, 200).values) > 1e3);
  CHECK(test::maxAbs(ref::eulerIterate(checker, v0, 0.095, 200).values) < 1e-3);
}

TEST_CASE("the reference takes gradients and Laplacians in world units") {
  // g = 3 x + 5 z (world mm) on 0.5 x 1 x 2 mm voxels: inner gradient (3, 0, 5).
  ref::Grid g{6, 5, std::vector<double>(6 * 5 * 4), 4};
  g.spacing = {0.5, 1, 2};
  for (int z = 0; z < 4; ++z)
    for (int y = 0; y < 5; ++y)
      for (int x = 0; x < 6; ++x) g.values[(z * 5 + y) * 6 + x] = 3 * (0.5 * x) + 5 * (2.0 * z);
  const ref::Field d = ref::gradient(g);
  const std::size_t i = (2 * 5 + 2) * 6 + 3;
  CHECK(d.values[3 * i] == doctest::Approx(3));
  CHECK(d.values[3 * i + 1] == doctest::Approx(0));
  CHECK(d.values[3 * i + 2] == doctest::Approx(5));
  CHECK(d.spacing == g.spacing);
  // V = (x², y²) in world units on a 0.5 x 2 grid: the Laplacian is 2 per component, so one
  // Euler step with V0 = 0 adds 2 mu inside, and the multigrid residual is -2 k.
  ref::Field v{7, 6, std::vector<double>(2 * 42), 1};
  for (int y = 0; y < 6; ++y)
    for (int x = 0; x < 7; ++x) {
      v.values[2 * (y * 7 + x)] = (0.5 * x) * (0.5 * x);
      v.values[2 * (y * 7 + x) + 1] = (2.0 * y) * (2.0 * y);
    }
  ref::Field v0{7, 6, std::vector<double>(2 * 42, 0.0), 1};
  v0.spacing = {0.5, 2, 1};
  const std::size_t j = 3 * 7 + 3;
  const ref::Field stepped = ref::eulerStep(v, v0, 0.1);
  CHECK(stepped.values[2 * j] - v.values[2 * j] == doctest::Approx(0.2));
  CHECK(stepped.values[2 * j + 1] - v.values[2 * j + 1] == doctest::Approx(0.2));
  const ref::Grid s{7, 6, std::vector<double>(42, 0.0)};
  const ref::Field r = ref::multigridResidual(v, v0, s, 0.1, v0.spacing);
  CHECK(r.values[2 * j] == doctest::Approx(-0.2));
  CHECK(r.values[2 * j + 1] == doctest::Approx(-0.2));
}
