// gvflab: the viewer, and the same executable headless. main catches once and prints a
// sentence; nothing below it prints raw exceptions.
#include <QCoreApplication>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command_line.hpp"
#include "cli/options.hpp"
#include "gvflab/cancel.hpp"
#include "gvflab/error.hpp"
#include "gvflab/input_file.hpp"
#include "gvflab/log.hpp"
#include "gvflab/version.hpp"
#include "headless/headless.hpp"
#include "headless/headless_batch.hpp"
#include "headless/headless_figure.hpp"
#include "headless/headless_record.hpp"
#include "headless/stop_signals.hpp"
#include "io/qt_messages.hpp"
#include "io/volume_loader.hpp"
#include "viewer/window/viewer_main.hpp"

int main(int argc, char** argv) {
  using namespace gvflab::app;
  std::vector<std::string> args(argv + 1, argv + argc);
  dropQtRuntimeDirWarning();
  // A file-size limit (ulimit -f) makes a write fail with EFBIG, reported by the writer with
  // the file's name, instead of killing the process mid-write.
  std::signal(SIGXFSZ, SIG_IGN);
  // Before the command line is read: a --session or an input may be large, slow or blocking.
  installStopSignals();
  try {
    Options options = parseCommandLine(args);
    // --quiet: errors only (Qt's own lines too); --verbose: debug lines as well.
    gvflab::log::setLevel(options.quiet     ? gvflab::log::Level::Error
                          : options.verbose ? gvflab::log::Level::Debug
                                            : gvflab::log::Level::Info);
    setQtMessagesQuiet(options.quiet);
    gvflab::setDataFilesOutsideAllowed(options.allowDataOutside);
    if (options.mode == Mode::Viewer) restoreDefaultSignals();
    switch (options.mode) {
      case Mode::Help:
        std::cout << helpText();
        return 0;
      case Mode::Version:
        std::cout << "gvflab " << gvflab::versionString() << "\n";
        return 0;
      case Mode::ListDevices:
        listDevicesTo(std::cout);
        return 0;
      case Mode::Headless: {
        if (options.record) return runHeadlessRecording(argc, argv, options);
        if (options.screenshot || options.composite)
          return runHeadlessWithFigure(argc, argv, options);
        QCoreApplication app(argc, argv);  // Qt's image plugins need an application object
        if (!options.batch.empty()) return runHeadlessBatch(options);
        runHeadless(options);
        return 0;
      }
      case Mode::Viewer:
        if (options.recordTail)  // honoured where it runs, refused where it would be ignored
          throw gvflab::ParameterError(
              "--record-tail ends a headless recording (--headless ... --record OUT); the "
              "viewer's recording stops with its Stop button.");
        // A named image or volume that cannot be read is refused before the window opens,
        // as headless: the phantom is never shown (or saved) in its place.
        if (options.image) inputShape(*options.image);
        return runViewer(argc, argv, options);
    }
  } catch (const gvflab::Interrupted& e) {
    gvflab::log::error(e.what());
    return e.exitCode();  // 130 for SIGINT, 143 for SIGTERM
  } catch (const gvflab::Error& e) {
    gvflab::log::error(e.what());
    return 1;
  } catch (const std::bad_alloc&) {
    gvflab::log::error("out of memory.");
    return 1;
  } catch (const std::exception& e) {
    gvflab::log::error(std::string("unexpected error: ") + e.what());
    return 1;
  }
  return 0;
}
