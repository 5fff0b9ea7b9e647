// Two explicit Euler steps of 3D GVF per launch (temporal blocking, streamed along z).
// A work-group of TX x TY work-items owns an xy tile with a 2-pixel frame and walks a chunk
// of ZCHUNK planes. Each work-item keeps, for its column, the input planes q-1, q, q+1 and the
// once-stepped planes q-2, q-1, q in registers; the in-plane neighbours come from two local
// tiles. The once-stepped field is rounded to the storage format, so the result equals two
// single-step launches of gvf_euler3d.cl (same arithmetic, same boundary rule). The frame
// shrinks by one pixel per step, so the inner (TX-4) x (TY-4) part is exact. Build with -DDIMS3;
// buffers in the planar layout of gvf_storage.clh.
#include "gvf_storage.clh"

#ifndef TX
#define TX 32
#endif
#ifndef TY
#define TY 32
#endif
#ifndef ZCHUNK
#define ZCHUNK 32
#endif
// Element indices in 32 bits where the host finds the fields small enough (3 n < 2^32).
#if defined(INDEX32)
typedef uint index_t;
#else
typedef size_t index_t;
#endif

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

__kernel __attribute__((reqd_work_group_size(TX, TY, 1)))
void gvf_euler_2steps3d_tiled(__global const elem_t* v, __global const elem_t* v0,
                              __global elem_t* out, int width, int height, int depth,
                              float mu) {
  __local float tile0[3][TY][TX];  // input plane q
  __local float tile1[3][TY][TX];  // once-stepped plane q-1
  const int lx = get_local_id(0), ly = get_local_id(1);
  const int x = get_group_id(0) * (TX - 4) + lx - 2;
  const int y = get_group_id(1) * (TY - 4) + ly - 2;
  const int z0 = get_group_id(2) * ZCHUNK;
  const int z1 = min(z0 + ZCHUNK, depth);
  const index_t stride = (index_t)width * height, n = stride * depth;
  // Out-of-image work-items load the mirrored pixel; their own results are never used.
  const index_t col = (index_t)mirror_index(y, height) * width + mirror_index(x, width);
  // In-plane neighbours under the mirror rule (x == 0 reads x + 1), clamped into the tile.
  const int lxm = clamp(x > 0 ? lx - 1 : lx + 1, 0, TX - 1);
  const int lxp = clamp(x < width - 1 ? lx + 1 : lx - 1, 0, TX - 1);
  const int lym = clamp(y > 0 ? ly - 1 : ly + 1, 0, TY - 1);
  const int lyp = clamp(y < height - 1 ? ly + 1 : ly - 1, 0, TY - 1);
  const bool writes = lx >= 2 && lx < TX - 2 && ly >= 2 && ly < TY - 2 && x < width && y < height;

  const int qa = max(z0 - 1, 0), qb = min(z1, depth);
  float3 in_m = LOAD3(v, mirror_index(qa - 1, depth) * stride + col, n);
  float3 in_c = LOAD3(v, qa * stride + col, n);
  float3 in_p = LOAD3(v, mirror_index(qa + 1, depth) * stride + col, n);
  float3 s_m = (float3)(0.0f), s_c = (float3)(0.0f), s_p = (float3)(0.0f);  // stepped once
  float3 b_prev = (float3)(0.0f);
  float bb_prev = 0.0f;  // |V0|² at plane q - 1, from the first step there
  // With 32-bit indices, two planes per loop turn save register moves: 256³ x 256 on an H200
  // f16 32.2 -> 30.7 ms, f32 34.5 -> 34.1 ms (three or six planes were slower, and so were two
  // with 64-bit indices: 39.3 ms).
#if defined(INDEX32)
#pragma unroll 2
#endif
  for (int q = qa; q <= qb; ++q) {
    float3 b = (float3)(0.0f);
    float bb = 0.0f;
    float3 stepped = (float3)(0.0f);
    if (q < depth) {
      b = LOAD3(v0, q * stride + col, n);
      bb = dot(b, b);
      tile_put(tile0, ly, lx, in_c);
      barrier(CLK_LOCAL_MEM_FENCE);
      const float3 lap = tile_at(tile0, ly, lxm) + tile_at(tile0, ly, lxp) +
                         tile_at(tile0, lym, lx) + tile_at(tile0, lyp, lx) + in_m + in_p -
                         6.0f * in_c;
      stepped = round_to_storage3(in_c + mu * lap - (in_c - b) * bb);
      in_m = in_c;
      in_c = in_p;
      in_p = LOAD3(v, mirror_index(min(q + 2, depth), depth) * stride + col, n);
    }
    s_m = s_c;
    s_c = s_p;
    s_p = stepped;
    const int p = q - 1;  // the plane whose second step is now possible
    if (p >= max(z0, 0)) {
      tile_put(tile1, ly, lx, s_c);
      barrier(CLK_LOCAL_MEM_FENCE);
      if (writes) {
        const float3 below = p == 0 ? s_p : s_m;  // mirror rule along z
        const float3 above = p == depth - 1 ? s_m : s_p;
        const float3 lap = tile_at(tile1, ly, lxm) + tile_at(tile1, ly, lxp) +
                           tile_at(tile1, lym, lx) + tile_at(tile1, lyp, lx) + below + above -
                           6.0f * s_c;
        STORE3(s_c + mu * lap - (s_c - b_prev) * bb_prev, out, p * stride + col, n);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    b_prev = b;
    bb_prev = bb;
  }
}
