#include "headless/headless_record.hpp"

#include <QGuiApplication>
#include <QSurfaceFormat>
#include <atomic>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "cli/run_checks.hpp"
#include "gvflab/error.hpp"
#include "record/recorder.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/render/offscreen_target.hpp"
#include "viewer/render/presenter.hpp"
#include "viewer/render/renderer.hpp"
#include "viewer/render/snake_layer.hpp"
#include "viewer/render/streamline_layer.hpp"
#include "viewer/window/viewer_startup.hpp"
#include "viewer/window/gl_view.hpp"

namespace gvflab::app {
namespace {

std::atomic<bool> interrupted{false};
void onSignal(int) { interrupted = true; }

// Qt aborts (rc 134) when it cannot reach a display; say what to do instead, before Qt starts.
void checkDisplay() {
  const char* platform = std::getenv("QT_QPA_PLATFORM");
  if (platform && *platform && std::string(platform).rfind("xcb", 0) != 0 &&
      std::string(platform).rfind("wayland", 0) != 0)
    return;  // the user chose a platform (offscreen, eglfs, ...): Qt reports on it
  const char* wayland = std::getenv("WAYLAND_DISPLAY");
  if (wayland && *wayland && (!platform || std::string(platform).rfind("wayland", 0) == 0))
    return;
  const char* display = std::getenv("DISPLAY");
  const std::string hint =
      "; headless recording draws with OpenGL offscreen and needs an X server: run it under "
      "Xvfb, e.g. xvfb-run -a gvflab --headless ... --record OUT.mp4";
  if (!display || !*display) throw DeviceError("No display (DISPLAY is not set)" + hint + ".");
  // A local display ":N" or ":N.S" has its socket in /tmp/.X11-unix.
  const std::string d = display;
  if (d[0] == ':') {
    const std::string number = d.substr(1, d.find('.') - 1);
    std::error_code ec;
    if (!std::filesystem::exists("/tmp/.X11-unix/X" + number, ec))
      throw DeviceError("No X server answers on DISPLAY '" + d + "'" + hint + ".");
  }
}

}  // namespace

int runHeadlessRecording(int argc, char** argv, const Options& options) {
  using namespace viewer;
  // Inputs and outputs first (a missing input fails, never the U phantom), then the display.
  checkHeadlessRun(options);
  record::formatForPath(*options.record);
  checkDisplay();
  QSurfaceFormat::setDefaultFormat(viewerSurfaceFormat());
  QGuiApplication app(argc, argv);
  const int width = options.size ? (*options.size)[0] : 512;
  const int height = options.size ? (*options.size)[1] : 512;
  const int frames = options.frames > 0 ? options.frames : 120;
  const int steps = options.stepsPerFrame > 0 ? options.stepsPerFrame : 10;

  Session session(sessionStartup(options));
  if (!session.startupError().empty()) throw InputError(session.startupError());
  session.setIterationsPerFrame(steps);
  session.setRunning(true);
  SnakeSession snakes(session, options.snakes);

  OffscreenTarget target(width, height);
  Renderer renderer;
  Presenter presenter(session.device());
  SnakeLayer snakeLayer;
  StreamlineLayer streamlines;
  LayerSettings layers = layerSettingsFromOptions(options);
  ViewTransform view;
  view.viewSize = {static_cast<float>(width), static_cast<float>(height)};
  view.imageSize = {static_cast<float>(session.image().width),
                    static_cast<float>(session.image().height)};
  renderer.setImage(session.image());

  record::EncoderSettings es;
  es.path = *options.record;
  es.format = record::formatForPath(*options.record);
  es.width = width;
  es.height = height;
  es.fps = options.fps;
  record::Recorder recorder(es, /*deterministic=*/true);

  interrupted = false;
  auto oldInt = std::signal(SIGINT, onSignal);
  auto oldTerm = std::signal(SIGTERM, onSignal);
  FrameStats stats;
  std::vector<std::uint8_t> rgba;
  long captureVersion = -1;
  int done = 0;
  std::string failure;
  try {
    for (; done < frames && !interrupted && !recorder.failed(); ++done) {
      FrameTimer timer(stats);
      if (done > 0) {
        session.advanceFrame();
        snakes.advanceFrame();
      }
      presenter.upload(session.context().queue(), session.solver().field(),
                       session.solver().width(), session.solver().height());
      if (snakes.captureVersion() != captureVersion) {
        snakeLayer.setCapture(snakes.captureRgba(), snakes.width(), snakes.height());
        captureVersion = snakes.captureVersion();
      }
      target.bind();
      const Viewport vp{0, 0, width, height};
      const float range = layers.autoRange ? presenter.maxMagnitude() : layers.fixedRangeMax;
      renderer.draw(vp, view, layers, presenter.texture(), std::max(range, 1e-12f));
      if (layers.showStreamlines)
        streamlines.draw(vp, view, presenter.hostField(), presenter.texture().width,
                         presenter.texture().height, layers, session.fieldVersion());
      SnakeDrawing d{&snakes.contours(), {}, true, 0};
      snakeLayer.draw(vp, view, d, snakes.showCapture, 0.45f);
      target.readRgba(rgba);
      stats.addIterations(done > 0 ? steps : 0);
      recorder.push(rgba, /*bottomUp=*/true, done);
    }
  } catch (const Error& e) {
    failure = e.what();
  }
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  std::string message = recorder.stop();
  if (options.screenshot && failure.empty() && !target.image().save(QString::fromStdString(*options.screenshot), "PNG"))
    failure = "Could not save the screenshot to '" + *options.screenshot + "'.";
  if (!failure.empty()) {
    std::cerr << "gvflab: " << failure << " " << message << "\n";
    return 1;
  }
  if (interrupted) {
    std::cerr << "gvflab: interrupted after " << done << " frames. " << message << "\n";
    return 130;
  }
  if (recorder.status().error.size()) {
    std::cerr << "gvflab: " << message << "\n";
    return 1;
  }
  std::cout << message << " " << width << "x" << height << " at " << options.fps << " fps, "
            << steps << " iterations per frame, " << session.iterations() << " iterations, error "
            << session.epsilon() << " (" << session.device().name << ")\n";
  if (options.stats) std::cout << stats.summary() << "\n";
  return 0;
}

}  // namespace gvflab::app
