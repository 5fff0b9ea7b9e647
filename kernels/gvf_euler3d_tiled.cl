// Two explicit Euler steps of 3D GVF per launch (temporal blocking, streamed along z).
// A work-group owns a TX x TY tile of columns with a 2-voxel frame and walks a chunk of ZCHUNK
// planes; each work-item owns ROWS consecutive rows of one column x. Per plane it keeps the
// input planes q-1, q, q+1 and the once-stepped planes q-2, q-1, q in registers; in-plane
// neighbours come from two local tiles (x always, y at the ends of its rows) and from its own
// registers (y inside its rows).
//
// The frame holds mirrored copies (reflect_index: -1 is 1, -2 is 2) and every voxel, frame or
// not, takes the same steps, with neighbours summed in symmetric pairs (neighbour_sum3). So a
// frame voxel's once-stepped value is exactly that of the voxel it mirrors, and the border
// needs no special case: the result equals two launches of gvf_euler3d.cl, float for float.
// The inner (TX-4) x (TY-4) part is written.
//
// Where TX - 4 is a multiple of 32, lanes are not laid out as the tile: a group's first lanes
// take the inner columns of each work-item row in turn, the last ones the frame's four columns
// a row (tile_lane), so each warp covers whole sectors of one row, its stores write no sector in
// part, and its local accesses fall on distinct banks. H200, 256³ x 256 (Nsight Compute, float32
// 68 x 20 x 4): bytes written to L2 249 -> 201 MB a pass, local bank conflicts 8.1 -> 4.6 M;
// 24.71 -> 24.31 ms, f16 20.90 -> 20.39, snorm16 24.77 -> 23.68. Narrower inner rows keep the
// tile's order: 20 x 36 x 3 ran 29.1 against 26.2 ms with half-warp rows.
//
// Build options: TX, TY, ROWS (TY a multiple of it), TP (row pitch of the tiles, >= TX, chosen
// by the host so that a warp's accesses hit distinct local-memory banks), ZCHUNK, INDEX32
// (32-bit element indices, where 3 n < 2^32), RAW_PREFETCH, UNROLL_PLANES, BRANCHLESS_PLANES,
// ONE_BARRIER and ASYNC_V0 (see below).
// Build with -DDIMS3; buffers in the planar layout of gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

#include "euler3d_tiles.clh"

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

// A buffer's three component planes as three pointers, so that an access adds only the voxel's
// index (H200, 256³ x 256: float32 27.3 -> 27.1 ms, snorm16 25.5 -> 25.2); f16 keeps one
// pointer and offsets c n, the other form costing it 26 registers and 3 % (20.8 -> 21.5 ms).
#if defined(STORAGE_F16)
#define PLANES3(T, p) \
  { (T)(p), (T)(p), (T)(p) }
#define COMP(c) ((c)*n)
#else
#define PLANES3(T, p) \
  { (T)(p), (T)(p) + n, (T)(p) + 2 * n }
#define COMP(c) 0
#endif
#define LOADP3(pc, i)                                                     \
  ((float3)(LOAD1((pc)[0], COMP(0) + (i)), LOAD1((pc)[1], COMP(1) + (i)), \
            LOAD1((pc)[2], COMP(2) + (i))))
#define STOREP3(v, pc, i)                 \
  do {                                    \
    const float3 v_ = (v);                \
    STORE1(v_.x, (pc)[0], COMP(0) + (i)); \
    STORE1(v_.y, (pc)[1], COMP(1) + (i)); \
    STORE1(v_.z, (pc)[2], COMP(2) + (i)); \
  } while (0)
// Stored values loaded as they are; stored_value (gvf_storage.clh) converts them where used.
#define RAW_LOAD3(dst, pc, i)          \
  do {                                 \
    (dst)[0] = (pc)[0][COMP(0) + (i)]; \
    (dst)[1] = (pc)[1][COMP(1) + (i)]; \
    (dst)[2] = (pc)[2][COMP(2) + (i)]; \
  } while (0)
#define RAW_VALUE3(r) ((float3)(stored_value((r)[0]), stored_value((r)[1]), stored_value((r)[2])))

#if defined(ASYNC_V0)
// V0's next plane copied into local memory with NVIDIA's cp.async (PTX, compute capability 8.0
// and later; the host asks for it there only, in float32). The copy holds no registers while in
// flight, where a load a plane ahead into registers cost float32 its second work-group a unit
// (43.8 ms). Each work-item copies and reads only its own values, so its wait_group is all
// the synchronisation it needs. H200, 256³ x 256: 68 x 20 x 4 tiles 27.7 -> 24.6 ms.
#if defined(RAW_PREFETCH) || defined(STORAGE_F16) || defined(STORAGE_SNORM16)
#error "ASYNC_V0 copies float32 values and replaces RAW_PREFETCH"
#endif
// The memory clobber keeps the slot's reads of the plane before (program order) ahead of it.
void copy_async4(__local float* dst, __global const float* src) {
  __asm__ volatile("cp.async.ca.shared.global [%0], [%1], 4;" ::"r"((uint)(ulong)dst), "l"(src)
                   : "memory");
}
void copies_commit(void) { __asm__ volatile("cp.async.commit_group;" ::: "memory"); }
void copies_wait(void) { __asm__ volatile("cp.async.wait_group 0;" ::: "memory"); }
#endif

