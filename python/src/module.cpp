// gvflab._gvflab: the engine's Python binding (the gvflab package re-exports it).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "errors.hpp"
#include "gvf_binding.hpp"
#include "gvflab/device.hpp"
#include "gvflab/field_solve.hpp"
#include "gvflab/multigrid_solver.hpp"
#include "gvflab/parametric_snake.hpp"
#include "gvflab/params.hpp"
#include "gvflab/phantoms.hpp"
#include "gvflab/region_types.hpp"
#include "gvflab/version.hpp"
#include "mask_binding.hpp"
#include "progress.hpp"
#include "read_binding.hpp"
#include "region_binding.hpp"
#include "snake_binding.hpp"
#include "surface_binding.hpp"

namespace py = pybind11;
using namespace gvflab;

PYBIND11_MODULE(_gvflab, m) {
  m.doc() = "Gradient Vector Flow and active contours on OpenCL devices (gvflab engine).";
  m.attr("__version__") = versionString();
  python::bindErrors(m);
  python::bindProgress(m);
  python::registerContextCleanup();

  py::class_<DeviceInfo>(m, "Device", "An OpenCL device (gvflab.devices()).")
      .def_readonly("name", &DeviceInfo::name)
      .def_readonly("platform", &DeviceInfo::platformName)
      .def_readonly("version", &DeviceInfo::version)
      .def_readonly("is_gpu", &DeviceInfo::isGpu)
      .def_readonly("global_mem_bytes", &DeviceInfo::globalMemBytes)
      .def_readonly("max_alloc_bytes", &DeviceInfo::maxAllocBytes)
      .def_readonly("compute_units", &DeviceInfo::computeUnits)
      .def("__str__", &DeviceInfo::describe)
      .def("__repr__", [](const DeviceInfo& d) { return "<gvflab.Device " + d.describe() + ">"; });
  m.def("devices", &listDevices,
        "Every OpenCL device of every platform. Pass part of a name as device=... to choose.");

  m.def(
      "phantom",
      [](const std::string& name, int size) {
        return python::imageToArray(makePhantom(name, size));
      },
      py::arg("name"), py::arg("size") = 256,
      "A procedural test image as a size x size float32 array in [0, 1]: 'u' (a U with a deep "
      "concavity), 'room' (a room with a doorway) or 'blob' (a noisy blob); the CLI's "
      "--phantom.");
  m.def("phantom_names", &phantomNames);

  m.def(
      "circle",
      [](std::pair<double, double> centre, double radius, double spacing) {
        return python::pointsToArray(
            circleContour(centre.second + 0.5, centre.first + 0.5, radius, spacing));
      },
      py::arg("center"), py::arg("radius"), py::kw_only(),
      py::arg("spacing") = 0.5 * (SnakeParams::defaults().dmin + SnakeParams::defaults().dmax),
      "Nodes of a circle about `spacing` pixels apart (at least 8), as an N x 2 (row, col) "
      "array; center is (row, col). The default spacing is the CLI's for --snake circle:...");

  // The engine's parameter tables, {table: {key: default}}, keys as the CLI's flags: what the
  // Python layer's keyword defaults and docstrings refer to.
  py::dict defaults;
  const std::pair<const char*, const std::vector<ParamSpec>*> tables[] = {
      {"gvf", &gvfParamSpecs()},
      {"multigrid", &multigridParamSpecs()},
      {"snake", &snakeParamSpecs()},
      {"region_snake", &regionSnakeParamSpecs()}};
  for (const auto& [name, specs] : tables) {
    py::dict table;
    for (const ParamSpec& spec : *specs)
      table[py::str(spec.key)] =
          !spec.choices.empty() ? py::object(py::str(choiceName(spec)))
          : spec.integer        ? py::object(py::int_(static_cast<long long>(spec.defaultValue)))
                                : py::object(py::float_(spec.defaultValue));
    defaults[name] = table;
  }
  // gvf()'s iterations=None is the engine's rule (gvflab/field_solve.hpp: multigrid to
  // target-error), not the table's fixed count, which applies when iterations are given.
  defaults["gvf"]["iterations"] = py::none();
  defaults["gvf"]["target-error"] = py::float_(kDefaultTargetError);
  m.attr("DEFAULTS") = defaults;

  python::bindGvf(m);
  python::bindSnake(m);
  python::bindRegionSnake(m);
  python::bindSurfaceSnake(m);
  python::bindMasks(m);
  python::bindRead(m);
}
