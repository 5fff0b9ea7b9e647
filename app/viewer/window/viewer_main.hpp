#pragma once
// Entry point of the interactive viewer (gvflab [IMAGE]).
#include "cli/options.hpp"

namespace gvflab::app {

// Opens the window and runs until it closes (or until options.frames frames were drawn, after
// saving options.screenshot). Startup failures (no OpenCL device, unreadable first image)
// throw gvflab::Error; once the window is up, errors show in it instead.
int runViewer(int argc, char** argv, const Options& options);

}  // namespace gvflab::app
