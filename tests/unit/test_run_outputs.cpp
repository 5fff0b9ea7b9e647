// A run's outputs as a whole (io/run_outputs.hpp, cli/run_checks.hpp): a failed run puts back
// the files it replaced; outputs naming an input, the session or each other are refused first;
// library-written files are read back in full.
#include <doctest/doctest.h>
#include <sys/stat.h>
#include <zlib.h>

#include <filesystem>
#include <fstream>
#include <set>

#include "cli/options.hpp"
#include "cli/run_checks.hpp"
#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "io/run_outputs.hpp"
#include "io/written_check.hpp"
#include "test_support.hpp"

using namespace gvflab;
using namespace gvflab::app;
namespace fs = std::filesystem;

namespace {

void put(const fs::path& p, const std::string& text) { std::ofstream(p, std::ios::binary) << text; }

std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

}  // namespace

TEST_CASE("a failed run puts back the files it replaced and removes the new ones") {
  const auto dir = test::scratchDir("run_outputs_restore");
  put(dir / "old.txt", "earlier");
  {
    RunOutputs outputs;
    outputs.write((dir / "old.txt").string(),
                  [&] { gvflab::writeFileAtomically(dir / "old.txt", "new"); });
    outputs.write((dir / "new.txt").string(),
                  [&] { gvflab::writeFileAtomically(dir / "new.txt", "n"); });
    CHECK(test::readFile(dir / "old.txt") == "new");
    CHECK_THROWS_AS(
        outputs.write((dir / "late.txt").string(), [] { throw InputError("the disk is full"); }),
        InputError);
  }  // not committed: the run failed
  CHECK(test::readFile(dir / "old.txt") == "earlier");
  CHECK(names(dir) == std::set<std::string>{"old.txt"});  // no backup, no new file
  {
    RunOutputs outputs;
    outputs.write((dir / "old.txt").string(),
                  [&] { gvflab::writeFileAtomically(dir / "old.txt", "kept"); });
    outputs.commit();
  }
  CHECK(test::readFile(dir / "old.txt") == "kept");
  CHECK(names(dir) == std::set<std::string>{"old.txt"});
}

TEST_CASE("outputs naming an input, the session or each other are refused, naming both") {
  const auto dir = test::scratchDir("run_outputs_same");
  put(dir / "in.png", "png");
  put(dir / "s.json", "{}");
  fs::create_symlink("in.png", dir / "link.png");
  fs::create_directory(dir / "real");
  fs::create_directory_symlink("real", dir / "alias");
  REQUIRE(mkfifo((dir / "fifo.json").c_str(), 0600) == 0);
  auto check = [&](std::vector<std::string> args, const char* a, const char* b) {
    Options o = parseOptions(args);
    CHECK_THROWS_WITH_AS(checkOutputPaths(o), doctest::Contains(a), ParameterError);
    CHECK_THROWS_WITH_AS(checkOutputPaths(o), doctest::Contains(b), ParameterError);
  };
  const std::string in = (dir / "in.png").string();
  check({"--headless", in, "--save-magnitude", in}, "--save-magnitude", "the input image");
  check({"--headless", in, "--save-magnitude", (dir / "link.png").string()}, "--save-magnitude",
        "the input image");
  check({"--headless", "--phantom", "u", "--session", (dir / "s.json").string(), "--report",
         (dir / "s.json").string()},
        "--report", "--session");
  check({"--headless", "--phantom", "u", "--save-magnitude", (dir / "real" / "m.png").string(),
         "--capture-map", (dir / "alias" / "m.png").string()},
        "--save-magnitude", "--capture-map");
  check({"--headless", "--phantom", "u", "--report", (dir / "fifo.json").string()}, "--report",
        "FIFO");
  check({"--headless", "--phantom", "u", "--report", (dir / std::string(300, 'r')).string()},
        "--report", "characters");
}

TEST_CASE("output flags given twice are refused while parsing") {
  for (const char* flag :
       {"--save-field", "--save-magnitude", "--report", "--save-contours", "--capture-map",
        "--screenshot", "--record", "--composite", "--save-mask"}) {
    const std::string ext = std::string(flag) == "--save-field"      ? ".mha"
                            : std::string(flag) == "--report"        ? ".json"
                            : std::string(flag) == "--save-contours" ? ".json"
                            : std::string(flag) == "--record"        ? ".mp4"
                                                                     : ".png";
    CHECK_THROWS_WITH_AS(
        parseOptions({"--headless", "--phantom", "u", flag, "a" + ext, flag, "b" + ext}),
        doctest::Contains((std::string(flag) + " was given twice").c_str()), ParameterError);
  }
}

TEST_CASE("--region-snake refuses the outputs and snakes it would ignore") {
  for (std::vector<std::string> extra : {std::vector<std::string>{"--save-field", "f.mha"},
                                         {"--save-magnitude", "m.png"},
                                         {"--capture-map", "c.png"},
                                         {"--snake", "circle:32,32,20"}}) {
    std::vector<std::string> args = {"--headless", "--phantom", "u", "--region-snake"};
    args.insert(args.end(), extra.begin(), extra.end());
    CHECK_THROWS_WITH_AS(checkOutputsHonoured(parseOptions(args)),
                         doctest::Contains(extra[0].c_str()), ParameterError);
  }
  CHECK_NOTHROW(checkOutputsHonoured(
      parseOptions({"--headless", "--phantom", "u", "--region-snake", "--report", "r.json"})));
}

TEST_CASE("written files are read back to their end, gzip decompressed") {
  const auto dir = test::scratchDir("run_outputs_readback");
  const std::string data(100000, 'q');
  {
    gzFile gz = gzopen((dir / "a.gz").c_str(), "wb");
    gzwrite(gz, data.data(), static_cast<unsigned>(data.size()));
    gzclose(gz);
  }
  CHECK_NOTHROW(checkWrittenSize(dir / "a.gz", "a.nii.gz", data.size()));
  CHECK_THROWS_WITH_AS(checkWrittenSize(dir / "a.gz", "a.nii.gz", data.size() + 1),
                       doctest::Contains("a.nii.gz"), InputError);
  const std::string whole = test::readFile(dir / "a.gz");
  put(dir / "cut.gz", whole.substr(0, whole.size() - 9));  // the stream's end is missing
  CHECK_THROWS_WITH_AS(checkWrittenSize(dir / "cut.gz", "a.nii.gz", data.size()),
                       doctest::Contains("a.nii.gz"), InputError);
  put(dir / "h.nrrd", "NRRD0004\ntype: float\n\n" + whole);
  CHECK(textHeaderEnd(dir / "h.nrrd", "h.nrrd") == 22);
  CHECK_NOTHROW(checkWrittenSize(dir / "h.nrrd", "h.nrrd", data.size(), 22));
}
