// STEPS explicit Euler steps of 3D GVF per launch (temporal blocking, streamed along z): the
// two-step tile of gvf_euler3d_tiled.cl carried to 3 or 4 steps, so the field is read and
// written once per STEPS iterations instead of once per two.
// A work-group owns a TX x TY tile of columns with a frame of STEPS voxels and walks a chunk
// of ZCHUNK planes; each work-item owns ROWS consecutive rows of one column x. At loop turn q,
// step s (0-based) advances plane q - s: its input planes q-s-1 and q-s are kept in registers
// from earlier turns and plane q-s+1 is what step s-1 has just produced. In-plane neighbours
// come from a local tile (x always, y at the ends of a work-item's rows) and from registers
// (y inside its rows). One barrier per step and plane; two local tiles used in turn suffice,
// since a tile is written again only after the barrier that follows its last read.
//
// As in gvf_euler3d_tiled.cl the frame holds mirrored copies (reflect_index) and every voxel
// takes the same steps with neighbours summed in symmetric pairs, so a frame voxel's value
// after each step is exactly that of the voxel it mirrors; values between the steps are
// rounded to the storage format as a store and a load would. The inner (TX - 2 STEPS) x
// (TY - 2 STEPS) part is written and equals STEPS launches of gvf_euler3d.cl, float for float.
//
// Build options: STEPS (3 or 4; 2 works too), TX, TY, ROWS (TY a multiple of it), TP (row
// pitch of the tiles, >= TX), ZCHUNK, INDEX32, RAW_PREFETCH and BRANCHLESS_PLANES as in
// gvf_euler3d_tiled.cl; RELOAD_V0 (a tuning aid, through GVFLAB_CL_OPTIONS) loads V0 again
// for each step instead of carrying its terms (fewer registers, more loads).
// Build with -DDIMS3; buffers in the planar layout of gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

#if !defined(STEPS) || STEPS < 2 || STEPS > 4
#error "STEPS must be 2, 3 or 4"
#endif
#ifndef ROWS
#define ROWS 1
#endif
#ifndef TP
#define TP TX
#endif
#define TYI (TY / ROWS)  // work-items along y
#if defined(INDEX32)
typedef uint index_t;
#else
typedef size_t index_t;
#endif

float3 round_to_storage3(float3 v) {
  return (float3)(round_to_storage2(v.xy), round_to_storage2((float2)(v.z, 0.0f)).x);
}

#define TILE_AT(t, yy, xx) ((float3)((t)[0][yy][xx], (t)[1][yy][xx], (t)[2][yy][xx]))
#define TILE_PUT(t, yy, xx, val) \
  do {                           \
    const float3 w_ = (val);     \
    (t)[0][yy][xx] = w_.x;       \
    (t)[1][yy][xx] = w_.y;       \
    (t)[2][yy][xx] = w_.z;       \
  } while (0)

#define RAW_AT(p, i) (((__global const elem_raw_t*)(p))[i])
#define RAW_LOAD3(dst, p, i, n)          \
  do {                                   \
    (dst)[0] = RAW_AT(p, i);             \
    (dst)[1] = RAW_AT(p, (n) + (i));     \
    (dst)[2] = RAW_AT(p, 2 * (n) + (i)); \
  } while (0)
#define RAW_VALUE3(r) ((float3)(stored_value((r)[0]), stored_value((r)[1]), stored_value((r)[2])))

// The plane a read at q touches under the boundary rule, for -STEPS <= q <= depth - 1 + STEPS.
int plane_index(int q, int depth) {
  if (depth <= STEPS) return reflect_index(q, depth);
#if defined(BRANCHLESS_PLANES)
  const int last = depth - 1, r = last - abs(q);
  return last - abs(r);
#else
  return q < 0 ? -q : (q >= depth ? 2 * depth - 2 - q : q);
#endif
}

// The tile of step s at turn q: the two tiles alternate from one step to the next, across
// turns too (with an odd STEPS the first step of a turn follows the last of the previous one).
// An index into one array, not a choice between two arrays: the address stays a local one.
#if STEPS % 2 == 0
#define TILE_OF(s) (tiles[(s) & 1])
#else
#define TILE_OF(s) (tiles[((s) + q) & 1])
#endif

