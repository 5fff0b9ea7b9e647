// Two explicit Euler steps of 3D GVF per launch (temporal blocking, streamed along z).
// A work-group owns an xy tile of TX x TY columns with a 2-pixel frame and walks a chunk of
// ZCHUNK planes. It has TX x (TY / ROWS_PER_ITEM) work-items; each owns ROWS_PER_ITEM
// consecutive rows (y) of one column and keeps, for those voxels, the input planes q-1, q, q+1,
// the once-stepped planes and V0 in registers: z neighbours and y neighbours inside the run
// come from registers, x neighbours and the run's ends from local tiles. The once-stepped field
// is rounded to the storage format, so the result equals two single-step launches of
// gvf_euler3d.cl bit for bit (laplacian3's sum order, same boundary rule). The frame shrinks by
// one pixel per step, so the inner (TX-4) x (TY-4) part is exact. Build with -DDIMS3; buffers
// in the planar layout of gvf_storage.clh.
#include "gvf_storage.clh"

#ifndef TX
#define TX 24
#endif
#ifndef TY
#define TY 16
#endif
#ifndef ZCHUNK
#define ZCHUNK 48
#endif
#ifndef ROWS_PER_ITEM
#define ROWS_PER_ITEM 2
#endif
#define RPI ROWS_PER_ITEM

float3 round_to_storage3(float3 v) {
  return (float3)(round_to_storage2(v.xy), round_to_storage2((float2)(v.z, 0.0f)).x);
}

float3 tile_at(__local float (*t)[TY][TX], int ly, int lx) {
  return (float3)(t[0][ly][lx], t[1][ly][lx], t[2][ly][lx]);
}

void tile_put(__local float (*t)[TY][TX], int ly, int lx, float3 v) {
  t[0][ly][lx] = v.x;
  t[1][ly][lx] = v.y;
  t[2][ly][lx] = v.z;
}

