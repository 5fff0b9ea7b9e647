#include "gvflab/slice_reference.hpp"

#include <array>

#include "gvflab/error.hpp"

namespace gvflab::reference {
namespace {

// Volume coordinates (x, y, z) of plane pixel (u, v), written out per axis on purpose: the
// kernel folds them into one index expression, this spells the planes' definitions.
// Coronal and sagittal rows run down from the top plane (+z up).
std::array<int, 3> voxelOf(SliceAxis axis, int index, int u, int v, int depth) {
  if (axis == SliceAxis::Axial) return {u, v, index};
  if (axis == SliceAxis::Coronal) return {u, index, depth - 1 - v};
  return {index, u, depth - 1 - v};
}

// Checks the index, then calls copy(plane pixel, volume voxel) for every pixel of the plane.
template <class T, class Copy>
void eachPixel(const T& volume, SliceAxis axis, int index, Copy copy) {
  if (index < 0 || index >= sliceCount(volume.width, volume.height, volume.depth, axis))
    throw ParameterError("reference slice index out of range");
  const PlaneSize p = planeSize(volume.width, volume.height, volume.depth, axis);
  for (int v = 0; v < p.height; ++v)
    for (int u = 0; u < p.width; ++u) {
      auto [x, y, z] = voxelOf(axis, index, u, v, volume.depth);
      copy(static_cast<std::size_t>(v) * p.width + u,
           (static_cast<std::size_t>(z) * volume.height + y) * volume.width + x);
    }
}

}  // namespace

Grid sliceGrid(const Grid& volume, SliceAxis axis, int index) {
  const PlaneSize p = planeSize(volume.width, volume.height, volume.depth, axis);
  Grid out{p.width, p.height, std::vector<double>(static_cast<std::size_t>(p.width) * p.height)};
  eachPixel(volume, axis, index,
            [&](std::size_t dst, std::size_t src) { out.values[dst] = volume.values[src]; });
  return out;
}

Field sliceField(const Field& field, SliceAxis axis, int index) {
  const PlaneSize p = planeSize(field.width, field.height, field.depth, axis);
  // Which of (vx, vy, vz) lie along the plane's columns and rows; rows along -z flip vz.
  const std::array<int, 2> comp = axis == SliceAxis::Axial     ? std::array<int, 2>{0, 1}
                                  : axis == SliceAxis::Coronal ? std::array<int, 2>{0, 2}
                                                               : std::array<int, 2>{1, 2};
  Field out{p.width, p.height,
            std::vector<double>(2 * static_cast<std::size_t>(p.width) * p.height)};
  eachPixel(field, axis, index, [&](std::size_t dst, std::size_t src) {
    out.values[2 * dst] = field.values[3 * src + comp[0]];
    out.values[2 * dst + 1] = (comp[1] == 2 ? -1.0 : 1.0) * field.values[3 * src + comp[1]];
  });
  return out;
}

}  // namespace gvflab::reference
