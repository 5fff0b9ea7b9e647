// Every multigrid iteration of a step() in ONE launch: 2D, float32 (multigrid.cl's operators,
// the same arithmetic in the same order; see there for the discretisation and boundary rule).
// 3D (-DDIMS3): the levels from 1 down only, one launch per visit (level 0, in the storage's
// precision, stays launched per operator), rows in parity order as multigrid.cl's mg_index.
// The host records the whole schedule of one iteration (its V-cycle / full-multigrid
// recursion over all levels) as int4 steps; every work-group walks the list `iterations`
// times. A step on a level larger than the coarse side is done by all work-groups together
// (grid-stride loop) and followed by a device-wide barrier; a step on a level within it by
// work-group 0 alone (the others skip it), followed by a work-group barrier only (one SM, no
// launch: what mg_coarse does per launch, here without the launch). A device-wide barrier
// follows the last such step before the next all-groups step.
// Levels within the coarse side that do not fit in local memory are work-group 0's too
// (MG_OP_SOLO, a coarse side above what local memory holds): the all-groups operators with work-
// group 0's ids, its barriers ordering global memory (on the H200 slower than all groups at 64²).
// -DMGP_LIGHT (NVIDIA): a step with no device-wide barrier after it ends with ONE work-group
// barrier, with the local fence only on lpool steps but the store (same order of operations).
// -DMGP_LOCAL_OPS=N (NVIDIA): lists of up to N steps and the k table are read from local memory
// (copied at the start), not from global memory after each step.
// Work-group 0's levels (from `from` down) live in local memory `lpool` (mg_coarse's layout),
// loaded when the schedule enters them and stored when it leaves (MG_OP_LOAD / MG_OP_STORE).
// Level 0 is V (v) and V0 (v0: f and S made on the fly, as -DFINE does); levels 1.. live in
// `pool` at the offsets of table `lv` (per level: w, h, d, e, rhs, S offsets: LV), k per level in
// ks. Layout: interleaved float2 on every 2D level, planes of parity-ordered rows in 3D.
// multigrid.cl built for coarse levels (no FINE): its mg_coarse helper l_run (a step on a local
// pool) does work-group 0's steps here.
#include "multigrid.cl"

#ifndef SPIN_LIMIT
#define SPIN_LIMIT (1 << 23)
#endif

// Device-wide fence: as gvf_euler2d_tiled.cl (membar.gl on NVIDIA, which also keeps later
// loads from a stale L1; CPU devices keep their caches coherent).
#if defined(GRID_FENCE_PTX)
#define GRID_FENCE() asm volatile("membar.gl;" ::: "memory")
#else
#define GRID_FENCE() mem_fence(CLK_GLOBAL_MEM_FENCE)
#endif

// -DMG_TRACE (NVIDIA): work-group 0 stamps the GPU's global timer (ns) at the start and after
// each step's barriers into trace[0..]: per-step and so per-level times of one launch.
#ifdef MG_TRACE
ulong mg_now(void) {
  ulong t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  return t;
}
#endif

#define LV(l, f) lv[6 * (l) + (f)]  // f: 0 w, 1 h, 2 d, 3 e, 4 rhs, 5 S

#ifndef DIMS3
float2 p_nsum(__global const float* v, int x, int y, int w, int h) {
  return MG_SUM2(
      vload2(y * w + mirror_index(x - 1, w), v), vload2(y * w + mirror_index(x + 1, w), v),
      vload2(mirror_index(y - 1, h) * w + x, v), vload2(mirror_index(y + 1, h) * w + x, v));
}

// f and S at point i: from V0 on level 0 (fine), else the level's buffers.
#define P_RHS_S(fine, f, s, i, f_, s_)    \
  do {                                    \
    if (fine) {                           \
      const float2 b_ = vload2((i), (f)); \
      s_ = dot(b_, b_);                   \
      f_ = -s_ * b_;                      \
    } else {                              \
      f_ = vload2((i), (f));              \
      s_ = (s)[i];                        \
    }                                     \
  } while (0)

// A value of e_l with the pending prolongation e_l [+]= P e_{l+1} applied (p_prolong's sum).
float2 p_pro(__global const float* v, int x, int y, int w, __global const float* ce, int cw,
             int add) {
  float2 c = vload2((y / 2) * cw + x / 2, ce);
  if (add) c += vload2(y * w + x, v);
  return c;
}

