#include "surface_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <sstream>
#include <utility>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvf_binding.hpp"
#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/profiler.hpp"
#include "gvflab/surface_mesh.hpp"
#include "gvflab/surface_snake.hpp"
#include "gvflab/volume_phantoms.hpp"
#include "progress.hpp"
#include "snake_common.hpp"
#include "snake_setup.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

struct SurfaceResult : SnakeOutcome {
  py::array vertices;  // N x 3 float64 (plane, row, col)
  py::array faces;     // M x 3 int64, outward in (plane, row, col)
  py::dict params;     // snakeParamsDict of the parameters it ran with
};

std::string number(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

// (plane, row, col), voxel [p, r, c]'s centre at (p, r, c) -> the engine's (x, y, z), whose
// voxel centres sit at (c + 0.5, r + 0.5, p + 0.5) (surface_mesh.hpp).
glm::dvec3 centreFromPython(const py::handle& obj) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 1 || a.shape(0) != 3 || !std::isfinite(a.at(0)) ||
      !std::isfinite(a.at(1)) || !std::isfinite(a.at(2)))
    throw ParameterError("center must be three finite numbers (plane, row, col).");
  return {a.at(2) + 0.5, a.at(1) + 0.5, a.at(0) + 0.5};
}

std::string centreText(const glm::dvec3& c) {
  return "(" + number(c.z - 0.5) + ", " + number(c.y - 0.5) + ", " + number(c.x - 0.5) + ")";
}

// The sphere's checks in the caller's terms: the centre inside the volume, then the engine's
// rule (checkSphere: inside, finite, not too many vertices).
void checkStart(const glm::dvec3& c, double radius, const FieldShape& s,
                const SnakeParams& params) {
  if (!std::isfinite(radius) || radius <= 0)
    throw ParameterError("radius must be a positive number of voxels, not " + number(radius) + ".");
  if (c.x < 0 || c.x > s.width || c.y < 0 || c.y > s.height || c.z < 0 || c.z > s.depth)
    throw ParameterError("center " + centreText(c) + " lies outside the volume (shape (" +
                         std::to_string(s.depth) + ", " + std::to_string(s.height) + ", " +
                         std::to_string(s.width) + "): planes, rows and cols from -0.5 to " +
                         "the side - 0.5).");
  try {
    SurfaceSnake::checkSphere(c, radius, s.width, s.height, s.depth, params);
  } catch (const ParameterError& e) {
    throw ParameterError("The sphere of radius " + number(radius) + " around center " +
                         centreText(c) + ": " + e.what());
  } catch (const ResourceError& e) {
    throw ResourceError("The sphere of radius " + number(radius) + " around center " +
                        centreText(c) + ": " + e.what());
  }
}

// box=((p0, r0, c0), (p1, r1, c1)) -> the engine's corners lo, hi in (x, y, z), checked in the
// caller's terms: finite, lo < hi on every axis, inside the volume.
std::pair<glm::dvec3, glm::dvec3> boxFromPython(const py::handle& obj, const FieldShape& s) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2 || a.shape(0) != 2 || a.shape(1) != 3)
    throw ParameterError("box must be two corners ((plane, row, col), (plane, row, col)).");
  const glm::dvec3 lo(a.at(0, 2) + 0.5, a.at(0, 1) + 0.5, a.at(0, 0) + 0.5);
  const glm::dvec3 hi(a.at(1, 2) + 0.5, a.at(1, 1) + 0.5, a.at(1, 0) + 0.5);
  const std::string text = "box from " + centreText(lo) + " to " + centreText(hi);
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(lo[k]) || !std::isfinite(hi[k]) || !(lo[k] < hi[k]))
      throw ParameterError("The " + text +
                           " needs finite corners, the first below the second on every axis.");
  if (lo.x < 0 || lo.y < 0 || lo.z < 0 || hi.x > s.width || hi.y > s.height || hi.z > s.depth)
    throw ParameterError("The " + text + " lies outside the volume (shape (" +
                         std::to_string(s.depth) + ", " + std::to_string(s.height) + ", " +
                         std::to_string(s.width) + "): planes, rows and cols from -0.5 to " +
                         "the side - 0.5).");
  return {lo, hi};
}

