#include "gvf_binding.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <sstream>
#include <type_traits>
#include <vector>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/input_limits.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

V0Mode parseV0(const std::string& text) {
  if (const auto mode = parseV0Mode(text)) return *mode;
  throw ParameterError(
      "v0 must be 'edge' (V0 = grad f, the default) or 'image' "
      "(V0 = grad of the smoothed image), not '" +
      text + "'.");
}

std::string reportRepr(const GvfReport& r) {
  std::string size = std::to_string(r.width) + "x" + std::to_string(r.height) +
                     (r.depth > 1 ? "x" + std::to_string(r.depth) : "");
  return "GvfReport(solver='" + r.solver + "', size=" + size +
         ", iterations=" + std::to_string(r.iterations) +
         ", error=" + std::string(py::repr(py::float_(r.error))) +
         ", opencl_ms=" + std::string(py::repr(py::float_(r.openclMs))) + ", device='" + r.device +
         "')";
}

// A V0 array as gvf() returns fields: rows x cols x 2 (d_row, d_col), or planes x rows x cols
// x 3 (d_plane, d_row, d_col); the engine's components are (x, y[, z]), reversed.
template <class Field>
Field fieldFromArray(const py::handle& obj, int dims, const Field& shape) {
  auto a = py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(obj);
  const int channels = dims;
  std::vector<py::ssize_t> want = {shape.height, shape.width, channels};
  if constexpr (std::is_same_v<Field, Field3D>) want.insert(want.begin(), shape.depth);
  std::string wanted;
  for (auto s : want) wanted += (wanted.empty() ? "" : " x ") + std::to_string(s);
  if (!a || a.ndim() != dims + 1)
    throw InputError("v0 must be a " + wanted + " array (the image's size, " +
                     std::to_string(channels) + " components in index order, as gvf() returns).");
  for (int k = 0; k <= dims; ++k)
    if (a.shape(k) != want[k]) {
      std::string got;
      for (int j = 0; j <= dims; ++j) got += (j ? " x " : "") + std::to_string(a.shape(j));
      throw InputError("v0 is " + got + "; it must be " + wanted + " (the image's size, " +
                       std::to_string(channels) + " components).");
    }
  Field out = shape;
  out.data.assign(a.data(), a.data() + a.size());
  for (std::size_t i = 0; i < out.data.size(); i += channels)
    std::swap(out.data[i], out.data[i + channels - 1]);
  return out;
}

}  // namespace

GvfInput gvfInputOf(ComputeContext& ctx, const PixelArray& pixels, double sigma,
                    const py::object& v0, const py::object& edgeMap,
                    const std::optional<GridSpacing>& spacing) {
  const bool ownV0 = !v0.is_none() && !py::isinstance<py::str>(v0);
  const V0Mode mode =
      ownV0 || v0.is_none() ? V0Mode::EdgeGradient : parseV0(v0.cast<std::string>());
  if (!edgeMap.is_none() && mode == V0Mode::ImageGradient)
    throw ParameterError(
        "edge_map gives f, and V0 is then grad f or a v0 array: v0='image' "
        "does not go with it.");
  std::optional<PixelArray> f;
  if (!edgeMap.is_none()) {
    f = inspectPixels(edgeMap, std::nullopt, "edge_map");
    if (f->shape != pixels.shape)
      throw InputError(std::string("edge_map must have the ") +
                       (pixels.dims() == 3 ? "volume's" : "image's") + " shape.");
  }
  if (pixels.dims() == 3) {
    const Volume volume = toVolume(pixels);
    std::optional<Field3D> field;
    if (ownV0) field = fieldFromArray(v0, 3, Field3D(volume.width, volume.height, volume.depth));
    if (!f) {
      py::gil_scoped_release release;
      GvfInput in = buildGvfInput(ctx, volume, sigma, mode, spacing);
      if (field) replaceV0(ctx, in, *field, "v0");
      return in;
    }
    Volume edge = toVolume(*f);
    if (spacing) edge.geometry.spacing = *spacing;
    py::gil_scoped_release release;
    return gvfInputFrom(ctx, edge, field ? &*field : nullptr, "edge_map", "v0");
  }
  const Image2D image = toImage(pixels);
  std::optional<Field2D> field;
  if (ownV0) field = fieldFromArray(v0, 2, Field2D(image.width, image.height));
  if (!f) {
    py::gil_scoped_release release;
    GvfInput in = buildGvfInput(ctx, image, sigma, mode, spacing);
    if (field) replaceV0(ctx, in, *field, "v0");
    return in;
  }
  Image2D edge = toImage(*f);
  if (spacing) edge.geometry.spacing = *spacing;
  py::gil_scoped_release release;
  return gvfInputFrom(ctx, edge, field ? &*field : nullptr, "edge_map", "v0");
}

