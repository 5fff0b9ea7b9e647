// One explicit Euler step of 3D GVF in f16 storage, in the half arithmetic of the pair tiles
// (half_pairs.clh). Build options: -DSTORAGE_F16 -DDIMS3, HALF2_PTX as the pair tiles have it.
#include "gvf_storage.clh"

#include "half_pairs.clh"

// One step, a work-item a voxel, in the same half arithmetic (each value in both halves of its
// word), so that an odd last step, or steps taken one at a time, give the values two-step
// launches give, bit for bit. Neighbours as gvf_euler_step3d takes them (mirror_index).
__kernel void gvf_euler_step3d_h2(__global const elem_t* v, __global const elem_t* v0,
                                  __global elem_t* out, int width, int height, int depth,
                                  float mu) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  typedef __global const elem_raw_t* raw_ptr;
  const raw_ptr vr = (raw_ptr)v, br = (raw_ptr)v0;
  __global elem_raw_t* const o = (__global elem_raw_t*)out;
  const size_t n = (size_t)width * height * depth, row = (size_t)width;
  const size_t plane = row * height, i = (size_t)z * plane + (size_t)y * row + x;
  const size_t ixm = i - x + mirror_index(x - 1, width), ixp = i - x + mirror_index(x + 1, width);
  const size_t iym = i - (size_t)y * row + (size_t)mirror_index(y - 1, height) * row;
  const size_t iyp = i - (size_t)y * row + (size_t)mirror_index(y + 1, height) * row;
  const size_t izm = i - (size_t)z * plane + (size_t)mirror_index(z - 1, depth) * plane;
  const size_t izp = i - (size_t)z * plane + (size_t)mirror_index(z + 1, depth) * plane;
  const h2 mu2 = h2_pack((float2)(mu)), minus6 = h2_pack((float2)(-6.0f));
#define BOTH(p, at) h2_of((p)[at], (p)[at])
  h2 b[3];
  for (int c = 0; c < 3; ++c) b[c] = BOTH(br, c * n + i);
  const h2 bb = h2_fma(b[0], b[0], h2_fma(b[1], b[1], h2_mul(b[2], b[2])));
  const h2 nbb = bb ^ 0x80008000u;
  for (int c = 0; c < 3; ++c) {
    const size_t k = c * n;
    const h2 sx = h2_add(BOTH(vr, k + ixm), BOTH(vr, k + ixp));
    const h2 sy = h2_add(BOTH(vr, k + iym), BOTH(vr, k + iyp));
    const h2 sz = h2_add(BOTH(vr, k + izm), BOTH(vr, k + izp));
    const h2 s = h2_add(h2_add(sx, sy), sz);
    o[k + i] = (ushort)h2_step(BOTH(vr, k + i), s, nbb, h2_mul(b[c], bb), mu2, minus6);
  }
#undef BOTH
}
