// The view's geometry without a window (render/view_geometry.hpp): where the view sits between
// the panels in framebuffer pixels, how a pointer maps onto the image and the 3D view, and the
// framing a figure of another size keeps.
#include <doctest/doctest.h>

#include "viewer/render/view_geometry.hpp"

using namespace gvflab::viewer;

namespace {

// A 1024 x 749 window (1024x768 less the menu bar) with 300 + 260 logical pixels of panels
// showing a 128 x 128 image fitted into the slice.
ViewGeometry lecture(float dpr, bool side = false, float captionBottom = 0) {
  ViewGeometry g{{1024, 749}, dpr, 300, 260, side, {}, captionBottom};
  const Viewport slice = g.split().slice;
  g.view.viewSize = {static_cast<float>(slice.width), static_cast<float>(slice.height)};
  g.view.imageSize = {128, 128};
  return g;
}

}  // namespace

TEST_CASE("the view lies between the panels, in framebuffer pixels") {
  for (float dpr : {1.0f, 2.0f}) {
    CAPTURE(dpr);
    const ViewGeometry g = lecture(dpr);
    const Viewport w = g.windowRect(), v = g.viewRect();
    CHECK(w.width == static_cast<int>(1024 * dpr));
    CHECK(w.height == static_cast<int>(749 * dpr));
    CHECK(v.x == static_cast<int>(300 * dpr));
    CHECK(v.width == static_cast<int>(464 * dpr));
    CHECK(v.height == w.height);
    CHECK(g.overView({301, 10}));
    CHECK_FALSE(g.overView({299, 10}));         // the left panel
    CHECK_FALSE(g.overView({1024 - 259, 10}));  // the right panel
  }
  // Panels hidden: the whole width; a window narrower than its panels still has a view.
  CHECK(ViewGeometry{{1024, 749}, 1, 0, 0, false, {}}.viewRect().width == 1024);
  CHECK(ViewGeometry{{400, 300}, 1, 300, 260, false, {}}.viewRect().width == 1);
}

TEST_CASE("a pointer maps to the image point drawn under it, at any zoom, pan and dpr") {
  for (float dpr : {1.0f, 1.5f, 2.0f}) {
    ViewGeometry g = lecture(dpr);
    g.view.zoomAround({100, 200}, 3.0f);
    g.view.pan.x += 17;
    for (Vec2 image : {Vec2{0, 0}, Vec2{64, 64}, Vec2{100.5f, 3.25f}}) {
      const Vec2 screen = g.view.imageToScreen(image);  // view pixels from its top-left
      const Vec2 logical{(screen.x + g.viewLeftPixels()) / dpr, screen.y / dpr};
      const Vec2 back = g.toImage(logical);
      CHECK(back.x == doctest::Approx(image.x).epsilon(1e-4));
      CHECK(back.y == doctest::Approx(image.y).epsilon(1e-4));
    }
    // The pick radius is six screen pixels in image pixels: smaller as the image grows.
    CHECK(g.pickRadius() == doctest::Approx(6 * dpr / g.view.pixelsPerImagePixel()));
  }
  const ViewGeometry fitted = lecture(1);
  const Vec2 centre = fitted.toImage({300 + 464 / 2.0f, 749 / 2.0f});
  CHECK(centre.x == doctest::Approx(64));
  CHECK(centre.y == doctest::Approx(64));
}

TEST_CASE("a volume's 3D view takes part of the view; its pixels start at its top-left") {
  const ViewGeometry g = lecture(1, true);
  const ViewSplit s = g.split();
  REQUIRE(s.side.width > 0);
  const Viewport v = g.viewRect();
  // Stacked (the view is taller than wide): the slice on top, the 3D view below.
  const float sideTop = static_cast<float>(v.height - (s.side.y + s.side.height));
  const Vec2 corner{static_cast<float>(s.side.x) + 0.5f, sideTop + 0.5f};
  CHECK(g.inSideView(corner));
  const Vec2 p = g.toSidePixels(corner);
  CHECK(p.x == doctest::Approx(0.5f));
  CHECK(p.y == doctest::Approx(0.5f));
  CHECK_FALSE(g.inSideView({310, 10}));  // the slice
  CHECK_FALSE(lecture(1, false).inSideView(corner));
}

TEST_CASE("a demo's caption: a split view's slice and 3D view sit below it, pointers still map") {
  for (float dpr : {1.0f, 2.0f}) {
    CAPTURE(dpr);
    ViewGeometry g = lecture(dpr, true, 90);
    const Viewport v = g.viewRect();
    const ViewSplit s = g.split();
    // Top-left coordinates of the view: the slice (stacked on top) starts below the caption.
    CHECK(v.height - (s.slice.y + s.slice.height) >= static_cast<int>(90 * dpr));
    CHECK(v.height - (s.side.y + s.side.height) >= static_cast<int>(90 * dpr));
    g.view.zoomAround({40, 70}, 2.0f);
    for (Vec2 image : {Vec2{0, 0}, Vec2{64, 5}, Vec2{120.5f, 99.25f}}) {
      const Vec2 screen = g.view.imageToScreen(image);  // slice pixels from its top-left
      const float sliceTop = static_cast<float>(v.height - (s.slice.y + s.slice.height));
      const Vec2 back =
          g.toImage({(screen.x + g.viewLeftPixels()) / dpr, (screen.y + sliceTop) / dpr});
      CHECK(back.x == doctest::Approx(image.x).epsilon(1e-4));
      CHECK(back.y == doctest::Approx(image.y).epsilon(1e-4));
    }
    const float sideTop = static_cast<float>(v.height - (s.side.y + s.side.height));
    const Vec2 corner{(static_cast<float>(s.side.x) + 0.5f) / dpr, (sideTop + 0.5f) / dpr};
    CHECK(g.inSideView(corner));
    CHECK(g.toSidePixels(corner).y == doctest::Approx(0.5f));
    CHECK_FALSE(g.inSideView({310, 50}));  // under the caption: neither view
  }
  // A 2D view keeps its whole height (the caption lies over its letterbox there).
  CHECK(lecture(1, false, 90).split().slice.height == 749);
}

TEST_CASE("a figure of another size keeps the zoom and the image point in the middle") {
  ViewGeometry g = lecture(1);
  g.view.zoomAround({50, 60}, 2.5f);
  g.view.pan = {30, -12};
  const Vec2 middle = g.view.screenToImage({g.view.viewSize.x / 2, g.view.viewSize.y / 2});
  for (auto [w, h] : {std::pair{1920, 1080}, std::pair{300, 900}}) {
    const ViewTransform at = g.viewAt(w, h);
    CHECK(at.viewSize.x == doctest::Approx(w));
    CHECK(at.viewSize.y == doctest::Approx(h));
    CHECK(at.zoom == g.view.zoom);
    const Vec2 m = at.screenToImage({w / 2.0f, h / 2.0f});
    CHECK(m.x == doctest::Approx(middle.x).epsilon(1e-4));
    CHECK(m.y == doctest::Approx(middle.y).epsilon(1e-4));
  }
}
