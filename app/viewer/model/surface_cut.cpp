#include "viewer/model/surface_cut.hpp"

namespace gvflab::viewer {
namespace {
int acrossAxis(SliceAxis axis) {  // the voxel coordinate that is constant on the slice
  return axis == SliceAxis::Axial ? 2 : axis == SliceAxis::Coronal ? 1 : 0;
}
}  // namespace

glm::dvec3 sliceToVoxel(SliceAxis axis, int index, glm::vec2 p, int depth) {
  const double c = index + 0.5, z = depth - static_cast<double>(p.y);
  switch (axis) {
    case SliceAxis::Axial:
      return {p.x, p.y, c};
    case SliceAxis::Coronal:
      return {p.x, c, z};
    case SliceAxis::Sagittal:
      break;
  }
  return {c, p.x, z};
}

glm::vec2 voxelToSlice(SliceAxis axis, const glm::vec3& v, int depth) {
  const float row = static_cast<float>(depth) - v.z;
  switch (axis) {
    case SliceAxis::Axial:
      return {v.x, v.y};
    case SliceAxis::Coronal:
      return {v.x, row};
    case SliceAxis::Sagittal:
      break;
  }
  return {v.y, row};
}

std::vector<glm::vec2> sliceCut(const SurfaceMesh& mesh, SliceAxis axis, int index, int depth) {
  std::vector<glm::vec2> out;
  const int k = acrossAxis(axis);
  const float plane = static_cast<float>(index) + 0.5f;
  for (const glm::uvec3& f : mesh.faces) {
    const glm::vec3 p[3] = {mesh.vertices[f.x], mesh.vertices[f.y], mesh.vertices[f.z]};
    // Signed distances; a vertex exactly on the plane counts as above, so each crossing
    // triangle gives exactly two points.
    float d[3];
    for (int i = 0; i < 3; ++i) d[i] = p[i][k] - plane;
    glm::vec2 ends[2];
    int n = 0;
    for (int i = 0; i < 3 && n < 2; ++i) {
      const int j = (i + 1) % 3;
      if ((d[i] < 0) != (d[j] < 0)) {
        const float t = d[i] / (d[i] - d[j]);
        ends[n++] = voxelToSlice(axis, p[i] + t * (p[j] - p[i]), depth);
      }
    }
    if (n == 2) out.push_back(ends[0]), out.push_back(ends[1]);
  }
  return out;
}

}  // namespace gvflab::viewer
