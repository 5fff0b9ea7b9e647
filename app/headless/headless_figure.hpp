#pragma once
// Figures from the command line: --screenshot F.png with --headless (after the run, at --size,
// with --legend and --caption) and the shared pieces of headless recording.

#include "cli/options.hpp"
#include "viewer/render/figure.hpp"

namespace gvflab::app {

viewer::FigureOptions figureOptionsFromOptions(const Options& options);

// Throws DeviceError with what to do when no display answers: Qt would abort (rc 134) there.
void checkDisplay();

// gvflab --headless ... --screenshot F.png (without --record): checks that OpenGL is there and
// where the file goes, runs as runHeadless does, then draws the field, the image and the
// snakes offscreen and writes the figure. Returns the exit code; throws gvflab::Error.
int runHeadlessWithFigure(int argc, char** argv, const Options& options);

}  // namespace gvflab::app
