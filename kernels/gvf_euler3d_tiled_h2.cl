// Two explicit Euler steps of 3D GVF per launch in f16 storage, computed in half-precision
// pairs: the tiles of gvf_euler3d_tiled.cl (same lanes, frame, z chunks and plane rings) with
// each work-item's rows taken two at a time, rows 2p and 2p + 1 of its own packed in one 32-bit
// word (the first in the low half). One f16x2 instruction then steps two voxels, a local word
// holds two, and the conversions to and from float32 are gone: the float32 arithmetic of the
// f16 tiles issued ~143 instructions a voxel where 116 moved the bytes of float32. H200,
// 256³ x 256: 19.97 ms in float32 arithmetic (68 x 20 x 4), 17.45 in pairs (36 x 20 x 4); a
// quarter fewer instructions, still bound by latency at 11 warps a unit.
//
// The step is written as c + (mu lap + (cb - |b|^2 c)), lap = s - 6 c: c is kept exactly and
// only the change is rounded in half, so a flat field stays put and no mu makes the rounding
// damp it (the form mu s + k c of the float32 kernels rounds k = 1 - 6 mu - |b|^2, which for
// small mu adds a damping everywhere). Mean error against double after 256 steps on generated
// scenes: 5.1e-5 / 4.6e-5 against 7.2e-5 / 9.5e-5 with float32 arithmetic on the same f16
// storage (build/tests/test_cl -tc="3D half pairs keep*" -s, PoCL).
//
// The frame holds mirrored copies and every sum is of symmetric pairs, as in
// gvf_euler3d_tiled.cl; with HALF2_PTX (NVIDIA, compute capability 5.3 and later) the pairs
// are stepped by PTX f16x2 instructions, elsewhere by float arithmetic rounded to half after
// each operation (the same value for add and mul; fma may differ in the last bit where the
// float result lies on a half tie).
// Build options: those of euler3d_tiles.clh, ROWS even, ZCHUNK, UNROLL_PLANES, ONE_BARRIER,
// HALF2_PTX; -DSTORAGE_F16 -DDIMS3; no WORLD_SPACING (unit spacing only).
#include "gvf_storage.clh"

#include "euler3d_tiles.clh"
#include "half_pairs.clh"

#if !defined(STORAGE_F16) || defined(WORLD_SPACING) || ROWS % 2 != 0
#error "half pairs need f16 storage, unit spacing and an even number of rows per work-item"
#endif
#define PAIRS (ROWS / 2)
#define TYP (TY / 2)  // pair rows of a tile

// The neighbour sum of a pair, in symmetric pairs as neighbour_sum3 takes them: x from the tile
// row's words left and right, y from the pairs above and below (the work-item's own rows or the
// tile's), z from the planes before and after.
h2 h2_neighbours(h2 xm, h2 xp, h2 above, h2 c, h2 below, h2 zm, h2 zp) {
  const h2 sy = h2_add(h2_join(above, c), h2_join(c, below));
  return h2_add(h2_add(h2_add(xm, xp), sy), h2_add(zm, zp));
}

__kernel __attribute__((reqd_work_group_size(TX, TYI, 1))) void gvf_euler_2steps3d_tiled_h2(
    __global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
    int height, int depth, float mu) {
  __local h2 tile0[NBUF][3][TYP][TP];  // input plane q
  __local h2 tile1[NBUF][3][TYP][TP];  // once-stepped plane q-1
  const int hw = get_local_id(1) * TX + get_local_id(0);
  const int2 lane = tile_lane(hw);
  const int lx = lane.x, ly0 = lane.y, lp0 = ly0 / 2;
  const int2 voxel = tile_voxel(lane);
  const int x = voxel.x, y0 = voxel.y;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  const index_t stride = (index_t)width * height, n = stride * depth;
  typedef __global const elem_raw_t* raw_ptr;
  const raw_ptr vr = (raw_ptr)v, br = (raw_ptr)v0;
  __global elem_raw_t* const o = (__global elem_raw_t*)out;
  index_t col[ROWS];
  bool writes[ROWS];
  tile_rows(lx, ly0, x, y0, width, height, col, writes);
  // Tile edges read clamped neighbours; their results are never written.
  const int lxm = max(lx - 1, 0), lxp = min(lx + 1, TX - 1);
  const int lpa = max(lp0 - 1, 0), lpb = min(lp0 + PAIRS, TYP - 1);
  // The pairs above and below pair p of a ring of planes: the work-item's own or the tile's.
#define PAIR_ABOVE(ring, tile, p, c) \
  ((p) > 0 ? (ring)[(p) > 0 ? (p)-1 : 0][c] : tile[buf][c][lpa][lx])
#define PAIR_BELOW(ring, tile, p, c) \
  ((p) < PAIRS - 1 ? (ring)[(p) < PAIRS - 1 ? (p) + 1 : 0][c] : tile[buf][c][lpb][lx])
  const h2 mu2 = h2_pack((float2)(mu)), minus6 = h2_pack((float2)(-6.0f));

  h2 in_m[PAIRS][3], in_c[PAIRS][3], in_p[PAIRS][3];  // input planes q-1, q, q+1
  h2 s_m[PAIRS][3], s_c[PAIRS][3], s_p[PAIRS][3];     // once-stepped planes q-2, q-1, q
  h2 nbb_prev[PAIRS], cb_prev[PAIRS][3];              // terms of plane q-1
  // The next input plane and V0 plane, loaded a turn ahead and packed when used.
  elem_raw_t raw_in[ROWS][3], raw_b[ROWS][3];
#define LOAD_ROWS(dst, p, zo)                                           \
  do {                                                                  \
    const index_t zo_ = (zo);                                           \
    _Pragma("unroll") for (int j_ = 0; j_ < ROWS; ++j_)                 \
        _Pragma("unroll") for (int c_ = 0; c_ < 3; ++c_)(dst)[j_][c_] = \
            (p)[(index_t)c_ * n + zo_ + col[j_]];                       \
  } while (0)
#define PAIR_OF(raw, pp, c) h2_of((raw)[2 * (pp)][c], (raw)[2 * (pp) + 1][c])
  {
    elem_raw_t r[ROWS][3];
    LOAD_ROWS(r, vr, (index_t)plane_index(z0 - 2, depth) * stride);
#pragma unroll
    for (int p = 0; p < PAIRS; ++p)
#pragma unroll
      for (int c = 0; c < 3; ++c) in_m[p][c] = PAIR_OF(r, p, c);
    LOAD_ROWS(r, vr, (index_t)plane_index(z0 - 1, depth) * stride);
#pragma unroll
    for (int p = 0; p < PAIRS; ++p)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        in_c[p][c] = PAIR_OF(r, p, c);
        s_c[p][c] = s_p[p][c] = cb_prev[p][c] = 0;
      }
    LOAD_ROWS(raw_in, vr, (index_t)plane_index(z0, depth) * stride);
    LOAD_ROWS(raw_b, br, (index_t)plane_index(z0 - 1, depth) * stride);
#pragma unroll
    for (int p = 0; p < PAIRS; ++p) nbb_prev[p] = 0;
  }
