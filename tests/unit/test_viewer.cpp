// Viewer logic that needs no window: the CL->GL decision (made-up devices), the GL-sharing
// context properties, saved sessions (JSON and a live round trip), frame statistics,
// streamlines and the cursor readout.
#include <CL/cl_gl.h>
#include <doctest/doctest.h>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "gvflab/error.hpp"
#include "io/session_file.hpp"
#include "test_support.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/session_io.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/model/streamlines.hpp"
#include "viewer/render/gl_sharing.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/window/navigation.hpp"
#include "viewer/window/viewer_startup.hpp"

using namespace gvflab;
using namespace gvflab::viewer;

namespace {
DeviceInfo deviceWith(const std::string& extensions) {
  DeviceInfo d;
  d.name = "made-up";
  d.extensions = extensions;
  return d;
}
int fakeContext, fakeDisplay;
}  // namespace

TEST_CASE("zero-copy only with cl_khr_gl_sharing and a GLX or EGL context") {
  GlContextHandles glx{GlWindowSystem::Glx, &fakeContext, &fakeDisplay};
  GlContextHandles egl{GlWindowSystem::Egl, &fakeContext, &fakeDisplay};
  GlContextHandles none;

  auto c = chooseTransfer(deviceWith("cl_khr_fp64 cl_khr_3d_image_writes"), glx);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.rfind("host copy (device lacks cl_khr_gl_sharing", 0) == 0);
  // A name that merely contains the extension's name is not the extension.
  CHECK(chooseTransfer(deviceWith("cl_khr_gl_sharing_foo"), glx).path == TransferPath::HostCopy);

  c = chooseTransfer(deviceWith("cl_khr_gl_sharing cl_khr_gl_event"), glx);
  CHECK(c.path == TransferPath::ZeroCopy);
  CHECK(c.glEvent);
  CHECK(c.description.find("GLX") != std::string::npos);
  c = chooseTransfer(deviceWith("cl_khr_gl_sharing"), egl);
  CHECK(c.path == TransferPath::ZeroCopy);
  CHECK_FALSE(c.glEvent);
  CHECK(c.description.find("GL fence") != std::string::npos);

  c = chooseTransfer(deviceWith("cl_khr_gl_sharing"), none);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.find("neither GLX nor EGL") != std::string::npos);
  c = chooseTransfer(deviceWith("cl_khr_gl_sharing"), glx, {}, TransferRequest::Host);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description == "host copy (GVFLAB_TRANSFER=host)");
}

TEST_CASE("external memory after cl_khr_gl_sharing and before the host copy") {
  GlContextHandles glx{GlWindowSystem::Glx, &fakeContext, &fakeDisplay};
  const std::string nvidia =  // what NVIDIA's OpenCL lists (no cl_khr_gl_sharing)
      "cl_khr_gl_event cl_khr_external_memory cl_khr_external_memory_opaque_fd "
      "cl_khr_external_semaphore cl_khr_external_semaphore_opaque_fd cl_khr_semaphore";
  const ExternalMemoryGl full{{true, true}, true};

  auto c = chooseTransfer(deviceWith(nvidia), glx, full);
  CHECK(c.path == TransferPath::ExternalMemory);
  CHECK(c.semaphores);
  CHECK(c.description == "zero-copy (external memory from Vulkan, semaphore sync)");
  // Without semaphores on either side: the fence fallback.
  c = chooseTransfer(deviceWith(nvidia), glx, {{true, false}, true});
  CHECK(c.path == TransferPath::ExternalMemory);
  CHECK_FALSE(c.semaphores);
  c = chooseTransfer(deviceWith("cl_khr_external_memory cl_khr_external_memory_opaque_fd"), glx,
                     full);
  CHECK(c.path == TransferPath::ExternalMemory);
  CHECK_FALSE(c.semaphores);

  // cl_khr_gl_sharing first when a device has both.
  c = chooseTransfer(deviceWith(nvidia + " cl_khr_gl_sharing"), glx, full);
  CHECK(c.path == TransferPath::ZeroCopy);
  // ... unless it failed, or external memory is asked for.
  CHECK(chooseTransfer(deviceWith(nvidia + " cl_khr_gl_sharing"), glx, full,
                       TransferRequest::AfterSharingFailed)
            .path == TransferPath::ExternalMemory);
  CHECK(chooseTransfer(deviceWith(nvidia + " cl_khr_gl_sharing"), glx, full,
                       TransferRequest::External)
            .path == TransferPath::ExternalMemory);

  // Each missing piece gives the host copy, saying which.
  c = chooseTransfer(deviceWith(nvidia), glx, {{false, true}, true});
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.find("OpenGL lacks GL_EXT_memory_object_fd") != std::string::npos);
  c = chooseTransfer(deviceWith(nvidia), glx, {{true, true}, false});
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.find("built without Vulkan") != std::string::npos);
  c = chooseTransfer(deviceWith("cl_khr_external_memory"), glx, full);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.find("lacks cl_khr_external_memory_opaque_fd") != std::string::npos);

  // Forcing a path the device lacks says so.
  c = chooseTransfer(deviceWith(nvidia), glx, full, TransferRequest::GlSharing);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description ==
        "host copy (GVFLAB_TRANSFER=gl-sharing, but device lacks cl_khr_gl_sharing)");
  c = chooseTransfer(deviceWith("cl_khr_gl_sharing"), glx, full, TransferRequest::External);
  CHECK(c.path == TransferPath::HostCopy);
  CHECK(c.description.find("GVFLAB_TRANSFER=external, but") != std::string::npos);
  CHECK(chooseTransfer(deviceWith(nvidia), glx, full, TransferRequest::Host).path ==
        TransferPath::HostCopy);
}