__kernel __attribute__((reqd_work_group_size(TX, TY / ROWS_PER_ITEM, 1)))
void gvf_euler_2steps3d_tiled(__global const elem_t* v, __global const elem_t* v0,
                              __global elem_t* out, int width, int height, int depth,
                              float mu) {
  // Plane q uses tiles [q & 1]; a tile is rewritten only at plane q + 2, after every work-item
  // has passed plane q + 1's barrier, i.e. finished reading it: one barrier per plane.
  __local float tin[2][3][TY][TX];  // input plane q
  __local float tst[2][3][TY][TX];  // once-stepped plane q - 1
  const int lx = get_local_id(0), ly0 = get_local_id(1) * RPI;
  const int x = get_group_id(0) * (TX - 4) + lx - 2;
  const int y0 = get_group_id(1) * (TY - 4) + ly0 - 2;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  const size_t stride = (size_t)width * height, n = stride * depth;
  // In-plane neighbours under the mirror rule (x == 0 reads x + 1), clamped into the tile.
  // Out-of-image work-items load the mirrored voxel; their own results are never used.
  const int lxm = clamp(x > 0 ? lx - 1 : lx + 1, 0, TX - 1);
  const int lxp = clamp(x < width - 1 ? lx + 1 : lx - 1, 0, TX - 1);
  const int mx = mirror_index(x, width);
  size_t col[RPI];
  int lym[RPI], lyp[RPI];
  bool upReg[RPI], downReg[RPI], writes[RPI];
#pragma unroll
  for (int r = 0; r < RPI; ++r) {
    const int y = y0 + r, ly = ly0 + r;
    col[r] = (size_t)mirror_index(y, height) * width + mx;
    lym[r] = clamp(y > 0 ? ly - 1 : ly + 1, 0, TY - 1);
    lyp[r] = clamp(y < height - 1 ? ly + 1 : ly - 1, 0, TY - 1);
    upReg[r] = r > 0 && y > 0;  // the neighbour row is in this work-item's run
    downReg[r] = r < RPI - 1 && y < height - 1;
    writes[r] = lx >= 2 && lx < TX - 2 && ly >= 2 && ly < TY - 2 && x < width && y < height;
  }

  const int qa = max(z0 - 1, 0), qb = z1;
  float3 in_m[RPI], in_c[RPI], in_p[RPI];  // input planes q-1, q, q+1
  float3 s_m[RPI], s_c[RPI];               // once-stepped planes q-2, q-1
  float3 b_p[RPI], b_c[RPI], b_n[RPI];     // V0 at planes q-1, q, q+1 (prefetched)
#pragma unroll
  for (int r = 0; r < RPI; ++r) {
    in_m[r] = LOAD3(v, mirror_index(qa - 1, depth) * stride + col[r], n);
    in_c[r] = LOAD3(v, qa * stride + col[r], n);
    in_p[r] = LOAD3(v, mirror_index(qa + 1, depth) * stride + col[r], n);
    b_c[r] = LOAD3(v0, qa * stride + col[r], n);
    s_m[r] = s_c[r] = b_p[r] = b_n[r] = (float3)(0.0f);
  }
  for (int q = qa; q <= qb; ++q) {
    const int k = q & 1;
    const int p = q - 1;         // the plane whose second step is now possible
    const bool second = p >= z0;  // z0 >= 0, so p is a plane of this chunk
#pragma unroll
    for (int r = 0; r < RPI; ++r) {
      if (q < depth) tile_put(tin[k], ly0 + r, lx, in_c[r]);
      if (second) tile_put(tst[k], ly0 + r, lx, s_c[r]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);

    float3 s_n[RPI];  // once-stepped plane q
    if (q < depth) {
#pragma unroll
      for (int r = 0; r < RPI; ++r) {
        const float3 up = upReg[r] ? in_c[r > 0 ? r - 1 : 0] : tile_at(tin[k], lym[r], lx);
        const float3 down =
            downReg[r] ? in_c[r < RPI - 1 ? r + 1 : r] : tile_at(tin[k], lyp[r], lx);
        const float3 lap = tile_at(tin[k], ly0 + r, lxm) + tile_at(tin[k], ly0 + r, lxp) + up +
                           down + in_m[r] + in_p[r] - 6.0f * in_c[r];
        s_n[r] = round_to_storage3(in_c[r] + mu * lap - (in_c[r] - b_c[r]) * dot(b_c[r], b_c[r]));
      }
      // Loads for the next planes, issued a plane ahead of their use.
      const size_t next = mirror_index(min(q + 2, depth), depth) * stride;
      const size_t nextB = min(q + 1, depth - 1) * stride;
#pragma unroll
      for (int r = 0; r < RPI; ++r) {
        in_m[r] = in_c[r];
        in_c[r] = in_p[r];
        in_p[r] = LOAD3(v, next + col[r], n);
        b_n[r] = LOAD3(v0, nextB + col[r], n);
      }
    } else {
#pragma unroll
      for (int r = 0; r < RPI; ++r) s_n[r] = (float3)(0.0f);
    }

    if (second) {
#pragma unroll
      for (int r = 0; r < RPI; ++r) {
        if (!writes[r]) continue;
        // Mirror rule along z (volumes have depth >= 2).
        const float3 below = p == 0 ? s_n[r] : s_m[r];
        const float3 above = p == depth - 1 ? s_m[r] : s_n[r];
        const float3 up = upReg[r] ? s_c[r > 0 ? r - 1 : 0] : tile_at(tst[k], lym[r], lx);
        const float3 down =
            downReg[r] ? s_c[r < RPI - 1 ? r + 1 : r] : tile_at(tst[k], lyp[r], lx);
        const float3 lap = tile_at(tst[k], ly0 + r, lxm) + tile_at(tst[k], ly0 + r, lxp) + up +
                           down + below + above - 6.0f * s_c[r];
        STORE3(s_c[r] + mu * lap - (s_c[r] - b_p[r]) * dot(b_p[r], b_p[r]), out,
               p * stride + col[r], n);
      }
    }
#pragma unroll
    for (int r = 0; r < RPI; ++r) {
      s_m[r] = s_c[r];
      s_c[r] = s_n[r];
      b_p[r] = b_c[r];
      b_c[r] = b_n[r];
    }
  }
}
