// The atomic writer (gvflab/io.hpp): what it refuses to replace, what a full disk leaves, and
// that no guessable or planted name is ever written through.
#include <doctest/doctest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <csignal>
#include <fstream>
#include <set>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "test_support.hpp"

using namespace gvflab;
namespace fs = std::filesystem;

namespace {

void writeBytes(const fs::path& p, const std::string& bytes) {
  std::ofstream(p, std::ios::binary) << bytes;
}

std::set<std::string> names(const fs::path& dir) {
  std::set<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.insert(e.path().filename().string());
  return out;
}

// A soft file-size limit for this process (SIGXFSZ ignored: writes fail with EFBIG).
struct FileSizeLimit {
  rlimit old{};
  void (*oldHandler)(int);
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &old);
    oldHandler = std::signal(SIGXFSZ, SIG_IGN);
    rlimit r = old;
    r.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &r);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &old);
    std::signal(SIGXFSZ, oldHandler);
  }
};

}  // namespace

TEST_CASE("atomic writer: writes, replaces a regular file, keeps its mode, leaves nothing else") {
  auto dir = test::scratchDir("atomic_basic");
  writeFileAtomically(dir / "a.txt", "first");
  CHECK(test::readFile(dir / "a.txt") == "first");
  fs::permissions(dir / "a.txt", fs::perms(0640));
  writeFileAtomically(dir / "a.txt", std::string(100000, 'x'));
  CHECK(test::readFile(dir / "a.txt") == std::string(100000, 'x'));
  CHECK((fs::status(dir / "a.txt").permissions() & fs::perms::all) == fs::perms(0640));
  CHECK(names(dir) == std::set<std::string>{"a.txt"});
}

TEST_CASE("atomic writer: a full disk fails naming the file, the earlier file intact") {
  auto dir = test::scratchDir("atomic_full");
  writeFileAtomically(dir / "f.bin", "earlier");
  {
    FileSizeLimit limit(4096);
    CHECK_THROWS_WITH_AS(writeFileAtomically(dir / "f.bin", std::string(20000, 'y')),
                         doctest::Contains("f.bin"), InputError);
    // A library writer whose own write fails silently is caught by its check; the temporary
    // goes either way.
    CHECK_THROWS_AS(writeFileAtomically(dir / "g.bin",
                                        [](const fs::path& tmp) {
                                          writeBytes(tmp, std::string(20000, 'z'));
                                          throw InputError("short");
                                        }),
                    InputError);
  }
  CHECK(test::readFile(dir / "f.bin") == "earlier");
  CHECK(names(dir) == std::set<std::string>{"f.bin"});
}

TEST_CASE("atomic writer: only regular files are replaced") {
  auto dir = test::scratchDir("atomic_special");
  REQUIRE(mkfifo((dir / "fifo").c_str(), 0600) == 0);
  fs::create_symlink("/dev/null", dir / "null");
  fs::create_symlink(dir / "missing", dir / "dangling");
  fs::create_directory(dir / "folder");
  CHECK_THROWS_WITH_AS(writeFileAtomically(dir / "fifo", "x"), doctest::Contains("FIFO"),
                       InputError);
  CHECK_THROWS_WITH_AS(writeFileAtomically(dir / "null", "x"),
                       doctest::Contains("character device"), InputError);
  CHECK_THROWS_AS(writeFileAtomically(dir / "dangling", "x"), InputError);
  CHECK_THROWS_WITH_AS(writeFileAtomically(dir / "folder", "x"), doctest::Contains("folder"),
                       InputError);
  CHECK(fs::is_fifo(fs::symlink_status(dir / "fifo")));
  CHECK(fs::is_symlink(fs::symlink_status(dir / "null")));
  CHECK(fs::is_symlink(fs::symlink_status(dir / "dangling")));
  CHECK(names(dir) == std::set<std::string>{"fifo", "null", "dangling", "folder"});
}