// fold (MG_OP_SMOOTH's op.w): the prolongation before this colour step is not done yet; 1: the
// neighbours are read prolonged, 2: a point not updated (denom 0) is stored prolonged, 4: the
// prolongation replaces e_l (else adds). The sums are p_prolong's, in its order: same bits.
void p_smooth(__global float* v, __global const float* f, __global const float* s, int fine, int w,
              int h, float k, int colour, int first, int stride, int fold, __global const float* ce,
              int cw) {
  const int add = (fold & 4) == 0;
  const int hw = (w + 1) / 2, count = hw * h;
  for (int j = first; j < count; j += stride) {
    const int y = j / hw;
    const int x = 2 * (j - y * hw) + ((y + colour) & 1);
    if (x >= w) continue;
    const int i = y * w + x;
    float2 fv;
    float sv;
    P_RHS_S(fine, f, s, i, fv, sv);
    const float denom = MG_CENTRE * k + sv;
    if (fold & 1) {
      const float2 nsum = MG_SUM2(p_pro(v, mirror_index(x - 1, w), y, w, ce, cw, add),
                                  p_pro(v, mirror_index(x + 1, w), y, w, ce, cw, add),
                                  p_pro(v, x, mirror_index(y - 1, h), w, ce, cw, add),
                                  p_pro(v, x, mirror_index(y + 1, h), w, ce, cw, add));
      if (denom > 0.0f)
        vstore2((k * nsum - fv) / denom, i, v);
      else
        vstore2(p_pro(v, x, y, w, ce, cw, add), i, v);
    } else if (denom > 0.0f) {
      vstore2((k * p_nsum(v, x, y, w, h) - fv) / denom, i, v);
    } else if (fold & 2) {
      vstore2(p_pro(v, x, y, w, ce, cw, add), i, v);
    }
  }
}

void p_restrict(__global const float* v, __global const float* f, __global const float* s, int fine,
                int w, int h, float k, int residual, int zero_e, __global float* cr,
                __global float* ce, int cw, int ch, int first, int stride) {
  const int cn = cw * ch;
  for (int j = first; j < cn; j += stride) {
    const int Y = j / cw, X = j - Y * cw;
    float2 acc = (float2)(0.0f);
    for (int dy = 0; dy < 2; ++dy)
      for (int dx = 0; dx < 2; ++dx) {
        const int x = mirror_index(2 * X + dx, w), y = mirror_index(2 * Y + dy, h);
        const int i = y * w + x;
        float2 r;
        float sv;
        P_RHS_S(fine, f, s, i, r, sv);
        if (residual) {
          const float2 c = vload2(i, v);
          r -= k * (p_nsum(v, x, y, w, h) - MG_CENTRE * c) - sv * c;
        }
        acc += r;
      }
    vstore2(acc * (1.0f / 4), j, cr);
    if (zero_e) vstore2((float2)(0.0f), j, ce);
  }
}

void p_prolong(__global float* v, int w, int h, __global const float* e, int cw, int add, int first,
               int stride) {
  const int n = w * h;
  for (int j = first; j < n; j += stride) {
    const int y = j / w, x = j - y * w;
    float2 c = vload2((y / 2) * cw + x / 2, e);
    if (add) c += vload2(j, v);
    vstore2(c, j, v);
  }
}

#else
// 3D, levels 1.. (float32 e, rhs, S; no level 0, no folded prolongation): multigrid.cl's
// mg_smooth, mg_restrict and mg_prolong with the work spread over first..stride.
float3 p_nsum3(__global const float* v, int x, int y, int z, int w, int h, int d, mg_off_t n) {
  float3 sum = MG_SUM2(CLOAD(v, mg_index(mirror_index(x - 1, w), y, z, w, h), n),
                       CLOAD(v, mg_index(mirror_index(x + 1, w), y, z, w, h), n),
                       CLOAD(v, mg_index(x, mirror_index(y - 1, h), z, w, h), n),
                       CLOAD(v, mg_index(x, mirror_index(y + 1, h), z, w, h), n));
  sum += MG_ADD_Z(CLOAD(v, mg_index(x, y, mirror_index(z - 1, d), w, h), n),
                  CLOAD(v, mg_index(x, y, mirror_index(z + 1, d), w, h), n));
  return sum;
}

void p_smooth3(__global float* v, __global const float* f, __global const float* s, int w, int h,
               int d, float k, int colour, int first, int stride) {
  const int hw = (w + 1) / 2, count = hw * h * d;
  const mg_off_t n = (mg_off_t)w * h * d;
  for (int j = first; j < count; j += stride) {
    const int row = j / hw, y = row % h, z = row / h;
    const int x = 2 * (j - row * hw) + ((y + z + colour) & 1);
    if (x >= w) continue;
    const mg_off_t i = mg_index(x, y, z, w, h);
    const float denom = MG_CENTRE * k + s[i];
    if (denom > 0.0f)
      CSTORE((k * p_nsum3(v, x, y, z, w, h, d, n) - CLOAD(f, i, n)) / denom, v, i, n);
  }
}

