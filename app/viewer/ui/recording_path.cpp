#include "viewer/ui/recording_path.hpp"

#include <QDir>
#include <QStandardPaths>
#include <system_error>

#include "gvflab/error.hpp"

namespace gvflab::viewer {

std::filesystem::path defaultRecordingFolder() {
  QString base = QStandardPaths::writableLocation(QStandardPaths::MoviesLocation);
  if (base.isEmpty()) base = QDir::homePath();
  return std::filesystem::path(base.toStdString()) / "gvflab";
}

std::string datedRecordingName(std::time_t when, const std::string& extension) {
  std::tm local{};
  localtime_r(&when, &local);
  char stamp[32];
  std::strftime(stamp, sizeof stamp, "%Y-%m-%d-%H%M%S", &local);
  return std::string("gvflab-") + stamp + extension;
}

std::string defaultRecordingPath(const std::string& extension, std::time_t when) {
  const std::filesystem::path folder = defaultRecordingFolder();
  std::error_code ec;
  std::filesystem::create_directories(folder, ec);
  if (ec)
    throw ResourceError("Cannot make the recordings folder '" + folder.string() +
                        "': " + ec.message() + ". Name a file in the Recording section.");
  return (folder / datedRecordingName(when, extension)).string();
}

}  // namespace gvflab::viewer
