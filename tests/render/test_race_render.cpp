// Offscreen renders of the race view (both magnitude maps side by side, one colour range) and
// of a volume's slices, through the viewer's own Renderer, Presenter and RaceView, compared
// with baselines by mean SSIM. Solvers are stepped by iterations, not time, so the pictures
// do not depend on the machine's speed. Images are read upright (as on screen). Needs an X
// server for GL (xvfb-run -a).
#include <QOpenGLFramebufferObject>
#include <cmath>

#include "render/render_support.hpp"
#include "viewer/model/race_session.hpp"
#include "viewer/model/session.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/race_view.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/window/viewer_startup.hpp"
#include "volume_support.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {

app::Options phantom(int size) {
  app::Options o;
  o.phantomSize = size;
  return o;
}

double meanOf(const std::vector<double>& v, int width, int x0, int x1) {
  double s = 0;
  std::size_t n = 0;
  for (std::size_t i = 0; i < v.size(); ++i) {
    const int x = static_cast<int>(i % width);
    if (x >= x0 && x < x1) s += v[i], ++n;
  }
  return s / static_cast<double>(n);
}

}  // namespace

TEST_CASE("the race view: Euler and multigrid maps side by side in one colour range") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  Session session(sessionStartup(phantom(96)));
  RaceSession race(session);
  // The paper's Fig. 7 in miniature: Euler's many cheap iterations against two multigrid ones.
  race.lane(RaceSession::kEuler).solver->step(120);
  race.lane(RaceSession::kMultigrid).solver->step(2);

  Renderer renderer;
  renderer.setImage(session.image());
  // The lanes reach GL by the path the viewer's own view uses (issue 29: at 2048² on the H200
  // a host copy of each lane, whatever the view's path, took 30 ms of a 38 ms frame).
  const TransferChoice viewsPath{.path = TransferPath::HostCopy,
                                 .glEvent = false,
                                 .semaphores = false,
                                 .description = "the view's own path"};
  RaceView view(viewsPath, session.context().context());
  view.upload(race, session);
  for (int i = 0; i < 2; ++i) {
    CHECK(view.presenter(i).choice().description == viewsPath.description);
    CHECK(view.presenter(i).totals().hostFieldCopies == 0);  // the readouts stay on the device
    CHECK(view.presenter(i).hostField().empty());
    const Field2D f = race.lane(i).solver->readField();
    double max = 0;
    for (std::size_t p = 0; p < f.pixelCount(); ++p)
      max = std::max(max, std::hypot(double{f.x(p)}, double{f.y(p)}));
    CHECK(view.presenter(i).maxMagnitude() == doctest::Approx(max).epsilon(1e-6));
  }
  const int w = 512, h = 256;
  QOpenGLFramebufferObject fbo(w, h);
  REQUIRE(fbo.bind());
  LayerSettings layers;
  layers.glyphSpacing = 32;  // screen pixels: 8 image pixels at 4x
  const float range = view.draw(renderer, {0, 0, w, h}, layers, 0, 8);
  gl().glFinish();
  fbo.release();
  QImage image = fbo.toImage(true).convertToFormat(QImage::Format_RGB888);

  // One range for both maps: the larger maximum.
  CHECK(range == std::max(view.presenter(0).maxMagnitude(), view.presenter(1).maxMagnitude()));
  CHECK(view.viewports()[0].width == view.viewports()[1].width);
  CHECK(view.viewports()[1].x >= view.viewports()[0].x + view.viewports()[0].width);
  // Behaviour: the halves differ, multigrid's diffused further, so its map is brighter on
  // average (viridis grows in luminance with |V|).
  const auto y = test::luminance(image);
  const double euler = meanOf(y, w, 0, w / 2), multigrid = meanOf(y, w, w / 2, w);
  MESSAGE("mean luminance: Euler half " << euler << ", multigrid half " << multigrid);
  CHECK(multigrid > euler + 5);
  test::compareWithBaseline(image, "race_u.png");
}

TEST_CASE("slices of a volume: image, |V| and in-plane arrows") {
  auto& env = test::glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  Session session(sessionStartup(phantom(32)));
  session.setVolume(test::ballVolumeOf(48, 40, 32, 0.3), "ball");
  session.setIterationsPerFrame(60);
  session.advanceFrame();

  Renderer renderer;
  Presenter presenter(session.device());
  auto render = [&](SliceAxis axis, int index) {
    session.setSlice(axis, index);
    renderer.setImage(session.image());
    const GvfInput& plane = session.planeInput();
    presenter.upload(session.context().queue(), session.planeField(), plane.width, plane.height);
    const int size = 256;
    QOpenGLFramebufferObject fbo(size, size);
    REQUIRE(fbo.bind());
    ViewTransform view;
    view.viewSize = {static_cast<float>(size), static_cast<float>(size)};
    view.imageSize = {static_cast<float>(plane.width), static_cast<float>(plane.height)};
    LayerSettings layers;
    layers.glyphSpacing = 20;  // screen pixels: about 4 slice pixels
    renderer.draw({0, 0, size, size}, view, layers, presenter.texture(), presenter.maxMagnitude());
    gl().glFinish();
    fbo.release();
    return fbo.toImage(true).convertToFormat(QImage::Format_RGB888);
  };
  QImage coronal = render(SliceAxis::Coronal, 20);
  QImage axial = render(SliceAxis::Axial, 17);
  CHECK(test::stddev(test::luminance(coronal)) > 10.0);
  // The ball sits off centre in x and z differently from y: the two planes differ.
  CHECK(test::meanSsim(coronal, axial) < 0.9);
  test::compareWithBaseline(coronal, "slice_coronal.png");
}
