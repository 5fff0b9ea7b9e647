// Offscreen rendering with the viewer's own Renderer and Presenter: the U phantom's GVF
// magnitude and arrows after 200 Euler iterations, compared with a stored baseline by mean
// SSIM over 8x8 windows of luminance. Needs an X server for GL (run under xvfb-run -a).
#include <doctest/doctest.h>

#include <QGuiApplication>
#include <QImage>
#include <QOffscreenSurface>
#include <QOpenGLContext>
#include <QOpenGLFramebufferObject>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/magnitude_range.hpp"
#include "gvflab/phantoms.hpp"
#include "render/render_support.hpp"
#include "test_support.hpp"
#include "viewer/model/colormap.hpp"
#include "viewer/model/session.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/render/streamline_layer.hpp"
#include "viewer/render/view_transform.hpp"
#include "viewer/ui/error_log.hpp"
#include "viewer/window/gl_view.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;
using gvflab::test::GlEnvironment;
using gvflab::test::glEnvironment;
using gvflab::test::luminance;
using gvflab::test::meanSsim;
using gvflab::test::stddev;

namespace {

constexpr int kSize = 256;

// The U phantom after 200 Euler iterations, μ = 0.15, σ = 1, on the default OpenCL device.
struct UField {
  std::shared_ptr<ComputeContext> ctx = ComputeContext::create({});
  std::unique_ptr<EulerSolver> solver;
  UField() {
    Image2D u = makePhantom("u", 128);
    solver = std::make_unique<EulerSolver>(ctx, buildGvfInput(*ctx, u, 1.0), 0.15);
    solver->step(200);
  }
};

QImage render(Renderer& renderer, Presenter& presenter, const LayerSettings& layers) {
  QOpenGLFramebufferObject fbo(kSize, kSize);  // single-sampled, like the viewer's format
  REQUIRE(fbo.bind());
  ViewTransform view;
  view.viewSize = {kSize, kSize};
  FieldTextureRef field = presenter.texture();
  view.imageSize = {static_cast<float>(field.width), static_cast<float>(field.height)};
  renderer.draw({0, 0, kSize, kSize}, view, layers, field, presenter.maxMagnitude());
  gl().glFinish();
  fbo.release();
  return fbo.toImage(false).convertToFormat(QImage::Format_RGB888);
}

}  // namespace

TEST_CASE("the transfer choice names its reason") {
  DeviceInfo plain;
  plain.extensions = "cl_khr_fp64 cl_khr_3d_image_writes";
  TransferChoice c = chooseTransfer(plain);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description ==
        "host copy (device lacks cl_khr_gl_sharing; external memory: device "
        "lacks cl_khr_external_memory_opaque_fd)");
}

// Issue 29: the legend's range and the cursor's vector come from the device; no frame copies
// the whole field to host memory unless the streamlines ask for it.
TEST_CASE("the readouts equal the field's own values, and no ordinary upload copies it") {
  GlEnvironment& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  UField u;
  Presenter presenter(u.ctx->info());
  CHECK(presenter.maxMagnitude() == 0.0f);  // nothing uploaded yet
  CHECK_FALSE(presenter.vectorAt(0, 0));
  const int w = u.solver->width(), h = u.solver->height();
  for (int frame = 0; frame < 4; ++frame) {
    CAPTURE(frame);
    u.solver->step(30);
    presenter.upload(u.ctx->queue(), u.solver->field(), w, h);
    const Field2D f = u.solver->readField();  // the test's own read, to compare with
    const reference::MagnitudeRangeD ref = reference::magnitudeRange(test::toRef(f));
    CHECK(presenter.maxMagnitude() == doctest::Approx(ref.max).epsilon(1e-6));
    CHECK(presenter.minMagnitude() == doctest::Approx(ref.min).epsilon(1e-6).scale(ref.max));
    CHECK(ref.max > 0.0);
    const int pixels[][2] = {{0, 0}, {w - 1, h - 1}, {64, 30}, {17, 99}, {64, 30}};
    for (auto [x, y] : pixels) {
      const auto v = presenter.vectorAt(x, y);
      REQUIRE(v);
      const std::size_t i = static_cast<std::size_t>(y) * w + x;
      CHECK((*v)[0] == f.x(i));
      CHECK((*v)[1] == f.y(i));
    }
    CHECK_FALSE(presenter.vectorAt(w, 0));
    CHECK_FALSE(presenter.vectorAt(0, -1));
    // The counter of whole-field copies to host memory: none on any ordinary frame.
    CHECK(presenter.totals().hostFieldCopies == 0);
    CHECK(presenter.hostField().empty());
  }
  // The streamlines want the field on the host: then each upload brings it (host copy path;
  // every hostRefreshInterval uploads on the zero-copy paths), and it is the field.
  presenter.setHostFieldWanted(true);
  presenter.upload(u.ctx->queue(), u.solver->field(), w, h);
  CHECK(presenter.totals().hostFieldCopies == 1);
  CHECK(presenter.hostField() == u.solver->readField().data);
  presenter.setHostFieldWanted(false);
  presenter.upload(u.ctx->queue(), u.solver->field(), w, h);
  CHECK(presenter.totals().hostFieldCopies == 1);
  CHECK(presenter.hostField().empty());
  presenter.forgetField();
  CHECK_FALSE(presenter.vectorAt(0, 0));
}

