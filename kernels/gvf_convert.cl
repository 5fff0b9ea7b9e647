// Moves fields between the float32 interleaved layout of the engine's inputs and outputs
// (float2 in 2D, packed float3 in 3D) and a solver's storage (gvf_storage.clh).
#include "gvf_storage.clh"

#ifdef DIMS3
__kernel void import_field(__global const float* src, FIELD_OUT dst, int width, int height,
                           int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const size_t i = ((size_t)z * height + y) * width + x;
  STORE_V3(dst, x, y, z, width, height, depth, vload3(i, src));
}

__kernel void export_field(FIELD_IN src, __global float* dst, int width, int height, int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const size_t i = ((size_t)z * height + y) * width + x;
  vstore3(LOAD_V3(src, x, y, z, width, height, depth), i, dst);
}
#else
__kernel void import_field(__global const float* src, FIELD_OUT dst, int width, int height,
                           int depth) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  STORE_V2(dst, x, y, width, vload2((size_t)y * width + x, src));
}

__kernel void export_field(FIELD_IN src, __global float* dst, int width, int height, int depth) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  vstore2(LOAD_V2(src, x, y, width), (size_t)y * width + x, dst);
}
#endif