// Step s >= 1 on one plane: from the planes m (below), c and p (above) of step s-1, c also
// put in the local tile t, to step s's values, rounded to the storage format unless this is
// the last step, then the planes moved up (m <- c, c <- p, p <- the result). The last step
// computes only where it writes (`compute`). A function with plain `#pragma unroll` loops
// (not a macro): its row arrays must end up in registers.
__attribute__((always_inline)) void later_step(__local float (*t)[TY][TP], float3* m,
                                               float3* c, float3* p, const float* k,
                                               const float3* cb, bool last, bool compute,
                                               const bool* writes, int lx, int ly0, int lxm,
                                               int lxp, int lya, int lyb, float mu) {
#pragma unroll
  for (int j = 0; j < ROWS; ++j) TILE_PUT(t, ly0 + j, lx, c[j]);
  barrier(CLK_LOCAL_MEM_FENCE);
  float3 res[ROWS];
#pragma unroll
  for (int j = 0; j < ROWS; ++j) {
    res[j] = (float3)(0.0f);
    if (!last || (compute && writes[j])) {
      const float3 ym = j > 0 ? c[j > 0 ? j - 1 : 0] : TILE_AT(t, lya, lx);
      const float3 yp = j < ROWS - 1 ? c[j < ROWS - 1 ? j + 1 : 0] : TILE_AT(t, lyb, lx);
      const float3 sum = LAP_PAIRS3(TILE_AT(t, ly0 + j, lxm) + TILE_AT(t, ly0 + j, lxp),
                                    ym + yp, m[j] + p[j]);
      res[j] = gvf_step3(c[j], sum, k[j], cb[j], mu);
    }
  }
#pragma unroll
  for (int j = 0; j < ROWS; ++j) {
    m[j] = c[j];
    c[j] = p[j];
    p[j] = last ? res[j] : round_to_storage3(res[j]);
  }
}

// The gvf_step3 terms of V0 on one plane (RELOAD_V0: loaded again for every step instead of
// carried from the first step in registers).
__attribute__((always_inline)) void v0_terms(__global const elem_t* v0, index_t zb,
                                             const index_t* col, index_t n, float k0, float* k,
                                             float3* cb) {
#pragma unroll
  for (int j = 0; j < ROWS; ++j) {
    const float3 b = LOAD3(v0, zb + col[j], n);
    k[j] = gvf_k3(b, k0);
    cb[j] = gvf_cb3(b);
  }
}

#if defined(RELOAD_V0)
#define V0_TERMS(s)                                                                        \
  v0_terms(v0, (index_t)plane_index(max(q - (s), -STEPS), depth) * stride, col, n, k0, k_[s], \
           cb_[s])
#else
#define V0_TERMS(s)
#endif

#define LATER_STEP(s)                                                                         \
  later_step(TILE_OF(s), m_[(s)-1], c_[(s)-1], fresh, k_[s], cb_[s], (s) == STEPS - 1,        \
             last_valid, writes, lx, ly0, lxm, lxp, lya, lyb, mu)

