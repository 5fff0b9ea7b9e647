#pragma once
// Where a recording goes when the user named no file: a dated name in a recordings folder,
// not "gvflab-recording.mp4" in whatever directory the viewer was started from (issue 39).
#include <ctime>
#include <filesystem>
#include <string>

namespace gvflab::viewer {

// The user's videos folder (XDG_VIDEOS_DIR / ~/Videos, by QStandardPaths) / "gvflab"; the home
// folder's when there is none.
std::filesystem::path defaultRecordingFolder();
// "gvflab-2026-11-28-143055" (local time) followed by extension (".mp4"; "/" for PNG frames).
std::string datedRecordingName(std::time_t when, const std::string& extension);
// defaultRecordingFolder() / datedRecordingName(when, extension), the folder created.
// Throws ResourceError naming the folder when it cannot be made.
std::string defaultRecordingPath(const std::string& extension, std::time_t when);

}  // namespace gvflab::viewer