TEST_CASE("the view keeps the aspect ratio and maps back and forth") {
  ViewTransform v;
  v.viewSize = {400, 400};
  v.imageSize = {256, 128};
  CHECK(v.pixelsPerImagePixel() == doctest::Approx(400.0 / 256));
  Vec2 corner = v.imageToScreen({0, 0});
  CHECK(corner.x == doctest::Approx(0));
  CHECK(corner.y == doctest::Approx(100));  // letterboxed vertically
  v.zoomAround({123, 77}, 2.5f);
  Vec2 p = v.screenToImage(v.imageToScreen({31.5f, 99.25f}));
  CHECK(p.x == doctest::Approx(31.5));
  CHECK(p.y == doctest::Approx(99.25));
}

TEST_CASE("colormaps run from dark to bright with the published end colours") {
  Rgb v0 = colormapAt(Colormap::Viridis, 0), v1 = colormapAt(Colormap::Viridis, 1);
  CHECK(v0.r == doctest::Approx(0.267).epsilon(0.05));
  CHECK(v0.b == doctest::Approx(0.329).epsilon(0.05));
  CHECK(v1.r == doctest::Approx(0.993).epsilon(0.02));
  CHECK(v1.g == doctest::Approx(0.906).epsilon(0.02));
  auto table = colormapTable(Colormap::Gray);
  CHECK(table.front().r == 0.0f);
  CHECK(table.back().g == 1.0f);
}

TEST_CASE("magnitude and glyph layers of the U phantom match the baseline") {
  GlEnvironment& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");

  UField u;
  Renderer renderer;
  Presenter presenter(u.ctx->info());
  presenter.upload(u.ctx->queue(), u.solver->field(), u.solver->width(), u.solver->height());
  MESSAGE("transfer: " << presenter.choice().description << ", " << presenter.lastTransferMs()
                       << " ms");

  SUBCASE("the texture holds exactly the solver's field") {
    Field2D expected = u.solver->readField();
    std::vector<float> texels(expected.data.size(), -1.0f);
    auto& f = gl();
    f.glBindTexture(GL_TEXTURE_2D, presenter.texture().texture);
    f.glPixelStorei(GL_PACK_ALIGNMENT, 4);
    f.glGetTexImage(GL_TEXTURE_2D, 0, GL_RG, GL_FLOAT, texels.data());
    f.glBindTexture(GL_TEXTURE_2D, 0);
    CHECK(texels == expected.data);
    float maxMag = 0;
    for (std::size_t i = 0; i < expected.pixelCount(); ++i)
      maxMag = std::max(maxMag, std::hypot(expected.x(i), expected.y(i)));
    CHECK(presenter.maxMagnitude() == doctest::Approx(maxMag).epsilon(1e-5));
    CHECK(maxMag > 0.0f);
  }

  SUBCASE("the totals for --stats count every upload and its time") {
    presenter.upload(u.ctx->queue(), u.solver->field(), u.solver->width(), u.solver->height());
    const Presenter::Totals& t = presenter.totals();
    CHECK(t.uploads == 1);  // the first upload sized the texture (set-up): not counted
    CHECK(t.ms > 0);
    CHECK(t.ms >= presenter.lastTransferMs());
    // The host copy reads the field back as its transfer: no separate read-back for readouts.
    if (presenter.choice().path == TransferPath::HostCopy) CHECK(t.readBackMs == 0);
    CHECK(t.readBackMs <= t.ms);
  }

  SUBCASE("rendering") {
    LayerSettings layers;
    layers.showImage = false;
    layers.showGlyphs = false;
    QImage magnitudeOnly = render(renderer, presenter, layers);
    layers.showGlyphs = true;
    layers.glyphSpacing = 16;  // screen pixels: 8 image pixels at 2x
    QImage withGlyphs = render(renderer, presenter, layers);

    // Behaviour first: the map is not flat, and the arrows change a visible share of pixels.
    CHECK(stddev(luminance(magnitudeOnly)) > 10.0);
    auto a = luminance(magnitudeOnly), b = luminance(withGlyphs);
    std::size_t changed = 0;
    for (std::size_t i = 0; i < a.size(); ++i) changed += std::abs(a[i] - b[i]) > 16.0;
    double share = static_cast<double>(changed) / static_cast<double>(a.size());
    MESSAGE("glyphs change " << 100 * share << "% of the pixels");
    CHECK(share > 0.03);
    CHECK(share < 0.6);

    const std::filesystem::path baseline =
        std::filesystem::path(GVFLAB_SOURCE_DIR) / "tests/baselines/magnitude_glyphs.png";
    const QString baselinePath = QString::fromStdString(baseline.string());
    if (!std::filesystem::exists(baseline)) {
      std::filesystem::create_directories(baseline.parent_path());
      withGlyphs.save(baselinePath, "PNG");
      FAIL("no baseline: wrote " << baseline.string() << "; check it by eye and run again");
    }
    QImage expected(baselinePath);
    REQUIRE_MESSAGE(!expected.isNull(), "cannot read " << baseline.string());
    double ssim = meanSsim(withGlyphs, expected);
    MESSAGE("mean SSIM against the baseline: " << ssim);
    std::printf("mean SSIM against %s: %.4f\n", baseline.filename().string().c_str(), ssim);
    if (ssim < 0.97) {
      const auto actual = std::filesystem::path(GVFLAB_BINARY_DIR) / "magnitude_glyphs.actual.png";
      withGlyphs.save(QString::fromStdString(actual.string()), "PNG");
      MESSAGE("rendered image saved to " << actual.string());
    }
    CHECK(ssim >= 0.97);
    // The metric must be able to fail: dropping the arrows is far below the threshold.
    double withoutGlyphs = meanSsim(magnitudeOnly, expected);
    MESSAGE("mean SSIM of the arrow-less render against the baseline: " << withoutGlyphs);
    CHECK(withoutGlyphs < 0.9);
  }
}

