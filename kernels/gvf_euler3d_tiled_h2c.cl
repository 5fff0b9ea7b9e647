// Two explicit Euler steps of 3D GVF per launch in f16 storage, in half-precision pairs of
// columns: the tiles of gvf_euler3d_tiled.cl (z chunks, plane rings, a work-item's ROWS rows)
// with each lane holding columns 2k and 2k + 1 in one 32-bit word (the first in the low half),
// so the two-voxel frame is one lane on each side. A load or store moves a word, where the pairs
// of rows (gvf_euler3d_tiled_h2.cl) move each half alone and pack them: half the address
// arithmetic and no packing. The operations, and their order, are those of the pairs of rows,
// so both give the same field bit for bit.
//
// Words are aligned only where the width is even (the host asks for these tiles there only).
// Every lane loads one word: at the volume's left and right edges a lane takes its own word as
// its neighbour there, which is the mirror the boundary rule reads, so lanes past an edge hold
// values never read. Loading their mirrored halves instead cost each edge group a wait on
// memory a plane (H200, 256³ x 256: 26.7-34.4 ms against 17.4 for the pairs of rows).
// Build options: those of euler3d_tiles.clh with PAIR_COLUMNS, ZCHUNK, UNROLL_PLANES,
// ONE_BARRIER, HALF2_PTX; -DSTORAGE_F16 -DDIMS3; no WORLD_SPACING (unit spacing only).
#include "gvf_storage.clh"

#include "euler3d_tiles.clh"
#include "half_pairs.clh"

#if !defined(STORAGE_F16) || defined(WORLD_SPACING) || !defined(PAIR_COLUMNS)
#error "pairs of columns need f16 storage, unit spacing and PAIR_COLUMNS"
#endif

// The neighbour sum of a pair of columns, added in the order of the pairs of rows (x, y, z):
// x from the words left and right, y from the rows above and below, z from the planes before
// and after.
h2 h2c_neighbours(h2 left, h2 c, h2 right, h2 above, h2 below, h2 zm, h2 zp) {
  const h2 sx = h2_add(h2_join(left, c), h2_join(c, right));
  return h2_add(h2_add(sx, h2_add(above, below)), h2_add(zm, zp));
}