__kernel __attribute__((reqd_work_group_size(TX, TYI, 1))) void gvf_euler_2steps3d_tiled(
    __global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
    int height, int depth, float mu) {
  __local float tile0[NBUF][3][TY][TP];  // input plane q
  __local float tile1[NBUF][3][TY][TP];  // once-stepped plane q-1
  const int hw = get_local_id(1) * TX + get_local_id(0);
  const int2 lane = tile_lane(hw);
  const int lx = lane.x, ly0 = lane.y;
  const int2 voxel = tile_voxel(lane);
  const int x = voxel.x, y0 = voxel.y;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  const index_t stride = (index_t)width * height, n = stride * depth;
  typedef __global const elem_t* in_ptr;
  typedef __global elem_t* out_ptr;
  const in_ptr vp[3] = PLANES3(in_ptr, v);
  const out_ptr op[3] = PLANES3(out_ptr, out);
#if defined(RAW_PREFETCH)
  typedef __global const elem_raw_t* raw_ptr;
  const raw_ptr vr[3] = PLANES3(raw_ptr, v), br[3] = PLANES3(raw_ptr, v0);
#else
  const in_ptr bp[3] = PLANES3(in_ptr, v0);
#endif
#if defined(ASYNC_V0)
  // V0's plane q, three components of each row of each work-item, in the order of the lanes
  // so that a warp's accesses fall on distinct banks.
  __local float v0_slot[3][ROWS][TX * TYI];
  const int lid = hw;
#define COPY_V0_PLANE(zp)                                               \
  do {                                                                  \
    const index_t zo_ = (index_t)plane_index((zp), depth) * stride;     \
    _Pragma("unroll") for (int j_ = 0; j_ < ROWS; ++j_)                 \
        _Pragma("unroll") for (int c_ = 0; c_ < 3; ++c_)                \
            copy_async4(&v0_slot[c_][j_][lid], bp[c_] + zo_ + col[j_]); \
    copies_commit();                                                    \
  } while (0)
#endif
  index_t col[ROWS];
  bool writes[ROWS];
  tile_rows(lx, ly0, x, y0, width, height, col, writes);
  // Tile edges read clamped neighbours; their results are never written.
  const int lxm = max(lx - 1, 0), lxp = min(lx + 1, TX - 1);
  const int lya = max(ly0 - 1, 0), lyb = min(ly0 + ROWS, TY - 1);
  const float k0 = gvf_k0_3(mu);

  float3 in_m[ROWS], in_c[ROWS], in_p[ROWS];  // input planes q-1, q, q+1
  float3 s_m[ROWS], s_c[ROWS], s_p[ROWS];     // once-stepped planes q-2, q-1, q
  float3 cb_prev[ROWS];                       // gvf_step3 terms of plane q-1
  float k_prev[ROWS];
#if defined(RAW_PREFETCH)
  // The next input plane and V0 plane, loaded a turn ahead and converted when used (loaded as
  // floats, the conversion would wait for them at once). H200, 256³ x 256, 36 x 36 tiles,
  // 64-plane chunks: f16 25.0 -> 21.2 ms; float32 slower (more registers, nothing to hide).
  elem_raw_t raw_in[ROWS][3], raw_b[ROWS][3];
#endif
  {
    const index_t zm = (index_t)plane_index(z0 - 2, depth) * stride;
    const index_t zc = (index_t)plane_index(z0 - 1, depth) * stride;
    const index_t zp = (index_t)plane_index(z0, depth) * stride;
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      in_m[j] = LOADP3(vp, zm + col[j]);
      in_c[j] = LOADP3(vp, zc + col[j]);
#if defined(RAW_PREFETCH)
      RAW_LOAD3(raw_in[j], vr, zp + col[j]);
      RAW_LOAD3(raw_b[j], br, zc + col[j]);
#else
      in_p[j] = LOADP3(vp, zp + col[j]);
#endif
      s_c[j] = s_p[j] = cb_prev[j] = (float3)(0.0f);
      k_prev[j] = 0.0f;
    }
#if defined(ASYNC_V0)
    COPY_V0_PLANE(z0 - 1);
#endif
  }
  // Three planes per loop turn, fewer moves between the register rings (H200, 256³ x 256,
  // f16 at 20 x 36: 28.4 -> 26.4 ms). The host asks for it on GPUs only: CPU compilers cannot
  // unroll a loop with barriers and say so on every build.