__kernel __attribute__((reqd_work_group_size(TX, TYI, 1)))
void gvf_euler_steps3d_tiled(__global const elem_t* v, __global const elem_t* v0,
                             __global elem_t* out, int width, int height, int depth, float mu) {
  __local float tiles[2][3][TY][TP];
  const int lx = get_local_id(0), ly0 = get_local_id(1) * ROWS;
  const int x = get_group_id(0) * (TX - 2 * STEPS) + lx - STEPS;
  const int y0 = get_group_id(1) * (TY - 2 * STEPS) + ly0 - STEPS;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  const index_t stride = (index_t)width * height, n = stride * depth;
  const int xs = reflect_index(x, width);
  // The deepest plane read; the loads of the last turns, never used, are kept inside the field.
  const int qmax = depth - 1 + STEPS;
  index_t col[ROWS];
  bool writes[ROWS];
#pragma unroll
  for (int j = 0; j < ROWS; ++j) {
    col[j] = (index_t)reflect_index(y0 + j, height) * width + xs;
    writes[j] = lx >= STEPS && lx < TX - STEPS && ly0 + j >= STEPS && ly0 + j < TY - STEPS &&
                x < width && y0 + j < height;
  }
  // Tile edges read clamped neighbours; their results are never written.
  const int lxm = max(lx - 1, 0), lxp = min(lx + 1, TX - 1);
  const int lya = max(ly0 - 1, 0), lyb = min(ly0 + ROWS, TY - 1);
  const float k0 = gvf_k0_3(mu);

  float3 in_m[ROWS], in_c[ROWS], in_p[ROWS];  // input planes q-1, q, q+1
  // Outputs of step s-1 (index s-1) on planes q-s-1 and q-s: the planes below the one it has
  // just produced. Before a step's first valid turn they hold values never used for output.
  float3 m_[STEPS - 1][ROWS], c_[STEPS - 1][ROWS];
  float3 fresh[ROWS];
  float k_[STEPS][ROWS];  // gvf_step3 terms of plane q - s, for step s
  float3 cb_[STEPS][ROWS];
#if defined(RAW_PREFETCH)
  elem_raw_t raw_in[ROWS][3], raw_b[ROWS][3];
#endif
  {
    const index_t zm = (index_t)plane_index(z0 - STEPS, depth) * stride;
    const index_t zc = (index_t)plane_index(z0 - STEPS + 1, depth) * stride;
    const index_t zp = (index_t)plane_index(z0 - STEPS + 2, depth) * stride;
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      in_m[j] = LOAD3(v, zm + col[j], n);
      in_c[j] = LOAD3(v, zc + col[j], n);
#if defined(RAW_PREFETCH)
      RAW_LOAD3(raw_in[j], v, zp + col[j], n);
      RAW_LOAD3(raw_b[j], v0, zc + col[j], n);
#else
      in_p[j] = LOAD3(v, zp + col[j], n);
#endif
#pragma unroll
      for (int s = 0; s < STEPS - 1; ++s) m_[s][j] = c_[s][j] = (float3)(0.0f);
#pragma unroll
      for (int s = 0; s < STEPS; ++s) {
        k_[s][j] = 0.0f;
        cb_[s][j] = (float3)(0.0f);
      }
    }
  }
  for (int q = z0 - STEPS + 1; q <= z1 + STEPS - 2; ++q) {
    // Step 0 on plane q, for every voxel of the tile.
    const index_t znext = (index_t)plane_index(min(q + 2, qmax), depth) * stride;
    const bool last_valid = q >= z0 + STEPS - 1;  // the last step's plane is in the chunk
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#if defined(RAW_PREFETCH)
      const float3 b = RAW_VALUE3(raw_b[j]);
      RAW_LOAD3(raw_b[j], v0, (index_t)plane_index(min(q + 1, qmax), depth) * stride + col[j], n);
      in_p[j] = RAW_VALUE3(raw_in[j]);
      RAW_LOAD3(raw_in[j], v, znext + col[j], n);
#else
      const float3 b = LOAD3(v0, (index_t)plane_index(q, depth) * stride + col[j], n);
#endif
      k_[0][j] = gvf_k3(b, k0);
      cb_[0][j] = gvf_cb3(b);
      TILE_PUT(TILE_OF(0), ly0 + j, lx, in_c[j]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    {
      __local float(*t0)[TY][TP] = TILE_OF(0);
#pragma unroll
      for (int j = 0; j < ROWS; ++j) {
        const float3 ym = j > 0 ? in_c[j > 0 ? j - 1 : 0] : TILE_AT(t0, lya, lx);
        const float3 yp = j < ROWS - 1 ? in_c[j < ROWS - 1 ? j + 1 : 0] : TILE_AT(t0, lyb, lx);
        const float3 s = LAP_PAIRS3(TILE_AT(t0, ly0 + j, lxm) + TILE_AT(t0, ly0 + j, lxp),
                                    ym + yp, in_m[j] + in_p[j]);
        fresh[j] = round_to_storage3(gvf_step3(in_c[j], s, k_[0][j], cb_[0][j], mu));
      }
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      in_m[j] = in_c[j];
      in_c[j] = in_p[j];
#if !defined(RAW_PREFETCH)
      in_p[j] = LOAD3(v, znext + col[j], n);
#endif
    }
    V0_TERMS(1);
    LATER_STEP(1);
#if STEPS > 2
    V0_TERMS(2);
    LATER_STEP(2);
#endif
#if STEPS > 3
    V0_TERMS(3);
    LATER_STEP(3);
#endif
    if (last_valid) {
      const index_t zo = (index_t)(q - STEPS + 1) * stride;
#pragma unroll
      for (int j = 0; j < ROWS; ++j)
        if (writes[j]) STORE3(fresh[j], out, zo + col[j], n);
    }
#if !defined(RELOAD_V0)
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#pragma unroll
      for (int s = STEPS - 1; s > 0; --s) {
        k_[s][j] = k_[s - 1][j];
        cb_[s][j] = cb_[s - 1][j];
      }
    }
#endif
  }
}