__kernel __attribute__((reqd_work_group_size(TX, TYI, 1))) void gvf_euler_2steps3d_tiled_h2c(
    __global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
    int height, int depth, float mu) {
  __local h2 tile0[NBUF][3][TY][TP];  // input plane q
  __local h2 tile1[NBUF][3][TY][TP];  // once-stepped plane q-1
  const int hw = get_local_id(1) * TX + get_local_id(0);
  const int2 lane = tile_lane(hw);
  const int lx = lane.x, ly0 = lane.y;
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
  // The words left and right: at the volume's edges the lane's own, whose halves swapped are
  // the mirrored neighbours (columns -1 and width are 1 and width - 2), so lanes past an edge
  // are never read and load any word in the volume (reflect_index keeps an even column even).
  // Tile edges read clamped neighbours; their results are never written.
  const int lxm = x == 0 ? lx : max(lx - 1, 0), lxp = x + 2 == width ? lx : min(lx + 1, TX - 1);
  const int lya = max(ly0 - 1, 0), lyb = min(ly0 + ROWS, TY - 1);
  // The rows above and below row j of a ring of planes: the work-item's own or the tile's.
#define ROW_ABOVE(ring, tile, j, c) \
  ((j) > 0 ? (ring)[(j) > 0 ? (j)-1 : 0][c] : tile[buf][c][lya][lx])
#define ROW_BELOW(ring, tile, j, c) \
  ((j) < ROWS - 1 ? (ring)[(j) < ROWS - 1 ? (j) + 1 : 0][c] : tile[buf][c][lyb][lx])
  const h2 mu2 = h2_pack((float2)(mu)), minus6 = h2_pack((float2)(-6.0f));

  h2 in_m[ROWS][3], in_c[ROWS][3], in_p[ROWS][3];  // input planes q-1, q, q+1
  h2 s_m[ROWS][3], s_c[ROWS][3], s_p[ROWS][3];     // once-stepped planes q-2, q-1, q
  h2 nbb_prev[ROWS], cb_prev[ROWS][3];             // terms of plane q-1
  h2 next_in[ROWS][3], next_b[ROWS][3];            // the next input and V0 planes, a turn ahead
#define LOAD_WORDS(dst, p, zo)                                            \
  do {                                                                    \
    const index_t zo_ = (zo);                                             \
    _Pragma("unroll") for (int j_ = 0; j_ < ROWS; ++j_)                   \
        _Pragma("unroll") for (int c_ = 0; c_ < 3; ++c_)(dst)[j_][c_] =   \
            *(__global const h2*)((p) + (index_t)c_ * n + zo_ + col[j_]); \
  } while (0)
  LOAD_WORDS(in_m, vr, (index_t)plane_index(z0 - 2, depth) * stride);
  LOAD_WORDS(in_c, vr, (index_t)plane_index(z0 - 1, depth) * stride);
  LOAD_WORDS(next_in, vr, (index_t)plane_index(z0, depth) * stride);
  LOAD_WORDS(next_b, br, (index_t)plane_index(z0 - 1, depth) * stride);
#pragma unroll
  for (int j = 0; j < ROWS; ++j) {
    nbb_prev[j] = 0;
#pragma unroll
    for (int c = 0; c < 3; ++c) s_c[j][c] = s_p[j][c] = cb_prev[j][c] = 0;
  }
#if defined(UNROLL_PLANES)
#pragma unroll 3
#endif
  for (int q = z0 - 1; q <= z1; ++q) {
    const int buf = TILE_BUF(q);
    // First step on plane q, for every voxel of the tile.
    h2 nbb[ROWS], cb[ROWS][3], stepped[ROWS][3];
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      h2 b[3];
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        b[c] = next_b[j][c];
        in_p[j][c] = next_in[j][c];
        tile0[buf][c][ly0 + j][lx] = in_c[j][c];
#if defined(ONE_BARRIER)
        tile1[buf][c][ly0 + j][lx] = s_p[j][c];  // plane q-1, stepped in the last turn
#endif
      }
      const h2 bb = h2_fma(b[0], b[0], h2_fma(b[1], b[1], h2_mul(b[2], b[2])));
      nbb[j] = bb ^ 0x80008000u;  // the sign of each half flipped
#pragma unroll
      for (int c = 0; c < 3; ++c) cb[j][c] = h2_mul(b[c], bb);
    }
    // The last turn's loads (never used) kept to plane depth + 1, within the boundary rule.
    LOAD_WORDS(next_b, br, (index_t)plane_index(min(q + 1, depth + 1), depth) * stride);
    LOAD_WORDS(next_in, vr, (index_t)plane_index(min(q + 2, depth + 1), depth) * stride);
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int j = 0; j < ROWS; ++j)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        const h2 s = h2c_neighbours(tile0[buf][c][ly0 + j][lxm], in_c[j][c],
                                    tile0[buf][c][ly0 + j][lxp], ROW_ABOVE(in_c, tile0, j, c),
                                    ROW_BELOW(in_c, tile0, j, c), in_m[j][c], in_p[j][c]);
        stepped[j][c] = h2_step(in_c[j][c], s, nbb[j], cb[j][c], mu2, minus6);
      }
#pragma unroll
    for (int j = 0; j < ROWS; ++j)
#pragma unroll
      for (int c = 0; c < 3; ++c) {
        s_m[j][c] = s_c[j][c];
        s_c[j][c] = s_p[j][c];
        s_p[j][c] = stepped[j][c];
        in_m[j][c] = in_c[j][c];
        in_c[j][c] = in_p[j][c];
      }
    // Second step on plane q-1, once planes q-2..q have their first.
    const bool second = q > z0;
#if !defined(ONE_BARRIER)
    if (second) {
#pragma unroll
      for (int j = 0; j < ROWS; ++j)
#pragma unroll
        for (int c = 0; c < 3; ++c) tile1[buf][c][ly0 + j][lx] = s_c[j][c];
    }
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (second) {
      const index_t zo = (index_t)(q - 1) * stride;
#pragma unroll
      for (int j = 0; j < ROWS; ++j) {
        if (!writes[j]) continue;
#pragma unroll
        for (int c = 0; c < 3; ++c) {
          const h2 s = h2c_neighbours(tile1[buf][c][ly0 + j][lxm], s_c[j][c],
                                      tile1[buf][c][ly0 + j][lxp], ROW_ABOVE(s_c, tile1, j, c),
                                      ROW_BELOW(s_c, tile1, j, c), s_m[j][c], s_p[j][c]);
          *(__global h2*)(o + (index_t)c * n + zo + col[j]) =
              h2_step(s_c[j][c], s, nbb_prev[j], cb_prev[j][c], mu2, minus6);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      nbb_prev[j] = nbb[j];
#pragma unroll
      for (int c = 0; c < 3; ++c) cb_prev[j][c] = cb[j][c];
    }
  }
}
