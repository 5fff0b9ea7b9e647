// A whole iteration of the region snake (every step and phase until a step moves nothing) in
// ONE launch of ONE work-group, for iterations whose segments are short. region_phase.cl needs
// a launch per phase because its work-groups cannot wait for each other; here one group does
// everything and meets itself at barriers, so a phase costs no launch, no global fence and no
// cross-group atomics. What made a phase wide, the candidates' segment sums, is cached: the 16
// candidate sums of node i depend only on nodes i-1, i, i+1 and d, so after region_cand_all
// has summed them for every node once per iteration, a phase sums again only the nodes next to
// a node that moved (marked dirty by apply_record). Sums are exact integers, so the cache
// changes nothing: same criterion inputs, same moves as region_phase (tests compare both with
// the double reference). Semantics as region_reference.hpp.
#include "region_common.clh"

#ifndef SCRATCH_G
#define SCRATCH_G 512  // the work-group; the host sets it (-DSCRATCH_G)
#endif
#include "region_moves.clh"

// Candidate segment s = 16 i + 2 w + side of node i (by node index, not phase index).
bool node_candidate_ends(int s, __global const int2* nodes, int n, int d, int width, int height,
                         int2* a, int2* b) {
  const int i = s >> 4, w = (s >> 1) & 7, side = s & 1;
  const int2 q = nodes[i] + d * kDir[w];
  if (q.x < 0 || q.y < 0 || q.x >= width || q.y >= height) return false;
  *a = side == 0 ? nodes[(i + n - 1) % n] : q;
  *b = side == 0 ? q : nodes[(i + 1) % n];
  return true;
}

// ---- once per iteration: every node's 16 candidate sums, one work-group per (segment, chunk)
// of rows, added into cand (zeroed by the host) ----
__kernel void region_cand_all(__global const uint* cz, __global const uint* cz2lo,
                              __global const ushort* cz2hi, int width, int height,
                              __global const int2* nodes, int n, int d, int orient, int chunks,
                              __global long* cand) {
  __local long ln[MAX_LOCAL], l1[MAX_LOCAL], l2[MAX_LOCAL];
  const int t = get_local_id(0), g = get_local_size(0);
  const int s = get_group_id(0) / chunks, c = get_group_id(0) % chunks;
  int2 a = (int2)(0), b = (int2)(0);
  const bool valid = node_candidate_ends(s, nodes, n, d, width, height, &a, &b);
  group_sum3(valid ? segment_rows(cz, cz2lo, cz2hi, width, a, b, orient, c, chunks, t, g)
                   : (long3)(0),
             ln, l1, l2, t, g);
  if (t == 0 && (ln[0] | l1[0] | l2[0])) {
    atom_add(&cand[3 * s], ln[0]);
    atom_add(&cand[3 * s + 1], l1[0]);
    atom_add(&cand[3 * s + 2], l2[0]);
  }
}

// segment_rows for one chunk, four rows' loads in flight per work-item: a lone work-group has
// no other groups to hide the latency of its loads behind.
long3 segment_rows4(__global const uint* cz, __global const uint* cz2lo,
                    __global const ushort* cz2hi, int width, int2 a, int2 b, int orient, int t,
                    int g) {
  long sn = 0, s1 = 0, s2 = 0;
  if (a.y != b.y) {
    const int2 top = a.y < b.y ? a : b, bot = a.y < b.y ? b : a;
    const long dy = bot.y - top.y, dx = bot.x - top.x;
    int y = top.y + t;
    long k = top.x + floor_div((long)(y - top.y) * dx, dy);
    long r = (long)(y - top.y) * dx - (k - top.x) * dy;  // 0 <= r < dy
    const long kStep = floor_div((long)g * dx, dy), rStep = (long)g * dx - kStep * dy;
#pragma unroll 4
    for (; y < bot.y; y += g) {
      const size_t i = (size_t)y * (size_t)width + (size_t)k;
      sn += k + 1;
      s1 += (long)cz[i];
      s2 += (long)(((ulong)cz2hi[i] << 32) | cz2lo[i]);
      k += kStep, r += rStep;
      if (r >= dy) r -= dy, ++k;
    }
    const long sign = (b.y > a.y ? 1 : -1) * orient;
    sn *= sign, s1 *= sign, s2 *= sign;
  }
  return (long3)(sn, s1, s2);
}

