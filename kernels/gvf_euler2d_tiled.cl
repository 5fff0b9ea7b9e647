// Several explicit Euler GVF steps per launch (temporal blocking). Each work-group loads a
// TILE_W x TILE_H tile of V into local memory, advances it `steps` times there and writes back
// only the inner part, HALO pixels in from every tile edge that is not an image border: after
// s <= HALO steps those pixels are exact, since an edge error moves one pixel per step.
// Arithmetic, storage (gvf_storage.clh, buffers only) and boundary rule are those of
// gvf_euler2d.cl, so the result equals `steps` single-step launches.
// Work-group: (TILE_W, TILE_H / ROWS_PER_ITEM); each work-item owns ROWS_PER_ITEM consecutive
// pixels of a column and keeps their V and V0 in registers.
// Two kernels: gvf_euler_steps_tiled (one launch per HALO steps) and, for grids whose tiles
// can all run at once, gvf_euler_steps_persistent (every step of a solver step in one launch).

#include "gvf_storage.clh"
#include "gvf_stencil.clh"

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
#ifndef SPIN_LIMIT
#define SPIN_LIMIT (1 << 23)
#endif
#define INNER_W (TILE_W - 2 * HALO)
#define INNER_H (TILE_H - 2 * HALO)

// The work-item's place in the tile and its neighbours' places, fixed for a launch.
typedef struct {
  int lx, ly0, gx, ox, oy, lxm, lxp;
  int lym[ROWS_PER_ITEM], lyp[ROWS_PER_ITEM];
  bool inside[ROWS_PER_ITEM];  // the pixel lies in the image
  bool inner[ROWS_PER_ITEM];   // ... and in the part of the tile that is written back
} tile_place;

tile_place place_in_tile(int width, int height) {
  tile_place p;
  p.lx = get_local_id(0);
  p.ox = get_group_id(0) * INNER_W - HALO;  // tile origin in the image
  p.oy = get_group_id(1) * INNER_H - HALO;
  p.gx = p.ox + p.lx;
  const bool colInside = p.gx >= 0 && p.gx < width;
  const bool colInner = p.lx >= HALO && p.lx < TILE_W - HALO;
  // Local column of the left/right neighbours after the mirror rule, clamped into the tile
  // (a clamped read only feeds halo pixels that are never written back).
  p.lxm = clamp(mirror_index(p.gx - 1, width) - p.ox, 0, TILE_W - 1);
  p.lxp = clamp(mirror_index(p.gx + 1, width) - p.ox, 0, TILE_W - 1);
  // Each work-item owns ROWS_PER_ITEM consecutive rows of its column: vertical neighbours
  // inside that run come from registers, only the run's ends and the left/right neighbours
  // from local memory (local-memory bandwidth bounds this kernel on GPUs).
  p.ly0 = get_local_id(1) * ROWS_PER_ITEM;
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    const int ly = p.ly0 + r, gy = p.oy + ly;
    p.inside[r] = colInside && gy >= 0 && gy < height;
    p.inner[r] = p.inside[r] && colInner && ly >= HALO && ly < TILE_H - HALO;
    p.lym[r] = clamp(mirror_index(gy - 1, height) - p.oy, 0, TILE_H - 1);
    p.lyp[r] = clamp(mirror_index(gy + 1, height) - p.oy, 0, TILE_H - 1);
  }
  return p;
}

