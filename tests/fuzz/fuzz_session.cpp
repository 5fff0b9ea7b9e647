// Session JSON (app/io/session_file.cpp) as `gvflab --headless --session s.json` reads it: the
// command line over the session, then the checks a run makes before it builds any geometry
// or device work. Built twice: fuzz_session checks every snake against a 256x256 image,
// fuzz_session_surfaces (GVFLAB_FUZZ_SURFACES) every surface against a 32^3 volume (closed,
// manifold, inside, within the vertex limits). No image is loaded, so a session naming one
// reads no file here.
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
#ifdef GVFLAB_FUZZ_SURFACES
    input.is3d = true;
    input.volume = Volume(32, 32, 32);
    app::checkSurfaces(options, input);
#else
    input.image = Image2D(256, 256);
    app::checkSnakes(options, input);
#endif
  });
  return 0;
}
