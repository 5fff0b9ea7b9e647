// Multigrid GVF operators (second paper, Sect. 2.1), all vector components in one pass.
// The discretisation, per component, on level l with k = mu / h_l^2 (h_l = 2^l):
//   A v = k * (sum of the 2*DIMS neighbours - 2*DIMS*v) - S*v,   solve A v = f.
// With WORLD_SPACING (spacing.clh) each axis' pair of neighbours is weighted by 1/s_i^2 (s the
// finest level's spacing; every level doubles all axes, so the weights hold on each) and
// 2*DIMS becomes LAP_CENTRE (MG_CENTRE).
// Level 0: v is the GVF field V in the solver's storage (gvf_storage.clh), f = -|V0|^2 V0 and
// S = |V0|^2 are made from V0 on the fly (build with -DFINE; `rhs` is then V0 and `s` unused).
// Coarser levels: float32 buffers for v (the correction), f and S (build without -DFINE).
// Layout as gvf_storage.clh: 2D interleaved float2, 3D one plane per component with every
// level's rows in parity order (V and V0 built with -DPARITY_ROWS): mg_index.
// Boundary rule of every kernel: a read at -1 returns index 1, at n returns n-2.
#include "gvf_storage.clh"
#include "spacing.clh"

#ifdef DIMS3
#define DIMS 3
typedef float3 vec_t;
#define CLOAD(p, i, n) (float3)((p)[i], (p)[(n) + (i)], (p)[2 * (n) + (i)])
#define CSTORE(v, p, i, n)     \
  do {                         \
    float3 c_ = (v);           \
    (p)[i] = c_.x;             \
    (p)[(n) + (i)] = c_.y;     \
    (p)[2 * (n) + (i)] = c_.z; \
  } while (0)
#define SLOAD(p, i, n) LOAD3((p), (i), (n))
#define SSTORE(v, p, i, n) STORE3((v), (p), (i), (n))
#else
#define DIMS 2
typedef float2 vec_t;
#define CLOAD(p, i, n) vload2((i), (p))
#define CSTORE(v, p, i, n) vstore2((v), (i), (p))
#define SLOAD(p, i, n) LOAD2((p), (i))
#define SSTORE(v, p, i, n) STORE2((v), (p), (i))
#endif

#ifdef FINE
typedef elem_t v_t;
typedef elem_t rhs_t;
#define VLOAD(p, i, n) SLOAD(p, i, n)
#define VSTORE(v, p, i, n) SSTORE(v, p, i, n)
#define LOAD_RHS_S(rhs, s, i, n, f_, s_) \
  do {                                   \
    vec_t b_ = SLOAD(rhs, i, n);         \
    s_ = dot(b_, b_);                    \
    f_ = -s_ * b_;                       \
  } while (0)
#else
typedef float v_t;
typedef float rhs_t;
#define VLOAD(p, i, n) CLOAD(p, i, n)
#define VSTORE(v, p, i, n) CSTORE(v, p, i, n)
#define LOAD_RHS_S(rhs, s, i, n, f_, s_) \
  do {                                   \
    f_ = CLOAD(rhs, i, n);               \
    s_ = (s)[i];                         \
  } while (0)
#endif

#ifdef DIMS3
#if defined(FINE) && !defined(PARITY_ROWS)
#error "3D multigrid reads V and V0 with their rows in parity order: build with -DPARITY_ROWS"
#endif
// Point indices of the level's buffers: int where DIMS times the level's points fit
// (-DMG_INDEX32 from the host: 32-bit address arithmetic), else 64-bit.
#ifdef MG_INDEX32
typedef int mg_off_t;
#else
typedef long mg_off_t;
#endif
mg_off_t mg_index(int x, int y, int z, int w, int h) {
  return ((mg_off_t)z * h + y) * w + parity_row_pos(x, w);
}
#else
typedef size_t mg_off_t;
size_t mg_index(int x, int y, int z, int w, int h) { return ((size_t)z * h + y) * w + x; }
#endif

