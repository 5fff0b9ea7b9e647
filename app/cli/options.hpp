#pragma once
// Command-line options of the gvflab executable (viewer and headless modes).
#include <array>
#include <optional>
#include <string>
#include <vector>

#include "cli/snake_options.hpp"
#include "gvflab/device.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/params.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab::app {

enum class Mode { Viewer, Headless, ListDevices, Help, Version };

struct Options {
  Mode mode = Mode::Viewer;
  std::optional<std::string> image;    // input file
  std::optional<std::string> phantom;  // u | room | blob
  int phantomSize = 256;
  std::optional<int> page;  // --page N: one page of a TIFF stack as the image (headless)
  GvfParams gvf;
  // The researcher's own GVF inputs (headless): --edge-map F replaces the edge map f (V0 =
  // grad f unless --v0 F), --v0 F (a field file) replaces V0 (headless/user_gvf_input.hpp).
  std::optional<std::string> edgeMap;
  std::optional<std::string> v0File;
  bool muGiven = false;          // --mu or a session: checked as asked; else the default, fitted
  bool quiet = false;            // --quiet: errors only (no progress line, warnings or info)
  bool verbose = false;          // --verbose: debug lines too (gvflab/log.hpp)
  EulerOptions storage;          // --precision (both solvers), --memory (Euler)
  int iterations = 500;          // headless: the total (with --target-error: the most to run)
  bool iterationsGiven = false;  // --iterations on the command line (a demo's counts too)
  std::optional<int> iterationsPerFrame;  // viewer: --iterations given, per frame
  int savedIterationsPerFrame = 16;       // viewer: from --session (Euler, per frame)
  SolverKind solver = SolverKind::Euler;  // --solver euler|multigrid
  bool solverGiven = false;  // --solver named: headless runs it, else the engine's rule picks
  int mgA = kMultigridSweeps.a, mgB = kMultigridSweeps.b, mgC = kMultigridSweeps.c;  // --mg-a/b/c
  int mgCycle = kMultigridSweeps.cycle;                                              // --mg-cycle
  std::optional<double> targetError;  // --target-error E: iterate until ε <= E
  std::string device;                 // "", gpu, cpu or a name substring
  std::vector<std::string> devices;   // --devices: a volume's split (slab_split.hpp)
  std::optional<std::string> kernelDir;
  bool allowDataOutside = false;  // data files named by headers may lie outside their folder
  std::optional<std::string> saveField;
  std::optional<std::string> saveMagnitude;
  std::optional<std::string> report;
  // --batch: headless over many inputs (globs, files, @lists), each writing the output flags'
  // files into --output-dir, named after its stem (headless/headless_batch.hpp).
  std::vector<std::string> batch;
  std::optional<std::string> outputDir;
  std::optional<std::string> screenshot;  // a PNG of the view (viewer: after --frames, quit)
  bool screenshotPanels = false;          // viewer: the whole window with its panels
  bool compositeForces = false;           // --composite-forces: a panel per force
  std::optional<std::string> composite;   // headless: image | edge map | |V| | snakes PNG
  bool legend = false;      // --legend: colour bar and snake entries in figures and recordings
  bool caption = false;     // --caption: iteration, mu, epsilon, solver, snake forces
  int frames = 0;           // viewer: quit after N frames (0 = run)
  bool race = false;        // viewer: start in the race view
  double raceBudgetMs = 0;  // --race-budget; 0: the device's default
  SnakeOptions snakes;      // --snake, --alpha, ..., --capture-map
  // Region snake (--region-snake [X,Y,W,H]); no rectangle: the default inset.
  bool regionSnake = false;
  std::optional<std::array<int, 4>> regionRect;
  RegionSnakeParams region;
  double regionMpix = 0;  // viewer: a synthetic star image of this many megapixels
  // Recording and the viewer's own pace (see app/record, headless/headless_record).
  std::optional<std::string> record;  // OUT.mp4 | OUT.webm | DIR/
  std::optional<double> recordTail;   // --record-tail S: stop S seconds after all snakes stopped
  int stepsPerFrame = 0;              // > 0: fixed solver steps per frame (deterministic)
  std::optional<std::array<int, 2>> size;  // --size WxH: offscreen frame / window size
  int fps = 30;
  bool recordPanel = false;             // viewer: record the whole window, not just the view
  bool stats = false;                   // print frame time p50/p95 and iterations/s at exit
  double frameBudgetMs = 0;             // > 0: steps per frame fit this budget (default 16 ms)
  std::optional<std::string> demo;      // --demo NAME (its flags are parsed in its place)
  std::optional<std::string> session;   // a saved session (.json) to open at start-up
  bool sessionFromInitial = false;      // --session-start initial: snakes from their starts
  std::optional<std::string> colormap;  // gray | viridis | inferno
  bool logScale = false;
};

// The OpenCL context the options ask for (--device, --kernel-dir).
ContextOptions contextOptions(const Options& options);
// The solver the options ask for: --solver, --precision, --memory, --mg-a/b/c, --mg-cycle.
SolverConfig solverConfig(const Options& options);
// How a headless run solves the field (gvflab/field_solve.hpp's rule): --solver, --iterations
// and --target-error as given; by default multigrid to ε <= 1e-6.
FieldSolvePlan fieldSolvePlan(const Options& options);

// Reads the command line through the flag table (cli/flag_table.hpp), then checks the flags
// that only go together. Throws ParameterError with a sentence on unknown flags, missing
// values or bad numbers.
// base: start from these options instead of the defaults (a --session's, so that the command
// line's flags win over the session: its image or phantom, --mu, ...; its --snake are added).
Options parseOptions(const std::vector<std::string>& args, const Options* base = nullptr);
// --help: written from the flag table (cli/help_text.cpp).
std::string helpText();

}  // namespace gvflab::app
