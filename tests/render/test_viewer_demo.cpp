// `gvflab --demo NAME` opens the viewer on the demo: run as a user would (--frames,
// --screenshot, --size), it starts without an error and the picture holds the demo's snakes,
// each in its force's colour (the U lesson's twins: GVF and grad f). Needs an X server
// (xvfb-run -a).
#include <doctest/doctest.h>

#include <QGuiApplication>
#include <QImage>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "io/snake_palette.hpp"

namespace fs = std::filesystem;
using namespace gvflab;
using namespace gvflab::viewer;

namespace {

const fs::path kWork = fs::path(GVFLAB_BINARY_DIR) / "viewer_demo_work";

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Pixels within tolerance of a snake colour.
int countNear(const QImage& image, const SnakeRgba& c, int tolerance) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      n += std::abs(qRed(p) - int(std::lround(c[0] * 255))) <= tolerance &&
           std::abs(qGreen(p) - int(std::lround(c[1] * 255))) <= tolerance &&
           std::abs(qBlue(p) - int(std::lround(c[2] * 255))) <= tolerance;
    }
  return n;
}

// Runs the viewer on a demo for a few frames and returns its screenshot.
QImage runDemo(const std::string& demo, const std::string& size, const std::string& extra = "") {
  fs::create_directories(kWork);
  const fs::path shot = kWork / (demo + ".png"), err = kWork / (demo + ".err");
  fs::remove(shot);
  const std::string cmd = std::string(GVFLAB_EXE) + " --demo " + demo + " --frames 25 --size " +
                          size + " --screenshot " + shot.string() + " " + extra +
                          " > /dev/null 2> " + err.string();
  const int rc = std::system(cmd.c_str());
  const std::string messages = slurp(err);
  INFO("gvflab --demo " << demo << ": " << messages);
  CHECK(rc == 0);
  CHECK(messages.find("gvflab:") == std::string::npos);  // no error, not even in the panel
  QImage image(QString::fromStdString(shot.string()));
  REQUIRE_FALSE(image.isNull());
  return image.convertToFormat(QImage::Format_RGB32);
}

}  // namespace

// Twins start on one contour and wait together for the field (test_lesson tests the wait):
// until it is done the one drawn last covers the other. The field counts as done at once here
// (--target-error 1), so the twins have parted after 25 frames.
constexpr const char* kFieldDone = " --target-error 1";

TEST_CASE("--demo u-concavity opens the viewer with the GVF and grad-f twins") {
  const QImage image = runDemo("u-concavity", "1024x768", kFieldDone);
  const int gvf = countNear(image, forceColor(SnakeForce::Gvf), 20);
  const int grad = countNear(image, forceColor(SnakeForce::Traditional), 20);
  MESSAGE("GVF-coloured pixels " << gvf << ", grad-f-coloured pixels " << grad);
  CHECK(gvf > 40);
  CHECK(grad > 40);
}

TEST_CASE("--demo capture-range opens the viewer with twin seeds of both forces") {
  const QImage image = runDemo("capture-range", "1024x768", kFieldDone);
  CHECK(countNear(image, forceColor(SnakeForce::Gvf), 20) > 40);
  CHECK(countNear(image, forceColor(SnakeForce::Traditional), 20) > 40);
}

TEST_CASE("--demo region and volume open the viewer without an error") {
  runDemo("region", "800x600");
  runDemo("volume", "800x600");
}

TEST_CASE("the viewer's --screenshot --size is the picture's size, the window keeps its own") {
  // The case: 800x600 gave a 178x581 picture (the window was resized, the panels took
  // most of it) with a clipped legend and a caption on six lines.
  for (const char* size : {"800x600", "1024x768"}) {
    CAPTURE(size);
    const QImage image = runDemo("u-concavity", size, "--legend --caption");
    const std::string want = size;
    CHECK(std::to_string(image.width()) + "x" + std::to_string(image.height()) == want);
    // The whole U lesson is in it: both twins.
    CHECK(countNear(image, forceColor(SnakeForce::Gvf), 20) > 40);
    CHECK(countNear(image, forceColor(SnakeForce::Traditional), 20) > 40);
  }
}