// Work space in global memory, per phase node or per improving node (host: RegionSnake):
//   work[0 .. maxM): dirty phase nodes;  crit[8 maxM]: criterion of each node's 8 moves;
//   imp[3 maxM]: improving nodes (phase index, improving mask, blocked mask).
__kernel void region_iterate(__global const uint* cz, __global const uint* cz2lo,
                             __global const ushort* cz2hi, int width, int height,
                             __global int2* nodes, int n, int d, int orient, int model,
                             __global long* state, __global long* cur, __global long* cand,
                             __global int* dirty, __global int* work, __global double* crit,
                             __global int* imp, __global int* counters,
                             __global int8* moveGeom, __global double* moveBest,
                             __global long* moveSums, __global int* keep, int firstStep,
                             int iterationFirstStep, int maxSteps, int laneWidth) {
  __local PhaseScratch sc;
  __local int lcount;
  const int t = get_local_id(0), g = get_local_size(0);
  const int W = laneWidth, lanes = g / W, lane = t / W, lt = t % W;
  const int phases = 2 + (n & 1);
  for (int step = 0; step < maxSteps; ++step) {
    const int stepIndex = firstStep + step;
    // As region_phase: a step after one that moved nothing moves nothing either.
    if (stepIndex > iterationFirstStep && state[ST_LAST_MOVE] < stepIndex - 1) return;
    for (int phase = 0; phase < phases; ++phase) {
      const int m = phase == 2 ? 1 : n / 2;
      // ---- 1. the phase's dirty nodes ----
      if (t == 0) lcount = 0;
      barrier(CLK_LOCAL_MEM_FENCE);
      for (int k = t; k < m; k += g) {
        const int i = phase_node(phase, k, n);
        if (dirty[i]) work[atomic_inc(&lcount)] = i;
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      const int nd = lcount;
      // ---- 2. their candidate sums, a lane of W items per segment ----
      for (int base = 0; base < 16 * nd; base += lanes) {
        const int s = base + lane;
        long3 v = (long3)(0);
        int i = 0;
        if (s < 16 * nd) {
          i = work[s >> 4];
          int2 a = (int2)(0), b = (int2)(0);
          if (node_candidate_ends(16 * i + (s & 15), nodes, n, d, width, height, &a, &b))
            v = segment_rows4(cz, cz2lo, cz2hi, width, a, b, orient, lt, W);
        }
        sc.ln[t] = v.x, sc.l1[t] = v.y, sc.l2[t] = v.z;
        barrier(CLK_LOCAL_MEM_FENCE);
        for (int h = W / 2; h > 0; h >>= 1) {
          if (lt < h) sc.ln[t] += sc.ln[t + h], sc.l1[t] += sc.l1[t + h], sc.l2[t] += sc.l2[t + h];
          barrier(CLK_LOCAL_MEM_FENCE);
        }
        if (lt == 0 && s < 16 * nd) {
          const size_t o = 3 * (16 * (size_t)i + (s & 15));
          cand[o] = sc.ln[t], cand[o + 1] = sc.l1[t], cand[o + 2] = sc.l2[t];
        }
        barrier(CLK_LOCAL_MEM_FENCE);
      }
      for (int k = t; k < nd; k += g) dirty[work[k]] = 0;
      barrier(CLK_GLOBAL_MEM_FENCE);
      // ---- 3. every phase node's 8 moves (as evaluate_node in region_moves.clh) ----
      const double c0 = as_double(state[ST_CRIT]);
      for (int e = t; e < 8 * m; e += g) {
        const int k = e >> 3, w = e & 7;
        const int i = phase_node(phase, k, n), ip = (i + n - 1) % n, in = (i + 1) % n;
        const int2 prev = nodes[ip], next = nodes[in], q = nodes[i] + d * kDir[w];
        const bool inside = q.x >= 0 && q.y >= 0 && q.x < width && q.y < height &&
                            !same_point(q, prev) && !same_point(q, next) &&
                            !shared_end_overlap(q, prev, next);
        double cr = INFINITY;
        if (inside) {
          const long3 sa = cur_at(cand, 16 * i + 2 * w), sb = cur_at(cand, 16 * i + 2 * w + 1);
          const long3 tt = (long3)(state[0], state[1], state[2]) - cur_at(cur, ip) -
                           cur_at(cur, i) + sa + sb;
          cr = region_criterion(tt.x, tt.y, tt.z, state, model);
        }
        crit[e] = cr;
      }
      if (t == 0) lcount = 0;
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      for (int k = t; k < m; k += g) {
        int improving = 0;
        for (int w = 0; w < 8; ++w) improving |= (crit[8 * k + w] < c0 - region_eps(c0)) << w;
        if (improving) {
          const int a = atomic_inc(&lcount);
          imp[3 * a] = k, imp[3 * a + 1] = improving, imp[3 * a + 2] = 0;
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
      const int ni = lcount;
      // ---- 4. the crossing test of the improving moves, (node, segment) pairs ----
      for (int e = t; e < ni * n; e += g) {
        const int a = e / n, j = e - a * n;
        const int k = imp[3 * a], improving = imp[3 * a + 1];
        const int i = phase_node(phase, k, n), ip = (i + n - 1) % n, in = (i + 1) % n;
        if (j == ip || j == i) continue;
        const int jp = (i + n - 2) % n;
        const int2 prev = nodes[ip], next = nodes[in], here = nodes[i];
        const int2 p0 = nodes[j], p1 = nodes[j + 1 == n ? 0 : j + 1];
        const int4 seg = (int4)(min(p0, p1), max(p0, p1));
        int blocked = 0;
        for (int w = 0; w < 8; ++w) {
          if (!(improving >> w & 1)) continue;
          const int2 q = here + d * kDir[w];
          if (!boxes_meet(seg, move_box(prev, q, next))) continue;
          if ((j == jp ? shared_end_overlap(prev, q, p0) : segments_intersect(prev, q, p0, p1)) ||
              (j == in ? shared_end_overlap(next, q, p1) : segments_intersect(q, next, p0, p1)))
            blocked |= 1 << w;
        }
        if (blocked) atomic_or(&imp[3 * a + 2], blocked);
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
      // ---- 5. each improving node's best free move becomes a record ----
      for (int a = t; a < ni; a += g) {
        const int k = imp[3 * a], blocked = imp[3 * a + 2];
        const int i = phase_node(phase, k, n), ip = (i + n - 1) % n, in = (i + 1) % n;
        int bw = -1;
        double best = INFINITY;
        for (int w = 0; w < 8; ++w) {
          const double v = (blocked >> w & 1) ? INFINITY : crit[8 * k + w];
          if (v < best) best = v, bw = w;
        }
        if (best < c0 - region_eps(c0)) {
          const int e = atomic_inc(&counters[0]);
          const int2 prev = nodes[ip], next = nodes[in], q = nodes[i] + d * kDir[bw];
          moveGeom[e] = (int8)(k, i, q.x, q.y, prev.x, prev.y, next.x, next.y);
          moveBest[e] = best;
          const long3 sa = cur_at(cand, 16 * i + 2 * bw), sb = cur_at(cand, 16 * i + 2 * bw + 1);
          const long3 change = sa + sb - cur_at(cur, ip) - cur_at(cur, i);
          __global long* o = moveSums + 9 * (size_t)e;
          o[0] = sa.x, o[1] = sa.y, o[2] = sa.z, o[3] = sb.x, o[4] = sb.y, o[5] = sb.z;
          o[6] = change.x, o[7] = change.y, o[8] = change.z;
        }
      }
      barrier(CLK_GLOBAL_MEM_FENCE);
      // ---- 6. choose and apply (region_moves.clh), marking the moved nodes' neighbours ----
      apply_moves(nodes, n, model, state, cur, &counters[0], moveGeom, moveBest, moveSums, keep,
                  stepIndex, dirty, &sc, t, g);
      barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    }
  }
}
