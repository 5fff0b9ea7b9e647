#include "mask_binding.hpp"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <array>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "context_cache.hpp"
#include "gvf_binding.hpp"
#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/polygon_fill.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

// rows x cols uint8, 1 inside the closed contour (N x 2 (row, col), pixel [r, c]'s centre at
// (r, c)), by --save-mask's rule.
py::array_t<std::uint8_t> polygonMask(const py::handle& points, std::array<long, 2> shape) {
  const long rows = shape[0], cols = shape[1];
  if (rows < 1 || cols < 1 || rows > kMaxImageSide || cols > kMaxImageSide)
    throw ParameterError("shape must be (rows, cols), each 1 to " + std::to_string(kMaxImageSide) +
                         ", not (" + std::to_string(rows) + ", " + std::to_string(cols) + ").");
  std::vector<std::array<double, 2>> polygon;
  for (const auto& p : pointsFromArray(points, "the contour")) {
    if (!std::isfinite(p.x) || !std::isfinite(p.y))
      throw ParameterError("the contour holds a NaN or infinite point.");
    polygon.push_back({p.x, p.y});
  }
  if (polygon.size() < 3)
    throw ParameterError("a contour needs at least 3 points to enclose pixels, not " +
                         std::to_string(polygon.size()) + ".");
  std::vector<std::uint8_t> inside =
      polygonInside(static_cast<int>(cols), static_cast<int>(rows), polygon);
  py::array_t<std::uint8_t> out({rows, cols});
  std::copy(inside.begin(), inside.end(), out.mutable_data());
  return out;
}

// The edge map f the GVF and the snakes use (kernels/edge_map.cl): rows x cols or planes x rows
// x cols float32 in [0, 1].
py::array edgeMap(const py::handle& data, std::optional<int> channelAxis, double sigma,
                  const std::string& device) {
  const PixelArray pixels = inspectPixels(data, channelAxis, "image_or_volume");
  requireGvfSize(pixels, /*volumes=*/true, "edge_map()");
  DeviceLease lease = computeContext(device);
  ComputeContext& ctx = *lease.ctx;
  if (pixels.dims() == 3) {
    const Volume volume = toVolume(pixels);
    Volume f;
    {
      py::gil_scoped_release release;
      f = readEdgeVolume(ctx, buildGvfInput(ctx, volume, sigma));
    }
    const std::vector<py::ssize_t> shape{f.depth, f.height, f.width};
    py::array_t<float> out(shape);
    std::copy(f.voxels.begin(), f.voxels.end(), out.mutable_data());
    return out;
  }
  const Image2D image = toImage(pixels);
  Image2D f;
  {
    py::gil_scoped_release release;
    f = readEdgeMap(ctx, buildGvfInput(ctx, image, sigma));
  }
  return imageToArray(std::move(f));
}

}  // namespace

void bindMasks(py::module_& m) {
  m.def("polygon_mask", &polygonMask, py::arg("points"), py::arg("shape"),
        "The compiled half of gvflab.snake_mask (python/gvflab/masks.py), documented there.");
  m.def("edge_map", &edgeMap, py::arg("image_or_volume"), py::kw_only(),
        py::arg("channel_axis") = py::none(), py::arg("sigma") = gvfDefault("sigma"),
        py::arg("device") = "",
        "The compiled gvflab.edge_map(): use gvflab.edge_map (python/gvflab/masks.py), "
        "documented there; defaults here are the engine's parameter tables.");
}

}  // namespace gvflab::python
