// One plane of a volume for display: a slice of a scalar volume, or of a packed float3 field
// as the float2 of its two in-plane components, so the 2D renderer draws it unchanged.
// Planes (x fastest in the volume, see field_slice.hpp): axis 0 (axial, z = index) is x by y
// with (vx, vy); axis 1 (coronal, y = index) is x by z with (vx, vz); axis 2 (sagittal,
// x = index) is y by z with (vy, vz). Plane column u, row v; coronal and sagittal rows run
// from the top plane down (z = plane_height - 1 - v, +z up on screen), so their second
// component is -vz.

size_t slice_voxel(int u, int v, int axis, int index, int width, int height, int plane_height) {
  const int x = axis == 2 ? index : u;
  const int y = axis == 0 ? v : axis == 1 ? index : u;
  const int z = axis == 0 ? index : plane_height - 1 - v;
  return ((size_t)z * height + y) * width + x;
}

__kernel void slice_field3(__global const float* field, __global float2* plane, int width,
                           int height, int axis, int index, int plane_width, int plane_height) {
  const int u = get_global_id(0), v = get_global_id(1);
  if (u >= plane_width || v >= plane_height) return;
  const float3 f = vload3(slice_voxel(u, v, axis, index, width, height, plane_height), field);
  plane[(size_t)v * plane_width + u] = axis == 0   ? f.xy
                                       : axis == 1 ? (float2)(f.x, -f.z)
                                                   : (float2)(f.y, -f.z);
}

__kernel void slice_scalar(__global const float* volume, __global float* plane, int width,
                           int height, int axis, int index, int plane_width, int plane_height) {
  const int u = get_global_id(0), v = get_global_id(1);
  if (u >= plane_width || v >= plane_height) return;
  plane[(size_t)v * plane_width + u] =
      volume[slice_voxel(u, v, axis, index, width, height, plane_height)];
}