#ifdef WORLD_SPACING
#define MG_CENTRE LAP_CENTRE
#define MG_SUM2(a, b, c, d) LAP_PAIRS2((a) + (b), (c) + (d))
#define MG_ADD_Z(e, f) (LAP_WZ * ((e) + (f)))
#else
#define MG_CENTRE (2 * DIMS)
#define MG_SUM2(a, b, c, d) ((a) + (b) + (c) + (d))
#define MG_ADD_Z(e, f) ((e) + (f))
#endif

vec_t neighbour_sum(__global const v_t* v, int x, int y, int z, int w, int h, int d) {
  const mg_off_t n = (mg_off_t)w * h * d;
#ifdef DIMS3
  // Parity-ordered rows: one row base; the x neighbours lie in the other half of the row, the
  // y and z ones at the point's own position in the rows beside it.
  const mg_off_t row = ((mg_off_t)z * h + y) * w, i = row + parity_row_pos(x, w);
  const mg_off_t dy = w, dz = (mg_off_t)w * h;
  vec_t sum = MG_SUM2(VLOAD(v, row + parity_row_pos(mirror_index(x - 1, w), w), n),
                      VLOAD(v, row + parity_row_pos(mirror_index(x + 1, w), w), n),
                      VLOAD(v, i + (mirror_index(y - 1, h) - y) * dy, n),
                      VLOAD(v, i + (mirror_index(y + 1, h) - y) * dy, n));
  sum += MG_ADD_Z(VLOAD(v, i + (mirror_index(z - 1, d) - z) * dz, n),
                  VLOAD(v, i + (mirror_index(z + 1, d) - z) * dz, n));
  return sum;
#else
  return MG_SUM2(VLOAD(v, mg_index(mirror_index(x - 1, w), y, z, w, h), n),
                 VLOAD(v, mg_index(mirror_index(x + 1, w), y, z, w, h), n),
                 VLOAD(v, mg_index(x, mirror_index(y - 1, h), z, w, h), n),
                 VLOAD(v, mg_index(x, mirror_index(y + 1, h), z, w, h), n));
#endif
}

// One colour of red-black Gauss-Seidel, in place: the points of this colour read only
// neighbours of the other colour (the mirror rule keeps parity), so no copy is needed.
// Global size: (ceil(w / 2), h[, d]); work-item x covers x = 2 * gx + parity.
// from_zero: v is 0 at every neighbour (a correction just restricted to, not yet written):
// they are not read, so v need not have been zeroed.
__kernel void mg_smooth(__global v_t* v, __global const rhs_t* rhs, __global const float* s, int w,
                        int h, int d, float k, int colour, int from_zero) {
  const int y = get_global_id(1), z = get_global_id(2);
  const int x = 2 * (int)get_global_id(0) + ((y + z + colour) & 1);
  if (x >= w || y >= h || z >= d) return;
  const mg_off_t n = (mg_off_t)w * h * d, i = mg_index(x, y, z, w, h);
  vec_t f;
  float sv;
  LOAD_RHS_S(rhs, s, i, n, f, sv);
  const float denom = MG_CENTRE * k + sv;
  const vec_t nsum = from_zero ? (vec_t)(0.0f) : neighbour_sum(v, x, y, z, w, h, d);
  if (denom > 0.0f) VSTORE((k * nsum - f) / denom, v, i, n);
}

// The value a colour pass leaves in v (stored and loaded again: identity on float32 levels),
// so the fused sweep's black points read exactly what the two-pass sweep's do.
#ifdef FINE
float mg_stored1(float x) {
  elem_raw_t tmp[1];
  __private elem_t* p = (__private elem_t*)tmp;
  STORE1(x, p, 0);
  return LOAD1(p, 0);
}
#else
float mg_stored1(float x) { return x; }
#endif

