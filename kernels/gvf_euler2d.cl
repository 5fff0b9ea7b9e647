// One explicit Euler step of 2D GVF (GVF_STEP2 in gvf_stencil.clh).
// Storage (f32 / f16 / snorm16) and memory (buffer / image) come from gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_euler_step(FIELD_IN v, FIELD_IN v0, FIELD_OUT out, int width, int height,
                             float mu) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  float2 c = LOAD_V2(v, x, y, width);
  float2 lap = laplacian2(v, x, y, width, height, c);
  float2 b = LOAD_V2(v0, x, y, width);
  STORE_V2(out, x, y, width, GVF_STEP2(c, lap, b, dot(b, b), mu));
}

#ifndef MEMORY_IMAGE
// CPUs (PoCL): one work-item per row, so the compiler sees a loop over contiguous pixels and
// vectorises it instead of gathering each item's mirrored x neighbours. Same arithmetic per
// pixel as gvf_euler_step (GVF_LAP2, GVF_STEP2), so the same floats.
#define ROWS2_PIXEL(x, xm, xp)                                                             \
  do {                                                                                     \
    const float2 c = LOAD_V2(v, (x), y, width);                                            \
    const float2 lap = GVF_LAP2(c, LOAD_V2(v, (xm), y, width), LOAD_V2(v, (xp), y, width), \
                                LOAD_V2(v, (x), ym, width), LOAD_V2(v, (x), yp, width));   \
    const float2 b = LOAD_V2(v0, (x), y, width);                                           \
    STORE_V2(out, (x), y, width, GVF_STEP2(c, lap, b, dot(b, b), mu));                     \
  } while (0)

__kernel void gvf_euler_rows(__global const elem_t* restrict v, __global const elem_t* restrict v0,
                             __global elem_t* restrict out, int width, int height, float mu) {
  const int y = get_global_id(0);
  if (y >= height) return;
  const int ym = mirror_index(y - 1, height), yp = mirror_index(y + 1, height);
  ROWS2_PIXEL(0, mirror_index(-1, width), mirror_index(1, width));
  for (int x = 1; x < width - 1; ++x) ROWS2_PIXEL(x, x - 1, x + 1);
  if (width > 1) ROWS2_PIXEL(width - 1, width - 2, mirror_index(width, width));
}
#endif
