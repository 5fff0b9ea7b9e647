// A session's surfaces (app/io/session_file.cpp) as `gvflab --headless --session s.json` reads
// them: the command line over the session, then every surface checked against a 32^3 volume
// (closed, manifold, inside, within the vertex limits: the checks a run makes before any
// device work; no volume is loaded, so a session naming one reads no file here).
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
    input.is3d = true;
    input.volume = Volume(32, 32, 32);
    app::checkSurfaces(options, input);
  });
  return 0;
}
