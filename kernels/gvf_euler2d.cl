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

// CPUs (PoCL), temporal blocking: a work-item owns `band` rows and runs `steps` iterations over
// them, each level into its own region of `scratch` (two levels of band + 2 * max steps rows,
// used in turn), so the field is read and written once per `steps` iterations while the band's
// rows stay in cache. Step s computes the band widened by steps - s rows on each side (clipped
// to the grid) from step s - 1's rows: the same mirrored borders and the same arithmetic per
// pixel as gvf_euler_rows (GVF_LAP2, GVF_STEP2), so the same floats.
void band_row(__global const elem_t* restrict src, __global const elem_t* restrict up,
              __global const elem_t* restrict dn, __global const elem_t* restrict b0,
              __global elem_t* restrict dst, __global float* restrict bb, int width, float mu) {
#define BAND_PIXEL(x, xm, xp)                                                          \
  do {                                                                                 \
    const float2 c = LOAD_V2(src, (x), 0, 0);                                          \
    const float2 lap = GVF_LAP2(c, LOAD_V2(src, (xm), 0, 0), LOAD_V2(src, (xp), 0, 0), \
                                LOAD_V2(up, (x), 0, 0), LOAD_V2(dn, (x), 0, 0));       \
    const float2 b = LOAD_V2(b0, (x), 0, 0);                                           \
    STORE_V2(dst, (x), 0, 0, GVF_STEP2(c, lap, b, dot(b, b), mu));                     \
  } while (0)
  BAND_PIXEL(0, mirror_index(-1, width), mirror_index(1, width));
  // The interior as a loop over scalar components, which the compiler vectorises (it leaves
  // loops of float2 alone); |b|^2 by dot() first, so each component gets the same floats.
  for (int x = 1; x < width - 1; ++x) {
    const float2 b = LOAD_V2(b0, x, 0, 0);
    bb[x] = dot(b, b);
  }
  for (int i = 2; i < 2 * width - 2; ++i) {
    const float c = LOAD1(src, i);
    const float lap = GVF_LAP2(c, LOAD1(src, i - 2), LOAD1(src, i + 2), LOAD1(up, i), LOAD1(dn, i));
    const float b = LOAD1(b0, i);
    STORE1(GVF_STEP2(c, lap, b, bb[i >> 1], mu), dst, i);
  }
  if (width > 1) BAND_PIXEL(width - 1, width - 2, mirror_index(width, width));
#undef BAND_PIXEL
}

__kernel void gvf_euler_band(__global const elem_t* restrict v, __global const elem_t* restrict v0,
                             __global elem_t* restrict out, int width, int height, float mu,
                             int steps, int band, __global elem_t* restrict scratch,
                             int scratch_rows) {
  const int g = get_global_id(0);
  const int y0 = g * band;
  if (y0 >= height) return;
  const int y1 = min(y0 + band, height);
  const size_t row = 2 * (size_t)width;  // elements per row (two interleaved components)
  const int base = y0 - steps;           // the grid row of each level's scratch row 0
  __global elem_t* level0 = scratch + (size_t)g * (2 * scratch_rows + 1) * row;
  __global elem_t* level1 = level0 + (size_t)scratch_rows * row;
  // One more row of scratch holds a row's |b|^2 in floats (a row is at least 4 * width bytes).
  __global float* bb = (__global float*)(level1 + (size_t)scratch_rows * row);
  for (int s = 1; s <= steps; ++s) {
    const int lo = max(0, y0 - (steps - s)), hi = min(height, y1 + (steps - s));
    __global const elem_t* from = s == 1 ? v : ((s - 1) & 1 ? level1 : level0);
    const int from_base = s == 1 ? 0 : base;
    __global elem_t* to = s == steps ? out : (s & 1 ? level1 : level0);
    const int to_base = s == steps ? 0 : base;
    for (int y = lo; y < hi; ++y) {
      const int ym = mirror_index(y - 1, height), yp = mirror_index(y + 1, height);
      band_row(from + (size_t)(y - from_base) * row, from + (size_t)(ym - from_base) * row,
               from + (size_t)(yp - from_base) * row, v0 + (size_t)y * row,
               to + (size_t)(y - to_base) * row, bb, width, mu);
    }
  }
}
#endif
