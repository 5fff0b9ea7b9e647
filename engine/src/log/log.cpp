#include "gvflab/log.hpp"

#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>

#include <atomic>

namespace gvflab::log {
namespace {

std::atomic<Level> shown{Level::Info};

// Not registered in spdlog's registry: a client's own spdlog set-up cannot reach it. Plain
// (no colour) on stderr, flushed per line; the prefixes are ours, so that an error reads as
// the one-line "gvflab: ..." sentence the CLI has always printed.
spdlog::logger& logger() {
  static spdlog::logger instance = [] {
    spdlog::logger l("gvflab", std::make_shared<spdlog::sinks::stderr_sink_mt>());
    l.set_pattern("%v");
    l.set_level(spdlog::level::trace);  // the level is ours (shown), checked before formatting
    return l;
  }();
  return instance;
}

void write(Level l, spdlog::level::level_enum as, const char* prefix, const std::string& text) {
  if (!enabled(l)) return;
  logger().log(as, "{}{}", prefix, text);
}

}  // namespace

void setLevel(Level most) { shown = most; }
bool enabled(Level l) { return static_cast<int>(l) <= static_cast<int>(shown.load()); }

void error(const std::string& text) { write(Level::Error, spdlog::level::err, "gvflab: ", text); }
void warning(const std::string& text) {
  write(Level::Warning, spdlog::level::warn, "gvflab: warning: ", text);
}
void info(const std::string& text) { write(Level::Info, spdlog::level::info, "", text); }
void debug(const std::string& text) {
  write(Level::Debug, spdlog::level::debug, "gvflab: debug: ", text);
}

}  // namespace gvflab::log