TEST_CASE("atomic writer: a link to a regular file has its file replaced, the link stays") {
  auto dir = test::scratchDir("atomic_link");
  fs::create_directory(dir / "real");
  writeBytes(dir / "real" / "r.json", "old");
  fs::create_symlink("real/r.json", dir / "r.json");
  writeFileAtomically(dir / "r.json", "new");
  CHECK(fs::is_symlink(fs::symlink_status(dir / "r.json")));
  CHECK(test::readFile(dir / "real" / "r.json") == "new");
  CHECK(names(dir / "real") == std::set<std::string>{"r.json"});
}

TEST_CASE("atomic writer: temporary names are unpredictable; planted links are never followed") {
  std::set<std::string> seen;
  for (int i = 0; i < 1000; ++i) seen.insert(unpredictableName());
  CHECK(seen.size() == 1000);
  CHECK(unpredictableName().size() >= 24);
  // Links at every name the old scheme (.tmpN.NAME, N < 100000) could pick.
  auto dir = test::scratchDir("atomic_planted");
  const fs::path victim = dir.parent_path() / "atomic_planted_victim";
  writeBytes(victim, "victim");
  for (int n = 0; n < 100000; ++n)
    fs::create_symlink(victim, dir / (".tmp" + std::to_string(n) + ".out.txt"));
  writeFileAtomically(dir / "out.txt", "mine");
  CHECK(test::readFile(victim) == "victim");
  CHECK(test::readFile(dir / "out.txt") == "mine");
  CHECK(!fs::is_symlink(fs::symlink_status(dir / "out.txt")));
  fs::remove_all(dir);
  fs::remove(victim);
}

TEST_CASE("atomic writer: a library writer's temporary ends in the output's whole name") {
  // nifti_clib appends .nii.gz to a name without it: a dotted name with a long tail once gave
  // a temporary ending in .gz only, an empty output and a stray file.
  auto dir = test::scratchDir("atomic_suffix");
  const std::string outputs[] = {"my.result-field.nii.gz", "scan.2024-01-05-mask.nii",
                                 "a.b.c.d.e.f.g.h.nrrd", "noext",
                                 std::string(230, 'x') + ".nii.gz"};
  for (const std::string& name : outputs) {
    CAPTURE(name);
    fs::path seen;
    writeFileAtomically(dir / name, [&](const fs::path& tmp) {
      seen = tmp;
      writeBytes(tmp, "data");
    });
    const std::string tmp = seen.filename().string();
    CHECK(tmp.rfind(".gvflab-", 0) == 0);
    if (name.size() < 230)
      CHECK(tmp.substr(tmp.size() - name.size() - 1) == "." + name);
    else
      CHECK(tmp.substr(tmp.size() - 7) == ".nii.gz");  // the longest tail that fits
    CHECK(tmp.size() <= NAME_MAX);
    CHECK(test::readFile(dir / name) == "data");
  }
  std::set<std::string> all(std::begin(outputs), std::end(outputs));
  CHECK(names(dir) == all);
}

TEST_CASE("atomic writer: files a library makes beside its temporary never stay") {
  auto dir = test::scratchDir("atomic_strays");
  // A library that appends its own extension to the name it was given, then fails.
  CHECK_THROWS_AS(writeFileAtomically(dir / "f.nii.gz",
                                      [](const fs::path& tmp) {
                                        writeBytes(fs::path(tmp.string() + ".nii.gz"), "x");
                                        throw InputError("the written file holds 0 bytes");
                                      }),
                  InputError);
  CHECK(names(dir).empty());
  // The same writer succeeding: the output is there, its stray is not.
  writeFileAtomically(dir / "g.nii", [](const fs::path& tmp) {
    writeBytes(tmp, "g");
    writeBytes(fs::path(tmp.string() + ".hdr"), "stray");
  });
  CHECK(names(dir) == std::set<std::string>{"g.nii"});
}