double gvfDefault(const char* key) { return findSpec(gvfParamSpecs(), key).defaultValue; }

int multigridDefault(const char* key) {
  return static_cast<int>(findSpec(multigridParamSpecs(), key).defaultValue);
}

std::string multigridChoice(const char* key) {
  return choiceName(findSpec(multigridParamSpecs(), key));
}

FieldSolvePlan GvfRequest::plan() const {
  if (iterations) validate(findSpec(gvfParamSpecs(), "iterations"), *iterations);
  if (targetError && !(*targetError > 0))
    throw ParameterError("target_error must be a positive number.");
  FieldSolveRequest ask;
  if (solver) {
    ask.solver = parseSolverKind(*solver);
    if (!ask.solver)
      throw ParameterError("solver must be 'euler' or 'multigrid', not '" + *solver + "'.");
  }
  ask.iterations = iterations;
  ask.targetError = targetError;
  return planFieldSolve(ask);
}

SolverConfig GvfRequest::config(SolverKind kind) const {
  SolverConfig config;
  config.kind = kind;
  config.precision = parsePrecision(precision);
  if (memory) config.memory = parseMemory(*memory);
  config.a = mgA, config.b = mgB, config.c = mgC;
  try {
    config.cycle =
        static_cast<int>(choiceValue(findSpec(multigridParamSpecs(), "mg-cycle"), mgCycle));
  } catch (const ParameterError& e) {
    throw ParameterError(std::string("mg_cycle: ") + e.what());
  }
  config.devices = devices;
  return config;
}

void checkGvfFits(const ComputeContext& ctx, FieldShape shape, const GvfRequest& request,
                  const RunLoad& load, const std::optional<GridSpacing>& spacing, bool solve) {
  checkRunFits(ctx, shape, request.config(request.plan().kind),
               runNeeds(load, shape, spacing.value_or(GridSpacing{1, 1, 1}), false), solve);
}

// The engine's factory builds the solver: the fit check and μ's range for this solver and input
// (mu_rule.hpp), as for the CLI: a μ given is checked as given, the default fitted.
std::unique_ptr<Solver> makeSolver(const std::shared_ptr<ComputeContext>& ctx, GvfInput input,
                                   const GvfRequest& request, SolverKind kind) {
  const MuCheck mu = checkMu(kind, input, request.mu.value_or(gvfDefault("mu")),
                             request.mu ? MuRule::Refuse : MuRule::FitDefault);
  return gvflab::makeSolver(ctx, input, mu.mu, request.config(kind));
}

GvfRun runGvf(const std::shared_ptr<ComputeContext>& ctx, const GvfInput& input,
              const GvfRequest& request, const py::object& progress, long progressEvery,
              std::unique_ptr<Solver> made) {
  const FieldSolvePlan plan = request.plan();
  ProgressReporter reporter(progress, progressEvery, "gvf");
  py::gil_scoped_release release;  // device work; the reporter takes the GIL back
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  GvfRun run{made ? std::move(made) : makeSolver(ctx, input, request, plan.kind), {}};
  Solver& solver = *run.solver;
  const long total = plan.iterations;
  GvfReport& r = run.report;
  const FieldSolveResult result = runFieldSolve(
      *ctx, solver, plan,
      [&](long done, const std::function<double()>& error) {
        if (plan.targetError)
          reporter.update(done, total, error());
        else
          reporter.update(done, total);
      },
      reporter.every());
  r.error = result.error;
  r.reached = result.reached;
  r.settled = result.settled;
  r.targetError = plan.targetError;
  reporter.update(solver.iterations(), total, r.error, true);
  ctx->profiler().endFrame();
  r.openclMs = ctx->profiler().totalMs(solver.kernelPrefix());
  r.solver = solver.name();
  r.precision = request.precision;
  r.device = ctx->info().name;
  r.width = solver.width();
  r.height = solver.height();
  r.depth = solver.depth();
  r.mu = solver.mu();
  r.iterations = solver.iterations();
  // The facts outlive the pointers into them (a temporary would dangle).
  const std::vector<SolverFact> facts = solver.facts();
  if (const SolverFact* levels = findFact(facts, "levels"))
    r.levels = static_cast<int>(std::get<std::int64_t>(levels->value));
  r.note = solver.storageNote();
  if (const SolverFact* split = findFact(facts, "split"))
    r.split = std::get<std::string>(split->value);
  if (const SolverFact* cycle = findFact(facts, "mg_cycle"))
    r.cycle = std::get<std::string>(cycle->value);
  return run;
}

