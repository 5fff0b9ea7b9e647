// The 2D Euler tiles of gvf_euler2d_tiled.cl with blocks of COLS_PER_ITEM x ROWS_PER_ITEM
// pixels per work-item (TileShape::colsPerItem > 1): the block's x and y neighbours come from
// registers, and only its outer columns and its first and last rows go through local memory
// (about half the local accesses of one column per work-item at 2 columns, 4 rows).
// The tile's columns outside the image hold the mirrored columns (reflect_index: column -1 is
// column 1): the x neighbour pair is summed first, in either order the same float, so a
// mirrored column steps to exactly the column it mirrors and no column needs the boundary
// rule. Rows keep it (the pair order of the y neighbours is not symmetric), with registers for
// the common case: a tile that holds neither the first nor the last image row uses no rule.
// Same arithmetic and same floats as gvf_euler2d_tiled.cl (tests); same arguments, kernels
// gvf_euler_steps_wide and gvf_euler_steps_wide_persistent. Local columns are stored by
// position in the block first, (x % K) * (TILE_W / K) + x / K, so a warp's accesses to one
// column of its blocks are contiguous.

#include "gvf_storage.clh"
#include "gvf_stencil.clh"

#ifndef TILE_W
#define TILE_W 64
#endif
#ifndef TILE_H
#define TILE_H 32
#endif
#ifndef ROWS_PER_ITEM
#define ROWS_PER_ITEM 4
#endif
#ifndef COLS_PER_ITEM
#define COLS_PER_ITEM 2
#endif
#ifndef HALO
#define HALO 4
#endif
#ifndef SPIN_LIMIT
#define SPIN_LIMIT (1 << 23)
#endif
#define R ROWS_PER_ITEM
#define K COLS_PER_ITEM
#define ITEMS_W (TILE_W / K)
#define NPTS (R * K)

#include "grid_barrier.clh"

// Local index of tile column x (0 <= x < TILE_W) in row ly.
#define LCOL(x) (((x) % K) * ITEMS_W + (x) / K)
#define LIDX(ly, x) ((ly)*TILE_W + LCOL(x))

typedef struct {
  int ix, ly0, ox, oy, x0;
  int fx[K];           // image column each block column loads (reflected)
  int fy[R];           // image row each block row loads (reflected)
  int lym[R], lyp[R];  // local rows of the y neighbours under the boundary rule
  bool inner[R * K];   // written back
  bool plain;          // no image border row in the tile: y neighbours are ly -+ 1
} block_place;

block_place place_block(int width, int height) {
  block_place p;
  p.ix = get_local_id(0);
  p.x0 = p.ix * K;
  p.ly0 = get_local_id(1) * R;
  p.ox = get_group_id(0) * (TILE_W - 2 * HALO) - HALO;
  p.oy = get_group_id(1) * (TILE_H - 2 * HALO) - HALO;
  p.plain = p.oy >= 1 && p.oy + TILE_H <= height - 1;
#pragma unroll
  for (int k = 0; k < K; ++k) p.fx[k] = reflect_index(p.ox + p.x0 + k, width);
#pragma unroll
  for (int r = 0; r < R; ++r) {
    const int ly = p.ly0 + r, gy = p.oy + ly;
    p.fy[r] = reflect_index(gy, height);
    p.lym[r] = clamp(mirror_index(gy - 1, height) - p.oy, 0, TILE_H - 1);
    p.lyp[r] = clamp(mirror_index(gy + 1, height) - p.oy, 0, TILE_H - 1);
    const bool rowInner = gy >= 0 && gy < height && ly >= HALO && ly < TILE_H - HALO;
#pragma unroll
    for (int k = 0; k < K; ++k) {
      const int lx = p.x0 + k, gx = p.ox + lx;
      p.inner[r * K + k] = rowInner && gx >= 0 && gx < width && lx >= HALO && lx < TILE_W - HALO;
    }
  }
  return p;
}

// y neighbour of block row r, column k, under the boundary rule: a row of the block from
// registers, another block's first or last row from the tile.
float2 y_neighbour(const block_place* p, const float2* cr, __local const float2* tile, int r, int k,
                   int ly) {
  const int own = p->ly0 + r;
  if (r > 0 && ly == own - 1) return cr[(r > 0 ? r - 1 : 0) * K + k];
  if (r < R - 1 && ly == own + 1) return cr[(r < R - 1 ? r + 1 : r) * K + k];
  if (ly == own) return cr[r * K + k];
  return tile[LIDX(ly, p->x0 + k)];
}

