#pragma once
// Messages by level, for the engine and every client (the viewer, the headless CLI, the bench,
// Python): one logger (spdlog, behind this header) writing to stderr, one line a message:
//   error    "gvflab: TEXT"            (the one-line refusal; shown even with --quiet)
//   warning  "gvflab: warning: TEXT"
//   info     "TEXT"
//   debug    "gvflab: debug: TEXT"     (only with --verbose)
// Program output (results on stdout, --help, reports) and the terminal's progress line do not
// go through here. Qt-free and spdlog-free: only engine/src/log/log.cpp sees spdlog.
#include <string>

namespace gvflab::log {

enum class Level { Error, Warning, Info, Debug };

// The most detailed level shown: Error (--quiet), Info (the default) or Debug (--verbose).
void setLevel(Level most);
// Whether a message of this level is shown: build costly texts only when it is.
bool enabled(Level l);

void error(const std::string& text);
void warning(const std::string& text);
void info(const std::string& text);
void debug(const std::string& text);

}  // namespace gvflab::log