TEST_CASE("a broken file leaves the session as it was and reports why") {
  app::Options options;
  options.phantomSize = 64;
  Session session(sessionStartup(options));
  session.advanceFrame();
  const std::string name = session.imageName();
  const long iterations = session.iterations(), imageVersion = session.imageVersion();
  REQUIRE(iterations > 0);

  const auto bad = std::filesystem::path(GVFLAB_BINARY_DIR) / "broken_image.png";
  {
    // A PNG signature followed by garbage: what a truncated download looks like.
    std::FILE* f = std::fopen(bad.string().c_str(), "wb");
    REQUIRE(f != nullptr);
    const unsigned char bytes[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a,
                                   '\n', 0,   0,   0,   13,   'I',  'H'};
    std::fwrite(bytes, 1, sizeof bytes, f);
    std::fclose(f);
  }
  CHECK_THROWS_AS(session.openFile(bad), InputError);
  ErrorLog errors;
  CHECK_FALSE(errors.guard("Opening 'broken_image.png'", [&] { session.openFile(bad); }));
  REQUIRE(errors.messages().size() == 1);
  MESSAGE("shown in the panel: " << errors.messages().front());
  CHECK(errors.messages().front().find("broken_image.png") != std::string::npos);
  CHECK(session.imageName() == name);
  CHECK(session.iterations() == iterations);
  CHECK(session.imageVersion() == imageVersion);
  session.advanceFrame();  // still iterating
  CHECK(session.iterations() > iterations);
}

TEST_CASE("mu beyond the stability bound is clamped, and the session says so") {
  app::Options options;
  options.phantomSize = 64;
  Session session(sessionStartup(options));
  CHECK(session.notice().empty());
  session.setMu(0.5);
  CHECK(session.mu() == doctest::Approx(session.muBound()));
  REQUIRE(session.solver().name() == "euler");
  CHECK(session.muBound() <=
        EulerSolver::stabilityBound(session.input().maxV0Squared, session.input().dims()));
  CHECK(session.notice().kind == Notice::Kind::MuClamped);
  CHECK(session.notice().text.find("stability bound") != std::string::npos);
  session.setMu(0.1);
  CHECK(session.mu() == doctest::Approx(0.1));
  CHECK(session.notice().empty());
  CHECK_THROWS_AS(session.setMu(-1.0), ParameterError);
}