TEST_CASE("GVFLAB_TRANSFER picks the path") {
  unsetenv("GVFLAB_TRANSFER");
  CHECK(transferFromEnvironment().request == TransferRequest::Auto);
  setenv("GVFLAB_TRANSFER", "external", 1);
  CHECK(transferFromEnvironment().request == TransferRequest::External);
  setenv("GVFLAB_TRANSFER", "gl-sharing", 1);
  CHECK(transferFromEnvironment().request == TransferRequest::GlSharing);
  setenv("GVFLAB_TRANSFER", "host", 1);
  CHECK(transferFromEnvironment().request == TransferRequest::Host);
  setenv("GVFLAB_TRANSFER", "zero", 1);
  auto env = transferFromEnvironment();
  CHECK(env.request == TransferRequest::Auto);
  CHECK(env.problem.find("GVFLAB_TRANSFER is 'zero'") != std::string::npos);
  unsetenv("GVFLAB_TRANSFER");
}

TEST_CASE("large fields refresh their host copy less often") {
  CHECK(Presenter::hostRefreshInterval(512L * 512) == 16);
  CHECK(Presenter::hostRefreshInterval(1024L * 1024) == 16);
  // Under 5% of the frames from 2048² on, so the read-back stays out of the p95.
  CHECK(Presenter::hostRefreshInterval(2048L * 2048) == 32);
  CHECK(Presenter::hostRefreshInterval(4096L * 4096) == 128);
}

TEST_CASE("the sharing context properties name the GL context and its display") {
  auto glx = glSharingProperties({GlWindowSystem::Glx, &fakeContext, &fakeDisplay});
  REQUIRE(glx.size() == 4);
  CHECK(glx[0] == CL_GL_CONTEXT_KHR);
  CHECK(glx[1] == reinterpret_cast<cl_context_properties>(&fakeContext));
  CHECK(glx[2] == CL_GLX_DISPLAY_KHR);
  CHECK(glx[3] == reinterpret_cast<cl_context_properties>(&fakeDisplay));
  auto egl = glSharingProperties({GlWindowSystem::Egl, &fakeContext, &fakeDisplay});
  REQUIRE(egl.size() == 4);
  CHECK(egl[2] == CL_EGL_DISPLAY_KHR);
  CHECK(glSharingProperties({}).empty());
}

TEST_CASE("extra context properties reach clCreateContext") {
  // CL_CONTEXT_INTEROP_USER_SYNC is core OpenCL 1.2: a property every device must accept.
  ContextOptions co;
  co.extraProperties = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE};
  auto ctx = ComputeContext::create(co);
  auto props = ctx->context().getInfo<CL_CONTEXT_PROPERTIES>();
  bool found = false;
  for (std::size_t i = 0; i + 1 < props.size(); i += 2)
    found = found || props[i] == CL_CONTEXT_INTEROP_USER_SYNC;
  CHECK(found);
  // A property the platform does not know is an error with a sentence, not a crash.
  co.extraProperties = {0x7fff, 1};
  CHECK_THROWS_AS(ComputeContext::create(co), DeviceError);
}

