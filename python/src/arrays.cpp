#include "arrays.hpp"

#include <cmath>
#include <cstring>
#include <memory>
#include <string>
#include <utility>

#include "gvflab/error.hpp"

namespace py = pybind11;

namespace gvflab::python {
namespace {

using FloatArray = py::array_t<float, py::array::c_style | py::array::forcecast>;

// The array as C-ordered float32 with integer types scaled to [0, 1]; checks ndim.
FloatArray floatPixels(const py::handle& obj, int ndim, const char* what) {
  py::array a = py::array::ensure(obj);
  if (!a) throw InputError(std::string(what) + " must be a NumPy array (or convertible to one).");
  if (a.ndim() != ndim)
    throw InputError(std::string(what) + " must have " + std::to_string(ndim) +
                     " dimensions, not " + std::to_string(a.ndim()) + " (shape " +
                     std::string(py::str(a.attr("shape"))) + ").");
  const char kind = a.dtype().kind();
  if (kind != 'f' && kind != 'u' && kind != 'i' && kind != 'b')
    throw InputError(std::string(what) + " must hold real numbers, not dtype " +
                     std::string(py::str(a.dtype())) + ".");
  FloatArray f = FloatArray::ensure(a);
  if (kind == 'u' || kind == 'i') {
    const int bits = 8 * static_cast<int>(a.itemsize()) - (kind == 'i' ? 1 : 0);
    const double scale = 1.0 / (std::ldexp(1.0, bits) - 1.0);
    f = FloatArray::ensure(py::array(f).attr("__mul__")(py::float_(scale)));
  }
  return f;
}

// Moves `data` to the heap and returns an array viewing it, freed with the array.
py::array adopt(std::vector<float>&& data, std::vector<py::ssize_t> shape) {
  auto* owned = new std::vector<float>(std::move(data));
  py::capsule free(owned, [](void* p) { delete static_cast<std::vector<float>*>(p); });
  return py::array_t<float>(shape, owned->data(), free);
}

}  // namespace

int arrayDims(const py::handle& obj) {
  py::array a = py::array::ensure(obj);
  return a ? static_cast<int>(a.ndim()) : -1;
}

Image2D imageFromArray(const py::handle& obj, const char* what) {
  FloatArray f = floatPixels(obj, 2, what);
  Image2D image;
  image.height = static_cast<int>(f.shape(0));
  image.width = static_cast<int>(f.shape(1));
  image.pixels.assign(f.data(), f.data() + f.size());
  return image;
}

Volume volumeFromArray(const py::handle& obj, const char* what) {
  FloatArray f = floatPixels(obj, 3, what);
  Volume volume;
  volume.depth = static_cast<int>(f.shape(0));
  volume.height = static_cast<int>(f.shape(1));
  volume.width = static_cast<int>(f.shape(2));
  volume.voxels.assign(f.data(), f.data() + f.size());
  return volume;
}

py::array imageToArray(Image2D&& image) {
  return adopt(std::move(image.pixels), {image.height, image.width});
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
