// The command line's flag table (app/cli/flag_table.hpp): every flag in --help with its
// default, every spec of the engine's tables a flag with the spec's range, the README's usage
// flags all real, and the table's own rules (one file per output flag, values required).
#include <doctest/doctest.h>

#include <fstream>
#include <map>
#include <regex>
#include <set>
#include <sstream>

#include "cli/cli_params.hpp"
#include "cli/flag_table.hpp"
#include "cli/options.hpp"
#include "gvflab/capture_range.hpp"
#include "gvflab/error.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/region_types.hpp"
#include "io/file_formats.hpp"

using namespace gvflab;
using namespace gvflab::app;

namespace {

// The help text with every run of spaces and line breaks as one space (wrapping may break a
// line anywhere between words).
std::string flattened(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

}  // namespace

TEST_CASE("--help shows every flag of the table with its argument and default") {
  const std::string help = flattened(helpText());
  std::set<std::string> names;
  for (const Flag& f : flagTable()) {
    CAPTURE(f.name);
    CHECK(names.insert(f.name).second);  // declared once
    CHECK(f.apply);
    const std::string lead =
        f.name + (f.alias.empty() ? "" : ", " + f.alias) + (f.arg.empty() ? "" : " " + f.arg);
    CHECK(help.find(" " + lead + " ") != std::string::npos);
    CHECK(help.find(flattened(flagHelp(f))) != std::string::npos);
    const std::string byDefault = flagDefault(f);
    if (!byDefault.empty()) CHECK(help.find("default " + byDefault) != std::string::npos);
    if (f.spec && !f.spec->choices.empty()) {  // named: each name in the argument
      for (const std::string& c : f.spec->choices) CHECK(f.arg.find(c) != std::string::npos);
    } else if (f.spec) {
      std::ostringstream range;
      range << "[" << f.spec->minValue << ", " << f.spec->maxValue << "]";
      CHECK(flagHelp(f).find(range.str()) != std::string::npos);
    }
  }
  // Defaults come from the tables, not from text: a few spot checks of what is printed.
  CHECK(flagDefault(*findFlag("--sigma")) == "1");
  CHECK(flagDefault(*findFlag("--precision")) == "f32");
  CHECK(flagDefault(*findFlag("--snake-force")) == "gvf");
  CHECK(flagDefault(*findFlag("--noise")) == "gaussian");
  CHECK(flagDefault(*findFlag("--iterations")).empty());  // headless: to --target-error
  CHECK(flagDefault(*findFlag("--mg-cycle")) == "auto");
  CHECK(findFlag("--mg-cycle")->arg == "auto|fmg|vcycles|twogrid");
  // The formats read, from the format table: every input extension is listed.
  for (const FileFormat& format : fileFormats())
    for (const FormatExtension& e : format.extensions)
      if (hasRole(e.roles, FormatRole::ImageInput) || hasRole(e.roles, FormatRole::VolumeInput))
        CHECK_MESSAGE(help.find(std::string(e.suffix)) != std::string::npos, e.suffix);
  CHECK(help.find("NRRD (.nrrd, .nhdr)") != std::string::npos);
}

TEST_CASE("every parameter spec of the engine and the CLI is a flag with its range") {
  for (const auto* specs : {&gvfParamSpecs(), &multigridParamSpecs(), &cliParamSpecs(),
                            &snakeParamSpecs(), &captureParamSpecs(), &regionSnakeParamSpecs()})
    for (const ParamSpec& s : *specs) {
      CAPTURE(s.key);
      // The region snake's noise is a named choice (--noise gaussian|gamma|poisson), its
      // max-iterations the viewer panel's only.
      if (specs == &regionSnakeParamSpecs() && (s.key == "noise" || s.key == "max-iterations"))
        continue;
      const Flag* f = findFlag("--" + s.key);
      REQUIRE(f != nullptr);
      REQUIRE(f->spec != nullptr);
      CHECK(f->spec->minValue == s.minValue);
      CHECK(f->spec->maxValue == s.maxValue);
    }
}

TEST_CASE("the README's usage section names only flags of the table") {
  std::ifstream in(std::string(GVFLAB_SOURCE_DIR) + "/README.md");
  REQUIRE(in);
  std::string line, section;
  bool inUsage = false;
  while (std::getline(in, line)) {
    if (line.rfind("## ", 0) == 0) inUsage = line == "## Using it";
    if (inUsage) section += line + "\n";
  }
  REQUIRE(section.size() > 1000);
  const std::set<std::string> otherTools = {"--json"};  // gvflab-bench's
  const std::regex flag("--[a-z][a-z0-9-]*");
  int seen = 0;
  for (auto it = std::sregex_iterator(section.begin(), section.end(), flag);
       it != std::sregex_iterator(); ++it) {
    const std::string name = it->str();
    CAPTURE(name);
    ++seen;
    if (!otherTools.count(name)) CHECK(findFlag(name) != nullptr);
  }
  CHECK(seen > 50);
}

TEST_CASE("flags that name one file are refused twice; flags with values need them") {
  const std::map<std::string, std::string> values = {
      {"--save-field", "f.mha"},          {"--save-contours", "c.json"},
      {"--screenshot", "s.png"},          {"--record-tail", "1"},
      {"--contour-coordinates", "world"}, {"--save-surfaces", "s.ply"},
      {"--surface-coordinates", "world"}};
  for (const Flag& f : flagTable()) {
    CAPTURE(f.name);
    if (f.once) {
      const std::string v = values.count(f.name) ? values.at(f.name) : "out.png";
      CHECK_THROWS_WITH_AS(parseOptions({f.name, v, f.name, v}),
                           doctest::Contains((f.name + " was given twice").c_str()),
                           ParameterError);
    }
    if (f.takesValue())
      CHECK_THROWS_WITH_AS(parseOptions({f.name}),
                           doctest::Contains((f.name + " needs a value").c_str()), ParameterError);
  }
  // Flags outside the table: one sentence, never an exception of the standard library.
  for (const std::string bad : {"--", "-", "--nope", "-x"})
    CHECK_THROWS_WITH_AS(parseOptions({bad}), doctest::Contains("Unknown option"), ParameterError);
}