namespace {

// devices=: None (one device), 'all', or a sequence of chooseDevice selectors ('0.1').
std::vector<std::string> deviceListOf(const py::object& devices) {
  if (devices.is_none()) return {};
  if (py::isinstance<py::str>(devices)) return {devices.cast<std::string>()};
  std::vector<std::string> out;
  if (py::isinstance<py::sequence>(devices))
    for (const py::handle item : devices) {
      if (!py::isinstance<py::str>(item)) {
        out.clear();
        break;
      }
      out.push_back(item.cast<std::string>());
    }
  if (out.empty())
    throw ParameterError(
        "devices= takes None, 'all' or a list of devices such as ['0.0', "
        "'0.1'] (gvflab.devices() lists them), not " +
        std::string(py::repr(devices)) + ".");
  return out;
}

}  // namespace

// spacing= in the array's axis order ((rows, cols) or (planes, rows, cols)) as x, y[, z].
GridSpacing gridSpacingOf(const std::vector<double>& spacing, int dims) {
  GridSpacing h{1.0, 1.0, 1.0};
  if (static_cast<int>(spacing.size()) == dims) {
    for (int i = 0; i < dims; ++i) h[i] = spacing[dims - 1 - i];
    bool ok = true;
    for (double v : spacing) ok = ok && v >= kMinSpacing && v <= kMaxSpacing;  // false for NaN
    if (ok) return h;
  }
  std::ostringstream msg;
  msg << "spacing must give one positive, finite value (" << kSpacingRangeText
      << ") per axis of the "
      << (dims == 3 ? "volume, (planes, rows, cols)" : "image, (rows, cols)") << ", not (";
  for (std::size_t i = 0; i < spacing.size(); ++i) msg << (i ? ", " : "") << spacing[i];
  msg << ").";
  throw ParameterError(msg.str());
}

namespace {

py::tuple gvf(const py::handle& data, std::optional<int> channelAxis, std::optional<double> mu,
              double sigma, std::optional<long> iterations, std::optional<double> targetError,
              std::optional<std::string> solver, const std::string& precision,
              std::optional<std::string> memory, const py::object& v0, int mgA, int mgB, int mgC,
              const std::string& mgCycle, const std::string& device, const py::object& progress,
              long progressEvery, const py::object& edgeMap,
              const std::optional<std::vector<double>>& spacing, const py::object& devices) {
  const auto t0 = std::chrono::steady_clock::now();
  // Everything is checked from the array's shape before a pixel is copied.
  const PixelArray pixels = inspectPixels(data, channelAxis, "image_or_volume");
  requireGvfSize(pixels, /*volumes=*/true, "gvf()");
  const bool is3d = pixels.dims() == 3;
  const std::optional<GridSpacing> h =
      spacing ? std::optional(gridSpacingOf(*spacing, pixels.dims())) : std::nullopt;
  GvfRequest request;
  request.mu = mu, request.iterations = iterations, request.targetError = targetError;
  request.solver = solver, request.precision = precision, request.memory = memory;
  request.mgA = mgA, request.mgB = mgB, request.mgC = mgC, request.mgCycle = mgCycle;
  request.devices = deviceListOf(devices);
  // devices=['0.1', ...]: the first holds the input, as if named by device=.
  const bool firstNamed = !request.devices.empty() && request.devices.front() != "all";
  DeviceLease lease = computeContext(firstNamed ? request.devices.front() : device);
  const std::shared_ptr<ComputeContext>& ctx = lease.ctx;
  checkGvfFits(*ctx, pixels.fieldShape(), request);
  // A volume over devices, f and V0 made from it: each slab's on its device from the array's
  // planes (the pipeline's split), never whole on one.
  GvfInput input;
  std::unique_ptr<Solver> split;
  if (is3d && !request.devices.empty() && edgeMap.is_none() && py::isinstance<py::str>(v0)) {
    GvfParams params;
    params.mu = request.mu.value_or(gvfDefault("mu"));
    params.sigma = sigma;
    params.v0Mode = parseV0(v0.cast<std::string>());
    params.spacing = h;
    const Volume volume = toVolume(pixels);
    py::gil_scoped_release release;
    split = buildGvfPipeline(ctx, volume, params, request.config(request.plan().kind),
                             request.mu ? MuRule::Refuse : MuRule::FitDefault)
                .solver;
  } else {
    input = gvfInputOf(*ctx, pixels, sigma, v0, edgeMap, h);
  }
  GvfRun run = runGvf(ctx, input, request, progress, progressEvery, std::move(split));
  Field2D field;
  Field3D field3;
  {
    py::gil_scoped_release release;
    const std::vector<float>& values =
        is3d ? (field3 = run.solver->readField3D()).data : (field = run.solver->readField()).data;
    requireFiniteField(values);
  }
  run.report.sigma = sigma;
  py::array out = is3d ? fieldToArray(std::move(field3)) : fieldToArray(std::move(field));
  run.report.wallMs =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  return py::make_tuple(out, run.report);
}

}  // namespace

