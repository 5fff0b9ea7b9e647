// Bounds checked before work (issue 25): snake contours counted before they are built,
// circles checked from their numbers, the region snake's rectangle in 64 bits, user text in
// messages bounded, and the process-wide stop request.
#include <doctest/doctest.h>

#include <chrono>
#include <climits>
#include <csignal>
#include <random>

#include "gvflab/cancel.hpp"
#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/quoted.hpp"
#include "gvflab/region_types.hpp"

using namespace gvflab;

TEST_CASE("resampledNodeCount counts what resampleContour builds, without building it") {
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> coord(0, 200);
  for (int n : {3, 4, 10, 50, 400}) {
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<glm::vec2> pts(n);
      for (auto& p : pts) p = {coord(rng), coord(rng)};
      for (auto [dmin, dmax] : {std::pair{1.0, 2.5}, std::pair{0.1, 0.2}, std::pair{5.0, 12.0}})
        CHECK(resampledNodeCount(pts, dmin, dmax) == resampleContour(pts, dmin, dmax).size());
    }
  }
  // A zigzag across a 16384 image: about 8 * 10^9 nodes at dmax 0.2, counted in microseconds.
  std::vector<glm::vec2> zigzag;
  // A sawtooth: bottom, top, bottom, ... left to right, each gap about 16384 pixels.
  for (int i = 0; i < 99999; ++i) zigzag.push_back({i * 0.16384f, i % 2 ? 16384.0f : 0.0f});
  zigzag.push_back({16384, 0});  // closed along the bottom: it encloses the teeth
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(resampledNodeCount(zigzag, 0.1, 0.2) > std::size_t(5e9));
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(30));  // hangs only
  SnakeParams p = SnakeParams::defaults();
  p.dmin = 0.1, p.dmax = 0.2;
  CHECK_THROWS_AS(ParametricSnake::checkContour(zigzag, 16384, 16384, p), ResourceError);
}

TEST_CASE("a circle is checked from its centre and radius before its nodes are built") {
  const SnakeParams p = SnakeParams::defaults();
  CHECK_NOTHROW(ParametricSnake::checkCircle(32, 32, 20, 64, 64, p));
  // 10^8 pixels: outside, said at once (it used to build 3.6 * 10^8 nodes first).
  CHECK_THROWS_WITH_AS(ParametricSnake::checkCircle(128, 128, 1e8, 256, 256, p),
                       doctest::Contains("lies outside the 256x256 image"), ParameterError);
  CHECK_THROWS_AS(ParametricSnake::checkCircle(10, 32, 20, 64, 64, p), ParameterError);
  CHECK_THROWS_AS(ParametricSnake::checkCircle(NAN, 32, 20, 64, 64, p), ParameterError);
  CHECK_THROWS_AS(ParametricSnake::checkCircle(32, 32, 0, 64, 64, p), ParameterError);
  // Inside, but more nodes than a snake may have at this spacing.
  SnakeParams fine = p;
  fine.dmin = 0.1, fine.dmax = 0.2;
  CHECK_THROWS_WITH_AS(ParametricSnake::checkCircle(8192, 8192, 8000, 16384, 16384, fine),
                       doctest::Contains("at most 16384"), ResourceError);
  // circleContour itself refuses before allocating.
  CHECK_THROWS_AS(circleContour(0, 0, 1e12, 1.0), ResourceError);
  CHECK(circleContour(32, 32, 10, 1.75).size() == 36);
}

TEST_CASE("the region snake's starting rectangle is clamped in 64 bits") {
  // x + w - 1 overflowed int here (UBSan: signed integer overflow).
  const auto r = initialRectangle(64, 48, 10, 5, INT_MAX, INT_MAX);
  REQUIRE(r.size() == 4);
  CHECK(r[0].x == 10);
  CHECK(r[2].x == 63);
  CHECK(r[2].y == 47);
  CHECK_THROWS_AS(initialRectangle(64, 48, INT_MAX, INT_MAX, INT_MAX, INT_MAX), ParameterError);
}

TEST_CASE("user text in messages is quoted and bounded") {
  CHECK(quotedText("viridis") == "'viridis'");
  CHECK(quotedText("a\nb") == "'a?b'");
  const std::string huge(20 << 20, 'x');
  const std::string q = quotedText(huge);
  CHECK(q.size() < 100);
  CHECK(q.find("...'") != std::string::npos);
  CHECK(q.find("20971520 characters") != std::string::npos);
  // Never cut inside a UTF-8 sequence.
  std::string accents;
  for (int i = 0; i < 100; ++i) accents += "\xc3\xa9";
  const std::string qa = quotedText(accents, 61);
  CHECK(qa.substr(0, 61) == "'" + accents.substr(0, 60));
}

TEST_CASE("a stop request becomes Interrupted with the exit code of its signal") {
  resetCancel();
  CHECK_NOTHROW(throwIfCancelled("10 iterations"));
  requestCancel(SIGTERM);
  CHECK(cancelRequested());
  try {
    throwIfCancelled("10 iterations");
    FAIL("no Interrupted");
  } catch (const Interrupted& e) {
    CHECK(e.exitCode() == 143);
    CHECK(std::string(e.what()) == "Interrupted after 10 iterations; nothing was written.");
  }
  requestCancel(SIGINT);
  CHECK(cancelSignal() == SIGINT);
  resetCancel();
  CHECK_FALSE(cancelRequested());
}
