#include "gvf_binding.hpp"

#include <pybind11/stl.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <type_traits>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvflab/error.hpp"
#include "gvflab/euler_solver.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/gvf_pipeline.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/profiler.hpp"
#include "progress.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

double specDefault(const char* key) { return findSpec(gvfParamSpecs(), key).defaultValue; }

V0Mode parseV0(const std::string& text) {
  if (text == "edge") return V0Mode::EdgeGradient;
  if (text == "image") return V0Mode::ImageGradient;
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

// gvf()'s input: built from the image, or the caller's own edge_map and/or v0 arrays.
GvfInput gvfInputOf(ComputeContext& ctx, const py::handle& data, int dims, double sigma,
                    const py::object& v0, const py::object& edgeMap) {
  const bool ownV0 = !v0.is_none() && !py::isinstance<py::str>(v0);
  const V0Mode mode = ownV0 || v0.is_none() ? V0Mode::EdgeGradient : parseV0(v0.cast<std::string>());
  if (!edgeMap.is_none() && mode == V0Mode::ImageGradient)
    throw ParameterError("edge_map gives f, and V0 is then grad f or a v0 array: v0='image' "
                         "does not go with it.");
  if (dims == 3) {
    const Volume volume = volumeFromArray(data, "the volume");
    std::optional<Field3D> field;
    if (ownV0) field = fieldFromArray(v0, 3, Field3D(volume.width, volume.height, volume.depth));
    if (edgeMap.is_none()) {
      GvfInput in = buildGvfInput(ctx, volume, sigma, mode);
      if (field) replaceV0(ctx, in, *field, "v0");
      return in;
    }
    const Volume f = volumeFromArray(edgeMap, "edge_map");
    if (f.width != volume.width || f.height != volume.height || f.depth != volume.depth)
      throw InputError("edge_map must have the volume's shape.");
    return gvfInputFrom(ctx, f, field ? &*field : nullptr, "edge_map", "v0");
  }
  const Image2D image = imageFromArray(data, "the image");
  std::optional<Field2D> field;
  if (ownV0) field = fieldFromArray(v0, 2, Field2D(image.width, image.height));
  if (edgeMap.is_none()) {
    GvfInput in = buildGvfInput(ctx, image, sigma, mode);
    if (field) replaceV0(ctx, in, *field, "v0");
    return in;
  }
  const Image2D f = imageFromArray(edgeMap, "edge_map");
  if (f.width != image.width || f.height != image.height)
    throw InputError("edge_map must have the image's shape.");
  return gvfInputFrom(ctx, f, field ? &*field : nullptr, "edge_map", "v0");
}

}  // namespace

// The engine's factory builds the solver: the fit check and μ's range for this solver and input
// (mu_rule.hpp), as for the CLI.
std::unique_ptr<Solver> makeSolver(const std::shared_ptr<ComputeContext>& ctx, GvfInput input,
                                   const GvfRequest& request, SolverKind kind) {
  SolverConfig config;
  config.kind = kind;
  config.precision = parsePrecision(request.precision);
  if (request.memory) config.memory = parseMemory(*request.memory);
  config.a = request.mgA, config.b = request.mgB, config.c = request.mgC;
  return gvflab::makeSolver(ctx, input, request.mu, config);
}

GvfRun runGvf(const std::shared_ptr<ComputeContext>& ctx, const GvfInput& input,
              const GvfRequest& request, const py::object& progress, long progressEvery) {
  if (request.iterations) validate(findSpec(gvfParamSpecs(), "iterations"), *request.iterations);
  if (request.targetError && !(*request.targetError > 0))
    throw ParameterError("target_error must be a positive number.");
  FieldSolveRequest ask;
  if (request.solver) {
    ask.solver = parseSolverKind(*request.solver);
    if (!ask.solver)
      throw ParameterError("solver must be 'euler' or 'multigrid', not '" + *request.solver + "'.");
  }
  ask.iterations = request.iterations;
  ask.targetError = request.targetError;
  const FieldSolvePlan plan = planFieldSolve(ask);
  ProgressReporter reporter(progress, progressEvery, "gvf");
  ctx->profiler().endFrame();
  ctx->profiler().reset();  // opencl_ms counts the solver only
  GvfRun run{makeSolver(ctx, input, request, plan.kind), {}};
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
  r.mu = request.mu;
  r.iterations = solver.iterations();
  if (const SolverFact* levels = findFact(solver.facts(), "levels"))
    r.levels = static_cast<int>(std::get<std::int64_t>(levels->value));
  r.note = solver.storageNote();
  return run;
}

