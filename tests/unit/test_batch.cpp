// --batch (headless/headless_batch.hpp): which files it names, how each input's outputs are
// named in --output-dir, and the flags it goes with; --quiet/--verbose set the log's level.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "cli/flag_table.hpp"
#include "cli/options.hpp"
#include "gvflab/error.hpp"
#include "headless/headless_batch.hpp"

using namespace gvflab;
using namespace gvflab::app;
namespace fs = std::filesystem;

namespace {

fs::path scratch() {
  const fs::path dir =
      fs::temp_directory_path() / ("gvflab-test-batch-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "in");
  return dir;
}

}  // namespace

TEST_CASE("--batch: the stem of an input, with the two-part extension of NIfTI") {
  CHECK(inputStem("scans/a.nii.gz") == "a");
  CHECK(inputStem("/d/b.mhd") == "b");
  CHECK(inputStem("c.png") == "c");
  CHECK(inputStem("my.scan.nrrd") == "my.scan");
  CHECK(inputStem("noext") == "noext");
}

TEST_CASE("--batch: output flags become each input's files in --output-dir") {
  const Options o =
      parseOptions({"--headless", "--batch", "x/a.png", "y/b.pgm", "--output-dir", "out",
                    "--save-field", "field.nii.gz", "--report", "{stem}_r.json", "--save-contours",
                    "{stem}/{stem}.json", "--snake", "circle:5,5,3"});
  REQUIRE(o.batch == std::vector<std::string>{"x/a.png", "y/b.pgm"});
  CHECK_THROWS_AS(batchRunOptions(o, "x/a.png"), ParameterError);  // a folder in a name
  Options ok = o;
  ok.snakes.saveContours = "{stem}.csv";
  const Options a = batchRunOptions(ok, "x/a.png");
  CHECK(*a.image == "x/a.png");
  CHECK(a.batch.empty());
  CHECK(*a.saveField == "out/a-field.nii.gz");
  CHECK(*a.report == "out/a_r.json");
  CHECK(*a.snakes.saveContours == "out/a.csv");
  CHECK_FALSE(a.saveMagnitude);
}

TEST_CASE("--batch: globs sorted, @lists relative to their folder, nothing matched refused") {
  const fs::path d = scratch();
  for (const char* n : {"c.png", "a.png", "b.png", "skip.txt"}) std::ofstream(d / "in" / n) << "x";
  std::ofstream(d / "list.txt") << "# comment\n\n in/b.png \n" << (d / "in/a.png").string() << "\n";
  const auto inputs = batchInputs({(d / "in/*.png").string(), "@" + (d / "list.txt").string()});
  CHECK(inputs == std::vector<std::string>{(d / "in/a.png").string(), (d / "in/b.png").string(),
                                           (d / "in/c.png").string(), (d / "in/b.png").string(),
                                           (d / "in/a.png").string()});
  CHECK_THROWS_AS(batchInputs({(d / "in/*.tif").string()}), ParameterError);
  std::ofstream(d / "empty.txt") << "# nothing\n";
  CHECK_THROWS_AS(batchInputs({"@" + (d / "empty.txt").string()}), ParameterError);
  fs::remove_all(d);
}

TEST_CASE("--batch goes with --headless and --output-dir; --quiet and --verbose do not mix") {
  CHECK_THROWS_AS(parseOptions({"--headless", "--batch", "a.png"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--batch", "a.png", "--output-dir", "o"}), ParameterError);
  CHECK_THROWS_AS(parseOptions({"--headless", "a.png", "--batch", "b.png", "--output-dir", "o"}),
                  ParameterError);
  CHECK_THROWS_AS(parseOptions({"--headless", "--phantom", "u", "--output-dir", "o"}),
                  ParameterError);
  CHECK_THROWS_AS(parseOptions({"--headless", "--phantom", "u", "--quiet", "--verbose"}),
                  ParameterError);
  CHECK(parseOptions({"--headless", "--phantom", "u", "--verbose"}).verbose);
}

TEST_CASE("every flag that writes a run's file is named per input by --batch") {
  for (const char* name :
       {"--save-field", "--save-magnitude", "--report", "--save-contours", "--capture-map"}) {
    CAPTURE(name);
    REQUIRE(findFlag(name));
    CHECK(findFlag(name)->output);
  }
}
