#pragma once
// NumPy <-> engine conversions. Arrays are indexed [row, col] ([plane, row, col] in 3D), the
// engine's images are x-fastest rows: the same memory order, so pixels copy straight across.
//
// Point coordinates in Python are (row, col) with pixel [r, c]'s centre at (r, c), as in
// NumPy and scikit-image; the engine's are (x, y) with the origin at the image's top-left
// corner, so pixel centres sit at (c + 0.5, r + 0.5).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <glm/vec2.hpp>
#include <vector>

#include "gvflab/image.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab::python {

// A 2D (or 3D) array of any real or bool dtype: floats as they are (normally in [0, 1]),
// integers divided by their type's maximum (uint8 255 -> 1.0), bools as 0/1. Throws
// InputError naming `what` for a wrong dimension count or dtype.
Image2D imageFromArray(const pybind11::handle& array, const char* what);
Volume volumeFromArray(const pybind11::handle& array, const char* what);
// Number of dimensions of an array-like (for routing 2D / 3D).
int arrayDims(const pybind11::handle& array);

// rows x cols float32 owning the image's memory (no copy).
pybind11::array imageToArray(Image2D&& image);
// H x W x 2 (2D) / D x H x W x 3 (3D) float32 arrays owning the field's memory (no copy);
// components are put in index order, (d_row, d_col) / (d_plane, d_row, d_col), in place.
pybind11::array fieldToArray(Field2D&& field);
pybind11::array fieldToArray(Field3D&& field);

// An N x 2 array-like of (row, col) points -> engine (x, y). Throws ParameterError.
std::vector<glm::vec2> pointsFromArray(const pybind11::handle& points, const char* what);
// Engine (x, y) -> N x 2 float64 (row, col).
pybind11::array_t<double> pointsToArray(const std::vector<glm::vec2>& points);
// Region-snake nodes (pixel indices) -> N x 2 int32 (row, col).
pybind11::array_t<int> nodesToArray(const std::vector<Point2i>& nodes);

}  // namespace gvflab::python
