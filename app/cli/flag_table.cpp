#include "cli/flag_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "cli/cli_params.hpp"
#include "cli/snake_flags.hpp"
#include "demos/demos.hpp"
#include "gvflab/error.hpp"
#include "gvflab/field_storage.hpp"
#include "gvflab/mu_rule.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/param_fields.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/quoted.hpp"
#include "gvflab/region_types.hpp"
#include "io/field_file.hpp"
#include "io/file_formats.hpp"

namespace gvflab::app {
namespace {

using G = FlagGroup;

// A switch: sets a bool (or the mode) and takes no value.
Flag toggle(std::string name, FlagGroup group, std::string help,
            std::function<void(Options&)> set) {
  return valued(std::move(name), "", group, std::move(help),
                [set = std::move(set)](FlagContext& c) { set(c.options); });
}

// A number stored in an Options field (an integer spec's whole number in an int field); cliNumber
// takes its spec from cliParamSpecs.
template <class T>
Flag number(const ParamSpec& spec, FlagGroup group, T Options::*field) {
  return number(spec, group, [field](Options& o, double v) { o.*field = static_cast<T>(v); });
}
template <class T>
Flag cliNumber(const char* key, FlagGroup group, T Options::*field) {
  return number(findSpec(cliParamSpecs(), key), group, field);
}

// A file written per run: --batch writes one per input (Flag::output).
Flag perInput(Flag f, std::optional<std::string> Options::*field) {
  f.output = [field](Options& o) -> std::optional<std::string>& { return o.*field; };
  return f;
}

Flag pngOutput(std::string name, std::string help, std::optional<std::string> Options::*field) {
  return valued(name, "F.png", FlagGroup::Figures, std::move(help), [name, field](FlagContext& c) {
    auto& out = c.options.*field;
    out = c.value();
    if (findFormat(*out, FormatRole::PictureOutput) == nullptr)
      throw ParameterError(name + " writes a PNG file: give a name ending in " + ".png, not '" +
                           *out + "'.");
  });
}

// --iterations in help: headless, no --iterations means "to --target-error", not the spec's
// fixed count, so no default is printed.
const ParamSpec& iterationsHelpSpec() {
  static const ParamSpec spec = [] {
    ParamSpec s = findSpec(gvfParamSpecs(), "iterations");
    s.defaultValue = std::nan("");
    return s;
  }();
  return spec;
}

std::vector<Flag> modeFlags() {
  std::vector<Flag> t;
  Flag help = toggle("--help", G::Modes, "print this help and exit",
                     [](Options& o) { o.mode = Mode::Help; });
  help.alias = "-h";
  t.push_back(help);
  t.push_back(toggle("--version", G::Modes, "print the version and exit",
                     [](Options& o) { o.mode = Mode::Version; }));
  t.push_back(toggle("--list-devices", G::Modes,
                     "list the OpenCL devices (type, memory, CL->GL extensions) and exit",
                     [](Options& o) { o.mode = Mode::ListDevices; }));
  t.push_back(toggle("--headless", G::Modes,
                     "no window: solve, write the outputs named below, exit",
                     [](Options& o) { o.mode = Mode::Headless; }));
  Flag quiet = toggle("--quiet", G::Modes,
                      "errors only: no progress line (it shows only on a terminal), no warnings "
                      "or notes; the viewer too",
                      [](Options& o) { o.quiet = true; });
  quiet.alias = "-q";
  t.push_back(quiet);
  t.push_back(toggle("--verbose", G::Modes,
                     "debug lines too on stderr (\"gvflab: debug: ...\": kernel builds, inputs, "
                     "devices); the viewer too",
                     [](Options& o) { o.verbose = true; }));
  return t;
}

std::vector<Flag> inputFlags() {
  std::vector<Flag> t;
  t.push_back(
      valued("--phantom", "NAME", G::Input,
             "built-in image: " + sentenceList(phantomNames()) + " (the viewer's default: u)",
             [](FlagContext& c) {
               Options& o = c.options;
               o.phantom = c.value();
               c.givenPhantom = true;
               if (!c.givenImage) o.image.reset();  // a base's (session's) image gives way
               if (std::ranges::count(phantomNames(), *o.phantom) == 0)
                 makePhantom(*o.phantom, 16);  // throws, listing the names
             }));
  t.push_back(cliNumber("phantom-size", G::Input, &Options::phantomSize));
  t.push_back(cliNumber("page", G::Input, &Options::page));
  std::vector<std::string> demoNames;
  for (const Demo& d : demos()) demoNames.push_back(d.name);
  t.push_back(valued("--demo", "NAME", G::Input,
                     "a built-in lesson (image, parameters, snakes; later flags override it): " +
                         sentenceList(demoNames),
                     [](FlagContext& c) {
                       Options& o = c.options;
                       if (o.demo) throw ParameterError("Only one --demo can be given.");
                       const Demo& demo = findDemo(c.value());
                       o.demo = demo.name;
                       const auto extra = demoArgs(demo);
                       c.args.insert(c.args.begin() + static_cast<std::ptrdiff_t>(c.index) + 1,
                                     extra.begin(), extra.end());
                       c.demoEnd = c.index + 1 + extra.size();
                     }));
  t.push_back(once(valued("--session", "S.json", G::Input,
                          "open a saved session (image, solver, parameters, snakes); the "
                          "command line's flags override it",
                          [](FlagContext& c) { c.options.session = c.value(); })));
  t.push_back(
      shown(valued("--session-start", "W", G::Input,
                   "current: the session's snakes resume from their saved contours; initial: they "
                   "restart from their starting ones",
                   [](FlagContext& c) {
                     const std::string v = c.value();
                     if (v != "current" && v != "initial")
                       throw ParameterError("--session-start must be 'current' or 'initial', not " +
                                            quotedText(v) + ".");
                     c.options.sessionFromInitial = v == "initial";
                   }),
            [](const Options& o) { return o.sessionFromInitial ? "initial" : "current"; }));
  t.push_back(toggle("--allow-data-outside", G::Input,
                     "read data files that a MetaImage or NRRD header names outside its folder "
                     "(default: only files in that folder or below)",
                     [](Options& o) { o.allowDataOutside = true; }));
  return t;
}

std::vector<Flag> fieldFlags() {
  std::vector<Flag> t;
  // The solver's range on the input is checked where it runs (gvflab/mu_rule.hpp); here only
  // whether some solver takes it.
  Flag mu = number(findSpec(gvfParamSpecs(), "mu"), G::Field, {});
  mu.help = "Multigrid: up to " + std::to_string(static_cast<int>(multigridMuSpec().maxValue)) +
            " (no stability bound).";
  mu.apply = [](FlagContext& c) {
    c.options.gvf.mu = flagNumber("mu", c.value());
    requireMuForSomeSolver(c.options.gvf.mu);
    c.options.muGiven = true;
  };
  t.push_back(mu);
  t.push_back(number(findSpec(gvfParamSpecs(), "sigma"), G::Field, [](Options& o, double v) {
    o.gvf.sigma = v;
    o.gvf.sigmaFromNoise = false;  // given: never replaced
  }));
  Flag spacing = number(findSpec(cliParamSpecs(), "spacing"), G::Field, {});
  spacing.arg = "SX,SY[,SZ]";
  spacing.apply = [](FlagContext& c) { c.options.gvf.spacing = parseSpacing(c.value()); };
  t.push_back(spacing);
  Flag iterations = number(iterationsHelpSpec(), G::Field, {});
  iterations.apply = [](FlagContext& c) {
    Options& o = c.options;
    o.iterations = static_cast<int>(parseFlag(findSpec(gvfParamSpecs(), "iterations"), c.value()));
    o.iterationsGiven = true;
    // The same flag, read per frame by the viewer; a demo's is its headless total, and the
    // viewer keeps its frame budget.
    if (!c.fromDemo()) o.iterationsPerFrame = o.iterations;
  };
  t.push_back(iterations);
  t.push_back(valued("--solver", "euler|multigrid", G::Field,
                     "GVF solver (multigrid: the second paper). Not given: multigrid to "
                     "--target-error, or Euler for --iterations alone",
                     [](FlagContext& c) {
                       const std::string v = c.value();
                       const std::optional<SolverKind> kind = parseSolverKind(v);
                       if (!kind)
                         throw ParameterError("--solver must be 'euler' or 'multigrid', not " +
                                              quotedText(v) + ".");
                       c.options.solver = *kind;
                       c.options.solverGiven = true;
                     }));
  t.push_back(cliNumber("target-error", G::Field, &Options::targetError));
  t.push_back(number(findSpec(multigridParamSpecs(), "mg-a"), G::Field, &Options::mgA));
  t.push_back(number(findSpec(multigridParamSpecs(), "mg-b"), G::Field, &Options::mgB));
  t.push_back(number(findSpec(multigridParamSpecs(), "mg-c"), G::Field, &Options::mgC));
  t.push_back(number(findSpec(multigridParamSpecs(), "mg-cycle"), G::Field, &Options::mgCycle));
  // The GVF input: V0's rule or the researcher's own f and V0 (headless/user_gvf_input.hpp).
  t.push_back(shown(
      valued("--v0", "edge|image|FILE", G::Field,
             "V0 = grad of the edge map or of the smoothed image, or FILE: the initial field "
             "itself (headless; a field file as --save-field writes: .mha, .mhd, .nrrd, .nhdr; "
             "2 channels, 3 for a volume; the image's size)",
             [](FlagContext& c) {
               const std::string v = c.value();
               if (const auto mode = parseV0Mode(v))
                 c.options.gvf.v0Mode = *mode;
               else if (isUserFieldFile(v))
                 c.options.v0File = v;
               else
                 throw ParameterError("--v0 must be 'edge', 'image' or a field file (" +
                                      std::string(kUserFieldExtensions) + "), not " +
                                      quotedText(v) + ".");
             }),
      [](const Options& o) {
        return o.v0File ? *o.v0File : std::string(v0ModeName(o.gvf.v0Mode));
      }));
  Flag edgeMap =
      valued("--edge-map", "FILE", G::Field,
             "headless: FILE (an image or volume of the input's size) is the edge map f, "
             "read as an input is (values in [0, 1]: raster images divided by their "
             "type's maximum, MetaImage, NRRD and NIfTI rescaled min..max), not rebuilt "
             "from the image; V0 = grad f unless --v0 FILE",
             [](FlagContext& c) { c.options.edgeMap = c.value(); });
  edgeMap.once = true;
  t.push_back(edgeMap);
  t.push_back(
      shown(valued("--precision", "P", G::Field, "field storage, both solvers: f32, f16 or snorm16",
                   [](FlagContext& c) {
                     c.options.storage.precision =
                         parseNamed(c.flag->name, [&] { return parsePrecision(c.value()); });
                   }),
            [](const Options& o) { return precisionName(o.storage.precision); }));
  t.push_back(shown(
      valued("--memory", "M", G::Field,
             "Euler: buffer, image, local (tiles, several iterations per launch) or auto "
             "(local on GPUs, buffer on CPUs)",
             [](FlagContext& c) {
               const std::string v = c.value();
               c.options.storage.memory = v == "auto"
                                              ? std::nullopt
                                              : std::optional<MemoryKind>(parseNamed(
                                                    c.flag->name, [&] { return parseMemory(v); }));
             }),
      [](const Options& o) {
        return std::string(o.storage.memory ? memoryName(*o.storage.memory) : "auto");
      }));
  t.push_back(valued("--device", "D", G::Field,
                     "gpu, cpu, P.D (the numbers --list-devices prints) or part of a device name "
                     "(default: a GPU if any)",
                     [](FlagContext& c) { c.options.device = c.value(); }));
  t.push_back(
      valued("--devices", "LIST", G::Field,
             "a volume's field solve split in z-slabs over devices: all (the GPUs of the run's "
             "platform) or P.D numbers, comma-separated, the first holding the input",
             [](FlagContext& c) {
               const std::string list = c.value();
               c.options.devices = commaItems(list);
               if (std::ranges::count(c.options.devices, std::string()) > 0)
                 throw ParameterError("--devices " + quotedText(list) + " has an empty entry.");
             }));
  t.push_back(valued("--kernel-dir", "DIR", G::Field,
                     "load kernels/*.cl from DIR instead of the built-in copies (the viewer "
                     "reloads them when they change)",
                     [](FlagContext& c) { c.options.kernelDir = c.value(); }));
  return t;
}

std::vector<Flag> outputFlags() {
  std::vector<Flag> t;
  t.push_back(perInput(once(valued("--save-field", "F", G::Outputs,
                                   "write the field (float; 2 components, 3 for volumes) as "
                                   "MetaImage (.mha), NRRD (.nrrd) or a NIfTI vector image "
                                   "(.nii, .nii.gz)",
                                   [](FlagContext& c) {
                                     c.options.saveField = c.value();
                                     checkFieldFileName(*c.options.saveField);  // before a run
                                   })),
                       &Options::saveField));
  t.push_back(perInput(
      once(valued("--save-magnitude", "F.png", G::Outputs, "write |V| scaled to its maximum",
                  [](FlagContext& c) { c.options.saveMagnitude = c.value(); })),
      &Options::saveMagnitude));
  t.push_back(perInput(once(valued("--report", "R.json", G::Outputs,
                                   "write solver, iterations, error, opencl_ms, wall_ms (and the "
                                   "snakes' states)",
                                   [](FlagContext& c) { c.options.report = c.value(); })),
                       &Options::report));
  // --batch and --output-dir (issue 28): one run per input, its files named after it.
  t.push_back(valued(
      "--batch", "INPUT...", G::Outputs,
      "headless over many inputs: files, quoted globs ('scans/*.nii.gz') or @LIST (one file a "
      "line, relative to the list's folder; # comments), up to the next flag; one failure does "
      "not stop the others. Each output flag's F becomes DIR/STEM-F (or F with {stem} replaced); "
      "a summary on stdout, exit 1 when any input failed",
      [](FlagContext& c) {
        Options& o = c.options;
        if (!c.givenImage) o.image.reset();  // a session's image gives way to the inputs
        if (!c.givenPhantom) o.phantom.reset();
        o.batch.push_back(c.value());
        while (c.index + 1 < c.args.size() && !c.args[c.index + 1].empty() &&
               c.args[c.index + 1][0] != '-')
          o.batch.push_back(c.args[++c.index]);
      }));
  t.push_back(once(valued("--output-dir", "DIR", G::Outputs,
                          "--batch: the folder every input's outputs go to (it must exist)",
                          [](FlagContext& c) { c.options.outputDir = c.value(); })));
  return t;
}

std::vector<Flag> figureFlags() {
  std::vector<Flag> t;
  t.push_back(once(pngOutput(
      "--screenshot",
      "a figure of the view only (no panels), at --size WxH: viewer: after --frames frames, "
      "then quit; --headless: after the run (default: the view's size; headless, the image "
      "scaled up to at least 512 px)",
      &Options::screenshot)));
  t.push_back(toggle("--screenshot-panels", G::Figures,
                     "viewer: the whole window with its panels instead",
                     [](Options& o) { o.screenshotPanels = true; }));
  t.push_back(once(pngOutput(
      "--composite",
      "headless: the papers' figure, four captioned panels side by side: image, edge map f, "
      "|V| with arrows, snakes (and --trails); --size WxH is the whole figure (default: "
      "panels of the image scaled up to at least 256 px)",
      &Options::composite)));
  t.push_back(toggle("--composite-forces", G::Figures,
                     "--composite draws the forces side by side instead: one panel per force "
                     "of the snakes (at most four, two columns), its capture-range map, its "
                     "snakes, their states and iterations (default size 1024x768)",
                     [](Options& o) { o.compositeForces = true; }));
  Flag size = number(findSpec(cliParamSpecs(), "size"), G::Figures, {});
  size.arg = "WxH";
  size.apply = [](FlagContext& c) {
    const std::string v = c.value();
    int w = 0, h = 0;
    char tail = 0;
    const ParamSpec& side = *c.flag->spec;
    if (std::sscanf(v.c_str(), "%dx%d%c", &w, &h, &tail) != 2 || w < side.minValue ||
        h < side.minValue || w > side.maxValue || h > side.maxValue) {
      std::ostringstream msg;
      msg << "--size takes WxH in pixels, " << side.minValue << " to " << side.maxValue
          << " each (e.g. 512x512), not '" << v << "'.";
      throw ParameterError(msg.str());
    }
    c.options.size = std::array<int, 2>{w, h};
  };
  t.push_back(size);
  t.push_back(toggle("--legend", G::Figures,
                     "in the figure or recording: the colour bar with round ticks and one "
                     "entry per snake (colour, force, state)",
                     [](Options& o) { o.legend = true; }));
  t.push_back(toggle("--caption", G::Figures,
                     "in the figure or recording: iteration, mu, epsilon, solver and the force "
                     "of each snake",
                     [](Options& o) { o.caption = true; }));
  t.push_back(
      valued("--colormap", "NAME", G::Figures, "gray, viridis or inferno", [](FlagContext& c) {
        std::optional<std::string>& m = c.options.colormap;
        m = c.value();
        if (*m != "gray" && *m != "viridis" && *m != "inferno")
          throw ParameterError("--colormap must be gray, viridis or inferno, not " +
                               quotedText(*m) + ".");
      }));
  t.push_back(
      toggle("--log-scale", G::Figures, "log colour scale", [](Options& o) { o.logScale = true; }));
  t.push_back(number(findSpec(cliParamSpecs(), "trails"), G::Figures,
                     [](Options& o, double v) { o.snakes.trails = static_cast<int>(v); }));
  return t;
}

std::vector<Flag> recordingFlags() {
  std::vector<Flag> t;
  t.push_back(once(valued(
      "--record", "OUT", G::Recording,
      "record to OUT.mp4 (H.264), OUT.webm (VP9) or DIR/ (PNG frames); with --headless it "
      "renders offscreen (needs an X server or Xvfb) and writes the other outputs "
      "(--save-field, --report, ...) from the last frame; --frames N is the most (default 120, "
      "with --record-tail 3000)",
      [](FlagContext& c) { c.options.record = c.value(); })));
  t.push_back(once(cliNumber("record-tail", G::Recording, &Options::recordTail)));
  t.push_back(cliNumber("frames", G::Recording, &Options::frames));
  t.push_back(cliNumber("fps", G::Recording, &Options::fps));
  t.push_back(cliNumber("steps-per-frame", G::Recording, &Options::stepsPerFrame));
  t.push_back(toggle("--record-panel", G::Recording,
                     "viewer: record the whole window with the panels",
                     [](Options& o) { o.recordPanel = true; }));
  return t;
}

std::vector<Flag> viewerFlags() {
  std::vector<Flag> t;
  t.push_back(toggle("--race", G::Viewer,
                     "start in the race view (Euler vs multigrid, same OpenCL time per frame)",
                     [](Options& o) { o.race = true; }));
  t.push_back(cliNumber("race-budget", G::Viewer, &Options::raceBudgetMs));
  t.push_back(cliNumber("frame-budget", G::Viewer, &Options::frameBudgetMs));
  t.push_back(toggle("--stats", G::Viewer, "print frame time p50/p95 and iterations/s at exit",
                     [](Options& o) { o.stats = true; }));
  return t;
}

std::vector<Flag> regionFlags() {
  std::vector<Flag> t;
  t.push_back(valued("--region-snake", "[X,Y,W,H]", G::Region,
                     "segment with the region snake (PLH) instead of GVF, from this rectangle "
                     "(default: the image inset by 1/8)",
                     [](FlagContext& c) {
                       c.options.regionSnake = true;
                       const auto& a = c.args;
                       const std::size_t next = c.index + 1;
                       if (next < a.size() && !a[next].empty() && a[next][0] != '-' &&
                           a[next].find(',') != std::string::npos)
                         c.options.regionRect = parseRegionRect(c.value());
                     }));
  t.push_back(shown(valued("--noise", "gaussian|gamma|poisson", G::Region, "pixel model",
                           [](FlagContext& c) {
                             c.options.region.noise = parseNamed(
                                 c.flag->name, [&] { return parseNoiseModel(c.value()); });
                           }),
                    [](const Options& o) { return noiseModelName(o.region.noise); }));
  for (const auto& f : regionSnakeParamFields())  // max-iterations: a safety bound, no flag
    if (f.key != std::string_view("max-iterations"))
      t.push_back(number(findSpec(regionSnakeParamSpecs(), f.key), G::Region,
                         [f](Options& o, double v) { f.set(o.region, v); }));
  t.push_back(number(findSpec(cliParamSpecs(), "region-mpix"), G::Region, [](Options& o, double v) {
    o.regionMpix = v;
    o.regionSnake = true;
  }));
  return t;
}

}  // namespace

Flag valued(std::string name, std::string arg, FlagGroup group, std::string help,
            std::function<void(FlagContext&)> apply) {
  Flag f;
  f.name = std::move(name);
  f.arg = std::move(arg);
  f.group = group;
  f.help = std::move(help);
  f.apply = std::move(apply);
  return f;
}

Flag number(const ParamSpec& spec, FlagGroup group, std::function<void(Options&, double)> set) {
  std::string metavar = spec.integer ? "N" : "V";
  if (!spec.choices.empty()) {  // auto|fmg|...
    metavar.clear();
    for (const std::string& c : spec.choices) metavar += (metavar.empty() ? "" : "|") + c;
  }
  Flag f = valued("--" + spec.key, metavar, group, "", {});
  f.spec = &spec;
  f.apply = [set = std::move(set)](FlagContext& c) { set(c.options, c.number()); };
  return f;
}

Flag once(Flag f) {
  f.once = true;
  return f;
}

Flag shown(Flag f, std::function<std::string(const Options&)> show) {
  f.shown = std::move(show);
  return f;
}

const char* flagGroupTitle(FlagGroup group) {
  constexpr const char* kTitles[] = {
      // in FlagGroup's order
      "Modes",
      "Input (an IMAGE or VOLUME file, or one of these)",
      "The field: GVF parameters, solver, device",
      "Headless outputs",
      "Figures (--screenshot, --composite) and their look",
      "Recording",
      "Viewer",
      "Snakes (parametric GVF snakes, Xu & Prince 1998) and the capture-range map",
      "Region snake (PLH)"};
  return kTitles[static_cast<int>(group)];
}

std::string FlagContext::value() {
  if (index + 1 >= args.size()) throw ParameterError(args[index] + " needs a value.");
  return args[++index];
}

double FlagContext::number() { return parseFlag(*flag->spec, value()); }

const std::vector<Flag>& flagTable() {
  static const std::vector<Flag> table = [] {
    std::vector<Flag> t;
    for (auto part : {modeFlags, inputFlags, fieldFlags, outputFlags, figureFlags, recordingFlags,
                      viewerFlags, snakeFlags, regionFlags}) {
      auto flags = part();
      t.insert(t.end(), flags.begin(), flags.end());
    }
    return t;
  }();
  return table;
}

const Flag* findFlag(const std::string& given) {
  for (const Flag& f : flagTable())
    if (f.name == given || (!f.alias.empty() && f.alias == given)) return &f;
  return nullptr;
}

}  // namespace gvflab::app
