#include "cli/options.hpp"

#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <sstream>

#include "cli/cli_params.hpp"
#include "cli/flag_number.hpp"
#include "gvflab/error.hpp"
#include "gvflab/quoted.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/mu_rule.hpp"
#include "demos/demos.hpp"
#include "gvflab/phantoms.hpp"
#include "io/field_file.hpp"

namespace gvflab::app {
namespace {

bool endsWithPng(const std::string& path) {
  if (path.size() < 5) return false;
  std::string ext = path.substr(path.size() - 4);
  for (char& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return ext == ".png";
}

double parseSpec(const std::string& key, const std::string& text) {
  return parseFlag(findSpec(gvfParamSpecs(), key), text);
}

// The engine's parsers word their errors for any caller; on the command line name the flag.
template <class F>
auto parseNamed(const std::string& flag, F parse) {
  try {
    return parse();
  } catch (const ParameterError& e) {
    throw ParameterError(flag + ": " + e.what());
  }
}

int parseCliInt(const std::string& key, const std::string& text) {
  return static_cast<int>(parseFlag(findSpec(cliParamSpecs(), key), text));
}

}  // namespace

std::string helpText() {
  std::ostringstream h;
  h << "gvflab - live Gradient Vector Flow and active contours on OpenCL\n\n"
       "Usage:\n"
       "  gvflab [IMAGE] [options]                 open the viewer (default: the U phantom)\n"
       "  gvflab --headless (IMAGE | VOLUME | --phantom NAME) [options]\n"
       "  (VOLUME: .nii, .nii.gz, or a 3D .mha/.mhd; GVF then runs in 3D)\n"
       "  gvflab --list-devices | --help | --version\n\n"
       "Options:\n";
  for (ParamSpec s : gvfParamSpecs()) {
    // Headless, no --iterations means "to --target-error", not the table's fixed count.
    if (s.key == "iterations") s.defaultValue = std::nan("");
    h << flagHelpLine(s);
  }
  for (const auto& s : multigridParamSpecs()) h << flagHelpLine(s, "N");
  for (const auto& s : cliParamSpecs())
    h << flagHelpLine(s, s.key == "size" ? "WxH" : s.integer ? "N" : "V");
  h << "  --solver euler|multigrid  GVF solver (default euler; multigrid: the second paper)\n"
       "  --precision P        field storage: f32 (default), f16, snorm16\n"
       "  --memory M           Euler: buffer, image, local (tiles, several iterations per\n"
       "                       launch) or auto (local on GPUs, buffer on CPUs)\n"
       "  --v0 edge|image      V0 = grad of the edge map (default) or of the smoothed image\n"
       "  --phantom NAME       built-in image: u, room, blob\n"
       "  --device D           gpu, cpu, or part of a device name (default: a GPU if any)\n"
       "  --kernel-dir DIR     load kernels/*.cl from DIR instead of the built-in copies\n"
       "  --allow-data-outside read data files that a MetaImage or NRRD header names outside\n"
       "                       its folder (default: only files in that folder or below)\n"
       "  --save-field F       write the field (float; 2 components, 3 for volumes) as\n"
       "                       MetaImage (.mha), NRRD (.nrrd) or a NIfTI vector image\n"
       "                       (.nii, .nii.gz)\n"
       "  --save-magnitude F.png  write |V| scaled to its maximum\n"
       "  --report R.json      write solver, iterations, error, opencl_ms, wall_ms\n"
       "  --region-snake [X,Y,W,H]  segment with the region snake (PLH) instead of GVF, from\n"
       "                       this rectangle (default: the image inset by 1/8)\n"
       "  --noise gaussian|gamma|poisson  region snake pixel model (default gaussian)\n"
       "  --d-max D            region snake: first neighbourhood distance (default 32)\n"
       "  --min-segment L      region snake: split segments longer than L px (default 16)\n"
       "  --screenshot F.png   a figure of the view only (no panels), at --size WxH: viewer:\n"
       "                       after --frames frames, then quit; --headless: after the run\n"
       "                       (default: the view's size; headless, the image scaled up to\n"
       "                       at least 512 px)\n"
       "  --screenshot-panels  viewer: the whole window with its panels instead\n"
       "  --composite F.png    headless: the papers' figure, four captioned panels side by\n"
       "                       side: image, edge map f, |V| with arrows, snakes (and\n"
       "                       --trails); --size WxH is the whole figure (default: panels of\n"
       "                       the image scaled up to at least 256 px)\n"
       "  --legend             in the figure or recording: the colour bar with round ticks and\n"
       "                       one entry per snake (colour, force, state)\n"
       "  --caption            in the figure or recording: iteration, mu, epsilon, solver and\n"
       "                       the force of each snake\n"
       "  --record OUT         record to OUT.mp4 (H.264), OUT.webm (VP9) or DIR/ (PNG frames);\n"
       "                       with --headless it renders offscreen (needs an X server or Xvfb)\n"
       "                       and writes the other outputs (--save-field, --report, ...) from\n"
       "                       the last frame; --record-tail S ends it S seconds after every\n"
       "                       snake stopped; --frames N is the most (default 120, with\n"
       "                       --record-tail 3000)\n"
       "  --record-panel       viewer: record the whole window with the panels\n"
       "  --stats              viewer: print frame time p50/p95 and iterations/s at exit\n"
       "  --quiet, -q          headless: no progress line (it shows only on a terminal)\n"
       "  --demo NAME          a built-in lesson (image, parameters, snakes; later flags\n"
       "                       override it): u-concavity, capture-range, room, real-image,\n"
       "                       volume, region\n"
       "  --session S.json     open a saved session (image, solver, parameters, snakes)\n"
       "  --session-start W    current (default): the session's snakes resume from their\n"
       "                       saved contours; initial: they restart from their starting ones\n"
       "  --colormap NAME      gray, viridis or inferno;  --log-scale: log colour scale\n"
       "  --race               viewer: start in the race view (Euler vs multigrid, same\n"
       "                       OpenCL time per frame)\n\n";
  h << snakeHelpText();
  return h.str();
}

ContextOptions contextOptions(const Options& o) {
  ContextOptions c;
  c.deviceSelector = o.device;
  if (o.kernelDir) c.kernelDir = *o.kernelDir;
  return c;
}

FieldSolvePlan fieldSolvePlan(const Options& o) {
  FieldSolveRequest r;
  if (o.solverGiven) r.solver = o.solver;
  if (o.iterationsGiven) r.iterations = o.iterations;
  r.targetError = o.targetError;
  return planFieldSolve(r);
}

SolverConfig solverConfig(const Options& o) {
  SolverConfig c;
  c.kind = o.solver;
  c.precision = o.storage.precision;
  c.memory = o.storage.memory;
  c.tile = o.storage.tile;
  c.tile3d = o.storage.tile3d;
  c.persistent = o.storage.persistent;
  c.a = o.mgA, c.b = o.mgB, c.c = o.mgC;
  return c;
}

Options parseOptions(const std::vector<std::string>& commandLine, const Options* base) {
  Options o;
  if (base) {
    o = *base;
  } else {
    o.gvf.mu = findSpec(gvfParamSpecs(), "mu").defaultValue;
    o.gvf.sigma = findSpec(gvfParamSpecs(), "sigma").defaultValue;
    o.phantomSize = static_cast<int>(findSpec(cliParamSpecs(), "phantom-size").defaultValue);
    o.fps = static_cast<int>(findSpec(cliParamSpecs(), "fps").defaultValue);
  }
  bool givenImage = false, givenPhantom = false;  // on this command line (not the base's)
  std::vector<std::string> args = commandLine;  // --demo splices its flags in
  std::size_t demoEnd = 0;                        // args before this index came from a demo
  std::set<std::string> givenOnce;                // output flags seen on this command line
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) throw ParameterError(a + " needs a value.");
      return args[++i];
    };
    auto flagName = a.substr(a.find_first_not_of('-'));
    // One file per output flag: a second one would silently win over the first.
    static const std::set<std::string> kOnce = {
        "--save-field", "--save-magnitude", "--report",  "--screenshot", "--record",
        "--save-contours", "--capture-map", "--session", "--record-tail"};
    if (kOnce.count(a) && !givenOnce.insert(a).second)
      throw ParameterError(a + " was given twice; give it once (one file per flag).");
    if (a == "--help" || a == "-h") {
      o.mode = Mode::Help;
    } else if (a == "--version") {
      o.mode = Mode::Version;
    } else if (a == "--list-devices") {
      o.mode = Mode::ListDevices;
    } else if (a == "--headless") {
      o.mode = Mode::Headless;
    } else if (a == "--mu") {
      // The solver's range on the input is checked where it runs (mu_rule.hpp); here only
      // whether some solver takes it.
      o.gvf.mu = flagNumber("mu", value());
      requireMuForSomeSolver(o.gvf.mu);
      o.muGiven = true;
    } else if (a == "--sigma") {
      o.gvf.sigma = parseSpec("sigma", value());
    } else if (a == "--iterations") {
      o.iterations = static_cast<int>(parseSpec("iterations", value()));
      o.iterationsGiven = true;
      // The same flag, read per frame by the viewer; a demo's is its headless total, and the
      // viewer keeps its frame budget.
      if (i >= demoEnd) o.iterationsPerFrame = o.iterations;
    } else if (a == "--solver") {
      const std::string v = value();
      const std::optional<SolverKind> kind = parseSolverKind(v);
      if (!kind) throw ParameterError("--solver must be 'euler' or 'multigrid', not " + quotedText(v) + ".");
      o.solver = *kind;
      o.solverGiven = true;
    } else if (a == "--mg-a" || a == "--mg-b" || a == "--mg-c") {
      const double v = parseFlag(findSpec(multigridParamSpecs(), flagName), value());
      (a == "--mg-a" ? o.mgA : a == "--mg-b" ? o.mgB : o.mgC) = static_cast<int>(v);
    } else if (a == "--target-error") {
      o.targetError = parseFlag(findSpec(cliParamSpecs(), flagName), value());
    } else if (a == "--v0") {
      std::string v = value();
      if (v == "edge") o.gvf.v0Mode = V0Mode::EdgeGradient;
      else if (v == "image") o.gvf.v0Mode = V0Mode::ImageGradient;
      else throw ParameterError("--v0 must be 'edge' or 'image', not " + quotedText(v) + ".");
    } else if (a == "--precision") {
      o.storage.precision = parseNamed(a, [&] { return parsePrecision(value()); });
    } else if (a == "--memory") {
      const std::string v = value();
      o.storage.memory = v == "auto" ? std::nullopt
                                     : std::optional<MemoryKind>(parseNamed(a, [&] { return parseMemory(v); }));
    } else if (a == "--phantom") {
      o.phantom = value();
      givenPhantom = true;
      if (!givenImage) o.image.reset();  // a base's (session's) image gives way
      bool known = false;
      for (const auto& n : phantomNames()) known = known || n == *o.phantom;
      if (!known) makePhantom(*o.phantom, 16);  // throws the message listing the names
    } else if (a == "--phantom-size") {
      o.phantomSize = parseCliInt(flagName, value());
    } else if (a == "--device") {
      o.device = value();
    } else if (a == "--kernel-dir") {
      o.kernelDir = value();
    } else if (a == "--allow-data-outside") {
      o.allowDataOutside = true;
    } else if (a == "--save-field") {
      o.saveField = value();
      checkFieldFileName(*o.saveField);  // a bad extension fails before anything runs
    } else if (a == "--save-magnitude") {
      o.saveMagnitude = value();
    } else if (a == "--report") {
      o.report = value();
    } else if (a == "--region-snake") {
      o.regionSnake = true;
      if (i + 1 < args.size() && !args[i + 1].empty() && args[i + 1][0] != '-' &&
          args[i + 1].find(',') != std::string::npos)
        o.regionRect = parseRegionRect(value());
    } else if (a == "--noise") {
      o.region.noise = parseNamed(a, [&] { return parseNoiseModel(value()); });
    } else if (a == "--d-max") {
      o.region.dMax = static_cast<int>(parseFlag(findSpec(regionSnakeParamSpecs(), flagName), value()));
    } else if (a == "--min-segment") {
      o.region.minSegment = parseFlag(findSpec(regionSnakeParamSpecs(), flagName), value());
    } else if (a == "--region-mpix") {
      o.regionMpix = parseFlag(findSpec(cliParamSpecs(), flagName), value());
      o.regionSnake = true;
    } else if (a == "--screenshot") {
      o.screenshot = value();
      if (!endsWithPng(*o.screenshot))
        throw ParameterError("--screenshot writes a PNG file: give a name ending in .png, not '" +
                             *o.screenshot + "'.");
    } else if (a == "--composite") {
      o.composite = value();
      if (!endsWithPng(*o.composite))
        throw ParameterError("--composite writes a PNG file: give a name ending in .png, not '" +
                             *o.composite + "'.");
    } else if (a == "--screenshot-panels") {
      o.screenshotPanels = true;
    } else if (a == "--legend") {
      o.legend = true;
    } else if (a == "--caption") {
      o.caption = true;
    } else if (a == "--race") {
      o.race = true;
    } else if (a == "--frames") {
      o.frames = parseCliInt(flagName, value());
    } else if (a == "--record") {
      o.record = value();
    } else if (a == "--record-tail") {
      o.recordTail = parseFlag(findSpec(cliParamSpecs(), flagName), value());
    } else if (a == "--steps-per-frame") {
      o.stepsPerFrame = parseCliInt(flagName, value());
    } else if (a == "--size") {
      const std::string v = value();
      int w = 0, h = 0;
      char tail = 0;
      const ParamSpec& side = findSpec(cliParamSpecs(), "size");
      if (std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < side.minValue ||
          h < side.minValue || w > side.maxValue || h > side.maxValue) {
        std::ostringstream msg;
        msg << "--size takes WxH in pixels, " << side.minValue << " to " << side.maxValue
            << " each (e.g. 512x512), not '" << v << "'.";
        throw ParameterError(msg.str());
      }
      o.size = std::array<int, 2>{w, h};
    } else if (a == "--trails") {
      o.snakes.trails = parseCliInt(flagName, value());
    } else if (a == "--fps") {
      o.fps = parseCliInt(flagName, value());
    } else if (a == "--record-panel") {
      o.recordPanel = true;
    } else if (a == "--quiet" || a == "-q") {
      o.quiet = true;
    } else if (a == "--stats") {
      o.stats = true;
    } else if (a == "--frame-budget") {
      o.frameBudgetMs = parseFlag(findSpec(cliParamSpecs(), flagName), value());
    } else if (a == "--race-budget") {
      o.raceBudgetMs = parseFlag(findSpec(cliParamSpecs(), flagName), value());
    } else if (a == "--demo") {
      if (o.demo) throw ParameterError("Only one --demo can be given.");
      const Demo& demo = findDemo(value());
      o.demo = demo.name;
      const auto extra = demoArgs(demo);
      args.insert(args.begin() + static_cast<std::ptrdiff_t>(i) + 1, extra.begin(), extra.end());
      demoEnd = i + 1 + extra.size();
    } else if (a == "--session") {
      o.session = value();
    } else if (a == "--session-start") {
      const std::string v = value();
      if (v != "current" && v != "initial")
        throw ParameterError("--session-start must be 'current' or 'initial', not " + quotedText(v) + ".");
      o.sessionFromInitial = v == "initial";
    } else if (a == "--colormap") {
      o.colormap = value();
      if (*o.colormap != "gray" && *o.colormap != "viridis" && *o.colormap != "inferno")
        throw ParameterError("--colormap must be gray, viridis or inferno, not " +
                             quotedText(*o.colormap) + ".");
    } else if (a == "--log-scale") {
      o.logScale = true;
    } else if (parseSnakeOption(a, value, o.snakes)) {
    } else if (!a.empty() && a[0] == '-') {
      throw ParameterError("Unknown option " + quotedText(a) + "; see gvflab --help.");
    } else {
      if (givenImage)
        throw ParameterError("Only one image can be given ('" + *o.image + "' and '" + a + "').");
      o.image = a;
      givenImage = true;
      if (!givenPhantom) o.phantom.reset();  // a base's (session's) phantom gives way
    }
  }
  if (givenImage && givenPhantom)
    throw ParameterError("Give either an image file or --phantom, not both.");
  if (o.mode == Mode::Headless && o.record && o.regionSnake)
    throw ParameterError("Headless recording shows the GVF layers; it does not run --region-snake.");
  if ((o.legend || o.caption) && !o.screenshot && !o.record)
    throw ParameterError(std::string(o.legend ? "--legend" : "--caption") +
                         " goes into a figure: add --screenshot F.png or --record OUT.");
  if (o.composite && o.mode != Mode::Headless)
    throw ParameterError("--composite is for --headless runs; in the viewer use the Figure "
                         "dialog's Composite button.");
  if (o.composite && o.record)
    throw ParameterError("--composite draws the end of a run; it does not go with --record.");
  if (o.screenshotPanels && !o.screenshot)
    throw ParameterError("--screenshot-panels needs --screenshot F.png.");
  if (o.screenshotPanels && o.mode == Mode::Headless)
    throw ParameterError("--screenshot-panels is for the viewer: a headless run has no panels.");
  if (o.mode == Mode::Headless && !o.image && !o.phantom && !o.session)
    throw ParameterError("--headless needs an image file, --phantom u|room|blob or --session S.json.");
  finishSnakeOptions(o.snakes);
  return o;
}

}  // namespace gvflab::app
