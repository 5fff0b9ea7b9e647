// Recordings without a named file go to a recordings folder under a dated name (issue 39),
// not gvflab-recording.mp4 in the working directory.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include "viewer/ui/recording_path.hpp"

using namespace gvflab::viewer;

TEST_CASE("a recording's default: a dated name in the videos folder's gvflab folder") {
  const std::time_t t = 1795000000;  // a fixed moment
  const std::string name = datedRecordingName(t, ".mp4");
  CHECK(std::regex_match(name, std::regex(R"(gvflab-\d{4}-\d\d-\d\d-\d{6}\.mp4)")));
  CHECK(datedRecordingName(t + 1, ".mp4") != name);  // one a second: a new name
  CHECK(datedRecordingName(t, "/").back() == '/');   // PNG frames: a folder

  const auto home = std::filesystem::temp_directory_path() / "gvflab_recording_path_test";
  std::filesystem::remove_all(home);
  std::filesystem::create_directories(home);
  // No user-dirs.dirs: Qt's videos folder is $HOME/Videos.
  const auto videos = home / "Videos";
  const std::string oldHome = std::getenv("HOME") ? std::getenv("HOME") : "";
  const char* oldConfig = std::getenv("XDG_CONFIG_HOME");
  const std::string savedConfig = oldConfig ? oldConfig : "";
  ::setenv("HOME", home.c_str(), 1);
  ::setenv("XDG_CONFIG_HOME", (home / "config").c_str(), 1);
  CHECK(defaultRecordingFolder() == videos / "gvflab");
  const std::filesystem::path path = defaultRecordingPath(".webm", t);
  CHECK(path.parent_path() == videos / "gvflab");
  CHECK(std::filesystem::is_directory(videos / "gvflab"));  // made for it
  CHECK(path.filename().string() == datedRecordingName(t, ".webm"));
  CHECK(path.string().find(std::filesystem::current_path().string() + "/gvflab-") ==
        std::string::npos);
  ::setenv("HOME", oldHome.c_str(), 1);
  if (oldConfig)
    ::setenv("XDG_CONFIG_HOME", savedConfig.c_str(), 1);
  else
    ::unsetenv("XDG_CONFIG_HOME");
  std::filesystem::remove_all(home);
}
