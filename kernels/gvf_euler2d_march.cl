// HALO Euler steps a launch with no vertical halo and no barriers (TileShape::march): a warp of
// 32 work-items owns a strip of 32 * COLS_PER_ITEM columns (each lane COLS_PER_ITEM consecutive
// pixels; the outer HALO columns on each side are halo, not written) and marches down a chunk of
// TILE_H rows, plus HALO warm-up rows above and below, one row a loop turn. Temporal blocking as
// a pipeline: when row j of V arrives, step 1 is computed at row j-1 from rows j-2..j, step 2 at
// row j-2 from step 1's rows, ..., step `steps` at row j-steps, which is written if it lies in the
// chunk. Each step keeps its last two rows in registers (three with the one just made), V0 a
// window of HALO rows with |V0|^2 made once a row (H200, 4096²: 38.7 -> 37.6 us an iteration;
// the window in local memory instead, 49.8). Work-group: ROWS_PER_ITEM warps side by side,
// each independent.
// Same arithmetic, rounding (round_to_storage2) and boundary rule as gvf_euler2d_wide.cl, so
// the same floats (tests): columns outside the image hold the reflected columns (a mirrored
// column steps exactly like the one it mirrors, gvf_euler2d_wide.cl says why); rows keep the
// rule, uniform across the warp since it is on one row; rows outside the image are never used.
// A lane's end columns' neighbours come from the next lanes by shuffles on NVIDIA (MARCH_SHFL,
// set by the host) or through local memory with barriers elsewhere (the same values).
// MARCH_L2_AHEAD (NVIDIA, chunks of <= 128 rows): rows fetched into L2 that many turns ahead,
// with no register held, since loading them into registers sooner costs registers and so
// resident warps (H200, 4096² in 118-row chunks: 35.0 -> 33.5 us an iteration), and float32
// rows are stored streaming (store_pixvec).
// A chunk's first turns leave out the steps that no written value needs (march).

#include "gvf_storage.clh"
#include "gvf_stencil.clh"

// The shape comes from the host (tileOptions, which leaves out one column a lane).
#if !defined(TILE_H) || !defined(ROWS_PER_ITEM) || !defined(HALO)
#error "gvf_euler2d_march.cl is built with its shape: TILE_H, ROWS_PER_ITEM, HALO"
#endif
#ifndef COLS_PER_ITEM
#define COLS_PER_ITEM 1
#endif
#ifndef MARCH_PREFETCH
#define MARCH_PREFETCH 1  // rows loaded ahead
#endif
#define K COLS_PER_ITEM
#define G HALO
#define D MARCH_PREFETCH
#define STRIP (32 * K)
#define LEAD_STAGES 2  // a chunk's first turns that leave out steps, as loops of their own

// A lane loads and stores its pixels as whole vectors where they allow (gvf_storage.clh).
void unpack(pixvec_t q, float2* p) {
  p[0] = q.s01;
  p[1] = q.s23;
#if PIX_VEC == 4
  p[2] = q.s45;
  p[3] = q.s67;
#endif
}
pixvec_t pack(const float2* p) {
#if PIX_VEC == 4
  return (pixvec_t)(p[0], p[1], p[2], p[3]);
#else
  return (pixvec_t)(p[0], p[1]);
#endif
}

#ifdef MARCH_SHFL
float shfl_up1(float v) {
  int r;
  asm volatile("shfl.sync.up.b32 %0, %1, 1, 0, -1;" : "=r"(r) : "r"(as_int(v)));
  return as_float(r);
}
float shfl_down1(float v) {
  int r;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 31, -1;" : "=r"(r) : "r"(as_int(v)));
  return as_float(r);
}
#endif

#ifdef MARCH_L2_AHEAD
void l2_fetch(__global const elem_t* a) {
  asm volatile("prefetch.global.L2 [%0];" ::"l"((ulong)a));
}
#endif

