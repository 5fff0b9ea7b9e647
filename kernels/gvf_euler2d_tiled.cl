// Several explicit Euler GVF steps per launch (temporal blocking). Each work-group loads a
// TILE_W x TILE_H tile of V into local memory, advances it `steps` times there and writes back
// only the inner part, HALO pixels in from every tile edge that is not an image border: after
// s <= HALO steps those pixels are exact, since an edge error moves one pixel per step.
// Arithmetic, storage (gvf_storage.clh, buffers only) and boundary rule are those of
// gvf_euler2d.cl, so the result equals `steps` single-step launches.
// Work-group: (TILE_W, TILE_H / ROWS_PER_ITEM); each work-item owns ROWS_PER_ITEM pixels of a
// column and keeps their V and V0 in registers.

#include "gvf_storage.clh"

#ifndef TILE_W
#define TILE_W 64
#endif
#ifndef TILE_H
#define TILE_H 32
#endif
#ifndef ROWS_PER_ITEM
#define ROWS_PER_ITEM 8
#endif
#ifndef HALO
#define HALO 4
#endif
#define INNER_W (TILE_W - 2 * HALO)
#define INNER_H (TILE_H - 2 * HALO)

__kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H / ROWS_PER_ITEM, 1)))
void gvf_euler_steps_tiled(__global const elem_t* v, __global const elem_t* v0,
                           __global elem_t* out, int width, int height, float mu, int steps) {
  // The tile holds the storage format, so every step rounds exactly as a single-step launch.
  __local elem_raw_t tile_raw[2 * TILE_H * TILE_W];
  __local elem_t* tile = (__local elem_t*)tile_raw;
  const int lx = get_local_id(0);
  const int ox = get_group_id(0) * INNER_W - HALO;  // tile origin in the image
  const int oy = get_group_id(1) * INNER_H - HALO;
  const int gx = ox + lx;
  const bool colInside = gx >= 0 && gx < width;
  // Local column of the left/right neighbours after the mirror rule, clamped into the tile
  // (a clamped read only feeds halo pixels that are never written back).
  const int lxm = clamp(mirror_index(gx - 1, width) - ox, 0, TILE_W - 1);
  const int lxp = clamp(mirror_index(gx + 1, width) - ox, 0, TILE_W - 1);

  float2 c[ROWS_PER_ITEM], b[ROWS_PER_ITEM];
  int ly[ROWS_PER_ITEM], lym[ROWS_PER_ITEM], lyp[ROWS_PER_ITEM];
  bool inside[ROWS_PER_ITEM];
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    ly[r] = get_local_id(1) + r * (TILE_H / ROWS_PER_ITEM);
    const int gy = oy + ly[r];
    inside[r] = colInside && gy >= 0 && gy < height;
    lym[r] = clamp(mirror_index(gy - 1, height) - oy, 0, TILE_H - 1);
    lyp[r] = clamp(mirror_index(gy + 1, height) - oy, 0, TILE_H - 1);
    const size_t i = inside[r] ? (size_t)gy * width + gx : 0;
    c[r] = inside[r] ? LOAD2(v, i) : (float2)(0.0f);
    b[r] = inside[r] ? LOAD2(v0, i) : (float2)(0.0f);
  }

  for (int s = 0; s < steps; ++s) {
    for (int r = 0; r < ROWS_PER_ITEM; ++r) STORE2(c[r], tile, ly[r] * TILE_W + lx);
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int r = 0; r < ROWS_PER_ITEM; ++r) {
      const float2 cr = LOAD2(tile, ly[r] * TILE_W + lx);
      const float2 lap = LOAD2(tile, ly[r] * TILE_W + lxm) + LOAD2(tile, ly[r] * TILE_W + lxp) +
                         LOAD2(tile, lym[r] * TILE_W + lx) + LOAD2(tile, lyp[r] * TILE_W + lx) -
                         4.0f * cr;
      c[r] = cr + mu * lap - (cr - b[r]) * dot(b[r], b[r]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  const bool colInner = lx >= HALO && lx < TILE_W - HALO;
  for (int r = 0; r < ROWS_PER_ITEM; ++r)
    if (inside[r] && colInner && ly[r] >= HALO && ly[r] < TILE_H - HALO)
      STORE2(c[r], out, (size_t)(oy + ly[r]) * width + gx);
}