void block_steps(const block_place* p, float2* c, const float2* b, float mu, int steps,
                 __local float2* tile, bool plain) {
  const int x0 = p->x0, ly0 = p->ly0;
  const int xl = max(x0 - 1, 0), xr = min(x0 + K, TILE_W - 1);
  for (int s = 0; s < steps; ++s) {
    float2 cr[NPTS];
#pragma unroll
    for (int r = 0; r < R; ++r) {
#pragma unroll
      for (int k = 0; k < K; ++k) {
        cr[r * K + k] = round_to_storage2(c[r * K + k]);
        // Other blocks read the outer columns and the first and last rows.
        if (k == 0 || k == K - 1 || r == 0 || r == R - 1)
          tile[LIDX(ly0 + r, x0 + k)] = cr[r * K + k];
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int r = 0; r < R; ++r) {
      const int ly = ly0 + r;
      const float2 left = tile[LIDX(ly, xl)], right = tile[LIDX(ly, xr)];
#pragma unroll
      for (int k = 0; k < K; ++k) {
        const float2 l = k == 0 ? left : cr[r * K + (k > 0 ? k - 1 : 0)];
        const float2 rt = k == K - 1 ? right : cr[r * K + (k < K - 1 ? k + 1 : k)];
        float2 up, down;
        if (plain) {
          up = r > 0 ? cr[(r > 0 ? r - 1 : 0) * K + k] : tile[LIDX(max(ly - 1, 0), x0 + k)];
          down = r < R - 1 ? cr[(r < R - 1 ? r + 1 : r) * K + k]
                           : tile[LIDX(min(ly + 1, TILE_H - 1), x0 + k)];
        } else {
          up = y_neighbour(p, cr, tile, r, k, p->lym[r]);
          down = y_neighbour(p, cr, tile, r, k, p->lyp[r]);
        }
        const float2 cc = cr[r * K + k], bb = b[r * K + k];
        const float2 lap = GVF_LAP2(cc, l, rt, up, down);
        c[r * K + k] = GVF_STEP2(cc, lap, bb, dot(bb, bb), mu);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
}

// The uniform choice of a group's y rule, made once so that each loop is compiled for it.
void run_steps(const block_place* p, float2* c, const float2* b, float mu, int steps,
               __local float2* tile) {
  if (p->plain)
    block_steps(p, c, b, mu, steps, tile, true);
  else
    block_steps(p, c, b, mu, steps, tile, false);
}

void load_block(const block_place* p, __global const elem_t* f, float2* c, bool onlyOuter,
                int width) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (!onlyOuter || !p->inner[r * K + k]) c[r * K + k] = LOAD_V2(f, p->fx[k], p->fy[r], width);
}

void store_block(const block_place* p, const float2* c, __global elem_t* out, int width) {
#pragma unroll
  for (int r = 0; r < R; ++r)
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (p->inner[r * K + k]) STORE_V2(out, p->fx[k], p->fy[r], width, c[r * K + k]);
}

__kernel __attribute__((reqd_work_group_size(ITEMS_W, TILE_H / R, 1))) void gvf_euler_steps_wide(
    __global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
    int height, float mu, int steps) {
  __local float2 tile[TILE_H * TILE_W];
  const block_place p = place_block(width, height);
  float2 c[NPTS], b[NPTS];
  load_block(&p, v, c, false, width);
  load_block(&p, v0, b, false, width);
  run_steps(&p, c, b, mu, steps, tile);
  store_block(&p, c, out, width);
}

// gvf_euler2d_tiled.cl's one-launch kernel with these blocks.
__kernel __attribute__((reqd_work_group_size(ITEMS_W, TILE_H / R, 1))) void
gvf_euler_steps_wide_persistent(__global elem_t* va, __global const elem_t* v0, __global elem_t* vb,
                                int width, int height, float mu, int iterations,
                                volatile __global int* sync, int syncBase) {
  __local float2 tile[TILE_H * TILE_W];
  __local int passed;
  const block_place p = place_block(width, height);
  const int groups = get_num_groups(0) * get_num_groups(1);
  float2 c[NPTS], b[NPTS];
  load_block(&p, v0, b, false, width);
  int done = 0;
  for (int phase = 0; done < iterations; ++phase) {
    __global elem_t* src = (phase & 1) ? vb : va;
    __global elem_t* dst = (phase & 1) ? va : vb;
    load_block(&p, src, c, phase != 0, width);
    const int steps = min(HALO, iterations - done);
    run_steps(&p, c, b, mu, steps, tile);
    store_block(&p, c, dst, width);
    done += steps;
    if (done < iterations && !grid_barrier(sync, syncBase + groups * (phase + 1), &passed)) return;
  }
}
