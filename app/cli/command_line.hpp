#pragma once
// The executable's command line with its --session: the session file's values first, then the
// flags given.
#include <string>
#include <vector>

#include "cli/options.hpp"
#include "io/session_file.hpp"

namespace gvflab::app {

// What the command line would say for this session (image or phantom, parameters, snakes
// starting as `from` says). An image or phantom already in options is kept.
void applySession(const SessionFile& session, Options& options,
                  SessionStart from = SessionStart::Current);

// The executable's options: the command line, over its --session when it names one (the
// session first, then every flag given wins: image or phantom, --mu, ...; --snake adds).
Options parseCommandLine(const std::vector<std::string>& args);

}  // namespace gvflab::app
