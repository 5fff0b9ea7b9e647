#include "arrays.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "gvflab/error.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/luminance.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

std::string shapeText(const py::array& a) { return std::string(py::str(a.attr("shape"))); }

// A float32 (or `dtype`) C-ordered array viewing `data` (no copy, no ownership): the
// destination of NumPy's copies, which handle any strides and dtype conversion.
py::array viewOf(void* data, const py::dtype& dtype, const std::vector<std::int64_t>& shape) {
  std::vector<py::ssize_t> dims(shape.begin(), shape.end());
  // A base object keeps pybind11 from copying; the view never outlives `data`.
  py::capsule base(data, [](void*) {});
  return py::array(dtype, dims, {}, data, base);
}

py::object numpy() { return py::module_::import("numpy"); }

// Moves `data` to the heap and returns an array viewing it, freed with the array.
py::array adopt(std::vector<float>&& data, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<float>(std::move(data));
  py::capsule free(owned, [](void* p) { delete static_cast<std::vector<float>*>(p); });
  return py::array_t<float>(shape, owned->data(), free);
}

}  // namespace

FieldShape PixelArray::fieldShape() const {
  FieldShape s;
  s.width = static_cast<int>(shape.back());
  s.height = static_cast<int>(shape[shape.size() - 2]);
  s.depth = dims() == 3 ? static_cast<int>(shape[0]) : 1;
  return s;
}

int arrayDims(const py::handle& obj) {
  py::array a = py::array::ensure(obj);
  return a ? static_cast<int>(a.ndim()) : -1;
}

PixelArray inspectPixels(const py::handle& obj, std::optional<int> channelAxis, const char* what) {
  PixelArray p;
  p.what = what;
  p.array = py::array::ensure(obj);  // an ndarray as it is: no copy, whatever its strides
  if (!p.array) throw InputError(p.what + " must be a NumPy array (or convertible to one).");
  const char kind = p.array.dtype().kind();
  if (kind != 'f' && kind != 'u' && kind != 'i' && kind != 'b')
    throw InputError(p.what + " must hold real numbers, not dtype " +
                     std::string(py::str(p.array.dtype())) + ".");
  const int ndim = static_cast<int>(p.array.ndim());
  if (channelAxis) {
    const int axis = *channelAxis < 0 ? *channelAxis + ndim : *channelAxis;
    if (ndim < 1 || axis < 0 || axis >= ndim)
      throw ParameterError("channel_axis = " + std::to_string(*channelAxis) +
                           " is not an axis of " + p.what + " (shape " + shapeText(p.array) + ").");
    const py::ssize_t n = p.array.shape(axis);
    if (n != 1 && n != 3 && n != 4)
      throw InputError(p.what + " has " + std::to_string(n) + " channels on channel_axis = " +
                       std::to_string(*channelAxis) + " (shape " + shapeText(p.array) +
                       "); gvflab takes 1 (grey), 3 (RGB) or 4 (RGBA, alpha ignored).");
    p.channels = static_cast<int>(n);
    p.array = numpy().attr("moveaxis")(p.array, axis, -1);  // a view
  }
  const int spatial = ndim - (p.channels ? 1 : 0);
  for (int i = 0; i < spatial; ++i) p.shape.push_back(p.array.shape(i));
  return p;
}

void requireGvfSize(const PixelArray& p, bool volumes, const char* call) {
  const auto& s = p.shape;
  if (p.dims() == 2) return checkImageSize(s[1], s[0]);
  if (p.dims() == 3 && volumes) return checkVolumeSize(s[2], s[1], s[0]);
  const std::string channels = p.channels ? " besides its channel axis" : "";
  throw InputError(std::string(call) + " takes " +
                   (volumes ? "a 2D image (rows x cols) or a 3D volume (planes x rows x cols)"
                            : "a 2D image (rows x cols)") +
                   "; " + p.what + " has " + std::to_string(p.dims()) + " dimensions" + channels +
                   " (shape " + shapeText(p.array) + ")" +
                   (p.channels || p.dims() < 2
                        ? "."
                        : ". A colour image needs channel_axis=-1 (scikit-image's convention)."));
}