void bindGvf(py::module_& m) {
  py::class_<GvfReport>(m, "GvfReport", "How a GVF solve went (returned by gvflab.gvf()).")
      .def_readonly("solver", &GvfReport::solver)
      .def_readonly("precision", &GvfReport::precision)
      .def_readonly("device", &GvfReport::device)
      .def_readonly("note", &GvfReport::note, "Storage fallbacks the Euler solver took, or ''.")
      .def_readonly("split", &GvfReport::split,
                    "A split's slabs: planes, device and MiB of each; '' on one device.")
      .def_readonly("width", &GvfReport::width)
      .def_readonly("height", &GvfReport::height)
      .def_readonly("depth", &GvfReport::depth)
      .def_readonly("levels", &GvfReport::levels, "Multigrid levels (0 for Euler).")
      .def_readonly("cycle", &GvfReport::cycle,
                    "Multigrid's iteration schedule as run ('fmg', 'vcycles' or 'twogrid'; "
                    "mg_cycle='auto' resolved), '' for Euler.")
      .def_readonly("mu", &GvfReport::mu)
      .def_readonly("sigma", &GvfReport::sigma)
      .def_readonly("iterations", &GvfReport::iterations)
      .def_readonly("error", &GvfReport::error, "The multigrid paper's error (eq. 9) at the end.")
      .def_readonly("target_error", &GvfReport::targetError)
      .def_readonly("reached", &GvfReport::reached, "Whether target_error was reached.")
      .def_readonly("settled", &GvfReport::settled,
                    "Whether the error settled above target_error (the solver's floor here).")
      .def_readonly("opencl_ms", &GvfReport::openclMs, "OpenCL time of the solver's kernels.")
      .def_readonly("wall_ms", &GvfReport::wallMs)
      .def("__repr__", &reportRepr);

  m.def("gvf", &gvf, py::arg("image_or_volume"), py::kw_only(),
        py::arg("channel_axis") = py::none(), py::arg("mu") = py::none(),
        py::arg("sigma") = gvfDefault("sigma"), py::arg("iterations") = py::none(),
        py::arg("target_error") = py::none(), py::arg("solver") = py::none(),
        py::arg("precision") = "f32", py::arg("memory") = py::none(), py::arg("v0") = "edge",
        py::arg("mg_a") = multigridDefault("mg-a"), py::arg("mg_b") = multigridDefault("mg-b"),
        py::arg("mg_c") = multigridDefault("mg-c"),
        py::arg("mg_cycle") = multigridChoice("mg-cycle"), py::arg("device") = "",
        py::arg("progress") = py::none(), py::arg("progress_every") = 100,
        py::arg("edge_map") = py::none(), py::arg("spacing") = py::none(),
        py::arg("devices") = py::none(),
        "The compiled gvflab.gvf(): use gvflab.gvf (python/gvflab/functions.py), documented "
        "there; defaults here are the engine's parameter tables.");
}

}  // namespace gvflab::python