// The previous lane's last pixel and the next lane's first (a warp's end lanes get their own).
void lane_neighbours(float2 first, float2 last, float2* left, float2* right, __local float2* xch) {
#ifdef MARCH_SHFL
  *left = (float2)(shfl_up1(last.x), shfl_up1(last.y));
  *right = (float2)(shfl_down1(first.x), shfl_down1(first.y));
#else
  const int id = get_local_id(0), lane = id % 32;
  barrier(CLK_LOCAL_MEM_FENCE);
  xch[2 * id] = first;
  xch[2 * id + 1] = last;
  barrier(CLK_LOCAL_MEM_FENCE);
  *left = xch[2 * (lane > 0 ? id - 1 : id) + 1];
  *right = xch[2 * (lane < 31 ? id + 1 : id)];
#endif
}

typedef struct {
  int x0;        // image column of the lane's first pixel
  int fx[K];     // the column each pixel loads (reflected)
  bool vec;      // the lane's pixels are whole aligned vectors inside the image
  bool keep[K];  // written back
  bool keepAll;
} lane_place;

lane_place place_lane(int width) {
  lane_place p;
  const int lane = get_local_id(0) % 32, strip = get_global_id(0) / 32;
  const int lx0 = lane * K;
  p.x0 = strip * (STRIP - 2 * G) - G + lx0;
  p.vec = K % PIX_VEC == 0 && width % PIX_VEC == 0 && p.x0 % PIX_VEC == 0 && p.x0 >= 0 &&
          p.x0 + K <= width;
  p.keepAll = true;
#pragma unroll
  for (int c = 0; c < K; ++c) {
    p.fx[c] = reflect_index(p.x0 + c, width);
    p.keep[c] = lx0 + c >= G && lx0 + c < STRIP - G && p.x0 + c < width;
    p.keepAll = p.keepAll && p.keep[c];
  }
  return p;
}

void load_row(__global const elem_t* f, int y, int width, const lane_place* p, float2* d) {
  if (p->vec) {
    const size_t e = 2 * ((size_t)y * width + p->x0);
#pragma unroll
    for (int c = 0; c < K / PIX_VEC; ++c)
      unpack(LOAD_PIXVEC(f, e + 2 * PIX_VEC * c), d + c * PIX_VEC);
  } else {
#pragma unroll
    for (int c = 0; c < K; ++c) d[c] = LOAD_V2(f, p->fx[c], y, width);
  }
}

// A whole vector stored. Short chunks on NVIDIA (MARCH_L2_AHEAD) store float32 rows as
// streaming (st.global.cs, evicted first): the next launch reads them only after the whole field,
// larger than L2, has passed, and L2 keeps the rows fetched ahead (H200, 4096²: 32.7-32.8 ->
// 32.45-32.56 us an iteration; 3000²: 18.7 -> 18.5).
void store_pixvec(pixvec_t w, __global elem_t* f, size_t e) {
#if defined(MARCH_L2_AHEAD) && PIX_VEC == 2  // float32 (gvf_storage.clh)
  asm volatile("st.global.cs.v4.f32 [%0], {%1, %2, %3, %4};" ::"l"((ulong)(f + e)), "f"(w.x),
               "f"(w.y), "f"(w.z), "f"(w.w)
               : "memory");
#else
  STORE_PIXVEC(w, f, e);
#endif
}

void store_row(__global elem_t* f, int y, int width, const lane_place* p, const float2* o) {
  if (p->vec && p->keepAll) {
    const size_t e = 2 * ((size_t)y * width + p->x0);
#pragma unroll
    for (int c = 0; c < K / PIX_VEC; ++c)
      store_pixvec(pack(o + c * PIX_VEC), f, e + 2 * PIX_VEC * c);
  } else {
#pragma unroll
    for (int c = 0; c < K; ++c)
      if (p->keep[c]) STORE_V2(f, p->fx[c], y, width, o[c]);
  }
}

// One step of a row from its rows above (u), itself (m) and below (d), all rounded to the
// storage, under the row rule at the image's first and last rows (a plain chunk has neither);
// b is V0 there and bb |V0|^2, made once a row.
void step_row(const float2* u, const float2* m, const float2* d, const float2* b, const float* bb,
              float2 left, float2 right, float2* o, float mu, bool plain, bool top, bool bottom,
              bool single) {
#pragma unroll
  for (int c = 0; c < K; ++c) {
    const float2 l = c == 0 ? left : m[c > 0 ? c - 1 : 0];
    const float2 r = c == K - 1 ? right : m[c < K - 1 ? c + 1 : c];
    const float2 up = plain || !top ? u[c] : (single ? m[c] : d[c]);
    const float2 down = plain || !bottom ? d[c] : (single ? m[c] : u[c]);
    const float2 cc = m[c];
    const float2 lap = GVF_LAP2(cc, l, r, up, down);
    o[c] = GVF_STEP2(cc, lap, b[c], bb[c], mu);
  }
}

