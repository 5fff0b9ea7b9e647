#include "cli/snake_flags.hpp"

#include <stdexcept>

#include "gvflab/error.hpp"
#include "io/contour_formats.hpp"
#include "io/file_formats.hpp"
#include "io/mask_file.hpp"
#include "io/surface_file.hpp"

namespace gvflab::app {
namespace {

// The flag of a table key sets the field bound to it in `part` of the options.
template <class T, class Part>
bool bindFlag(Flag& f, const std::vector<ParamField<T>>& fields, Part part) {
  for (const ParamField<T>& field : fields)
    if (f.spec->key == field.key) {
      f.apply = [field, part](FlagContext& c) { field.set(part(c.options.snakes), c.number()); };
      return true;
    }
  return false;
}

Flag snakeFlag(std::string name, std::string arg, std::string help, void (*apply)(FlagContext&)) {
  return valued(std::move(name), std::move(arg), FlagGroup::Snakes, std::move(help), apply);
}

// A choice among names stored in `field` of the snakes' options, shown by its name.
template <class E>
Flag choiceFlag(std::string name, std::string arg, std::string help, E SnakeOptions::*field,
                E (*parse)(const std::string&), const char* (*nameOf)(E)) {
  Flag f = snakeFlag(std::move(name), std::move(arg), std::move(help), nullptr);
  f.apply = [field, parse](FlagContext& c) {
    c.options.snakes.*field = parseNamed(c.flag->name, [v = c.value(), parse] { return parse(v); });
  };
  f.shown = [field, nameOf](const Options& o) { return std::string(nameOf(o.snakes.*field)); };
  return f;
}

// A flag naming one output file of the snakes, given once and named per input by --batch; a
// bad name fails `check` before a run.
using PathField = std::optional<std::string> SnakeOptions::*;
Flag outputFlag(std::string name, std::string arg, std::string help, PathField path,
                void (*check)(const std::string&)) {
  Flag f =
      once(valued(std::move(name), std::move(arg), FlagGroup::Snakes, std::move(help),
                  [path, check](FlagContext& c) { check(*(c.options.snakes.*path = c.value())); }));
  f.output = [path](Options& o) -> std::optional<std::string>& { return o.snakes.*path; };
  return f;
}

}  // namespace

std::vector<Flag> snakeFlags() {
  std::vector<Flag> t;
  t.push_back(snakeFlag(
      "--snake",
      "circle:CX,CY,R | polygon:X1,Y1,... | line:X1,Y1,X2,Y2 | path:X1,Y1,...[:boundary=B]"
      "[@FORCE]",
      "a snake (repeatable): circle and polygon are closed, line and path open with "
      "boundary=free (default), fixed, free-fixed or fixed-free (scikit-image's: a fixed end "
      "is pinned, a free one moves); pixels, x right, y down, origin at the image's top-left "
      "corner; @gvf, @traditional, @ggvf, @vfc or @distance: this snake's force",
      [](FlagContext& c) {
        auto& snakes = c.options.snakes.snakes;
        snakes.push_back(parseSnakeSpec(c.value()));
        checkSnakeCount(snakes.size(), "--snake");
      }));
  // Surfaces (issue 30): the 3D snakes of a volume input, with the same parameters.
  t.push_back(snakeFlag(
      "--surface", "sphere:X,Y,Z,R | box:X0,Y0,Z0,X1,Y1,Z1[@FORCE]",
      "a surface snake in a volume (repeatable; GVF deformable surfaces, Xu & Prince): a "
      "sphere or an axis-aligned box between two corners, a closed triangle mesh with edges "
      "about (dmin + dmax) / 2 long; voxels, as --snake's pixels: x along a row, y down the "
      "rows, z across the planes, origin at the volume's first corner, voxel centres at +0.5; "
      "the snake flags (--alpha ... --dmax, --snake-iterations) apply; @FORCE (as --snake's): "
      "this surface's force",
      [](FlagContext& c) {
        auto& surfaces = c.options.snakes.surfaces;
        surfaces.push_back(parseSurfaceSpec(c.value()));
        checkSurfaceCount(surfaces.size(), "--surface");
      }));
  t.push_back(outputFlag(
      "--save-surfaces", "F",
      "write each surface where it ended as a triangle mesh, in the format of F's extension: " +
          formatList(FormatRole::SurfaceOutput) +
          "; one file per surface in --surface order, F.ply giving F-1.ply, F-2.ply, ... In "
          "the coordinates of --surface-coordinates (stated in each file's header), faces "
          "counter-clockwise seen from outside. --report lists each surface's file, state, "
          "iterations, vertices and faces",
      &SnakeOptions::saveSurfaces, checkSurfaceFileName));
  t.push_back(once(choiceFlag(
      "--surface-coordinates", "C",
      "coordinates of --save-surfaces: world (the input's spacing, origin and direction, LPS "
      "mm: origin + direction . diag(spacing) . (p - 0.5), so the mesh overlays the input in "
      "3D Slicer or ITK-SNAP) or voxel (as --surface gives them, voxel centres at +0.5); by "
      "default world when the input has geometry (a NIfTI, NRRD, MetaImage or DICOM header), "
      "voxel otherwise. Each file's header and --report say which",
      &SnakeOptions::surfaceCoordinates, parseSurfaceCoordinates, surfaceCoordinatesName)));
  t.push_back(choiceFlag("--snake-force", "F",
                         "force of snakes without @: gvf, traditional (grad of the edge map), ggvf "
                         "(generalized GVF), vfc (vector field convolution) or distance (Cohen's "
                         "distance force)",
                         &SnakeOptions::force, parseForce, forceName));
  t.push_back(outputFlag(
      "--save-contours", "F",
      "write the snakes, in the format of F's extension: .json {\"contours\": [{\"points\": "
      "[[x, y], ...], \"initial_points\": [...], \"force\": \"gvf\", \"state\": "
      "\"moving\"|\"converged\"|\"stalled\"|\"collapsed\", \"iterations\": N, \"converged\": "
      "true|false}, ...]}; .geojson (FeatureCollection of Polygons, properties force, state, "
      "iterations); .csv; .svg. stalled: stopped where the force is too weak to hold it (see "
      "--snake-hold-gap); collapsed: shrank below 5% of its start's area to a dot or a line "
      "(captured, outlining nothing)",
      &SnakeOptions::saveContours, [](const std::string& f) { contourFormatOf(f); }));
  t.push_back(outputFlag(
      "--save-mask", "F",
      "write the snakes' insides as a label image of the input's size: pixels inside snake k "
      "(1..N, in --snake order; the later wins where they overlap) hold k, the others 0; "
      "--region-snake's inside holds 1. A pixel is inside when the contour winds around its "
      "centre (nonzero rule). .png (8-bit, 16-bit beyond 255 snakes), .nrrd, .nii or .nii.gz "
      "(integer, with the input's geometry)",
      &SnakeOptions::saveMask, [](const std::string& f) { checkMaskFileName(f); }));
  t.push_back(snakeFlag("--svg-image", "",
                        "--save-contours F.svg: the input image beneath the contours (an "
                        "embedded PNG, one unit a pixel)",
                        [](FlagContext& c) { c.options.snakes.svgImage = true; }));
  t.push_back(once(choiceFlag(
      "--contour-coordinates", "C",
      "coordinates of --save-contours .json, .geojson and .csv (the file says which): pixel (x "
      "right, y down, origin at the image's top-left corner, pixel centres at +0.5), "
      "pixel-y-up (y up from the bottom-left corner), or world (the input's spacing, origin "
      "and direction, LPS mm: origin + direction . diag(spacing) . (x - 0.5, y - 0.5, 0)); "
      "SVG is drawn in pixels",
      &SnakeOptions::contourCoordinates, parseCoordinates, coordinatesName)));
  t.push_back(outputFlag("--capture-map", "M.png",
                         "steps from each pixel to an edge along the unit force of --snake-force "
                         "(white: edge, yellow: near, blue: far, black: never)",
                         &SnakeOptions::captureMap, [](const std::string&) {}));
  t.push_back(shown(
      snakeFlag("--vfc-kernel", "K",
                "the VFC kernel's magnitude: power ((r + eps)^-gamma, --vfc-gamma) or "
                "gaussian (exp(-r^2 / zeta^2), --vfc-zeta)",
                [](FlagContext& c) {
                  c.options.snakes.forces.vfc.kernel = parseVfcKernel(c.value(), "--vfc-kernel");
                }),
      [](const Options& o) { return std::string(vfcKernelName(o.snakes.forces.vfc.kernel)); }));
  for (const ParamSpec* s : forceParamSpecs())
    t.push_back(number(*s, FlagGroup::Snakes, [key = s->key](Options& o, double v) {
      setForceParam(o.snakes.forces, key, v);
    }));
  // One flag per key of the two tables; a key bound to no field fails when the table is built
  // (the unit tests build it).
  for (const auto* specs : {&snakeParamSpecs(), &captureParamSpecs()})
    for (const ParamSpec& s : *specs) {
      Flag f = number(s, FlagGroup::Snakes, {});
      if (!bindFlag(
              f, snakeParamFields(), [](SnakeOptions & o) -> auto& { return o.params; }) &&
          !bindFlag(
              f, captureParamFields(), [](SnakeOptions & o) -> auto& { return o.capture; }) &&
          !bindFlag(
              f, snakeLoopFields(), [](SnakeOptions & o) -> auto& { return o; }))
        throw std::logic_error("snake parameter " + s.key + " has no field");
      t.push_back(f);
    }
  return t;
}

// The snake flags alone (the fuzz target's entry): the same table entries as the command line.
bool parseSnakeOption(const std::string& flag, const std::function<std::string()>& value,
                      SnakeOptions& snakes) {
  const Flag* f = findFlag(flag);
  if (!f || f->group != FlagGroup::Snakes) return false;
  Options o;
  o.snakes = std::move(snakes);
  std::vector<std::string> args = {flag};
  std::size_t index = 0;
  FlagContext c{o, args, index};
  c.flag = f;
  try {
    if (f->takesValue()) args.push_back(value());
    f->apply(c);
  } catch (...) {
    snakes = std::move(o.snakes);
    throw;
  }
  snakes = std::move(o.snakes);
  return true;
}

}  // namespace gvflab::app
