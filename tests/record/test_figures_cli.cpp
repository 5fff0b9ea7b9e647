// Figures and view-only recordings from the gvflab executable (needs an X server: xvfb-run):
// --screenshot and --record hold the view only, without the ImGui panels or the floating
// "Region snake (PLH)" and "Race" windows, unless the panels are asked for; headless figures
// are exactly --size, with --legend and --caption only when given; bad flags are refused
// before anything is written.
#include <doctest/doctest.h>

#include <QImage>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <string>

namespace fs = std::filesystem;

namespace {

const fs::path kDir = fs::path(GVFLAB_BINARY_DIR) / "figures_test";

int run(const std::string& args) {
  return std::system((std::string(GVFLAB_EXE) + " " + args + " > /dev/null 2>&1").c_str());
}

QImage load(const fs::path& p) {
  QImage image(QString::fromStdString(p.string()));
  REQUIRE_MESSAGE(!image.isNull(), "cannot read " << p.string());
  return image.convertToFormat(QImage::Format_RGB888);
}

// The most frequent colour of a region: the panel's background.
QRgb commonColour(const QImage& image, QRect r) {
  std::map<QRgb, int> counts;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) ++counts[image.pixel(x, y)];
  return std::max_element(counts.begin(), counts.end(),
                          [](auto& a, auto& b) { return a.second < b.second; })
      ->first;
}

int countNear(const QImage& image, QRgb c, int tolerance = 2) {
  int n = 0;
  for (int y = 0; y < image.height(); ++y)
    for (int x = 0; x < image.width(); ++x) {
      const QRgb p = image.pixel(x, y);
      n += std::abs(qRed(p) - qRed(c)) <= tolerance &&
           std::abs(qGreen(p) - qGreen(c)) <= tolerance &&
           std::abs(qBlue(p) - qBlue(c)) <= tolerance;
    }
  return n;
}

// The box around the pixels where a and b differ.
QRect differingBounds(const QImage& a, const QImage& b) {
  QRect r;
  for (int y = 0; y < a.height(); ++y)
    for (int x = 0; x < a.width(); ++x)
      if (a.pixel(x, y) != b.pixel(x, y)) r |= QRect(x, y, 1, 1);
  return r;
}

int differing(const QImage& a, const QImage& b, QRect r) {
  int n = 0;
  for (int y = r.top(); y <= r.bottom(); ++y)
    for (int x = r.left(); x <= r.right(); ++x) n += a.pixel(x, y) != b.pixel(x, y);
  return n;
}

}  // namespace

TEST_CASE("the viewer's screenshot and recording hold the view only; the panels on request") {
  fs::create_directories(kDir);
  const std::string viewer = "--phantom u --phantom-size 96 --frames 8 --size 1000x700";
  const fs::path view = kDir / "view.png", window = kDir / "window.png", frames = kDir / "rec/";
  fs::remove_all(frames);
  REQUIRE(run(viewer + " --screenshot " + window.string() + " --screenshot-panels") == 0);
  REQUIRE(run(viewer + " --screenshot " + view.string()) == 0);
  REQUIRE(run(viewer + " --record " + frames.string() + " --steps-per-frame 5") == 0);
  const QImage withPanels = load(window), viewOnly = load(view);
  const QImage frame = load(frames / "frame_000004.png");
  // The window is 1000 wide; --size is the view-only screenshot's own size (drawn offscreen);
  // a recording at the view's size gets what the one 360 px panel of a 1000 px window leaves.
  CHECK(withPanels.width() == 1000);
  CHECK(viewOnly.size() == QSize(1000, 700));
  CHECK(frame.width() == 1000 - 360);
  CHECK(frame.height() == withPanels.height());
  // ImGui's window background: everywhere in the left panel; nowhere in a view-only picture
  // (the region and race controls are docked in the panels, nothing floats over the view).
  const QRgb panel = commonColour(withPanels, QRect(0, 0, 300, withPanels.height()));
  const int inWindow = countNear(withPanels, panel);
  MESSAGE("panel colour " << std::hex << panel << std::dec << ": " << inWindow
                          << " pixels with the panels, " << countNear(viewOnly, panel)
                          << " in the view, " << countNear(frame, panel) << " in a frame");
  CHECK(inWindow > 100000);
  CHECK(countNear(viewOnly, panel) < 50);
  CHECK(countNear(frame, panel) < 50);
}

