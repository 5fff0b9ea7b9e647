#include "cli/command_line.hpp"

#include "cli/session_snakes.hpp"

namespace gvflab::app {

Options parseCommandLine(const std::vector<std::string>& args) {
  Options options = parseOptions(args);
  if (!options.session) return options;
  Options base = parseOptions({});
  applySession(loadSession(*options.session), base,
               options.sessionFromInitial ? SessionStart::Initial : SessionStart::Current);
  return parseOptions(args, &base);
}

void applySession(const SessionFile& s, Options& o, SessionStart from) {
  // An image or phantom on the command line wins over the session's (which may name none).
  if (!o.image && !o.phantom) {
    o.image = s.image;
    o.phantom = s.phantom;
    o.phantomSize = s.phantomSize;
  }
  o.gvf = s.gvf;
  // The user's saved value is checked as asked; a session without one takes the default, fitted
  // to the input as a run without a session does.
  o.muGiven = o.muGiven || s.muGiven;
  o.savedIterationsPerFrame = s.iterationsPerFrame;
  o.frameBudgetMs = s.frameBudgetMs;
  if (!s.device.empty() && o.device.empty()) o.device = s.device;
  o.snakes.params = s.snake;
  o.snakes.forces = s.forces;
  o.snakes.snakes = sessionSnakeSpecs(s, from);
  o.snakes.surfaces = sessionSurfaceSpecs(s, from);
  o.colormap = s.colormap;
  o.logScale = s.logScale;
}

}  // namespace gvflab::app
