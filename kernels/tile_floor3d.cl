// The floor of the 3D two-steps tiles' data movement (gvflab-bench floor, 3D): a pass's loads
// and stores in the tiles' own pattern, with no steps, no local memory and no barriers.
// A work-group owns a TX x TY tile of columns with a 2-voxel frame and walks a chunk of ZCHUNK
// planes (planes z0 - 2 .. z1 + 1 read, as the tiles read them); each work-item owns ROWS rows
// of one column, in the tiles' lane order (euler3d_tiles.clh). It loads V's and V0's three
// components of its rows AHEAD planes before it uses them, into registers, and the inner part
// stores V + V0. So the time is what the pattern's bytes cost, whatever the steps: no kernel of
// this tiling can beat it with as many planes in flight (docs/BENCHMARKS.md, twenty-fourth
// session).
// Build options: T (float, or ushort for 16-bit fields: an integer add, the traffic is what
// counts), TX, TY, ROWS (TY a multiple of it), AHEAD (1-3), ZCHUNK; INDEX32 where 3 n < 2^32;
// PAIR_COLUMNS with T uint: a lane moves two columns of 16-bit values in one word and the frame
// is a lane a side, as f16's pairs of columns (gvf_euler3d_tiled_h2c.cl) do (even widths only).
#include "boundary.clh"
#include "euler3d_tiles.clh"

#ifndef AHEAD
#define AHEAD 1
#endif
#if AHEAD < 1 || AHEAD > 3
#error "AHEAD is 1, 2 or 3"
#endif

// Planes ahead are named slots, each used in its own turn of the unrolled loop, so a load is
// never moved between registers (a move would wait for it).
#define SLOT(s) T va##s[ROWS][3], vb##s[ROWS][3];
#define LOAD_PLANE(s, p)                                                        \
  do {                                                                          \
    const index_t zo_ = (index_t)plane_index(min((p), z1 + 1), depth) * stride; \
    _Pragma("unroll") for (int j_ = 0; j_ < ROWS; ++j_)                         \
        _Pragma("unroll") for (int c_ = 0; c_ < 3; ++c_) {                      \
      va##s[j_][c_] = v[c_ * n + zo_ + col[j_]];                                \
      vb##s[j_][c_] = v0[c_ * n + zo_ + col[j_]];                               \
    }                                                                           \
  } while (0)
// Plane p0 + t: stored where the tile writes it, summed into `unused` elsewhere (see
// keep_loads); then the slot takes the plane AHEAD turns on.
#define TURN(s, t)                                             \
  if ((t) < turns) {                                           \
    const int p_ = p0 + (t);                                   \
    _Pragma("unroll") for (int j_ = 0; j_ < ROWS; ++j_) {      \
      const bool store_ = writes[j_] && p_ >= z0 && p_ < z1;   \
      _Pragma("unroll") for (int c_ = 0; c_ < 3; ++c_) {       \
        const T sum_ = (T)(va##s[j_][c_] + vb##s[j_][c_]);     \
        if (store_)                                            \
          out[c_ * n + (index_t)p_ * stride + col[j_]] = sum_; \
        else                                                   \
          unused += sum_;                                      \
      }                                                        \
    }                                                          \
    LOAD_PLANE(s, p_ + AHEAD);                                 \
  }

__kernel __attribute__((reqd_work_group_size(TX, TYI, 1))) void tile_floor3d(
    __global const T* v, __global const T* v0, __global T* out, int width, int height, int depth,
    int keep_loads) {
  const int2 lane = tile_lane(get_local_id(1) * TX + get_local_id(0));
  const int2 voxel = tile_voxel(lane);
  index_t col[ROWS];
  bool writes[ROWS];
  tile_rows(lane.x, lane.y, voxel.x, voxel.y, width, height, col, writes);
#if defined(PAIR_COLUMNS)
  // Indices count words of two columns; a lane's first column is even, mirrored or not.
  const index_t stride = (index_t)width * height / 2, n = stride * depth;
#pragma unroll
  for (int j = 0; j < ROWS; ++j) col[j] /= 2;
#else
  const index_t stride = (index_t)width * height, n = stride * depth;
#endif
  const int z0 = get_group_id(2) * ZCHUNK, z1 = min(z0 + ZCHUNK, depth);
  const int p0 = z0 - 2, turns = z1 + 2 - p0;
  T unused = 0;
  SLOT(0)
  LOAD_PLANE(0, p0);
#if AHEAD > 1
  SLOT(1)
  LOAD_PLANE(1, p0 + 1);
#endif
#if AHEAD > 2
  SLOT(2)
  LOAD_PLANE(2, p0 + 2);
#endif
  for (int t = 0; t < turns; t += AHEAD) {
    TURN(0, t)
#if AHEAD > 1
    TURN(1, t + 1)
#endif
#if AHEAD > 2
    TURN(2, t + 2)
#endif
  }
  // keep_loads is 0 in every launch: the compiler cannot know, so it keeps the frame's loads.
  if (keep_loads) out[0] = unused;
}