#if defined(UNROLL_PLANES)
#pragma unroll 3
#endif
  for (int q = z0 - 1; q <= z1; ++q) {
    const int buf = TILE_BUF(q);
    // First step on plane q, for every voxel of the tile.
    // The last turn's load (never used) kept to plane depth + 1: for 3 planes, plane_index of
    // depth + 2 would be -1, a read before the buffer.
    const index_t znext = (index_t)plane_index(min(q + 2, depth + 1), depth) * stride;
    float3 cb[ROWS], stepped[ROWS];
    float k[ROWS];
#if defined(ASYNC_V0)
    copies_wait();  // V0's plane q, copied in the last turn
#endif
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
#if defined(RAW_PREFETCH)
      const float3 b = RAW_VALUE3(raw_b[j]);
      RAW_LOAD3(raw_b[j], br, (index_t)plane_index(q + 1, depth) * stride + col[j]);
      in_p[j] = RAW_VALUE3(raw_in[j]);
      RAW_LOAD3(raw_in[j], vr, znext + col[j]);
#elif defined(ASYNC_V0)
      const float3 b = (float3)(v0_slot[0][j][lid], v0_slot[1][j][lid], v0_slot[2][j][lid]);
#else
      const float3 b = LOADP3(bp, (index_t)plane_index(q, depth) * stride + col[j]);
#endif
      k[j] = gvf_k3(b, k0);
      cb[j] = gvf_cb3(b);
      TILE_PUT(tile0[buf], ly0 + j, lx, in_c[j]);
#if defined(ONE_BARRIER)
      TILE_PUT(tile1[buf], ly0 + j, lx, s_p[j]);  // plane q-1, stepped in the last turn
#endif
    }
#if defined(ASYNC_V0)
    // The last turn's copy (plane z1 + 1, kept within the boundary rule's range) is never read.
    COPY_V0_PLANE(min(q + 1, depth + 1));
#endif
    barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      const float3 ym = j > 0 ? in_c[j > 0 ? j - 1 : 0] : TILE_AT(tile0[buf], lya, lx);
      const float3 yp =
          j < ROWS - 1 ? in_c[j < ROWS - 1 ? j + 1 : 0] : TILE_AT(tile0[buf], lyb, lx);
      const float3 s =
          LAP_PAIRS3(TILE_AT(tile0[buf], ly0 + j, lxm) + TILE_AT(tile0[buf], ly0 + j, lxp), ym + yp,
                     in_m[j] + in_p[j]);
      stepped[j] = round_to_storage3(gvf_step3(in_c[j], s, k[j], cb[j], mu));
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      s_m[j] = s_c[j];
      s_c[j] = s_p[j];
      s_p[j] = stepped[j];
      in_m[j] = in_c[j];
      in_c[j] = in_p[j];
#if !defined(RAW_PREFETCH)
      in_p[j] = LOADP3(vp, znext + col[j]);
#endif
    }
    // Second step on plane q-1, once planes q-2..q have their first.
    const bool second = q > z0;
#if !defined(ONE_BARRIER)
    if (second) {
#pragma unroll
      for (int j = 0; j < ROWS; ++j) TILE_PUT(tile1[buf], ly0 + j, lx, s_c[j]);
    }
    // tile0 is read above and written again only after the next barrier, tile1 likewise: two
    // barriers per plane suffice.
    barrier(CLK_LOCAL_MEM_FENCE);
#endif
    if (second) {
      const index_t zo = (index_t)(q - 1) * stride;
#pragma unroll
      for (int j = 0; j < ROWS; ++j) {
        if (writes[j]) {
          const float3 ym = j > 0 ? s_c[j > 0 ? j - 1 : 0] : TILE_AT(tile1[buf], lya, lx);
          const float3 yp =
              j < ROWS - 1 ? s_c[j < ROWS - 1 ? j + 1 : 0] : TILE_AT(tile1[buf], lyb, lx);
          const float3 s =
              LAP_PAIRS3(TILE_AT(tile1[buf], ly0 + j, lxm) + TILE_AT(tile1[buf], ly0 + j, lxp),
                         ym + yp, s_m[j] + s_p[j]);
          STOREP3(gvf_step3(s_c[j], s, k_prev[j], cb_prev[j], mu), op, zo + col[j]);
        }
      }
    }
#pragma unroll
    for (int j = 0; j < ROWS; ++j) {
      k_prev[j] = k[j];
      cb_prev[j] = cb[j];
    }
  }
#if defined(ASYNC_V0)
  copies_wait();  // no copy outlives the work-group
#endif
}