// One whole red-black sweep (colour 0, then colour 1) in one launch, vin -> vout (not in
// place: a neighbouring tile must still read the old black values). A work-group owns a tile
// of MG_TX x MG_TY x MG_TZ points; it first updates the red points of the tile grown by one
// (they need black values at most two away, read from vin) into local memory, then the black
// points of the tile from those. Same arithmetic, in the same order, as two mg_smooth passes;
// v is read and written once per sweep instead of twice. Work-group: (32, 8, 1); global:
// (32 * tiles in x, 8 * tiles in y, tiles in z).
#define MG_TX 32
#define MG_HX (MG_TX / 2 + 1)
#ifdef DIMS3
#define MG_TY 8
#define MG_TZ 8
#define MG_ZH 1
#else
#define MG_TY 32
#define MG_TZ 1
#define MG_ZH 0
#endif
#define MG_LY (MG_TY + 2)
#define MG_LZ (MG_TZ + 2 * MG_ZH)
#define MG_LN (MG_HX * MG_LY * MG_LZ)
#define MG_RED(lx, ly, lz) (((lz)*MG_LY + (ly)) * MG_HX + ((lx) >> 1))

__kernel __attribute__((reqd_work_group_size(32, 8, 1))) void mg_smooth_fused(
    __global const v_t* vin, __global v_t* vout, __global const rhs_t* rhs, __global const float* s,
    int w, int h, int d, float k) {
  __local float red[DIMS * MG_LN];  // one plane per component
  const int x0 = get_group_id(0) * MG_TX, y0 = get_group_id(1) * MG_TY,
            z0 = get_group_id(2) * MG_TZ;
  const int lid = get_local_id(1) * 32 + get_local_id(0);
  const mg_off_t n = (mg_off_t)w * h * d;
  for (int j = lid; j < MG_LN; j += 256) {
    const int ly = (j / MG_HX) % MG_LY, lz = j / (MG_HX * MG_LY);
    const int y = y0 - 1 + ly, z = z0 - MG_ZH + lz;
    const int lx = 2 * (j % MG_HX) + ((x0 - 1 + y + z) & 1);  // x + y + z even: red
    const int x = x0 - 1 + lx;
    if (x < 0 || x >= w || y < 0 || y >= h || z < 0 || z >= d || lx > MG_TX + 1) continue;
    const mg_off_t i = mg_index(x, y, z, w, h);
    vec_t val = VLOAD(vin, i, n), f;
    float sv;
    LOAD_RHS_S(rhs, s, i, n, f, sv);
    const float denom = MG_CENTRE * k + sv;  // as mg_smooth (same contraction)
    if (denom > 0.0f) val = (k * neighbour_sum(vin, x, y, z, w, h, d) - f) / denom;
    red[j] = mg_stored1(val.x);
    red[MG_LN + j] = mg_stored1(val.y);
#ifdef DIMS3
    red[2 * MG_LN + j] = mg_stored1(val.z);
#endif
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int x = x0 + get_local_id(0), y = y0 + get_local_id(1);
  if (x >= w || y >= h) return;
  for (int tz = 0; tz < MG_TZ; ++tz) {
    const int z = z0 + tz;
    if (z >= d) break;
    for (int ty = y; ty < min(y0 + MG_TY, h); ty += 8) {
      const int lx = x - x0 + 1, ly = ty - y0 + 1, lz = z - z0 + MG_ZH;
      const mg_off_t i = mg_index(x, ty, z, w, h);
      vec_t val;
      if (((x + ty + z) & 1) == 0) {
        const int r = MG_RED(lx, ly, lz);
#ifdef DIMS3
        val = (vec_t)(red[r], red[MG_LN + r], red[2 * MG_LN + r]);
#else
        val = (vec_t)(red[r], red[MG_LN + r]);
#endif
      } else {
        val = VLOAD(vin, i, n);
        vec_t f;
        float sv;
        LOAD_RHS_S(rhs, s, i, n, f, sv);
        const float denom = MG_CENTRE * k + sv;  // as mg_smooth (same contraction)
        if (denom > 0.0f) {
          // neighbour_sum's order: x-1, x+1, y-1, y+1 [, z-1 + z+1], mirrored at the borders.
          const int xm = mirror_index(x - 1, w) - x0 + 1, xp = mirror_index(x + 1, w) - x0 + 1;
          const int ym = mirror_index(ty - 1, h) - y0 + 1, yp = mirror_index(ty + 1, h) - y0 + 1;
          // A side of 1 mirrors a point onto itself (same colour): the two passes read its
          // old value there (q = -1).
          const int q[2 * DIMS] = {
              w == 1 ? -1 : MG_RED(xm, ly, lz),
              w == 1 ? -1 : MG_RED(xp, ly, lz),
              h == 1 ? -1 : MG_RED(lx, ym, lz),
              h == 1 ? -1 : MG_RED(lx, yp, lz)
#ifdef DIMS3
                  ,
              d == 1 ? -1 : MG_RED(lx, ly, mirror_index(z - 1, d) - z0 + MG_ZH),
              d == 1 ? -1 : MG_RED(lx, ly, mirror_index(z + 1, d) - z0 + MG_ZH)
#endif
          };
          const vec_t old = val;
#ifdef DIMS3
#define MG_R(t) (q[t] < 0 ? old : (vec_t)(red[q[t]], red[MG_LN + q[t]], red[2 * MG_LN + q[t]]))
          vec_t sum = MG_SUM2(MG_R(0), MG_R(1), MG_R(2), MG_R(3));
          sum += MG_ADD_Z(MG_R(4), MG_R(5));
#else
#define MG_R(t) (q[t] < 0 ? old : (vec_t)(red[q[t]], red[MG_LN + q[t]]))
          const vec_t sum = MG_SUM2(MG_R(0), MG_R(1), MG_R(2), MG_R(3));
#endif
#undef MG_R
          val = (k * sum - f) / denom;
        }
      }
      VSTORE(val, vout, i, n);
    }
  }
}

#ifndef DIMS3
// A level's steps between two visits of the next coarser one in one launch (2D): [v += P e1],
// `sweeps` red-black sweeps, [rhs1 = restrict(f - A v)], vin -> vout (not in place: a
// neighbouring tile still reads the old values). A work-group owns a MF_T² tile; it loads v
// and the right-hand side on the tile grown by the halo H = 2 sweeps (+ 2 with the
// restriction: the residual one beyond the tile at an odd side, reading one more) into local
// memory, then each colour pass updates one ring fewer. Same arithmetic, in the same order,
// as mg_prolong, mg_smooth and mg_restrict, every value rounded through storage as they leave
// it: the same bits. Level 0 (FINE): f and S made from V0; coarser: f and S read (v is e).
// zero_e: e1z zeroed on the tile's coarse cells (e1's other copy, the host then swaps the
// two; or e1 itself when not prolonging: nothing here reads it then).
#define MF_T 32
#define MF_HMAX 6
#define MF_S (MF_T + 2 * MF_HMAX)
#define MF_AT(x, y) (((y)-y0 + MF_HMAX) * MF_S + (x)-x0 + MF_HMAX)
#ifdef FINE
#define MF_ROUND(v) round_to_storage2(v)
#define MF_RHS_S(a, f_, s_)     \
  const float2 b_ = lb[a];      \
  const float s_ = dot(b_, b_); \
  const float2 f_ = -s_ * b_
#else
#define MF_ROUND(v) (v)
#define MF_RHS_S(a, f_, s_) \
  const float2 f_ = lb[a];  \
  const float s_ = ls[a]
#endif

__kernel __attribute__((reqd_work_group_size(256, 1, 1))) void mg_fused_pass(
    __global const v_t* vin, __global v_t* vout, __global const rhs_t* rhs, __global const float* s,
    __global const float* e1, __global float* rhs1, __global float* e1z, int w, int h, int cw,
    int ch, float k, int prolong, int sweeps, int restrict_, int zero_e) {
  __local float2 lv[MF_S * MF_S], lb[MF_S * MF_S];  // v; V0 (FINE) or f
#ifndef FINE
  __local float ls[MF_S * MF_S];
#endif
  const int x0 = get_group_id(0) * MF_T, y0 = get_group_id(1) * MF_T, lid = get_local_id(0);
  const int halo = 2 * sweeps + (restrict_ ? 2 : 0);
  const size_t n = (size_t)w * h;
  // The tile grown by r, within the field: [xa, xb) x [ya, yb).
#define MF_RING(r)                                        \
  const int xa = max(x0 - (r), 0), ya = max(y0 - (r), 0); \
  const int xb = min(x0 + MF_T + (r), w), yb = min(y0 + MF_T + (r), h)
  {
    MF_RING(halo);
    for (int j = lid; j < (xb - xa) * (yb - ya); j += 256) {
      const int x = xa + j % (xb - xa), y = ya + j / (xb - xa);
      const size_t i = (size_t)y * w + x;
      float2 c = VLOAD(vin, i, n);
      if (prolong) c = MF_ROUND(vload2((y / 2) * cw + x / 2, e1) + c);  // as mg_prolong
      lv[MF_AT(x, y)] = c;
#ifdef FINE
      lb[MF_AT(x, y)] = SLOAD(rhs, i, n);
#else
      lb[MF_AT(x, y)] = vload2(i, rhs);
      ls[MF_AT(x, y)] = s[i];
#endif
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int pass = 0; pass < 2 * sweeps; ++pass) {  // colour pass & 1, as mg_smooth
    MF_RING(halo - 1 - pass);
    const int hw = (xb - xa + 1) / 2;
    for (int j = lid; j < hw * (yb - ya); j += 256) {
      const int y = ya + j / hw, x = xa + 2 * (j % hw) + ((xa + y + pass) & 1);
      if (x >= xb) continue;
      MF_RHS_S(MF_AT(x, y), f, sv);
      const float denom = MG_CENTRE * k + sv;  // as mg_smooth (same contraction)
      const float2 sum =
          MG_SUM2(lv[MF_AT(mirror_index(x - 1, w), y)], lv[MF_AT(mirror_index(x + 1, w), y)],
                  lv[MF_AT(x, mirror_index(y - 1, h))], lv[MF_AT(x, mirror_index(y + 1, h))]);
      if (denom > 0.0f) lv[MF_AT(x, y)] = MF_ROUND((k * sum - f) / denom);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
#undef MF_RING
  if (prolong || sweeps > 0)
    for (int j = lid; j < MF_T * MF_T; j += 256) {
      const int x = x0 + j % MF_T, y = y0 + j / MF_T;
      if (x < w && y < h) VSTORE(lv[MF_AT(x, y)], vout, (size_t)y * w + x, n);
    }
  if (!restrict_) return;
  for (int j = lid; j < MF_T * MF_T / 4; j += 256) {
    const int X = x0 / 2 + j % (MF_T / 2), Y = y0 / 2 + j / (MF_T / 2);
    if (X >= cw || Y >= ch) continue;
    float2 acc = (float2)(0.0f);
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {  // as mg_restrict
        const int x = mirror_index(2 * X + dx, w), y = mirror_index(2 * Y + dy, h);
        MF_RHS_S(MF_AT(x, y), f0, sv);
        const float2 c = lv[MF_AT(x, y)];
        float2 f = f0;
        f -= k * (MG_SUM2(
                      lv[MF_AT(mirror_index(x - 1, w), y)], lv[MF_AT(mirror_index(x + 1, w), y)],
                      lv[MF_AT(x, mirror_index(y - 1, h))], lv[MF_AT(x, mirror_index(y + 1, h))]) -
                  MG_CENTRE * c) -
             sv * c;
        acc += f;
      }
    vstore2(acc * (1.0f / 4), Y * cw + X, rhs1);
    if (zero_e) vstore2((float2)(0.0f), Y * cw + X, e1z);
  }
}
#endif

// f_{l+1} = average over the 2x2(x2) children of (f - A v) (with_residual) or of f. One
// work-item per coarse cell; on an odd side the missing child is read through the boundary
// rule (index n returns n-2), which keeps boundary cells' weights right (see the reference).
// with_residual 2 (float32 v, right after a red-black sweep, no side of 1): the black children
// count as 0. The sweep's black pass solved each black point's equation from its red
// neighbours, which nothing has changed since, so its residual is float rounding, not error;
// half the loads.
__kernel void mg_restrict(__global const v_t* v, __global const rhs_t* rhs, __global const float* s,
                          int w, int h, int d, float k, int with_residual, __global float* out,
                          int cw, int ch, int cd) {
  const int X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  if (X >= cw || Y >= ch || Z >= cd) return;
  const mg_off_t n = (mg_off_t)w * h * d;
  vec_t acc = (vec_t)(0.0f);
  for (int dz = 0; dz < (DIMS == 3 ? 2 : 1); ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int x = mirror_index(2 * X + dx, w), y = mirror_index(2 * Y + dy, h),
                  z = mirror_index(2 * Z + dz, d);
        if (with_residual == 2 && ((x + y + z) & 1)) continue;
        const mg_off_t i = mg_index(x, y, z, w, h);
        vec_t f;
        float sv;
        LOAD_RHS_S(rhs, s, i, n, f, sv);
        if (with_residual) {
          const vec_t c = VLOAD(v, i, n);
          f -= k * (neighbour_sum(v, x, y, z, w, h, d) - MG_CENTRE * c) - sv * c;
        }
        acc += f;
      }
  CSTORE(acc * (1.0f / (1 << DIMS)), out, mg_index(X, Y, Z, cw, ch), (mg_off_t)cw * ch * cd);
}

// S_{l+1} = average of S over the children, missing ones as in mg_restrict (S_0 = |V0|^2 from V0 at
// level 0).
__kernel void mg_restrict_s(__global const rhs_t* rhs, __global const float* s, int w, int h, int d,
                            __global float* out, int cw, int ch, int cd) {
  const int X = get_global_id(0), Y = get_global_id(1), Z = get_global_id(2);
  if (X >= cw || Y >= ch || Z >= cd) return;
  const mg_off_t n = (mg_off_t)w * h * d;
  float acc = 0.0f;
  for (int dz = 0; dz < (DIMS == 3 ? 2 : 1); ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int x = mirror_index(2 * X + dx, w), y = mirror_index(2 * Y + dy, h),
                  z = mirror_index(2 * Z + dz, d);
        vec_t f;
        float sv;
        LOAD_RHS_S(rhs, s, mg_index(x, y, z, w, h), n, f, sv);
        acc += sv;
      }
  out[mg_index(X, Y, Z, cw, ch)] = acc * (1.0f / (1 << DIMS));
}

// v(x) = [v(x) +] e(x / 2): nearest-cell prolongation (paper eq. 8) of a float32 coarse
// correction e into the finer level's v. black_only: the black points alone (colour 1, those
// a red pass reads; global size as mg_smooth's), when a red pass follows that stores every red
// point from its black neighbours: half the bytes, the same field after that pass.
__kernel void mg_prolong(__global const float* e, int cw, int ch, int cd, __global v_t* v, int w,
                         int h, int d, int add, int black_only) {
  const int y = get_global_id(1), z = get_global_id(2);
#ifdef DIMS3
  // Work-items in storage order (rows in parity order): a warp writes whole lines.
  const int p = get_global_id(0), hw = (w + 1) >> 1;
  const int x = black_only ? 2 * p + ((y + z + 1) & 1) : p < hw ? 2 * p : 2 * (p - hw) + 1;
#else
  const int x = black_only ? 2 * (int)get_global_id(0) + ((y + 1) & 1) : (int)get_global_id(0);
#endif
  if (x >= w || y >= h || z >= d) return;
  const mg_off_t n = (mg_off_t)w * h * d, i = mg_index(x, y, z, w, h);
  vec_t c = CLOAD(e, mg_index(x / 2, y / 2, z / 2, cw, ch), (mg_off_t)cw * ch * cd);
  if (add) c += VLOAD(v, i, n);
  VSTORE(c, v, i, n);
}

#ifndef FINE
// ---------------------------------------------------------------------------------------
// mg_coarse: the coarse levels l0..L (level l0 given, each next one halved rounding up until
// no side exceeds 2, as on the host) solved by ONE work-group in local memory, in one launch.
// The host records the steps (its own V-cycle / full-multigrid recursion, so the order is the
// launches' order) as int4 (op, level relative to l0, a, b); the work-group runs them one
// after the other with a barrier between. One barrier in one flat loop: PoCL's work-group
// compiler takes minutes over barriers nested in calls and loops. S of the levels below l0 is
// restricted in local memory by the first steps. e_l0 starts at 0; output: e_l0.
// Local pool per level: e (DIMS * n floats), rhs (DIMS * n), S (n); 2D e and rhs interleave.
// Built with -DCOARSE_GLOBAL the pool is a global buffer instead (levels too large for local
// memory; the work-group's barriers order its global memory as well).
#ifdef COARSE_GLOBAL
#define POOL __global
#define POOL_FENCE CLK_GLOBAL_MEM_FENCE
#else
#define POOL __local
#define POOL_FENCE CLK_LOCAL_MEM_FENCE
#endif
#include "multigrid_ops.clh"

typedef struct {
  int w, h, d;
  int e, r, s;  // offsets into the pool
} mg_level;

vec_t l_nsum(POOL const float* v, int x, int y, int z, int w, int h, int d) {
  const size_t n = (size_t)w * h * d;
  vec_t sum = MG_SUM2(CLOAD(v, mg_index(mirror_index(x - 1, w), y, z, w, h), n),
                      CLOAD(v, mg_index(mirror_index(x + 1, w), y, z, w, h), n),
                      CLOAD(v, mg_index(x, mirror_index(y - 1, h), z, w, h), n),
                      CLOAD(v, mg_index(x, mirror_index(y + 1, h), z, w, h), n));
#ifdef DIMS3
  sum += MG_ADD_Z(CLOAD(v, mg_index(x, y, mirror_index(z - 1, d), w, h), n),
                  CLOAD(v, mg_index(x, y, mirror_index(z + 1, d), w, h), n));
#endif
  return sum;
}

// Each step is one element at a time (index j), under one loop of the same shape for every
// step (l_count elements, l_step): a barrier followed by branches that each hold a loop of
// their own and join before the next barrier aborts PoCL 5.0's work-group compiler
// (Ubuntu 24.04: "region_entry_barrier != NULL"), so the branches sit inside the loop.
void l_smooth_at(POOL float* pool, mg_level L, float k, int colour, int j) {
  const int hw = (L.w + 1) / 2;
  const size_t n = (size_t)L.w * L.h * L.d;
  POOL float* v = pool + L.e;
  POOL const float* f = pool + L.r;
  POOL const float* s = pool + L.s;
  const int y = (j / hw) % L.h, z = j / (hw * L.h);
  const int x = 2 * (j % hw) + ((y + z + colour) & 1);
  if (x >= L.w) return;
  const size_t i = mg_index(x, y, z, L.w, L.h);
  const float denom = MG_CENTRE * k + s[i];
  if (denom > 0.0f)
    CSTORE((k * l_nsum(v, x, y, z, L.w, L.h, L.d) - CLOAD(f, i, n)) / denom, v, i, n);
}

void l_restrict_at(POOL float* pool, mg_level F, mg_level C, float k, int residual, int zero_e,
                   int j) {
  const size_t n = (size_t)F.w * F.h * F.d, cn = (size_t)C.w * C.h * C.d;
  POOL const float* v = pool + F.e;
  POOL const float* f = pool + F.r;
  POOL const float* s = pool + F.s;
  const int X = j % C.w, Y = (j / C.w) % C.h, Z = j / (C.w * C.h);
  vec_t acc = (vec_t)(0.0f);
  for (int dz = 0; dz < (DIMS == 3 ? 2 : 1); ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int x = mirror_index(2 * X + dx, F.w), y = mirror_index(2 * Y + dy, F.h),
                  z = mirror_index(2 * Z + dz, F.d);
        const size_t i = mg_index(x, y, z, F.w, F.h);
        vec_t r = CLOAD(f, i, n);
        if (residual) {
          const vec_t c = CLOAD(v, i, n);
          r -= k * (l_nsum(v, x, y, z, F.w, F.h, F.d) - MG_CENTRE * c) - s[i] * c;
        }
        acc += r;
      }
  const size_t o = mg_index(X, Y, Z, C.w, C.h);
  CSTORE(acc * (1.0f / (1 << DIMS)), pool + C.r, o, cn);
  if (zero_e) CSTORE((vec_t)(0.0f), pool + C.e, o, cn);
}

void l_restrict_s_at(POOL float* pool, mg_level F, mg_level C, int j) {
  const int X = j % C.w, Y = (j / C.w) % C.h, Z = j / (C.w * C.h);
  float acc = 0.0f;
  for (int dz = 0; dz < (DIMS == 3 ? 2 : 1); ++dz)
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx)
        acc += pool[F.s + mg_index(mirror_index(2 * X + dx, F.w), mirror_index(2 * Y + dy, F.h),
                                   mirror_index(2 * Z + dz, F.d), F.w, F.h)];
  pool[C.s + mg_index(X, Y, Z, C.w, C.h)] = acc * (1.0f / (1 << DIMS));
}

void l_prolong_at(POOL float* pool, mg_level F, mg_level C, int add, int j) {
  const size_t n = (size_t)F.w * F.h * F.d, cn = (size_t)C.w * C.h * C.d;
  const int x = j % F.w, y = (j / F.w) % F.h, z = j / (F.w * F.h);
  const size_t i = mg_index(x, y, z, F.w, F.h);
  vec_t c = CLOAD(pool + C.e, mg_index(x / 2, y / 2, z / 2, C.w, C.h), cn);
  if (add) c += CLOAD(pool + F.e, i, n);
  CSTORE(c, pool + F.e, i, n);
}

// The elements of step `code` on level F (C the next coarser).
int l_count(int code, mg_level F, mg_level C) {
  const int n = F.w * F.h * F.d, cn = C.w * C.h * C.d;
  return code == MG_OP_SMOOTH                                 ? (F.w + 1) / 2 * F.h * F.d
         : code == MG_OP_RESTRICT || code == MG_OP_RESTRICT_S ? cn
         : code == MG_OP_ZERO                                 ? DIMS * n
                                                              : n;
}

void l_step(POOL float* pool, int4 op, mg_level F, mg_level C, float k, int j) {
  if (op.x == MG_OP_SMOOTH)
    l_smooth_at(pool, F, k, op.z, j);
  else if (op.x == MG_OP_RESTRICT)
    l_restrict_at(pool, F, C, k, op.z, op.w, j);
  else if (op.x == MG_OP_PROLONG)
    l_prolong_at(pool, F, C, op.z, j);
  else if (op.x == MG_OP_ZERO)
    pool[F.e + j] = 0.0f;
  else
    l_restrict_s_at(pool, F, C, j);
}

// One step by the whole work-group (mg_persistent's work-group 0 steps).
void l_run(POOL float* pool, int4 op, mg_level F, mg_level C, float k) {
  const int count = l_count(op.x, F, C);
  for (int j = get_local_id(0); j < count; j += get_local_size(0)) l_step(pool, op, F, C, k, j);
}

// k0 = mu / h_l0^2; level l below l0 uses k0 / 4^l (exact in float: a power of two).
__kernel void mg_coarse(__global float* e, __global const float* rhs, __global const float* s,
                        int w, int h, int d, int levels, float k0, __global const int4* ops,
                        int op_count, POOL float* pool) {
  mg_level lv[MG_MAX_LEVELS];
  int off = 0;
  for (int l = 0; l < levels; ++l) {
    const int n = w * h * d;
    lv[l] = (mg_level){w, h, d, off, off + DIMS * n, off + 2 * DIMS * n};
    off += (2 * DIMS + 1) * n;
    w = (w + 1) / 2, h = (h + 1) / 2, d = (d + 1) / 2;
  }
  const int n0 = lv[0].w * lv[0].h * lv[0].d;
  for (int j = get_local_id(0); j < DIMS * n0; j += get_local_size(0)) {
    pool[lv[0].r + j] = rhs[j];
    pool[lv[0].e + j] = 0.0f;
  }
  for (int j = get_local_id(0); j < n0; j += get_local_size(0)) pool[lv[0].s + j] = s[j];
  barrier(POOL_FENCE);
  for (int t = 0; t < op_count; ++t) {
    const int4 op = ops[t];
    const mg_level F = lv[op.y], C = lv[min(op.y + 1, levels - 1)];
    const float k = k0 * ldexp(1.0f, -2 * op.y);
    const int count = l_count(op.x, F, C);
    for (int j = get_local_id(0); j < count; j += get_local_size(0)) l_step(pool, op, F, C, k, j);
    barrier(POOL_FENCE);
  }
  for (int j = get_local_id(0); j < DIMS * n0; j += get_local_size(0)) e[j] = pool[lv[0].e + j];
}
#endif
