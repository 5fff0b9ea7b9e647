#pragma once
// NumPy <-> engine conversions. Arrays are indexed [row, col] ([plane, row, col] in 3D), the
// engine's images are x-fastest rows: the same memory order, so pixels copy straight across.
//
// Point coordinates in Python are (row, col) with pixel [r, c]'s centre at (r, c), as in
// NumPy and scikit-image; the engine's are (x, y) with the origin at the image's top-left
// corner, so pixel centres sit at (c + 0.5, r + 0.5).
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <glm/vec2.hpp>
#include <optional>
#include <string>
#include <vector>

#include "gvflab/field_storage.hpp"
#include "gvflab/image.hpp"
#include "gvflab/region_types.hpp"

namespace gvflab::python {

// An image or volume given as an array-like, known from its shape and dtype alone: inspecting
// copies no pixel, so that sizes are checked (against the engine's limits and the device)
// before a copy is made. Arrays of any strides work, broadcast (stride 0) views included.
struct PixelArray {
  pybind11::array array;            // the caller's array, a view with the channel axis last
  std::vector<std::int64_t> shape;  // without the channel axis: rows, cols / planes, rows, cols
  int channels = 0;                 // 0: no channel axis; else 1 (grey), 3 (RGB) or 4 (RGBA)
  std::string what;                 // "the image", for messages

  int dims() const { return static_cast<int>(shape.size()); }
  // The engine's size (width = cols); call once the sizes were checked.
  FieldShape fieldShape() const;
};

// The array-like as a PixelArray. dtype: any real number or bool (else InputError naming
// `what`). channelAxis: none (every axis is spatial, so a 3D array is a volume), or the
// axis (negative counts from the end) that holds 1, 3 or 4 channels, which become grey by
// the engine's luminance rule (gvflab/luminance.hpp; alpha ignored).
PixelArray inspectPixels(const pybind11::handle& array, std::optional<int> channelAxis,
                         const char* what);
// InputError with the engine's sentence unless an image (2D), or with `volumes` a volume (3D),
// of this size is one GVF takes (checkImageSize, checkVolumeSize); other dimension counts get
// a sentence naming `call`.
void requireGvfSize(const PixelArray& pixels, bool volumes, const char* call);

// The copy into the engine's types, grey values as floats: floats as they are (normally in
// [0, 1]), integers divided by their type's maximum (uint8 255 -> 1.0), bools 0/1; colour by
// luminance before that scaling. Checks nothing more (sizes were checked); NaN and infinities
// are the engine's to refuse.
std::vector<float> greyPixels(const PixelArray& pixels);
Image2D toImage(const PixelArray& pixels);
Volume toVolume(const PixelArray& pixels);
// The pixels as uint16 as they are (the region snake's own grey levels), for a uint16 array
// without channels; nullopt otherwise.
std::optional<std::vector<std::uint16_t>> rawUint16(const PixelArray& pixels);

// Number of dimensions of an array-like (for routing 2D / 3D), -1 when it is none.
int arrayDims(const pybind11::handle& array);

// rows x cols float32 owning the image's memory (no copy).
pybind11::array imageToArray(Image2D&& image);
// planes x rows x cols float32 owning the volume's memory (no copy).
pybind11::array volumeToArray(Volume&& volume);
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