TEST_CASE("session JSON: round trip and clear refusals") {
  app::SessionFile f;
  f.phantom = "room";
  f.phantomSize = 80;
  f.gvf.mu = 0.12;
  f.gvf.sigma = 1.5;
  f.gvf.v0Mode = V0Mode::ImageGradient;
  f.iterationsPerFrame = 7;
  f.snake.alpha = 0.2;
  f.snakes.push_back({SnakeForce::Traditional, {{10, 10}, {30, 10}, {20, 25.5f}}});
  f.colormap = "inferno";
  f.logScale = true;
  app::SessionFile g = app::sessionFromJson(app::sessionToJson(f));
  CHECK(g.phantom == f.phantom);
  CHECK(g.phantomSize == 80);
  CHECK(g.gvf.mu == doctest::Approx(0.12));
  CHECK(g.gvf.sigma == doctest::Approx(1.5));
  CHECK(g.gvf.v0Mode == V0Mode::ImageGradient);
  CHECK(g.iterationsPerFrame == 7);
  CHECK(g.snake.alpha == doctest::Approx(0.2));
  REQUIRE(g.snakes.size() == 1);
  CHECK(g.snakes[0].force == SnakeForce::Traditional);
  CHECK(g.snakes[0].points[2][1] == doctest::Approx(25.5));
  CHECK(g.colormap == "inferno");
  CHECK(g.logScale);

  CHECK_THROWS_AS(app::sessionFromJson("{ not json"), InputError);
  CHECK_THROWS_AS(app::sessionFromJson("{\"gvflab_session\": 99}"), InputError);
  CHECK_THROWS_WITH_AS(app::sessionFromJson("{\"gvflab_session\": 1, \"phantom\": \"u\", "
                                            "\"solver\": {\"mu\": 2e4}}"),
                       doctest::Contains("mu"), InputError);
  auto rel = app::sessionFromJson("{\"gvflab_session\": 1, \"image\": \"img/a.png\"}", "/data");
  CHECK(*rel.image == "/data/img/a.png");
}

TEST_CASE("saving and loading a live session restores image, parameters and snakes") {
  app::Options o;
  o.phantom = "u";
  o.phantomSize = 64;
  Session a(sessionStartup(o));
  a.setSigma(1.5);
  a.setMu(0.1);
  a.setIterationsPerFrame(9);
  SnakeSession sa(a, o.snakes);
  sa.addCircle({32, 32}, 12);
  sa.setNewForce(SnakeForce::Traditional);
  sa.addPolygon({{5, 5}, {20, 5}, {12, 18}});
  LayerSettings la;
  la.colormap = Colormap::Gray;
  const std::string json = app::sessionToJson(captureSession(a, sa, la));

  app::Options o2;
  o2.phantom = "blob";
  o2.phantomSize = 48;
  Session b(sessionStartup(o2));
  SnakeSession sb(b, o2.snakes);
  LayerSettings lb;
  restoreSession(app::sessionFromJson(json), b, sb, lb);
  CHECK(b.phantomName() == std::optional<std::string>("u"));
  CHECK(b.image().width == 64);
  CHECK(b.image().pixels == a.image().pixels);
  CHECK(b.sigma() == doctest::Approx(1.5));
  CHECK(b.mu() == doctest::Approx(0.1));
  CHECK(b.iterationsPerFrame() == 9);
  CHECK(lb.colormap == Colormap::Gray);
  REQUIRE(sb.contours().size() == 2);
  CHECK(sb.contours()[1].force == SnakeForce::Traditional);
  CHECK(sb.contours()[0].points.size() == sa.contours()[0].points.size());
  CHECK(sb.contours()[0].points[3].x == doctest::Approx(sa.contours()[0].points[3].x));
}

TEST_CASE("a device switch keeps image, parameters and snakes") {
  app::Options o;
  o.phantomSize = 64;
  Session s(sessionStartup(o));
  s.setMu(0.11);
  SnakeSession snakes(s, o.snakes);
  snakes.addCircle({32, 32}, 10);
  s.advanceFrame();
  const long ctxVersion = s.contextVersion();
  s.switchDevice("cpu");
  CHECK(s.contextVersion() == ctxVersion + 1);
  snakes.advanceFrame();
  CHECK(s.mu() == doctest::Approx(0.11));
  CHECK(snakes.contours().size() == 1);
  s.advanceFrame();
  CHECK(s.iterations() > 0);
  CHECK_THROWS_AS(s.switchDevice("no-such-device-xyz"), DeviceError);
  CHECK(s.contextVersion() == ctxVersion + 1);  // the failed switch left it alone
}

