#include "read_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl/filesystem.h>

#include <utility>

#include "arrays.hpp"
#include "io/volume_loader.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

// The CLI's gate and readers (io/volume_loader.hpp: loadInput), so a file reads here exactly
// as `gvflab FILE` reads it, or is refused with the same sentence. The geometry comes back in
// NumPy's axis order, the engine's axes reversed: (spacing per array axis, origin in world
// LPS mm, direction 3 x ndim whose column k is array axis k's world direction), origin and
// direction None when the file gives no geometry.
py::tuple readFile(const std::filesystem::path& path) {
  app::LoadedInput in;
  {
    py::gil_scoped_release release;
    in = app::loadInput(path);
  }
  const WorldGeometry g = in.is3d ? in.volume.geometry : in.image.geometry;
  const int dims = in.is3d ? 3 : 2;
  py::tuple spacing(dims);
  py::array_t<double> direction({py::ssize_t(3), py::ssize_t(dims)});
  for (int k = 0; k < dims; ++k) {
    const int axis = dims - 1 - k;
    spacing[k] = g.spacing[axis];
    for (int row = 0; row < 3; ++row) direction.mutable_at(row, k) = g.direction[row * 3 + axis];
  }
  py::array samples =
      in.is3d ? volumeToArray(std::move(in.volume)) : imageToArray(std::move(in.image));
  if (!g.known) return py::make_tuple(samples, spacing, py::none(), py::none());
  return py::make_tuple(samples, spacing, py::make_tuple(g.origin[0], g.origin[1], g.origin[2]),
                        direction);
}

}  // namespace

void bindRead(py::module_& m) {
  m.def("read", &readFile, py::arg("path"),
        "The compiled gvflab.read(): use gvflab.read (python/gvflab/files.py), documented "
        "there.");
}

}  // namespace gvflab::python
