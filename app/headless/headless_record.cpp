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
#include "headless/headless_figure.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/figure_renderer.hpp"
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

  FigureRenderer figure(width, height, session.device());
  const LayerSettings layers = layerSettingsFromOptions(options);
  const FigureOptions look = figureOptionsFromOptions(options);
  figure.setImage(session.image());

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
  QImage last;
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
      if (snakes.captureVersion() != captureVersion) {
        figure.setCapture(snakes.captureRgba(), snakes.width(), snakes.height());
        captureVersion = snakes.captureVersion();
      }
      last = figure.draw(session.context().queue(), session.solver().field(),
                         session.solver().width(), session.solver().height(), layers,
                         snakes.contours(), snakes.showCapture, session.fieldVersion(),
                         &snakes.trails());
      annotateFigure(last, look, figureFacts(session, snakes.contours(), layers, figure.rangeMax()));
      QImage rgba = last.convertToFormat(QImage::Format_RGBA8888);
      std::vector<std::uint8_t> bytes(rgba.constBits(), rgba.constBits() + rgba.sizeInBytes());
      stats.addIterations(done > 0 ? steps : 0);
      recorder.push(std::move(bytes), /*bottomUp=*/false, done);
    }
  } catch (const Error& e) {
    failure = e.what();
  }
  std::signal(SIGINT, oldInt);
  std::signal(SIGTERM, oldTerm);
  std::string message = recorder.stop();
  if (options.screenshot && failure.empty() && !last.isNull()) try {
      viewer::writeFigurePng(*options.screenshot, last);
    } catch (const Error& e) {
      failure = e.what();
    }
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
