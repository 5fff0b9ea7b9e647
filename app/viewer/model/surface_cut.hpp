#pragma once
// Where a 3D surface meets the slice on screen, and where a point of that slice lies in the
// volume: the slice view draws each surface's cut as line segments, and a surface is placed
// by its centre on the slice. Slices follow gvflab::volumeSlice: axial (u, v) = (x, y) at
// z = index, coronal (x, depth - z) at y = index, sagittal (y, depth - z) at x = index (+z up);
// the slice's plane runs through its voxels' centres (index + 0.5), voxel coordinates as
// surface_mesh.hpp's; depth is the volume's.
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <vector>

#include "gvflab/field_slice.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab::viewer {

// The point p of slice (axis, index), in its image pixels, in voxel coordinates.
glm::dvec3 sliceToVoxel(SliceAxis axis, int index, glm::vec2 p, int depth);
// A voxel point's place on slices across `axis` (its image pixels).
glm::vec2 voxelToSlice(SliceAxis axis, const glm::vec3& v, int depth);

// The mesh's cut with slice (axis, index): pairs of points (segment ends) in the slice's image
// pixels, one pair per triangle that crosses the plane.
std::vector<glm::vec2> sliceCut(const SurfaceMesh& mesh, SliceAxis axis, int index, int depth);

}  // namespace gvflab::viewer