void p_restrict3(__global const float* v, __global const float* f, __global const float* s, int w,
                 int h, int d, float k, int residual, int zero_e, __global float* cr,
                 __global float* ce, int cw, int ch, int cd, int first, int stride) {
  const mg_off_t n = (mg_off_t)w * h * d, cn = (mg_off_t)cw * ch * cd;
  for (int j = first; j < (int)cn; j += stride) {
    const int X = j % cw, Y = (j / cw) % ch, Z = j / (cw * ch);
    float3 acc = (float3)(0.0f);
    for (int dz = 0; dz < 2; ++dz)
      for (int dy = 0; dy < 2; ++dy)
        for (int dx = 0; dx < 2; ++dx) {
          const int x = mirror_index(2 * X + dx, w), y = mirror_index(2 * Y + dy, h),
                    z = mirror_index(2 * Z + dz, d);
          const mg_off_t i = mg_index(x, y, z, w, h);
          float3 r = CLOAD(f, i, n);
          if (residual) {
            const float3 c = CLOAD(v, i, n);
            r -= k * (p_nsum3(v, x, y, z, w, h, d, n) - MG_CENTRE * c) - s[i] * c;
          }
          acc += r;
        }
    const mg_off_t o = mg_index(X, Y, Z, cw, ch);
    CSTORE(acc * (1.0f / 8), cr, o, cn);
    if (zero_e) CSTORE((float3)(0.0f), ce, o, cn);
  }
}

void p_prolong3(__global float* v, int w, int h, int d, __global const float* e, int cw, int ch,
                int cd, int add, int first, int stride) {
  const mg_off_t n = (mg_off_t)w * h * d, cn = (mg_off_t)cw * ch * cd;
  for (int j = first; j < (int)n; j += stride) {
    const int x = j % w, y = (j / w) % h, z = j / (w * h);
    const mg_off_t i = mg_index(x, y, z, w, h);
    float3 c = CLOAD(e, mg_index(x / 2, y / 2, z / 2, cw, ch), cn);
    if (add) c += CLOAD(v, i, n);
    CSTORE(c, v, i, n);
  }
}
#endif