// One turn at row j of V: loads ahead, steps 1..act, each at the row it reaches, and the windows
// moved on. A turn runs every step (act = G) but in a chunk's first turns, where a step's rows are
// not yet valid or not needed: those steps are left out (act < G) and only the window that the
// next step will read moves on (that step's first turn takes it full); the windows above it hold
// rows no written value depends on, as the steps that would fill them do.
void march_turn(__global const elem_t* v, __global const elem_t* v0, __global elem_t* out,
                int width, int height, float mu, int steps, const lane_place* p, int cs, int ce,
                int rowLast, bool plain, int j, int act, float2 prev[G][K], float2 cur[G][K],
                float2 b[G][K], float bb[G][K], float2 qv[D + 1][K], float2 qb[D + 1][K],
                bool l2_lane, __local float2* xch) {
#ifdef MARCH_L2_AHEAD
  if (l2_lane && j + MARCH_L2_AHEAD <= rowLast) {
    const size_t e = 2 * ((size_t)(j + MARCH_L2_AHEAD) * width + p->fx[0]);
    l2_fetch(v + e);
    l2_fetch(v0 + e);
  }
#endif
  if (j + D <= rowLast) {
    load_row(v, j + D, width, p, qv[D]);
    load_row(v0, j + D, width, p, qb[D]);
  }
  float2 row[K], rb[K];
  float rbb[K];
#pragma unroll
  for (int c = 0; c < K; ++c) {
    row[c] = round_to_storage2(qv[0][c]);  // past the last row: unused
    rb[c] = qb[0][c];
    rbb[c] = dot(rb[c], rb[c]);
  }
#pragma unroll
  for (int m = 0; m < D; ++m) {
#pragma unroll
    for (int c = 0; c < K; ++c) {
      qv[m][c] = qv[m + 1][c];
      qb[m][c] = qb[m + 1][c];
    }
  }
  // The steps past `steps` run too (only in a launch's last turns, unused). Through local memory
  // the neighbours' barriers are met in every turn, left-out steps too: none under a condition.
#pragma unroll
  for (int k = 1; k <= G; ++k) {
    float2 left = (float2)(0.0f), right = (float2)(0.0f);
#ifdef MARCH_SHFL
    if (k <= act)
#endif
      lane_neighbours(cur[k - 1][0], cur[k - 1][K - 1], &left, &right, xch);
    if (k <= act) {
      const int i = j - k;
      float2 o[K];
      step_row(prev[k - 1], cur[k - 1], row, b[k - 1], bb[k - 1], left, right, o, mu, plain, i == 0,
               i == height - 1, height == 1);
#pragma unroll
      for (int c = 0; c < K; ++c) {
        prev[k - 1][c] = cur[k - 1][c];
        cur[k - 1][c] = row[c];
        row[c] = round_to_storage2(o[c]);
      }
      if (k == steps && i >= cs && i < ce) store_row(out, i, width, p, o);
    } else if (k == act + 1) {
#pragma unroll
      for (int c = 0; c < K; ++c) {
        prev[k - 1][c] = cur[k - 1][c];
        cur[k - 1][c] = row[c];
      }
    }
  }
#pragma unroll
  for (int k = G - 1; k > 0; --k)
#pragma unroll
    for (int c = 0; c < K; ++c) {
      b[k][c] = b[k - 1][c];
      bb[k][c] = bb[k - 1][c];
    }
#pragma unroll
  for (int c = 0; c < K; ++c) {
    b[0][c] = rb[c];
    bb[0][c] = rbb[c];
  }
}