namespace {

py::tuple gvf(const py::handle& data, double mu, double sigma, std::optional<long> iterations,
              std::optional<double> targetError, std::optional<std::string> solver,
              const std::string& precision, std::optional<std::string> memory,
              const py::object& v0, int mgA, int mgB, int mgC, const std::string& device,
              const py::object& progress, long progressEvery, const py::object& edgeMap) {
  const auto t0 = std::chrono::steady_clock::now();
  const int dims = arrayDims(data);
  if (dims != 2 && dims != 3)
    throw InputError(
        "gvf() takes a 2D image (rows x cols) or a 3D volume (planes x rows x "
        "cols) as a NumPy array.");
  auto ctx = computeContext(device);
  GvfInput input = gvfInputOf(*ctx, data, dims, sigma, v0, edgeMap);
  GvfRequest request{mu, iterations, targetError, solver, precision, memory, mgA, mgB, mgC};
  GvfRun run = runGvf(ctx, input, request, progress, progressEvery);
  Field2D field;
  Field3D field3;
  const std::vector<float>& values = dims == 3 ? (field3 = run.solver->readField3D()).data
                                               : (field = run.solver->readField()).data;
  requireFiniteField(values);
  run.report.sigma = sigma;
  py::array out = dims == 3 ? fieldToArray(std::move(field3)) : fieldToArray(std::move(field));
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
      .def_readonly("width", &GvfReport::width)
      .def_readonly("height", &GvfReport::height)
      .def_readonly("depth", &GvfReport::depth)
      .def_readonly("levels", &GvfReport::levels, "Multigrid levels (0 for Euler).")
      .def_readonly("mu", &GvfReport::mu)
      .def_readonly("sigma", &GvfReport::sigma)
      .def_readonly("iterations", &GvfReport::iterations)
      .def_readonly("error", &GvfReport::error, "The multigrid paper's error (eq. 9) at the end.")
      .def_readonly("target_error", &GvfReport::targetError)
      .def_readonly("reached", &GvfReport::reached, "Whether target_error was reached.")
      .def_readonly("opencl_ms", &GvfReport::openclMs, "OpenCL time of the solver's kernels.")
      .def_readonly("wall_ms", &GvfReport::wallMs)
      .def("__repr__", &reportRepr);

  m.def("gvf", &gvf, py::arg("image_or_volume"), py::kw_only(), py::arg("mu") = specDefault("mu"),
        py::arg("sigma") = specDefault("sigma"), py::arg("iterations") = py::none(),
        py::arg("target_error") = py::none(), py::arg("solver") = py::none(),
        py::arg("precision") = "f32", py::arg("memory") = py::none(), py::arg("v0") = "edge",
        py::arg("mg_a") = 1, py::arg("mg_b") = 2, py::arg("mg_c") = 1, py::arg("device") = "",
        py::arg("progress") = py::none(), py::arg("progress_every") = 100,
        py::arg("edge_map") = py::none(),
        R"(Gradient Vector Flow of a 2D image or a 3D volume, computed on an OpenCL device.

image_or_volume: a rows x cols (2D) or planes x rows x cols (3D) array. Floats are used as
    they are (normally in [0, 1]); integer types are divided by their maximum (uint8: 255).
mu, sigma: GVF diffusion weight and the Gaussian sigma (pixels) before the edge map.
    mu's range is the solver's, as on the command line: Euler's ends at its stability
    bound (at most 1/4 in 2D, 1/6 in 3D, lower on strong edges); multigrid takes any mu > 0.
iterations, target_error, solver: by default (all None) the field is solved to the error
    (multigrid paper, eq. 9: the mean residual) target_error = 1e-6 by multigrid, so snakes
    run on a finished field. target_error: stop once the error is at most this (the most
    iterations: `iterations`, else 100 multigrid cycles or 100000 Euler iterations).
    iterations without target_error: exactly that many (Euler unless solver names one).
solver: 'euler' or 'multigrid' (mg_a, mg_b, mg_c: cycles, pre- and post-smoothing sweeps);
    None: multigrid for a run to a target, Euler for a fixed count.
precision: field storage, 'f32', 'f16' or 'snorm16'. memory (Euler): 'buffer', 'image',
    'local' or None for the device's best.
v0: 'edge' (V0 = grad f, f the normalised edge map) or 'image' (V0 = grad of the image), or
    your own initial field: an array shaped as the result (rows x cols x 2, planes x rows x
    cols x 3, components in index order); finite.
edge_map: None, or your own edge map f (the image's shape; floats as they are, integers
    divided by their type's maximum; keep it in [0, 1] for the default mu and snakes), used
    instead of the one built from the image with sigma; V0 is then grad f unless v0 is an
    array. The image still sets the size.
device: '' or 'gpu' (a GPU if any), 'cpu', or part of a device name (see gvflab.devices()).
progress: None or a callable getting a gvflab.Progress every progress_every iterations
    (e.g. lambda p: bar.update(p.iterations - bar.n) for a tqdm bar).

Returns (field, report). field is float32, rows x cols x 2 in 2D, planes x rows x cols x 3 in
3D, components in index order: field[r, c] = (d_row, d_col), as NumPy indexes the image
(gvflab.field_xy(field) is the (x, y) view). report is a gvflab.GvfReport (iterations,
error, opencl_ms, ...). Raises gvflab.ParameterError, InputError, DeviceError or
ResourceError with a sentence saying what is wrong.)");
}

}  // namespace gvflab::python
