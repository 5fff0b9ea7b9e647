#include "cli/run_checks.hpp"

#include <unistd.h>

#include <filesystem>
#include <utility>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"
#include "io/file_names.hpp"
#include "io/image_loader.hpp"
#include "io/input_shape.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

// flag 'path': a file we may create or replace.
void checkOutputFile(const std::string& flag, const std::string& path, bool folderOutput) {
  const std::string what = flag + " '" + path + "'";
  if (path.empty()) throw ParameterError(flag + " needs a file name.");
  std::error_code ec;
  fs::path p(path);
  if (folderOutput) {  // --record DIR/: PNG frames in DIR (created when missing)
    while (!p.empty() && !p.has_filename()) p = p.parent_path();
    if (fs::is_directory(p, ec)) {
      if (access(p.c_str(), W_OK) != 0)
        throw ParameterError(what + ": the folder is not writable.");
      return;
    }
  } else if (fs::is_directory(p, ec)) {
    throw ParameterError(what + " is a folder; give a file name.");
  }
  const fs::path dir = p.parent_path().empty() ? fs::path(".") : p.parent_path();
  if (!fs::is_directory(dir, ec))
    throw ParameterError(what + ": the folder '" + dir.string() + "' does not exist.");
  if (access(dir.c_str(), W_OK) != 0)
    throw ParameterError(what + ": the folder '" + dir.string() + "' is not writable.");
}

void checkPngName(const std::string& flag, const std::optional<std::string>& path) {
  if (path && !hasSuffix(*path, {".png"}))
    throw ParameterError(flag + " '" + *path + "': the name must end in .png.");
}

}  // namespace

void checkOutputPaths(const Options& o) {
  std::vector<std::pair<std::string, const std::optional<std::string>*>> outputs = {
      {"--save-field", &o.saveField},       {"--save-magnitude", &o.saveMagnitude},
      {"--report", &o.report},              {"--save-contours", &o.snakes.saveContours},
      {"--capture-map", &o.snakes.captureMap}, {"--record", &o.record},
      {"--screenshot", &o.screenshot},      {"--composite", &o.composite}};
  checkPngName("--save-magnitude", o.saveMagnitude);
  checkPngName("--capture-map", o.snakes.captureMap);
  checkPngName("--screenshot", o.screenshot);
  checkPngName("--composite", o.composite);
  std::vector<std::pair<std::string, fs::path>> seen;
  for (const auto& [flag, path] : outputs) {
    if (!*path) continue;
    const bool folder = flag == "--record" && !hasSuffix(**path, {".mp4", ".webm"});
    checkOutputFile(flag, **path, folder);
    const fs::path normal = fs::absolute(**path).lexically_normal();
    for (const auto& [other, otherPath] : seen)
      if (otherPath == normal)
        throw ParameterError(flag + " and " + other + " name the same file '" + **path + "'.");
    seen.emplace_back(flag, normal);
  }
}

RunInput loadRunInput(const Options& o, const std::function<void(FieldShape)>& beforeRead) {
  RunInput in;
  // The device's refusal names what the user gave.
  auto check = [&](FieldShape shape, const std::string& what) {
    if (!beforeRead) return;
    try {
      beforeRead(shape);
    } catch (const ResourceError& e) {
      throw ResourceError(what + ": " + e.what());
    }
  };
  if (o.phantom) {
    check({o.phantomSize, o.phantomSize, 1}, "--phantom-size " + std::to_string(o.phantomSize));
    in.image = makePhantom(*o.phantom, o.phantomSize);
    return in;
  }
  if (!o.image)
    throw ParameterError(o.session ? "The session '" + *o.session +
                                         "' names no image or phantom; give an image file or "
                                         "--phantom u|room|blob."
                                   : "No input: give an image file or --phantom u|room|blob.");
  const fs::path path = *o.image;
  const FieldShape shape = inputShape(path);  // the header alone: refused before reading
  check(shape, "'" + path.string() + "'");
  in.is3d = isVolumeFile(path);
  if (in.is3d)
    in.volume = loadVolume(path);
  else
    in.image = loadImage(path);
  return in;
}

void checkSnakes(const Options& o, const RunInput& in) {
  // Here, not when parsing: a --session's snakes count (they are applied after parsing).
  if (o.snakes.saveContours && o.snakes.snakes.empty() && !o.regionSnake)
    throw ParameterError("--save-contours needs at least one --snake, a --session with snakes, "
                         "or --region-snake.");
  if (in.is3d && o.snakes.any())
    throw ParameterError("Snakes run on 2D images; '" + o.image.value_or("") + "' is a volume.");
  for (const auto& spec : o.snakes.snakes) {
    try {
      ParametricSnake::checkContour(spec.points(o.snakes.params), in.width(), in.height(),
                                    o.snakes.params);
    } catch (const Error& e) {
      const std::string which =
          spec.text == "session snake" ? "A snake of the session '" + o.session.value_or("") + "'"
                                       : "--snake '" + spec.text + "'";
      throw ParameterError(which + ": " + e.what());
    }
  }
}

RunInput checkHeadlessRun(const Options& o, const std::function<void(FieldShape)>& beforeRead) {
  checkOutputPaths(o);
  RunInput in = loadRunInput(o, beforeRead);
  checkSnakes(o, in);
  return in;
}

}  // namespace gvflab::app