// The march over rows rowFirst.. of a chunk [cs, ce); `plain`: no row of the image's first or
// last is among them, so no step needs the row rule (the caller passes a constant, so the loop
// is compiled once with the rule and once without).
void march(__global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
           int height, float mu, int steps, const lane_place* p, int cs, int ce, int rowFirst,
           int rowLast, bool plain, __local float2* xch) {
  // Rows j-k-2 and j-k-1 of step k (k = 0: V) at the start of turn j; V0's rows j-1..j-G and
  // their |V0|^2.
  float2 prev[G][K], cur[G][K], b[G][K];
  float bb[G][K];
#pragma unroll
  for (int k = 0; k < G; ++k)
#pragma unroll
    for (int c = 0; c < K; ++c) {
      prev[k][c] = cur[k][c] = b[k][c] = (float2)(0.0f);
      bb[k][c] = 0.0f;
    }
  // Rows j..j+D of V and V0 at turn j: each row is loaded D turns before it is used.
  float2 qv[D + 1][K], qb[D + 1][K];
#pragma unroll
  for (int m = 0; m <= D; ++m) {
#pragma unroll
    for (int c = 0; c < K; ++c) qv[m][c] = qb[m][c] = (float2)(0.0f);
    if (m < D && rowFirst + m <= rowLast) {
      load_row(v, rowFirst + m, width, p, qv[m]);
      load_row(v0, rowFirst + m, width, p, qb[m]);
    }
  }
  // The lanes that fetch V's and V0's row MARCH_L2_AHEAD rows on into L2 (no register held):
  // one in every 8 (16 bytes each) and the last, so one in every 128-byte line of the row.
  const bool l2_lane = get_local_id(0) % 8 == 0 || get_local_id(0) % 32 == 31;
  // A chunk's first turns leave out the steps whose rows are not yet valid or not needed: step k
  // first has both at turn rowFirst + 2k (turn k in the image's first chunk, whose rows start at
  // the image's first row, under the row rule). The first LEAD_STAGES stages (no step, then step
  // 1 alone, ...) are loops of their own; after them every turn runs every step. H200, 4096²
  // f32, us an iteration: no stage 33.56-33.67, one 33.02-33.11 (94 registers), two 32.69-32.79,
  // three 32.92-32.96 (96), all four 39.8 (108 registers: fewer resident warps).
  const int last = ce - 1 + steps, perStep = rowFirst > 0 ? 2 : 1;
  int j = rowFirst;
#pragma unroll
  for (int a = 0; a < LEAD_STAGES; ++a) {
    const int until = min(rowFirst + perStep * (a + 1), last + 1);
#pragma unroll 1
    for (; j < until; ++j)
      march_turn(v, v0, out, width, height, mu, steps, p, cs, ce, rowLast, plain, j, a, prev, cur,
                 b, bb, qv, qb, l2_lane, xch);
  }
  // Not unrolled: unrolled by 2, 4 or 8 the windows' shifts become renaming, but the kernel
  // takes 152 registers at 4 and runs 45-48 us an iteration at 4096² against 38 (H200).
#pragma unroll 1
  for (; j <= last; ++j)
    march_turn(v, v0, out, width, height, mu, steps, p, cs, ce, rowLast, plain, j, G, prev, cur, b,
               bb, qv, qb, l2_lane, xch);
}

__kernel __attribute__((reqd_work_group_size(32 * ROWS_PER_ITEM, 1, 1))) void gvf_euler_steps_march(
    __global const elem_t* v, __global const elem_t* v0, __global elem_t* out, int width,
    int height, float mu, int steps) {
  __local float2 xch[2 * 32 * ROWS_PER_ITEM];
  const lane_place p = place_lane(width);
  const int cs = get_group_id(1) * TILE_H, ce = min(cs + TILE_H, height);
  const int rowFirst = max(cs - G, 0), rowLast = min(ce - 1 + G, height - 1);
  steps = min(steps, G);
  // Rows outside [rowFirst, rowLast] are never valid, so a chunk that loads neither image end
  // row has no step where the rule matters.
  if (rowFirst > 0 && rowLast < height - 1)
    march(v, v0, out, width, height, mu, steps, &p, cs, ce, rowFirst, rowLast, true, xch);
  else
    march(v, v0, out, width, height, mu, steps, &p, cs, ce, rowFirst, rowLast, false, xch);
}