// `steps` Euler steps of the tile on the work-item's rows c (V0 in b).
// The tile holds float values already rounded to the storage format, so every step rounds
// exactly as a single-step launch (which stores and reloads), and reads need no conversion:
// a float2 tile, not the storage format, measured 1.9 -> 1.3 us per iteration at 512² and
// 0.85 -> 0.97 of the copy-speed model at 4096² in f16 on an H200. (Two tiles used in turn, one
// barrier per step, measured no faster there and halve the tile that fits in local memory.)
void tile_steps(const tile_place* p, float2* c, const float2* b, float mu, int steps,
                __local float2* tile) {
  const int lx = p->lx, ly0 = p->ly0;
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
      const float2 up = (r > 0 && p->lym[r] == ly0 + r - 1) ? cr[r > 0 ? r - 1 : 0]
                                                            : tile[p->lym[r] * TILE_W + lx];
      const float2 down = (r < ROWS_PER_ITEM - 1 && p->lyp[r] == ly0 + r + 1)
                              ? cr[r < ROWS_PER_ITEM - 1 ? r + 1 : r]
                              : tile[p->lyp[r] * TILE_W + lx];
      const float2 lap = GVF_LAP2(cr[r], tile[row + p->lxm], tile[row + p->lxp], up, down);
      c[r] = GVF_STEP2(cr[r], lap, b[r], dot(b[r], b[r]), mu);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

void store_inner(const tile_place* p, const float2* c, __global elem_t* out, int width) {
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r)
    if (p->inner[r]) STORE_V2(out, p->gx, p->oy + p->ly0 + r, width, c[r]);
}

__kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H / ROWS_PER_ITEM, 1))) void
gvf_euler_steps_tiled(__global const elem_t* v, __global const elem_t* v0, __global elem_t* out,
                      int width, int height, float mu, int steps) {
  __local float2 tile[TILE_H * TILE_W];
  const tile_place p = place_in_tile(width, height);
  float2 c[ROWS_PER_ITEM], b[ROWS_PER_ITEM];
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r) {
    // Whole-vector loads (LOAD_V2): vload2 may split them.
    c[r] = p.inside[r] ? LOAD_V2(v, p.gx, p.oy + p.ly0 + r, width) : (float2)(0.0f);
    b[r] = p.inside[r] ? LOAD_V2(v0, p.gx, p.oy + p.ly0 + r, width) : (float2)(0.0f);
  }
  tile_steps(&p, c, b, mu, steps, tile);
  store_inner(&p, c, out, width);
}

#include "grid_barrier.clh"

// All `iterations` in one launch (small grids, where a launch costs more than a tile's
// steps): each work-group keeps its tile for the whole launch and advances it HALO steps per
// phase, as gvf_euler_steps_tiled does per launch, with a device-wide barrier between phases.
// Phases read va and write vb in turn (phase 0 reads va). Between phases only the halo is
// reloaded: the inner pixels' values are those the group just stored. V0 is loaded once.
// sync[0] counts arrivals from syncBase on; the result equals single-step launches.
__kernel __attribute__((reqd_work_group_size(TILE_W, TILE_H / ROWS_PER_ITEM, 1))) void
gvf_euler_steps_persistent(__global elem_t* va, __global const elem_t* v0, __global elem_t* vb,
                           int width, int height, float mu, int iterations,
                           volatile __global int* sync, int syncBase) {
  __local float2 tile[TILE_H * TILE_W];
  __local int passed;
  const tile_place p = place_in_tile(width, height);
  const int groups = get_num_groups(0) * get_num_groups(1);
  float2 c[ROWS_PER_ITEM], b[ROWS_PER_ITEM];
#pragma unroll
  for (int r = 0; r < ROWS_PER_ITEM; ++r)
    b[r] = p.inside[r] ? LOAD_V2(v0, p.gx, p.oy + p.ly0 + r, width) : (float2)(0.0f);
  int done = 0;
  for (int phase = 0; done < iterations; ++phase) {
    __global elem_t* src = (phase & 1) ? vb : va;
    __global elem_t* dst = (phase & 1) ? va : vb;
#pragma unroll
    for (int r = 0; r < ROWS_PER_ITEM; ++r)
      if (phase == 0 || !p.inner[r])
        c[r] = p.inside[r] ? LOAD_V2(src, p.gx, p.oy + p.ly0 + r, width) : (float2)(0.0f);
    const int steps = min(HALO, iterations - done);
    tile_steps(&p, c, b, mu, steps, tile);
    store_inner(&p, c, dst, width);
    done += steps;
    if (done < iterations && !grid_barrier(sync, syncBase + groups * (phase + 1), &passed)) return;
  }
}
