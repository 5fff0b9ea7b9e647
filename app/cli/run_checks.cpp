#include "cli/run_checks.hpp"

#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <utility>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/io.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/quoted.hpp"
#include "io/file_formats.hpp"
#include "io/file_names.hpp"
#include "io/input_gate.hpp"
#include "io/surface_file.hpp"
#include "io/tiff_file.hpp"
#include "io/volume_loader.hpp"

namespace gvflab::app {
namespace fs = std::filesystem;
namespace {

// A long name shown in a message: its start and its length, not megabytes of it.
std::string shortName(const std::string& path) {
  return path.size() <= 80
             ? path
             : path.substr(0, 60) + "...(" + std::to_string(path.size()) + " characters)";
}

// The system's limits on a name (NAME_MAX per component, PATH_MAX in all), checked first so
// that an over-long name fails before the run, not when its file is written at the end.
void checkNameLength(const std::string& what, const fs::path& p) {
  if (p.string().size() >= PATH_MAX)
    throw ParameterError(what + ": the path is " + std::to_string(p.string().size()) +
                         " characters; the system allows " + std::to_string(PATH_MAX - 1) + ".");
  std::error_code ec;
  const fs::path dir = p.has_parent_path() ? p.parent_path() : fs::path(".");
  long max = ::pathconf(fs::is_directory(dir, ec) ? dir.c_str() : ".", _PC_NAME_MAX);
  if (max <= 0) max = NAME_MAX;
  for (const auto& part : p) {
    if (static_cast<long>(part.string().size()) > max)
      throw ParameterError(
          what + (part == p ? "" : ": its part '" + shortName(part.string()) + "'") + " is " +
          std::to_string(part.string().size()) + " characters long; the system allows " +
          std::to_string(max) + " per name.");
  }
}

// flag 'path': a file we may create or replace.
void checkOutputFile(const std::string& flag, const std::string& path, bool folderOutput) {
  const std::string what = flag + " '" + shortName(path) + "'";
  if (path.empty()) throw ParameterError(flag + " needs a file name.");
  std::error_code ec;
  fs::path p(path);
  checkNameLength(what, p);
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
    throw ParameterError(what + ": the folder " + quoted(dir) + " does not exist.");
  if (access(dir.c_str(), W_OK) != 0)
    throw ParameterError(what + ": the folder " + quoted(dir) + " is not writable.");
  if (folderOutput) return;
  try {
    const fs::path target = outputTarget(p);  // only a regular file (or a new name) is replaced
    if (target != p && access(target.parent_path().c_str(), W_OK) != 0)
      throw ParameterError(what + ": it links to '" + target.string() +
                           "', whose folder is not writable.");
  } catch (const InputError& e) {
    throw ParameterError(flag + ": " + e.what());
  }
}

void checkPictureName(const std::string& flag, const std::optional<std::string>& path) {
  if (path) requireFormat(*path, FormatRole::PictureOutput, flag + " " + gvflab::quoted(*path));
}

// One file under two names? The same inode when both exist (hard links, links, folder links),
// else the same path once every link in it is resolved.
bool sameFile(const fs::path& a, const fs::path& b) {
  struct stat sa {
  }, sb{};
  const bool ea = ::stat(a.c_str(), &sa) == 0, eb = ::stat(b.c_str(), &sb) == 0;
  if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
  if (ea != eb) return false;
  std::error_code e1, e2;
  const fs::path ca = fs::weakly_canonical(fs::absolute(a), e1);
  const fs::path cb = fs::weakly_canonical(fs::absolute(b), e2);
  return !e1 && !e2 && ca == cb;
}

// What shapes --save-contours (--svg-image, --contour-coordinates) must have a file it shapes.
void checkContourOptions(const SnakeOptions& s) {
  const bool svg = s.saveContours && hasSuffix(*s.saveContours, {".svg"});
  if (s.svgImage && !svg)
    throw ParameterError(
        "--svg-image draws the input beneath SVG contours: add --save-contours F.svg" +
        std::string(s.saveContours ? " (not '" + *s.saveContours + "')" : "") + ".");
  if (s.contourCoordinates == ContourCoordinates::Pixel) return;
  const std::string flag =
      std::string("--contour-coordinates ") + coordinatesName(s.contourCoordinates);
  if (!s.saveContours)
    throw ParameterError(flag +
                         " sets the coordinates of --save-contours: add --save-contours "
                         "F.json, F.geojson or F.csv.");
  if (svg)
    throw ParameterError(flag + ": an SVG is drawn in pixels over the image; save '" +
                         *s.saveContours + "' as .json, .geojson or .csv, or leave the flag out.");
}

}  // namespace

void checkOutputPaths(const Options& o) {
  std::vector<std::pair<std::string, const std::optional<std::string>*>> outputs = {
      {"--save-field", &o.saveField},
      {"--save-magnitude", &o.saveMagnitude},
      {"--report", &o.report},
      {"--save-contours", &o.snakes.saveContours},
      {"--save-mask", &o.snakes.saveMask},
      {"--capture-map", &o.snakes.captureMap},
      {"--record", &o.record},
      {"--screenshot", &o.screenshot},
      {"--composite", &o.composite}};
  // --save-surfaces F writes F-1, F-2, ...: each is an output of its own.
  std::vector<std::pair<std::string, std::optional<std::string>>> surfaceFiles;
  if (o.snakes.saveSurfaces) {
    checkSurfaceFileName(*o.snakes.saveSurfaces);
    for (std::size_t i = 0; i < std::max<std::size_t>(1, o.snakes.surfaces.size()); ++i)
      surfaceFiles.emplace_back("--save-surfaces", surfaceFileName(*o.snakes.saveSurfaces, i + 1));
  }
  for (const auto& [flag, path] : surfaceFiles) outputs.emplace_back(flag, &path);
  checkPictureName("--save-magnitude", o.saveMagnitude);
  checkPictureName("--capture-map", o.snakes.captureMap);
  checkPictureName("--screenshot", o.screenshot);
  checkPictureName("--composite", o.composite);
  // What the run reads, and every file that pulls in (data files, series members): never an
  // output.
  std::vector<std::pair<std::string, fs::path>> seen;
  const auto reads = [&](const std::string& what, const std::optional<std::string>& path) {
    if (!path) return;
    for (const ReadFile& f : filesReadFor(what, *path)) seen.emplace_back(f.what, f.path);
  };
  if (!o.phantom) reads("the input image", o.image);
  reads("--session", o.session);
  reads("--edge-map", o.edgeMap);
  reads("--v0", o.v0File);
  const std::size_t inputs = seen.size();
  for (const auto& [flag, path] : outputs) {
    if (!*path) continue;
    const bool folder = flag == "--record" && !findFormat(**path, FormatRole::VideoOutput);
    checkOutputFile(flag, **path, folder);
    for (std::size_t i = 0; i < seen.size(); ++i) {
      const auto& [other, otherPath] = seen[i];
      if (!sameFile(**path, otherPath)) continue;
      const std::string both = flag + " '" + shortName(**path) + "' and " + other + " '" +
                               shortName(otherPath.string()) + "'";
      if (i < inputs)
        throw ParameterError(both +
                             " are the same file: an output never replaces what the run "
                             "reads; give the output another name.");
      throw ParameterError(both + " are the same file; give each output its own name.");
    }
    seen.emplace_back(flag, fs::path(**path));
  }
}

void checkOutputsHonoured(const Options& o) {
  if (o.mode != Mode::Headless) return;
  checkContourOptions(o.snakes);
  if (o.record && o.snakes.saveSurfaces)
    throw ParameterError(
        "--save-surfaces is written by headless runs without --record; run it without "
        "--record.");
  if (o.recordTail && !o.record)
    throw ParameterError("--record-tail ends a headless recording: add --record OUT.");
  if (!o.regionSnake) return;
  // The region snake computes no GVF field and draws no figure: these would be dropped.
  const std::pair<const char*, bool> unused[] = {
      {"--save-field", o.saveField.has_value()},
      {"--save-magnitude", o.saveMagnitude.has_value()},
      {"--capture-map", o.snakes.captureMap.has_value()},
      {"--screenshot", o.screenshot.has_value()},
      {o.session ? "a session's snakes" : "--snake", !o.snakes.snakes.empty()},
      {o.session ? "a session's surfaces" : "--surface", !o.snakes.surfaces.empty()},
      {"--save-surfaces", o.snakes.saveSurfaces.has_value()}};
  for (const auto& [flag, given] : unused)
    if (given)
      throw ParameterError(std::string("--region-snake runs its own region contour and no GVF "
                                       "field, so ") +
                           flag + " would be ignored; run them without --region-snake.");
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
    throw ParameterError(o.session ? "The session " + gvflab::quoted(*o.session) +
                                         " names no image or phantom; give an image file or "
                                         "--phantom u|room|blob."
                                   : "No input: give an image file or --phantom u|room|blob.");
  const fs::path path = *o.image;
  if (o.page) {  // one page of a TIFF (io/tiff_file.hpp refuses a page past the last)
    const FileFormat* format = findFormat(path, FormatRole::ImageInput);
    if (!format || format->name != "TIFF")
      throw ParameterError("--page " + std::to_string(*o.page) + " picks a page of a TIFF file; " +
                           quoted(path) + " is not one (its name must end in .tif or .tiff).");
    // The page alone counts: a stack too large as a volume may still give one page.
    check(tiffPageShape(path, *o.page), quoted(path));
    in.image = readTiffPage(path, *o.page);
    return in;
  }
  return loadInput(path, [&](FieldShape shape) { check(shape, quoted(path)); });
}

void checkSnakes(const Options& o, const RunInput& in) {
  // Here, not when parsing: a --session's snakes count (they are applied after parsing).
  if ((o.snakes.saveContours || o.snakes.saveMask) && o.snakes.snakes.empty() && !o.regionSnake)
    throw ParameterError(
        std::string(o.snakes.saveContours ? "--save-contours" : "--save-mask") +
        " needs at least one --snake, a --session with snakes, or --region-snake.");
  if (in.is3d && o.snakes.any())
    throw ParameterError("Snakes run on 2D images; '" + o.image.value_or("") + "' is a volume.");
  checkSnakeCount(o.snakes.snakes.size(), "The snakes of --session and --snake");
  for (const auto& spec : o.snakes.snakes) {
    try {
      spec.check(in.width(), in.height(), o.snakes.params);
    } catch (const Error& e) {
      const std::string which = spec.text == "session snake"
                                    ? "A snake of the session '" + o.session.value_or("") + "'"
                                    : "--snake " + quotedText(spec.text);
      throw ParameterError(which + ": " + e.what());
    }
  }
}

void checkSurfaces(const Options& o, const RunInput& in) {
  const SnakeOptions& so = o.snakes;
  if (so.saveSurfaces && so.surfaces.empty())
    throw ParameterError(
        "--save-surfaces needs at least one --surface (or a --session with surfaces).");
  if (so.surfaceCoordinates != SurfaceCoordinates::Auto && !so.saveSurfaces)
    throw ParameterError(std::string("--surface-coordinates ") +
                         surfaceCoordinatesName(so.surfaceCoordinates) +
                         " sets the coordinates of --save-surfaces: add --save-surfaces F.ply, "
                         "F.obj or F.stl.");
  if (so.surfaces.empty()) return;
  const std::string given = o.session && so.surfaces.front().text == "session surface"
                                ? "The session's surfaces run"
                                : "--surface runs";
  if (!in.is3d)
    throw ParameterError(given + " in volumes; '" + o.image.value_or(o.phantom.value_or("")) +
                         "' is a 2D image (use --snake there).");
  checkSurfaceCount(so.surfaces.size(), "The surfaces of --session and --surface");
  for (const auto& spec : so.surfaces) {
    try {
      spec.check(in.volume.width, in.volume.height, in.volume.depth, so.params);
    } catch (const Error& e) {
      const std::string which = spec.text == "session surface"
                                    ? "A surface of the session '" + o.session.value_or("") + "'"
                                    : "--surface " + quotedText(spec.text);
      throw ParameterError(which + ": " + e.what());
    }
  }
}

RunInput checkHeadlessRun(const Options& o, const std::function<void(FieldShape)>& beforeRead) {
  checkOutputsHonoured(o);
  checkOutputPaths(o);
  RunInput in = loadRunInput(o, beforeRead);
  checkSnakes(o, in);
  checkSurfaces(o, in);
  return in;
}

}  // namespace gvflab::app
