// gvflab: the viewer, and the same executable headless. main catches once and prints a
// sentence; nothing below it prints raw exceptions.
#include <QCoreApplication>
#include <iostream>
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "gvflab/error.hpp"
#include "gvflab/version.hpp"
#include "headless/headless.hpp"
#include "headless/headless_figure.hpp"
#include "headless/headless_record.hpp"
#include "headless/run_progress.hpp"
#include "io/qt_messages.hpp"
#include "io/session_file.hpp"
#include "viewer/window/viewer_main.hpp"

int main(int argc, char** argv) {
  using namespace gvflab::app;
  std::vector<std::string> args(argv + 1, argv + argc);
  dropQtRuntimeDirWarning();
  try {
    Options options = parseCommandLine(args);
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
        runHeadless(options);
        return 0;
      }
      case Mode::Viewer:
        return runViewer(argc, argv, options);
    }
  } catch (const Interrupted& e) {
    std::cerr << "gvflab: " << e.what() << "\n";
    return 130;
  } catch (const gvflab::Error& e) {
    std::cerr << "gvflab: " << e.what() << "\n";
    return 1;
  } catch (const std::bad_alloc&) {
    std::cerr << "gvflab: out of memory.\n";
    return 1;
  } catch (const std::exception& e) {
    std::cerr << "gvflab: unexpected error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
