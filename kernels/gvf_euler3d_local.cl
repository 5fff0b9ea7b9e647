// One explicit Euler step of 3D GVF with a local-memory tile (the first paper's "shared
// memory" variant, streamed along z). A work-group of TX x TY work-items owns an xy tile
// that includes a one-pixel frame; it walks ZCHUNK planes, keeping the planes below and
// above in registers and the current plane in local memory, so each value of V is read from
// global memory about once. Frame work-items only load. Same arithmetic, storage
// (gvf_storage.clh, buffers) and boundary rule as gvf_euler3d.cl. Build with -DDIMS3.
#include "gvf_storage.clh"

#ifndef TX
#define TX 32
#endif
#ifndef TY
#define TY 16
#endif
#ifndef ZCHUNK
#define ZCHUNK 16
#endif

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void gvf_euler_step3d_local(__global const elem_t* v, __global const elem_t* v0,
                            __global elem_t* out, int width, int height, int depth, float mu) {
  __local float4 plane[TY][TX];
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_group_id(0) * (TX - 2) + lx - 1;
  const int y = get_group_id(1) * (TY - 2) + ly - 1;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  // Frame and out-of-image work-items load the mirrored pixel, so the tile is complete.
  const int sx = mirror_index(x, width), sy = mirror_index(y, height);
  const bool writes = lx > 0 && lx < TX - 1 && ly > 0 && ly < TY - 1 && x < width && y < height;
  const size_t stride = (size_t)width * height;
  const size_t col = (size_t)sy * width + sx;

  float3 below = LOAD3(v, mirror_index(z0 - 1, depth) * stride + col);
  float3 cur = LOAD3(v, z0 * stride + col);
  for (int z = z0; z < z1; ++z) {
    const float3 above = LOAD3(v, mirror_index(z + 1, depth) * stride + col);
    plane[ly][lx] = (float4)(cur, 0.0f);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (writes) {
      // In-plane neighbours: the mirror rule maps x-1 at x == 0 to x+1, which is lx+1.
      const int lxm = x > 0 ? lx - 1 : lx + 1, lxp = x < width - 1 ? lx + 1 : lx - 1;
      const int lym = y > 0 ? ly - 1 : ly + 1, lyp = y < height - 1 ? ly + 1 : ly - 1;
      const float3 lap = plane[ly][lxm].xyz + plane[ly][lxp].xyz + plane[lym][lx].xyz +
                         plane[lyp][lx].xyz + below + above - 6.0f * cur;
      const size_t i = z * stride + col;
      const float3 b = LOAD3(v0, i);
      STORE3(cur + mu * lap - (cur - b) * dot(b, b), out, i);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    below = cur;
    cur = above;
  }
}