// One baseline per layer (tests/baselines/layer_*.png), drawn with the viewer's own layers.
// A missing baseline is written and the test fails, to be checked by eye and committed.
TEST_CASE("each layer matches its baseline") {
  GlEnvironment& env = glEnvironment();
  REQUIRE_MESSAGE(env.ok, "no OpenGL 3.3 core context (run under xvfb-run -a)");
  UField u;
  Renderer renderer;
  Presenter presenter(u.ctx->info());
  presenter.setHostFieldWanted(true);  // the streamlines are traced on the host
  presenter.upload(u.ctx->queue(), u.solver->field(), u.solver->width(), u.solver->height());
  renderer.setImage(makePhantom("u", 128));
  SnakeLayer snakes;
  StreamlineLayer streamlines;
  // A contour around the U and a capture overlay with a gradient, as the snake session makes.
  std::vector<SnakeContour> contours(1);
  for (int k = 0; k < 48; ++k) {
    float a = 6.2831853f * k / 48;
    contours[0].points.push_back({64 + 50 * std::cos(a), 64 + 50 * std::sin(a)});
  }
  std::vector<unsigned char> capture(128 * 128 * 4, 0);
  for (int y = 0; y < 128; ++y)
    for (int x = 0; x < 128; ++x)
      if (std::hypot(x - 64.0, y - 64.0) < 40) {
        unsigned char* p = &capture[(y * 128 + x) * 4];
        p[0] = static_cast<unsigned char>(2 * x), p[1] = 160,
        p[2] = static_cast<unsigned char>(2 * y), p[3] = 150;
      }
  snakes.setCapture(capture, 128, 128);

  struct Case {
    const char* name;
    LayerSettings layers;
    bool snakes = false, capture = false;
  };
  LayerSettings none;
  none.showImage = none.showMagnitude = none.showGlyphs = false;
  std::vector<Case> cases;
  {
    Case c{"layer_image", none};
    c.layers.showImage = true;
    cases.push_back(c);
  }
  {
    Case c{"layer_magnitude_log_inferno", none};
    c.layers.showMagnitude = true;
    c.layers.logScale = true;
    c.layers.colormap = Colormap::Inferno;
    cases.push_back(c);
  }
  {
    Case c{"layer_glyphs_scaled", none};
    c.layers.showGlyphs = true;
    c.layers.glyphNormalize = false;
    c.layers.glyphSpacing = 16;  // screen pixels: 8 image pixels at 2x
    cases.push_back(c);
  }
  {
    Case c{"layer_streamlines", none};
    c.layers.showImage = true;
    c.layers.showStreamlines = true;
    c.layers.streamlineSpacing = 12;
    cases.push_back(c);
  }
  {
    Case c{"layer_contours_capture", none};
    c.layers.showImage = true;
    c.snakes = c.capture = true;
    cases.push_back(c);
  }
  QImage blank;
  for (const Case& c : cases) {
    CAPTURE(c.name);
    QOpenGLFramebufferObject fbo(kSize, kSize);
    REQUIRE(fbo.bind());
    ViewTransform view;
    view.viewSize = {kSize, kSize};
    view.imageSize = {128, 128};
    const Viewport vp{0, 0, kSize, kSize};
    renderer.draw(vp, view, c.layers, presenter.texture(), presenter.maxMagnitude());
    if (c.layers.showStreamlines)
      streamlines.draw(vp, view, presenter.hostField(), 128, 128, c.layers, 1);
    if (c.snakes) {
      SnakeDrawing d{&contours, {}, true, 0};
      snakes.draw(vp, view, d, c.capture, 0.6f);
    }
    gl().glFinish();
    fbo.release();
    QImage img = fbo.toImage(false).convertToFormat(QImage::Format_RGB888);
    CHECK(stddev(luminance(img)) > 5.0);  // something was drawn
    const auto baseline = std::filesystem::path(GVFLAB_SOURCE_DIR) / "tests/baselines" /
                          (std::string(c.name) + ".png");
    const QString path = QString::fromStdString(baseline.string());
    if (!std::filesystem::exists(baseline)) {
      img.save(path, "PNG");
      FAIL_CHECK("no baseline: wrote " << baseline.string() << "; check it by eye, run again");
      continue;
    }
    QImage expected(path);
    double ssim = meanSsim(img, expected);
    MESSAGE(c.name << ": mean SSIM " << ssim);
    if (ssim < 0.97)
      img.save(QString::fromStdString((std::filesystem::path(GVFLAB_BINARY_DIR) /
                                       (std::string(c.name) + ".actual.png"))
                                          .string()),
               "PNG");
    CHECK(ssim >= 0.97);
  }
  if (presenter.hostField().empty()) FAIL("the presenter kept no host copy of the field");
}