std::vector<float> greyPixels(const PixelArray& p) {
  std::size_t n = 1;
  for (std::int64_t side : p.shape) n *= static_cast<std::size_t>(side);
  std::vector<float> out(n);
  const py::dtype f32 = py::dtype::of<float>();
  py::array dst = viewOf(out.data(), f32, p.shape);
  py::object np = numpy();
  using namespace pybind11::literals;
  if (p.channels == 0) {
    np.attr("copyto")(dst, p.array, "casting"_a = "unsafe");
  } else if (p.channels == 1) {
    np.attr("copyto")(dst, p.array[py::make_tuple(py::ellipsis(), 0)], "casting"_a = "unsafe");
  } else {
    // out = Σ weight · channel, in float32 (the channels' own type converted on the fly).
    const double weights[3] = {kLumaRed, kLumaGreen, kLumaBlue};
    std::vector<float> term(n);
    py::array termView = viewOf(term.data(), f32, p.shape);
    for (int c = 0; c < 3; ++c) {
      py::object channel = p.array[py::make_tuple(py::ellipsis(), c)];
      np.attr("multiply")(channel, weights[c], "out"_a = c == 0 ? dst : termView, "dtype"_a = f32,
                          "casting"_a = "unsafe");
      if (c > 0) np.attr("add")(dst, termView, "out"_a = dst);
    }
  }
  const char kind = p.array.dtype().kind();
  if (kind == 'u' || kind == 'i') {
    const int bits = 8 * static_cast<int>(p.array.itemsize()) - (kind == 'i' ? 1 : 0);
    const float scale = static_cast<float>(1.0 / (std::ldexp(1.0, bits) - 1.0));
    for (float& v : out) v *= scale;
  }
  return out;
}

Image2D toImage(const PixelArray& p) {
  const FieldShape s = p.fieldShape();
  Image2D image;
  image.width = s.width;
  image.height = s.height;
  image.pixels = greyPixels(p);
  return image;
}

Volume toVolume(const PixelArray& p) {
  const FieldShape s = p.fieldShape();
  Volume volume;
  volume.width = s.width;
  volume.height = s.height;
  volume.depth = s.depth;
  volume.voxels = greyPixels(p);
  return volume;
}

std::optional<std::vector<std::uint16_t>> rawUint16(const PixelArray& p) {
  if (p.channels || !p.array.dtype().is(py::dtype::of<std::uint16_t>())) return std::nullopt;
  std::size_t n = 1;
  for (std::int64_t side : p.shape) n *= static_cast<std::size_t>(side);
  std::vector<std::uint16_t> out(n);
  numpy().attr("copyto")(viewOf(out.data(), py::dtype::of<std::uint16_t>(), p.shape), p.array);
  return out;
}

py::array imageToArray(Image2D&& image) {
  return adopt(std::move(image.pixels), {image.height, image.width});
}

py::array volumeToArray(Volume&& volume) {
  return adopt(std::move(volume.voxels), {volume.depth, volume.height, volume.width});
}

py::array fieldToArray(Field2D&& field) {
  for (std::size_t i = 0; i < field.data.size(); i += 2)
    std::swap(field.data[i], field.data[i + 1]);
  return adopt(std::move(field.data), {field.height, field.width, 2});
}

py::array fieldToArray(Field3D&& field) {
  for (std::size_t i = 0; i < field.data.size(); i += 3)
    std::swap(field.data[i], field.data[i + 2]);
  return adopt(std::move(field.data), {field.depth, field.height, field.width, 3});
}

std::vector<glm::vec2> pointsFromArray(const py::handle& obj, const char* what) {
  auto a = py::array_t<double, py::array::c_style | py::array::forcecast>::ensure(obj);
  if (!a || a.ndim() != 2 || a.shape(1) != 2)
    throw ParameterError(std::string(what) + " must be an N x 2 array of (row, col) points.");
  std::vector<glm::vec2> out;
  out.reserve(a.shape(0));
  for (py::ssize_t i = 0; i < a.shape(0); ++i)
    out.push_back({static_cast<float>(a.at(i, 1) + 0.5), static_cast<float>(a.at(i, 0) + 0.5)});
  return out;
}

py::array_t<double> pointsToArray(const std::vector<glm::vec2>& points) {
  py::array_t<double> out({static_cast<py::ssize_t>(points.size()), py::ssize_t(2)});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < points.size(); ++i) {
    w(i, 0) = double(points[i].y) - 0.5;
    w(i, 1) = double(points[i].x) - 0.5;
  }
  return out;
}

py::array_t<int> nodesToArray(const std::vector<Point2i>& nodes) {
  py::array_t<int> out({static_cast<py::ssize_t>(nodes.size()), py::ssize_t(2)});
  auto w = out.mutable_unchecked<2>();
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    w(i, 0) = nodes[i].y;
    w(i, 1) = nodes[i].x;
  }
  return out;
}

}  // namespace gvflab::python
