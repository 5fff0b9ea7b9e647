#include "headless/headless_record.hpp"

#include <QGuiApplication>
#include <QSurfaceFormat>
#include <cmath>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "cli/run_checks.hpp"
#include "gvflab/cancel.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/io.hpp"
#include "gvflab/log.hpp"
#include "headless/headless_figure.hpp"
#include "headless/headless_snakes.hpp"
#include "headless/stop_signals.hpp"
#include "io/field_file.hpp"
#include "io/file_formats.hpp"
#include "io/png_writer.hpp"
#include "io/run_outputs.hpp"
#include "record/recorder.hpp"
#include "viewer/model/frame_stats.hpp"
#include "viewer/model/session.hpp"
#include "viewer/model/snake_session.hpp"
#include "viewer/render/figure.hpp"
#include "viewer/render/figure_renderer.hpp"
#include "viewer/render/surface_format.hpp"
#include "viewer/window/viewer_startup.hpp"

namespace gvflab::app {
namespace {

// Every snake stopped (converged, stalled or any other end state): the --record-tail clock.
bool allSnakesStopped(const std::vector<SnakeContour>& contours) {
  if (contours.empty()) return false;
  for (const auto& c : contours)
    if (c.state == SnakeState::Moving) return false;
  return true;
}

// The outputs other than the video, from what the last frame shows: the same field and snakes
// (headless.cpp writes the same files for a run without --record).
SnakeRunSummary writeRecordingOutputs(const Options& o, viewer::Session& session,
                                      viewer::SnakeSession& snakes, const QImage& last, int frames,
                                      const WorldGeometry& geometry, RunOutputs& outputs) {
  Solver& solver = session.solver();
  SnakeRunSummary summary;
  if (o.snakes.any() && !session.isVolume()) {
    ForceFields forces(session.sharedContext(),
                       buildGvfInput(session.context(), session.image(), session.sigma(),
                                     V0Mode::EdgeGradient, session.input().spacing),
                       o.snakes.forces);
    summary = summariseSnakes(session.sharedContext(), solver, forces, snakes.contours(),
                              session.image(), o, outputs);
  }
  if (o.saveField)
    outputs.write(*o.saveField, [&] {
      // The input's geometry, so that the field overlays it (headless.cpp does the same).
      const auto write = [&](auto field) {
        field.geometry = geometry;
        writeField(*o.saveField, field);
      };
      if (session.isVolume())
        write(solver.readField3D());
      else
        write(solver.readField());
    });
  if (o.saveMagnitude)
    outputs.write(*o.saveMagnitude,
                  [&] { writeMagnitudePng(*o.saveMagnitude, solver.readField()); });
  if (o.screenshot && !last.isNull())
    outputs.write(*o.screenshot, [&] { viewer::writeFigurePng(*o.screenshot, last); });
  if (!o.report) return summary;
  nlohmann::ordered_json json;
  json["solver"] = solver.name();
  json["width"] = solver.width();
  json["height"] = solver.height();
  if (session.isVolume()) json["depth"] = solver.depth();
  json["mu"] = session.mu();
  json["sigma"] = session.sigma();
  json["iterations"] = solver.iterations();
  json["error"] = session.epsilon();
  json["record"] = *o.record;
  json["frames"] = frames;
  json["fps"] = o.fps;
  json.update(summary.report);
  json["device"] = session.device().name;
  outputs.write(*o.report, [&] { writeFileAtomically(*o.report, json.dump(2) + "\n"); });
  return summary;
}

}  // namespace

int runHeadlessRecording(int argc, char** argv, const Options& options) {
  using namespace viewer;
  // Inputs and outputs first (a missing input fails, never the U phantom), then the display.
  const RunInput input = checkHeadlessRun(options);
  record::formatForMuxer(recordingMuxer(*options.record));
  if (options.recordTail && options.snakes.snakes.empty())
    throw ParameterError(
        "--record-tail waits for the snakes to stop: add a --snake (or a "
        "--session with snakes).");
  if (input.is3d && options.saveMagnitude)
    throw ParameterError("--save-magnitude with --record draws a 2D image; '" +
                         options.image.value_or("") +
                         "' is a volume (record without it, or "
                         "run without --record).");
  checkDisplay();
  QSurfaceFormat::setDefaultFormat(viewerSurfaceFormat());
  QGuiApplication app(argc, argv);
  const int width = options.size ? (*options.size)[0] : 512;
  const int height = options.size ? (*options.size)[1] : 512;
  // --record-tail: until every snake stopped, then that many seconds; --frames is the most.
  const int frames = options.frames > 0 ? options.frames : options.recordTail ? 3000 : 120;
  const int tailFrames =
      options.recordTail ? static_cast<int>(std::ceil(*options.recordTail * options.fps)) : 0;
  std::optional<int> lastFrame;  // set once every snake stopped
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
  es.format = record::formatForMuxer(recordingMuxer(*options.record));
  es.width = width;
  es.height = height;
  es.fps = options.fps;
  // From the first byte of the recording, a signal stops it between frames: what was
  // recorded is finished so it plays (headless/stop_signals.hpp; before, the run ends at once).
  StopDeferral deferral;
  record::Recorder recorder(es, /*deterministic=*/true);

  FrameStats stats;
  QImage last;
  long captureVersion = -1;
  int done = 0;
  std::string failure;
  try {
    for (; done < frames && !cancelRequested() && !recorder.failed(); ++done) {
      FrameTimer timer(stats);
      if (done > 0) {
        session.advanceFrame();
        snakes.advanceFrame();
      }
      if (snakes.captureVersion() != captureVersion) {
        figure.setCapture(snakes.captureRgba(), snakes.width(), snakes.height());
        captureVersion = snakes.captureVersion();
      }
      last =
          figure.draw(session.context().queue(), session.solver().field(), session.solver().width(),
                      session.solver().height(), layers, snakes.contours(), snakes.showCapture,
                      session.fieldVersion(), &snakes.trails());
      FigureFacts facts = figureFacts(session, snakes.contours(), layers, figure.rangeMax());
      facts.snakesWaiting = snakes.waitingForField();
      annotateFigure(last, look, facts);
      QImage rgba = last.convertToFormat(QImage::Format_RGBA8888);
      std::vector<std::uint8_t> bytes(rgba.constBits(), rgba.constBits() + rgba.sizeInBytes());
      stats.addIterations(done > 0 ? steps : 0);
      recorder.push(std::move(bytes), /*bottomUp=*/false, done);
      if (options.recordTail && !lastFrame && allSnakesStopped(snakes.contours()))
        lastFrame = done + tailFrames;
      if (lastFrame && done >= *lastFrame) {
        ++done;
        break;
      }
    }
  } catch (const Error& e) {
    failure = e.what();
  }
  std::string message = recorder.stop();
  // The other outputs once the video is whole; a failure puts back what they replaced.
  RunOutputs outputs;
  SnakeRunSummary summary;
  if (failure.empty() && !cancelRequested() && recorder.status().error.empty()) try {
      summary =
          writeRecordingOutputs(options, session, snakes, last, done,
                                input.is3d ? input.volume.geometry : input.image.geometry, outputs);
      // A signal while they were written: put back what they replaced (reported below).
      if (cancelRequested())
        outputs.rollback();
      else
        outputs.commit();
    } catch (const Error& e) {
      outputs.rollback();
      failure = e.what();
    }
  if (!failure.empty()) {
    log::error(failure + " " + message);
    return 1;
  }
  if (const int signal = cancelSignal()) {
    log::error("interrupted after " + std::to_string(done) + " frames. " + message);
    return 128 + signal;
  }
  if (recorder.status().error.size()) {
    log::error(message);
    return 1;
  }
  std::cout << message << " " << width << "x" << height << " at " << options.fps << " fps, "
            << steps << " iterations per frame, " << session.iterations() << " iterations, error "
            << session.epsilon() << " (" << session.device().name << ")\n";
  if (!summary.consoleLine.empty()) std::cout << summary.consoleLine << "\n";
  if (options.stats) std::cout << stats.summary() << "\n";
  return 0;
}

}  // namespace gvflab::app
