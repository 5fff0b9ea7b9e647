#pragma once
// A saved session's snakes as the command line's snake specs (for --session and the viewer's
// File > Open session alike); no Options, so the viewer's model may use it.
#include <vector>

#include "cli/snake_options.hpp"
#include "io/session_file.hpp"

namespace gvflab::app {

// Each saved snake starting as `from` says, keeping its starting contour for a restart.
std::vector<SnakeSpec> sessionSnakeSpecs(const SessionFile& session,
                                         SessionStart from = SessionStart::Current);

// Each saved surface as a spec ("session surface") starting as `from` says: its `current`
// mesh is where it starts, its `initial` where a restart goes.
std::vector<SurfaceSpec> sessionSurfaceSpecs(const SessionFile& session,
                                             SessionStart from = SessionStart::Current);

}  // namespace gvflab::app