#if defined(UNROLL_PLANES)
#pragma unroll 3
#endif
  for (int q = z0 - 1; q <= z1; ++q) {
    const int buf = TILE_BUF(q);
    // First step on plane q, for every voxel of the tile.
    h2 nbb[PAIRS], cb[PAIRS][3], stepped[PAIRS][3];
#pragma unroll
    for (int p = 0; p < PAIRS; ++p) {
      h2 b[3];
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        b[c] = PAIR_OF(raw_b, p, c);
        in_p[p][c] = PAIR_OF(raw_in, p, c);
        tile0[buf][c][lp0 + p][lx] = in_c[p][c];
#if defined(ONE_BARRIER)
        tile1[buf][c][lp0 + p][lx] = s_p[p][c];  // plane q-1, stepped in the last turn
#endif
      }
      const h2 bb = h2_fma(b[0], b[0], h2_fma(b[1], b[1], h2_mul(b[2], b[2])));
      nbb[p] = bb ^ 0x80008000u;  // the sign of each half flipped
#pragma unroll
      for (int c = 0; c < 3; ++c) cb[p][c] = h2_mul(b[c], bb);
    }
    // The last turn's loads (never used) kept to plane depth + 1, within the boundary rule.
    LOAD_ROWS(raw_b, br, (index_t)plane_index(min(q + 1, depth + 1), depth) * stride);
    LOAD_ROWS(raw_in, vr, (index_t)plane_index(min(q + 2, depth + 1), depth) * stride);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int p = 0; p < PAIRS; ++p)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const h2 s = h2_neighbours(tile0[buf][c][lp0 + p][lxm], tile0[buf][c][lp0 + p][lxp],
                                   PAIR_ABOVE(in_c, tile0, p, c), in_c[p][c],
                                   PAIR_BELOW(in_c, tile0, p, c), in_m[p][c], in_p[p][c]);
        stepped[p][c] = h2_step(in_c[p][c], s, nbb[p], cb[p][c], mu2, minus6);
      }
#pragma unroll
    for (int p = 0; p < PAIRS; ++p)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        s_m[p][c] = s_c[p][c];
        s_c[p][c] = s_p[p][c];
        s_p[p][c] = stepped[p][c];
        in_m[p][c] = in_c[p][c];
        in_c[p][c] = in_p[p][c];
      }
    // Second step on plane q-1, once planes q-2..q have their first.
    const bool second = q > z0;
#if !defined(ONE_BARRIER)
    if (second) {
#pragma unroll
      for (int p = 0; p < PAIRS; ++p)
#pragma unroll
        for (int c = 0; c < 3; ++c) tile1[buf][c][lp0 + p][lx] = s_c[p][c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (second) {
      const index_t zo = (index_t)(q - 1) * stride;
#pragma unroll
      for (int p = 0; p < PAIRS; ++p) {
        if (!writes[2 * p] && !writes[2 * p + 1]) continue;
#pragma unroll
        for (int c = 0; c < 3; ++c) {
          const h2 s = h2_neighbours(tile1[buf][c][lp0 + p][lxm], tile1[buf][c][lp0 + p][lxp],
                                     PAIR_ABOVE(s_c, tile1, p, c), s_c[p][c],
                                     PAIR_BELOW(s_c, tile1, p, c), s_m[p][c], s_p[p][c]);
          const h2 r = h2_step(s_c[p][c], s, nbb_prev[p], cb_prev[p][c], mu2, minus6);
          const index_t i = (index_t)c * n + zo;
          if (writes[2 * p]) o[i + col[2 * p]] = (ushort)r;
          if (writes[2 * p + 1]) o[i + col[2 * p + 1]] = (ushort)(r >> 16);
        }
      }
    }
#pragma unroll
    for (int p = 0; p < PAIRS; ++p) {
      nbb_prev[p] = nbb[p];
#pragma unroll
      for (int c = 0; c < 3; ++c) cb_prev[p][c] = cb[p][c];
    }
  }
}