TEST_CASE("headless figures: exactly --size, legend and caption only when asked") {
  fs::create_directories(kDir);
  const std::string run0 =
      "--headless --phantom u --phantom-size 96 --iterations 60 "
      "--snake circle:48,48,40 --snake circle:48,48,40@traditional "
      "--snake-iterations 100 --size 320x200 --screenshot ";
  const fs::path plain = kDir / "plain.png", legend = kDir / "legend.png",
                 caption = kDir / "caption.png", both = kDir / "both.png";
  REQUIRE(run(run0 + plain.string()) == 0);
  REQUIRE(run(run0 + legend.string() + " --legend") == 0);
  REQUIRE(run(run0 + caption.string() + " --caption") == 0);
  REQUIRE(run(run0 + both.string() + " --legend --caption") == 0);
  const QImage a = load(plain), l = load(legend), c = load(caption), b = load(both);
  for (const QImage* image : {&a, &l, &c, &b}) CHECK(image->size() == QSize(320, 200));
  const QRect all(0, 0, 320, 200), legendBox(100, 0, 220, 150), band(0, 140, 320, 60);
  // The legend is one box, placed off the snakes as far as room allows (here the snakes span
  // the image: where it covers them least), not necessarily top right.
  CHECK(differing(a, l, all) > 2000);
  const QRect legendAt = differingBounds(a, l);
  CHECK(legendAt.width() * legendAt.height() < 0.5 * 320 * 200);
  CHECK(differing(a, c, band) > 1500);
  CHECK(differing(a, c, all) == differing(a, c, band));
  CHECK(differing(a, b, all) > differing(a, l, all));

  // Without --size: the image scaled by a whole factor to at least 512 px.
  const fs::path scaled = kDir / "scaled.png";
  REQUIRE(run("--headless --phantom u --phantom-size 96 --iterations 10 --screenshot " +
              scaled.string()) == 0);
  CHECK(load(scaled).size() == QSize(576, 576));

  // A headless recording carries the legend and caption too.
  const fs::path framesA = kDir / "recA/", framesB = kDir / "recB/";
  fs::remove_all(framesA);
  fs::remove_all(framesB);
  const std::string rec =
      "--headless --phantom u --phantom-size 96 --frames 3 "
      "--steps-per-frame 10 --size 320x200 --record ";
  REQUIRE(run(rec + framesA.string()) == 0);
  REQUIRE(run(rec + framesB.string() + " --legend --caption") == 0);
  const QImage fa = load(framesA / "frame_000003.png"), fb = load(framesB / "frame_000003.png");
  CHECK(differing(fa, fb, legendBox) > 2000);
  CHECK(differing(fa, fb, band) > 1500);
}

TEST_CASE("figure flags are checked before anything is written") {
  fs::create_directories(kDir);
  const fs::path report = kDir / "never.json";
  fs::remove(report);
  CHECK(run("--headless --phantom u --legend --report " + report.string()) != 0);
  CHECK(run("--headless --phantom u --screenshot " + (kDir / "x.jpg").string()) != 0);
  CHECK(run("--headless --phantom u --screenshot-panels --screenshot " +
            (kDir / "x.png").string()) != 0);
  CHECK(run("--headless --phantom u --report " + report.string() + " --screenshot " +
            (kDir / "no-such-folder" / "x.png").string()) != 0);
  CHECK(!fs::exists(report));
}