// The start surface: a sphere (center, radius) or a box, exactly one of them; checked and
// built before any device work.
SurfaceMesh startMesh(const py::handle& center, std::optional<double> radius, const py::handle& box,
                      const FieldShape& s, const SnakeParams& params) {
  const bool sphere = !center.is_none() || radius.has_value();
  if (sphere == !box.is_none())
    throw ParameterError(
        "surface_snake() starts from center and radius (a sphere) or from box: give one of "
        "them.");
  const double edge = 0.5 * (params.dmin + params.dmax);  // as addSphere() and the CLI
  if (sphere) {
    if (center.is_none() || !radius)
      throw ParameterError("A sphere start needs both center and radius.");
    const glm::dvec3 c = centreFromPython(center);
    checkStart(c, *radius, s, params);
    return sphereMesh(c, *radius, edge);
  }
  const auto [lo, hi] = boxFromPython(box, s);
  SurfaceMesh mesh = boxMesh(lo, hi, edge);
  SurfaceSnake::checkSurface(mesh, s.width, s.height, s.depth, params);
  return mesh;
}

py::array_t<double> verticesToArray(const SurfaceMesh& mesh) {
  py::array_t<double> out({static_cast<py::ssize_t>(mesh.vertices.size()), py::ssize_t(3)});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const glm::vec3& v = mesh.vertices[i];
    w(i, 0) = double(v.z) - 0.5;
    w(i, 1) = double(v.y) - 0.5;
    w(i, 2) = double(v.x) - 0.5;
  }
  return out;
}

// (plane, row, col) mirrors the engine's right-handed (x, y, z): the faces' order is reversed
// so that (v1 - v0) x (v2 - v0) still points outwards in the returned coordinates.
py::array_t<std::int64_t> facesToArray(const SurfaceMesh& mesh) {
  py::array_t<std::int64_t> out({static_cast<py::ssize_t>(mesh.faces.size()), py::ssize_t(3)});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < mesh.faces.size(); ++i) {
    const glm::uvec3& f = mesh.faces[i];
    w(i, 0) = f.x;
    w(i, 1) = f.z;
    w(i, 2) = f.y;
  }
  return out;
}

SurfaceResult surfaceSnake(const py::handle& volume, const py::handle& center,
                           std::optional<double> radius, const py::handle& box,
                           std::optional<int> channelAxis, const std::string& force, double alpha,
                           double beta, double gamma, double kappa, double pressure, double dmin,
                           double dmax, double tolerance, int window, double holdGap, int resample,
                           bool normalize, int iterations, std::optional<double> mu, double sigma,
                           std::optional<long> gvfIterations, std::optional<double> targetError,
                           std::optional<std::string> solver, const std::string& precision,
                           const std::string& device, const py::object& progress,
                           long progressEvery, const std::optional<std::vector<double>>& spacing,
                           const py::object& forceParams) {
  const SnakeForce snakeForce = parseForce(force);
  const ForceParams forcesOf = forceParamsFrom(forceParams, 3);
  const SnakeParams params =
      checkedSnakeParams(alpha, beta, gamma, kappa, pressure, dmin, dmax, tolerance, window,
                         holdGap, resample, normalize, iterations);

  // Everything is checked from the array's shape before a voxel is copied.
  const PixelArray pixels = inspectPixels(volume, channelAxis, "the volume");
  if (pixels.dims() != 3)
    throw InputError("surface_snake() takes a 3D volume (planes x rows x cols); the volume has " +
                     std::to_string(pixels.dims()) + " dimensions" +
                     (pixels.channels ? " besides its channel axis" : "") + " (shape " +
                     std::string(py::str(pixels.array.attr("shape"))) + ")" +
                     (pixels.dims() == 2 ? ": use gvflab.snake() for a 2D image." : "."));
  requireGvfSize(pixels, /*volumes=*/true, "surface_snake()");
  const FieldShape shape = pixels.fieldShape();
  const SurfaceMesh start = startMesh(center, radius, box, shape, params);
  SnakeField field(pixels, snakeForce,
                   snakeGvfRequest(mu, gvfIterations, targetError, solver, precision), sigma,
                   device, spacing, py::none(), progress, progressEvery,
                   RunLoad{0, {start.vertices.size()}, params, {snakeForce}});
  ProgressReporter reporter(progress, progressEvery, "surface");
  std::optional<SurfaceSnake> surfaces;
  {
    py::gil_scoped_release release;  // progress takes it back for its callback
    surfaces.emplace(field.lease.ctx, shape.width, shape.height, shape.depth, params);
    ForceFields fields(field.lease.ctx, field.input, forcesOf);
    surfaces->setFields(fields.fields({snakeForce}, field.field()), field.input);
    surfaces->add(start, snakeForce);
    stepWithProgress(field.ctx(), *surfaces, iterations, reporter);
    surfaces->settleMeshes();  // remeshed and untangled, as the CLI writes them
  }
  std::vector<SurfaceContour> out;
  {
    py::gil_scoped_release release;
    out = surfaces->surfaces();
  }
  const SurfaceContour& s = out.at(0);
  return SurfaceResult{outcomeOf(s, field.ctx().profiler().totalMs(), field),
                       verticesToArray(s.mesh), facesToArray(s.mesh),
                       snakeParamsDict(surfaces->params())};
}

}  // namespace

