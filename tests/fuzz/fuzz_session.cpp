// Session JSON (app/io/session_file.cpp) as `gvflab --headless --session s.json` reads it: the
// command line over the session, then every snake checked against a 256x256 image (the checks
// a run makes before it builds any geometry; no image is loaded, so a session naming one
// reads no file here).
#include <QCoreApplication>

#include "cli/command_line.hpp"
#include "cli/run_checks.hpp"
#include "fuzz_support.hpp"
#include "io/session_file.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const auto path = fuzz::writeInput("s.json", data, size);
  fuzz::refuseOrRead([&] {
    const app::Options options = app::parseCommandLine({"--headless", "--session", path.string()});
    app::RunInput input;
    input.image = Image2D(256, 256);
    app::checkSnakes(options, input);
  });
  return 0;
}
