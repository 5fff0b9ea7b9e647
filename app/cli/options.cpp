#include "cli/options.hpp"

#include <set>

#include "cli/cli_params.hpp"
#include "cli/flag_table.hpp"
#include "gvflab/error.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/quoted.hpp"

namespace gvflab::app {

namespace {

// --batch: headless, into --output-dir, over files (the outputs that make sense per input).
void checkBatchCombination(const Options& o) {
  if (o.outputDir && o.batch.empty())
    throw ParameterError("--output-dir is where --batch writes; give --batch INPUTS too.");
  if (o.batch.empty()) return;
  if (o.mode != Mode::Headless)
    throw ParameterError("--batch runs without a window: add --headless.");
  if (!o.outputDir)
    throw ParameterError("--batch needs --output-dir DIR, the folder for every input's outputs.");
  if (o.image)
    throw ParameterError("With --batch, give every input after --batch, not " +
                         quotedText(*o.image) + " on its own.");
  if (o.phantom) throw ParameterError("--batch runs over files; --phantom is one built-in image.");
  for (const auto* flag : {&o.record, &o.screenshot, &o.composite})
    if (*flag)
      throw ParameterError(std::string(flag == &o.record       ? "--record"
                                       : flag == &o.screenshot ? "--screenshot"
                                                               : "--composite") +
                           " draws one input; --batch does not take it (run each input alone).");
}

// What needs the whole command line: flags that only make sense together.
void checkCombination(const Options& o) {
  if (o.mode == Mode::Headless && o.record && o.regionSnake)
    throw ParameterError(
        "Headless recording shows the GVF layers; it does not run --region-snake.");
  if ((o.legend || o.caption) && !o.screenshot && !o.record)
    throw ParameterError(std::string(o.legend ? "--legend" : "--caption") +
                         " goes into a figure: add --screenshot F.png or --record OUT.");
  if (o.composite && o.mode != Mode::Headless)
    throw ParameterError(
        "--composite is for --headless runs; in the viewer use the Figure "
        "dialog's Composite button.");
  if (o.composite && o.record)
    throw ParameterError("--composite draws the end of a run; it does not go with --record.");
  if (o.compositeForces && !o.composite)
    throw ParameterError("--composite-forces goes into a figure: add --composite F.png.");
  if (o.screenshotPanels && !o.screenshot)
    throw ParameterError("--screenshot-panels needs --screenshot F.png.");
  if (o.screenshotPanels && o.mode == Mode::Headless)
    throw ParameterError("--screenshot-panels is for the viewer: a headless run has no panels.");
  for (const auto& [flag, given] : {std::pair{"--edge-map", o.edgeMap.has_value()},
                                    std::pair{"--v0 FILE", o.v0File.has_value()}})
    if (given && (o.mode != Mode::Headless || o.record || o.regionSnake))
      throw ParameterError(std::string(flag) +
                           " replaces the GVF input of a --headless run without --record or "
                           "--region-snake; the viewer builds its own from the image.");
  if (o.edgeMap && !o.v0File && o.gvf.v0Mode == V0Mode::ImageGradient)
    throw ParameterError(
        "--edge-map gives f, and V0 is then grad f (or --v0 FILE): --v0 image does not go with "
        "it.");
  if (o.page && o.mode != Mode::Headless)
    throw ParameterError(
        "--page is for --headless runs; the viewer opens a TIFF stack as a volume.");
  if (o.quiet && o.verbose)
    throw ParameterError("--quiet and --verbose go against each other; give one.");
  checkBatchCombination(o);
  if (o.mode == Mode::Headless && o.batch.empty() && !o.image && !o.phantom && !o.session)
    throw ParameterError(
        "--headless needs an image file, --phantom u|room|blob or --session S.json.");
}

}  // namespace

ContextOptions contextOptions(const Options& o) {
  ContextOptions c;
  c.deviceSelector = o.device;
  // --devices 0.1,0.2: the first holds the input, as if named by --device.
  if (!o.devices.empty() && o.devices.front() != "all") c.deviceSelector = o.devices.front();
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
  c.a = o.mgA, c.b = o.mgB, c.c = o.mgC, c.cycle = o.mgCycle;
  c.devices = o.devices;
  return c;
}

Options parseOptions(const std::vector<std::string>& commandLine, const Options* base) {
  Options o;
  if (base) {
    o = *base;
  } else {
    setDefaults(o.gvf, gvfParamSpecs(), gvfParamFields());
    o.gvf.sigmaFromNoise = true;  // until --sigma: from the image's noise (noise_sigma.hpp)
    o.phantomSize = static_cast<int>(findSpec(cliParamSpecs(), "phantom-size").defaultValue);
    o.fps = static_cast<int>(findSpec(cliParamSpecs(), "fps").defaultValue);
  }
  std::vector<std::string> args = commandLine;  // --demo splices its flags in
  std::size_t i = 0;
  FlagContext c{o, args, i};
  std::set<std::string> givenOnce;  // single-valued output flags seen on this command line
  for (; i < args.size(); ++i) {
    const std::string& a = args[i];
    c.flag = findFlag(a);
    if (c.flag) {
      // One file per output flag: a second one would silently win over the first.
      if (c.flag->once && !givenOnce.insert(c.flag->name).second)
        throw ParameterError(a + " was given twice; give it once (one file per flag).");
      c.flag->apply(c);
    } else if (!a.empty() && a[0] == '-') {
      throw ParameterError("Unknown option " + quotedText(a) + "; see gvflab --help.");
    } else {
      if (c.givenImage)
        throw ParameterError("Only one image can be given ('" + *o.image + "' and '" + a + "').");
      o.image = a;
      c.givenImage = true;
      if (!c.givenPhantom) o.phantom.reset();  // a base's (session's) phantom gives way
    }
  }
  if (c.givenImage && c.givenPhantom)
    throw ParameterError("Give either an image file or --phantom, not both.");
  checkCombination(o);
  finishSnakeOptions(o.snakes);
  return o;
}

}  // namespace gvflab::app
