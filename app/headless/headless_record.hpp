#pragma once
// gvflab --headless (IMAGE | --phantom NAME) --record OUT --frames N --steps-per-frame K
// --size WxH: draws each frame offscreen with the viewer's renderer and records it. Frame i
// shows the field after i*K iterations, so the same input and parameters give the same frames.
#include "cli/options.hpp"

namespace gvflab::app {

// Returns the exit code; throws gvflab::Error for failures before the first frame.
int runHeadlessRecording(int argc, char** argv, const Options& options);

}  // namespace gvflab::app
