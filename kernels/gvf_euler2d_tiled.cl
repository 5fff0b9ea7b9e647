// Several explicit Euler GVF steps per launch (temporal blocking). Each work-group loads a
// TILE_W x TILE_H tile of V into local memory, advances it `steps` times there and writes back
// only the inner part, HALO pixels in from every tile edge that is not an image border: after
// s <= HALO steps those pixels are exact, since an edge error moves one pixel per step.
// Arithmetic, storage (gvf_storage.clh, buffers only) and boundary rule are those of
// gvf_euler2d.cl, so the result equals `steps` single-step launches.
// Work-group: (TILE_W, TILE_H / ROWS_PER_ITEM); each work-item owns ROWS_PER_ITEM consecutive
// pixels of a column and keeps their V and V0 in registers.

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
  // The tile holds float values already rounded to the storage format, so every step rounds
  // exactly as a single-step launch (which stores and reloads), and reads need no conversion:
  // a float2 tile, not the storage format, measured 1.9 -> 1.3 us per iteration at 512² and
  // 0.85 -> 0.97 of the copy-speed model at 4096² in f16 on an H200. (Two tiles used in turn, one
  // barrier per step, measured no faster there and halve the tile that fits in local memory.)
  __local float2 tile[TILE_H * TILE_W];
  const int lx = get_local_id(0);
  const int ox = get_group_id(0) * INNER_W - HALO;  // tile origin in the image
  const int oy = get_group_id(1) * INNER_H - HALO;
  const int gx = ox + lx;
  const bool colInside = gx >= 0 && gx < width;
  // Local column of the left/right neighbours after the mirror rule, clamped into the tile
  // (a clamped read only feeds halo pixels that are never written back).
  const int lxm = clamp(mirror_index(gx - 1, width) - ox, 0, TILE_W - 1);
  const int lxp = clamp(mirror_index(gx + 1, width) - ox, 0, TILE_W - 1);

  // Each work-item owns ROWS_PER_ITEM consecutive rows of its column: vertical neighbours
  // inside that run come from registers, only the run's ends and the left/right neighbours
  // from local memory (local-memory bandwidth bounds this kernel on GPUs).
  const int ly0 = get_local_id(1) * ROWS_PER_ITEM;
  float2 c[ROWS_PER_ITEM], b[ROWS_PER_ITEM];
  int lym[ROWS_PER_ITEM], lyp[ROWS_PER_ITEM];
  bool inside[ROWS_PER_ITEM];
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    const int gy = oy + ly0 + r;
    inside[r] = colInside && gy >= 0 && gy < height;
    lym[r] = clamp(mirror_index(gy - 1, height) - oy, 0, TILE_H - 1);
    lyp[r] = clamp(mirror_index(gy + 1, height) - oy, 0, TILE_H - 1);
    // Whole-vector loads (LOAD_V2): vload2 may split them.
    c[r] = inside[r] ? LOAD_V2(v, gx, gy, width) : (float2)(0.0f);
    b[r] = inside[r] ? LOAD_V2(v0, gx, gy, width) : (float2)(0.0f);
  }

  for (int s = 0; s < steps; ++s) {
    // Round the own values as a single-step launch would store and reload them.
    float2 cr[ROWS_PER_ITEM];
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
      cr[r] = round_to_storage2(c[r]);
      tile[(ly0 + r) * TILE_W + lx] = cr[r];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
      const int row = (ly0 + r) * TILE_W;
      const float2 up = (r > 0 && lym[r] == ly0 + r - 1) ? cr[r > 0 ? r - 1 : 0]
                                                         : tile[lym[r] * TILE_W + lx];
      const float2 down = (r < ROWS_PER_ITEM - 1 && lyp[r] == ly0 + r + 1)
                              ? cr[r < ROWS_PER_ITEM - 1 ? r + 1 : r]
                              : tile[lyp[r] * TILE_W + lx];
      const float2 lap = tile[row + lxm] + tile[row + lxp] + up + down - 4.0f * cr[r];
      c[r] = cr[r] + mu * lap - (cr[r] - b[r]) * dot(b[r], b[r]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }

  const bool colInner = lx >= HALO && lx < TILE_W - HALO;
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r)
    if (inside[r] && colInner && ly0 + r >= HALO && ly0 + r < TILE_H - HALO)
      STORE_V2(out, gx, oy + ly0 + r, width, c[r]);
}
