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

void check(int w, int h, int d, SliceAxis axis, int index) {
  if (index < 0 || index >= sliceCount(w, h, d, axis))
    throw ParameterError("reference slice index out of range");
}

}  // namespace

Grid sliceGrid(const Grid& volume, SliceAxis axis, int index) {
  check(volume.width, volume.height, volume.depth, axis, index);
  const PlaneSize p = planeSize(volume.width, volume.height, volume.depth, axis);
  Grid out{p.width, p.height, std::vector<double>(static_cast<std::size_t>(p.width) * p.height)};
  for (int v = 0; v < p.height; ++v)
    for (int u = 0; u < p.width; ++u) {
      auto [x, y, z] = voxelOf(axis, index, u, v, volume.depth);
      out.values[static_cast<std::size_t>(v) * p.width + u] =
          volume.values[(static_cast<std::size_t>(z) * volume.height + y) * volume.width + x];
    }
  return out;
}

Field sliceField(const Field& field, SliceAxis axis, int index) {
  check(field.width, field.height, field.depth, axis, index);
  const PlaneSize p = planeSize(field.width, field.height, field.depth, axis);
  // Which of (vx, vy, vz) lie along the plane's columns and rows; rows along -z flip vz.
  const std::array<int, 2> comp = axis == SliceAxis::Axial     ? std::array<int, 2>{0, 1}
                                  : axis == SliceAxis::Coronal ? std::array<int, 2>{0, 2}
                                                               : std::array<int, 2>{1, 2};
  Field out{p.width, p.height,
            std::vector<double>(2 * static_cast<std::size_t>(p.width) * p.height)};
  for (int v = 0; v < p.height; ++v)
    for (int u = 0; u < p.width; ++u) {
      auto [x, y, z] = voxelOf(axis, index, u, v, field.depth);
      const std::size_t src = (static_cast<std::size_t>(z) * field.height + y) * field.width + x;
      const std::size_t dst = static_cast<std::size_t>(v) * p.width + u;
      out.values[2 * dst] = field.values[3 * src + comp[0]];
      out.values[2 * dst + 1] = (comp[1] == 2 ? -1.0 : 1.0) * field.values[3 * src + comp[1]];
    }
  return out;
}

}  // namespace gvflab::reference
