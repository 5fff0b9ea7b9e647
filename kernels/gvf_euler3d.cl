// One explicit Euler step of 3D GVF (first paper, Alg. 2), unit time step:
//   V <- V + mu * lap(V) - (V - V0) |V0|^2   with the 7-point Laplacian,
// in the arithmetic of gvf_step3 (gvf_stencil.clh), which the tiled kernel shares.
// Build with -DDIMS3; storage and memory from gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_euler_step3d(FIELD_IN v, FIELD_IN v0, FIELD_OUT out, int width, int height,
                               int depth, float mu) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const float3 c = LOAD_V3(v, x, y, z, width, height, depth);
  const float3 s = neighbour_sum3(v, x, y, z, width, height, depth);
  const float3 b = LOAD_V3(v0, x, y, z, width, height, depth);
  const float k0 = gvf_k0_3(mu);
  STORE_V3(out, x, y, z, width, height, depth, gvf_step3(c, s, gvf_k3(b, k0), gvf_cb3(b), mu));
}

#ifndef MEMORY_IMAGE
// CPUs (PoCL): one work-item per row of x, so the compiler sees a loop over contiguous voxels
// and vectorises it (PoCL runs a work-group's items as a loop and, with one voxel per item,
// the x neighbours' mirrored indices become gathers). The border voxels of the row take the
// mirrored neighbour; the interior loop needs none. Same arithmetic per voxel as
// gvf_euler_step3d (neighbour_sum3's pairs, gvf_step3), so the same floats.
#define ROWS3_VOXEL(x, xm, xp)                                                    \
  do {                                                                            \
    const float3 c = LOAD3(v, r + (x), n);                                        \
    const float3 s = LAP_PAIRS3(LOAD3(v, r + (xm), n) + LOAD3(v, r + (xp), n),    \
                                LOAD3(v, rym + (x), n) + LOAD3(v, ryp + (x), n),  \
                                LOAD3(v, rzm + (x), n) + LOAD3(v, rzp + (x), n)); \
    const float3 b = LOAD3(v0, r + (x), n);                                       \
    STORE3(gvf_step3(c, s, gvf_k3(b, k0), gvf_cb3(b), mu), out, r + (x), n);      \
  } while (0)

__kernel void gvf_euler_rows3d(__global const elem_t* restrict v,
                               __global const elem_t* restrict v0, __global elem_t* restrict out,
                               int width, int height, int depth, float mu) {
  const int y = get_global_id(0), z = get_global_id(1);
  if (y >= height || z >= depth) return;
  const size_t n = (size_t)width * height * depth;
  const size_t r = ((size_t)z * height + y) * width;
  const size_t rym = ((size_t)z * height + mirror_index(y - 1, height)) * width;
  const size_t ryp = ((size_t)z * height + mirror_index(y + 1, height)) * width;
  const size_t rzm = ((size_t)mirror_index(z - 1, depth) * height + y) * width;
  const size_t rzp = ((size_t)mirror_index(z + 1, depth) * height + y) * width;
  const float k0 = gvf_k0_3(mu);
  ROWS3_VOXEL(0, mirror_index(-1, width), mirror_index(1, width));
  for (int x = 1; x < width - 1; ++x) ROWS3_VOXEL(x, x - 1, x + 1);
  if (width > 1) ROWS3_VOXEL(width - 1, width - 2, mirror_index(width, width));
}
#endif