TEST_CASE("without a frame budget a frame runs exactly the fixed iterations") {
  app::Options o;
  o.phantomSize = 64;
  Session s(sessionStartup(o));
  s.setFrameBudgetMs(0);
  s.setIterationsPerFrame(3);
  s.advanceFrame(0);
  CHECK(s.lastFrameIterations() == 3);
}

TEST_CASE("frame statistics: nearest-rank percentiles and iterations per second") {
  FrameStats st;
  for (int i = 1; i <= 100; ++i) st.addFrame(i);
  CHECK(st.p50() == 50);
  CHECK(st.p95() == 95);
  st.addIterations(5050);
  CHECK(st.iterationsPerSecond() == doctest::Approx(1000.0));  // 5050 in 5.05 s
  CHECK(st.summary().find("p95 95.0 ms") != std::string::npos);
}

TEST_CASE("frame statistics: the phases of frames over 16.7 ms are kept apart") {
  FrameStats st;
  st.addPhase("solver", 5);  // a fast frame: not counted as slow
  st.addFrame(8);
  st.addPhase("solver", 6);
  st.addPhase("snakes", 20);
  st.addFrame(30);  // slow: 26 ms in phases, 4 ms outside them
  st.addPhase("snakes", 10);
  st.addFrame(20);  // slow
  // Their mean ms: solver 6 over 2 slow frames (not 11), other (4 + 10) / 2.
  CHECK(st.summary().find("2 frames over 16.7 ms (longest 30.0 ms), their mean ms: other 7.0 "
                          "snakes 15.0 solver 3.0") != std::string::npos);
}

TEST_CASE("streamlines follow a uniform field and stop at a sink") {
  const int w = 40, h = 30;
  std::vector<float> right(2 * w * h);
  for (int i = 0; i < w * h; ++i) right[2 * i] = 1.0f;
  auto lines = traceStreamlines(right, w, h, {10.0f});
  REQUIRE(!lines.empty());
  for (const auto& l : lines) {
    CHECK(l.front().x < 1.0f);     // traced back to the left border...
    CHECK(l.back().x > w - 1.0f);  // ...and on to the right one
    CHECK(l.front().y == doctest::Approx(l.back().y));
  }
  // Everything flows to the centre: lines end near it instead of crossing it.
  std::vector<float> sink(2 * w * h);
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) {
      float dx = 20 - (x + 0.5f), dy = 15 - (y + 0.5f), m = std::hypot(dx, dy) + 1e-6f;
      sink[2 * (y * w + x)] = dx / m;
      sink[2 * (y * w + x) + 1] = dy / m;
    }
  for (const auto& l : traceStreamlines(sink, w, h, {10.0f}))
    CHECK(std::hypot(l.back().x - 20, l.back().y - 15) < 2.0f);
}

TEST_CASE("the cursor readout reads the pixel and the vector under it") {
  Image2D img(4, 3, 0.25f);
  img.pixels[1 * 4 + 2] = 0.75f;
  auto r = readoutAt(2.6f, 1.2f, img);
  REQUIRE(r);
  CHECK(r->x == 2);
  CHECK(r->y == 1);
  CHECK(r->intensity == doctest::Approx(0.75));
  CHECK(r->magnitude == 0.0f);  // no field read yet
  setReadoutVector(*r, 3.0f, -4.0f);
  CHECK(r->vx == 3.0f);
  CHECK(r->vy == -4.0f);
  CHECK(r->magnitude == doctest::Approx(5.0));
  CHECK_FALSE(readoutAt(-0.1f, 1, img));
  CHECK_FALSE(readoutAt(4.0f, 1, img));
}

TEST_CASE("1:1 shows one image pixel per screen pixel and keeps the centre") {
  ViewTransform v;
  v.viewSize = {800, 600};
  v.imageSize = {100, 50};
  Vec2 centre = v.screenToImage({400, 300});
  v.actualPixels();
  CHECK(v.pixelsPerImagePixel() == doctest::Approx(1.0));
  Vec2 after = v.screenToImage({400, 300});
  CHECK(after.x == doctest::Approx(centre.x));
  CHECK(after.y == doctest::Approx(centre.y));
  CHECK(navigationKey(v, Qt::Key_F));
  CHECK(v.zoom == 1.0f);
}