// One kernel, one flat loop, the barriers at its top level (PoCL's work-group compiler takes
// minutes over barriers nested in calls and conditionals). Device-wide barrier as
// gvf_euler2d_tiled.cl's grid_barrier: sync[0] counts arrivals from sync_base on; a group that
// polls SPIN_LIMIT times without seeing all arrive raises sync[1] and every group returns at
// its next device-wide barrier; the host then redoes the iterations launch by launch.
__kernel void mg_persistent(__global float* v, __global const float* v0, __global float* pool,
                            __global const int* lv, __global const float* ks,
                            __global const int4* ops, int op_count, int iterations,
                            volatile __global int* sync, int sync_base, __global ulong* trace,
                            int levels, int from, __local float* lpool) {
  __local int passed;
  mg_level alv[MG_MAX_LEVELS];  // work-group 0's levels in lpool, as mg_coarse lays them out
  int off = 0;
  for (int l = from; l < levels && l - from < MG_MAX_LEVELS; ++l) {
    const int w = LV(l, 0), h = LV(l, 1), d = LV(l, 2), n = w * h * d;
    alv[l - from] = (mg_level){w, h, d, off, off + DIMS * n, off + 2 * DIMS * n};
    off += (2 * DIMS + 1) * n;
  }
  const int groups = get_num_groups(0);
  const int lid = get_local_id(0);
  const bool group0 = get_group_id(0) == 0;
  int arrivals = 0;
  const int total = op_count * iterations;
#ifdef MGP_LOCAL_OPS
  __local int4 lops[MGP_LOCAL_OPS];
  __local float lks[MG_MAX_LEVELS * 2];
  const bool local_ops = op_count <= MGP_LOCAL_OPS && levels <= MG_MAX_LEVELS * 2;
  if (local_ops) {
    for (int j = lid; j < op_count; j += get_local_size(0)) lops[j] = ops[j];
    for (int j = lid; j < levels; j += get_local_size(0)) lks[j] = ks[j];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#define MGP_OP(i) (local_ops ? lops[i] : ops[i])
#define MGP_K(l) (local_ops ? lks[l] : ks[l])
#else
#define MGP_OP(i) ops[i]
#define MGP_K(l) ks[l]
#endif
#ifdef MG_TRACE
  if (group0 && lid == 0) trace[0] = mg_now();
#endif
  for (int t = 0, i = 0; t < total; ++t, i = i + 1 == op_count ? 0 : i + 1) {
    const int4 op = MGP_OP(i);
    const bool alone = (op.x & MG_OP_GROUP0) != 0, grid_sync = (op.x & MG_OP_GRID_SYNC) != 0;
    const bool solo = (op.x & MG_OP_SOLO) != 0;
    if (alone && group0) {
      const int l = op.y, a = l - from;
      const mg_level F = alv[a], C = alv[min(a + 1, levels - 1 - from)];
      __global float* ge = pool + LV(l, 3);
      switch (op.x & MG_OP_MASK) {
        case MG_OP_SMOOTH:
        case MG_OP_RESTRICT:
        case MG_OP_PROLONG:
        case MG_OP_ZERO:
          l_run(lpool, (int4)(op.x & MG_OP_MASK, op.y, op.z, op.w), F, C, MGP_K(l));
          break;
        case MG_OP_LOAD: {
          __global const float* gr = pool + LV(l, 4);
          for (int j = lid; j < DIMS * F.w * F.h * F.d; j += get_local_size(0)) {
            lpool[F.r + j] = gr[j];
            lpool[F.e + j] = 0.0f;
          }
          for (int m = l; m < levels; ++m) {
            const mg_level M = alv[m - from];
            __global const float* gs = pool + LV(m, 5);
            for (int j = lid; j < M.w * M.h * M.d; j += get_local_size(0)) lpool[M.s + j] = gs[j];
          }
          break;
        }
        default:  // MG_OP_STORE
          for (int j = lid; j < DIMS * F.w * F.h * F.d; j += get_local_size(0))
            ge[j] = lpool[F.e + j];
          break;
      }
    } else if (!alone && (!solo || group0)) {
      const int first = (int)(solo ? lid : get_global_id(0));
      const int stride = (int)(solo ? get_local_size(0) : get_global_size(0));
      const int l = op.y, fine = l == 0;
      __global const int* F = lv + 6 * l;
      __global const int* C = lv + 6 * (l + 1);
      __global float* fv = fine ? v : pool + F[3];
      __global const float* ff = fine ? v0 : pool + F[4];
      __global const float* fs = fine ? v0 : pool + F[5];
      switch (op.x & MG_OP_MASK) {
#ifdef DIMS3
        case MG_OP_SMOOTH:
          p_smooth3(fv, ff, fs, F[0], F[1], F[2], MGP_K(l), op.z, first, stride);
          break;
        case MG_OP_RESTRICT:
          p_restrict3(fv, ff, fs, F[0], F[1], F[2], MGP_K(l), op.z, op.w, pool + C[4], pool + C[3],
                      C[0], C[1], C[2], first, stride);
          break;
        case MG_OP_PROLONG:
          p_prolong3(fv, F[0], F[1], F[2], pool + C[3], C[0], C[1], C[2], op.z, first, stride);
          break;
#else
        case MG_OP_SMOOTH:
          p_smooth(fv, ff, fs, fine, F[0], F[1], MGP_K(l), op.z, first, stride, op.w, pool + C[3],
                   C[0]);
          break;
        case MG_OP_RESTRICT:
          p_restrict(fv, ff, fs, fine, F[0], F[1], MGP_K(l), op.z, op.w, pool + C[4], pool + C[3],
                     C[0], C[1], first, stride);
          break;
        case MG_OP_PROLONG:
          p_prolong(fv, F[0], F[1], pool + C[3], C[0], op.z, first, stride);
          break;
#endif
        default:
          for (int j = first; j < DIMS * F[0] * F[1] * F[2]; j += stride) fv[j] = 0.0f;
          break;
      }
    }
#ifdef MGP_LIGHT
    if (!grid_sync) {
      if (alone && (op.x & MG_OP_MASK) != MG_OP_STORE)
        barrier(CLK_LOCAL_MEM_FENCE);
      else
        barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
#ifdef MG_TRACE
      if (group0 && lid == 0) trace[t + 1] = mg_now();
#endif
      continue;
    }
#endif
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (grid_sync) ++arrivals;
    if (grid_sync && lid == 0 && get_local_id(1) == 0) {
      // Publishes the group's stores before its arrival; the fence after the wait keeps the
      // next step's loads from being served before it (and, on GPUs, from stale caches).
      GRID_FENCE();
      atomic_inc(&sync[0]);
      const int target = sync_base + groups * arrivals;
      int polls = 0;
      while (sync[0] < target && sync[1] == 0 && ++polls < SPIN_LIMIT) {
      }
      passed = sync[0] >= target && sync[1] == 0;
      if (!passed) atomic_xchg(&sync[1], 1);
      GRID_FENCE();
    }
    barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
    if (grid_sync && !passed) return;
#ifdef MG_TRACE
    if (group0 && lid == 0) trace[t + 1] = mg_now();
#endif
  }
}
