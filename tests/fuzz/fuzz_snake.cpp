// Snake specs and flags (app/cli/snake_options.cpp): each line of the input is a --snake spec
// ("circle:CX,CY,R", "polygon:X1,Y1,...", "@force"), or, when it starts with "--", a snake flag
// and its value ("--dmin 0.5"). Then the whole-command-line checks and the run's snake checks
// against a 256x256 image, as `gvflab --headless --snake ...` makes them.
#include <sstream>

#include "cli/options.hpp"
#include "cli/run_checks.hpp"
#include "cli/snake_options.hpp"
#include "fuzz_support.hpp"

using namespace gvflab;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::istringstream lines(std::string(reinterpret_cast<const char*>(data), size));
  fuzz::refuseOrRead([&] {
    app::Options options;
    std::string line;
    while (std::getline(lines, line)) {
      if (line.rfind("--", 0) == 0) {
        const auto space = line.find(' ');
        const std::string flag = line.substr(0, space);
        const std::string value = space == std::string::npos ? "" : line.substr(space + 1);
        app::parseSnakeOption(
            flag, [&] { return value; }, options.snakes);
      } else {
        options.snakes.snakes.push_back(app::parseSnakeSpec(line));
      }
    }
    app::finishSnakeOptions(options.snakes);
    app::RunInput input;
    input.image = Image2D(256, 256);
    app::checkSnakes(options, input);
  });
  return 0;
}