TEST_CASE("the mu notice is a kind, cleared by kind, and a refused mu changes nothing") {
  app::Options o;
  o.phantomSize = 64;
  Session s(sessionStartup(o));
  CHECK(s.notice().kind == Notice::Kind::None);
  s.setMu(0.5);  // beyond Euler's bound: clamped, said so
  CHECK(s.notice().kind == Notice::Kind::MuClamped);
  CHECK(s.mu() == doctest::Approx(s.muBound()));
  CHECK(s.solver().mu() == doctest::Approx(s.muBound()));
  CHECK(s.requestedMu() == 0.5);
  s.setMu(0.05);
  CHECK(s.notice().empty());
  s.setMu(0.5);
  s.setSigma(2.0);  // a rebuild with the same clamp keeps the notice
  CHECK(s.notice().kind == Notice::Kind::MuClamped);
  s.clearNotice();
  CHECK(s.notice().empty());
  CHECK_THROWS_AS(s.setMu(NAN), ParameterError);
  CHECK(s.requestedMu() == 0.5);
  // Multigrid: no stability bound and its own range (multigridMuSpec), so the 0.5 asked
  // earlier runs as asked; beyond the range is refused.
  s.setSolverKind(SolverKind::Multigrid);
  CHECK(s.notice().empty());
  CHECK(s.mu() == doctest::Approx(0.5));
  CHECK_THROWS_AS(s.setMu(2e4), ParameterError);
  CHECK_THROWS_AS(s.setMu(0.0), ParameterError);  // the solver refuses μ = 0
  CHECK(s.mu() == doctest::Approx(0.5));
  s.setMu(0.2);
  CHECK(s.notice().empty());
  CHECK(s.solver().mu() == doctest::Approx(0.2));
}

TEST_CASE("--iterations reaches the viewer as a per-frame count; the headless total stays") {
  // The viewer told the two meanings apart by comparing with the default, so an explicit
  // "--iterations 500" was lost; now the flag itself is recorded.
  for (int n : {40, 500}) {
    const app::Options o = app::parseOptions({"--iterations", std::to_string(n)});
    CHECK(o.iterations == n);
    const ViewerStartup v = viewerStartup(o);
    REQUIRE(v.session.fixedIterationsPerFrame.has_value());
    CHECK(*v.session.fixedIterationsPerFrame == n);
    CHECK_FALSE(v.window.defaultFrameBudget);
  }
  const ViewerStartup plain = viewerStartup(app::parseOptions({}));
  CHECK_FALSE(plain.session.fixedIterationsPerFrame.has_value());
  CHECK(plain.window.defaultFrameBudget);
  CHECK(plain.session.phantom == "u");
  CHECK(plain.window.quitAfterFrames == 0);
  CHECK(viewerStartup(app::parseOptions({"--screenshot", "x.png"})).window.quitAfterFrames == 60);
}

// Issue 18: live kernel reload (--kernel-dir) never fired. newestKernelTime() started from a
// default-constructed file_time_type, which is libstdc++'s file-clock epoch (year 2174), so no
// kernel file was ever newer and the look every 15 frames never saw a change.
TEST_CASE("--kernel-dir: an edited kernel file is reloaded within 15 frames") {
  namespace fs = std::filesystem;
  const fs::path dir = test::scratchDir("kernel_reload");
  for (const auto& e : fs::directory_iterator(fs::path(GVFLAB_SOURCE_DIR) / "kernels"))
    fs::copy_file(e.path(), dir / e.path().filename(), fs::copy_options::overwrite_existing);
  // Every copy is older than now: the edit below is the newest change.
  for (const auto& e : fs::directory_iterator(dir))
    fs::last_write_time(e.path(), fs::file_time_type::clock::now() - std::chrono::hours(1));
  app::Options o;
  o.phantom = "u";
  o.phantomSize = 32;
  o.kernelDir = dir.string();
  Session s(sessionStartup(o));
  for (int i = 0; i < 30; ++i) CHECK_FALSE(s.reloadKernelsIfChanged());  // nothing changed
  { std::ofstream(dir / "reduce.cl", std::ios::app) << "\n// edited\n"; }
  fs::last_write_time(dir / "reduce.cl", fs::file_time_type::clock::now());
  bool reloaded = false;
  for (int i = 0; i < 15 && !reloaded; ++i) reloaded = s.reloadKernelsIfChanged();
  CHECK(reloaded);
  s.advanceFrame();  // the rebuilt solver runs
  CHECK(std::isfinite(s.epsilon()));
}