void bindSurfaceSnake(py::module_& m) {
  py::class_<SurfaceResult> result(
      m, "SurfaceResult", "A surface snake after gvflab.surface_snake(): a closed triangle mesh.");
  result
      .def_readonly("vertices", &SurfaceResult::vertices,
                    "The mesh's vertices, N x 3 float64 (plane, row, col), voxel centres at "
                    "integers.")
      .def_readonly("faces", &SurfaceResult::faces,
                    "M x 3 int64 vertex indices, (v1 - v0) x (v2 - v0) pointing outwards in "
                    "(plane, row, col) coordinates; every edge is in exactly two faces.")
      .def_readonly("params", &SurfaceResult::params, kParamsDoc)
      .def("__repr__", [](const SurfaceResult& r) {
        return "SurfaceResult(force='" + r.force + "', state='" + r.state +
               "', vertices=" + std::to_string(r.vertices.shape(0)) +
               ", faces=" + std::to_string(r.faces.shape(0)) +
               ", iterations=" + std::to_string(r.iterations) + ")";
      });
  defOutcome(result, "Fraction of vertices the force held at the last stop (0 before one).",
             "Widest patch without the force's hold then (voxels).");

  std::apply(
      [&](auto... snakeArgs) {
        m.def("surface_snake", &surfaceSnake, py::arg("volume"), py::arg("center") = py::none(),
              py::arg("radius") = py::none(), py::kw_only(), py::arg("box") = py::none(),
              py::arg("channel_axis") = py::none(), py::arg("force") = "gvf", snakeArgs...,
              py::arg("mu") = py::none(), py::arg("sigma") = gvfDefault("sigma"),
              py::arg("gvf_iterations") = py::none(), py::arg("target_error") = py::none(),
              py::arg("solver") = py::none(), py::arg("precision") = "f32", py::arg("device") = "",
              py::arg("progress") = py::none(), py::arg("progress_every") = 100,
              py::arg("spacing") = py::none(), py::arg("force_params") = py::none(),
              "The compiled gvflab.surface_snake(): use gvflab.surface_snake "
              "(python/gvflab/functions.py), documented there; defaults here are the engine's "
              "parameter tables.");
      },
      snakeKeywordArgs());

  m.def(
      "volume_phantom",
      [](const std::string& name, int size) {
        return volumeToArray(makeVolumePhantom(name, size));
      },
      py::arg("name"), py::arg("size") = 64,
      "A procedural test volume as a size^3 float32 array in [0, 1] (planes, rows, cols): "
      "'cup' (a cup with a deep well opening towards the last planes) or 'sphere' (a ball).");
  m.def("volume_phantom_names", &volumePhantomNames);
}

}  // namespace gvflab::python
