// One phase of a region-snake step in ONE launch: on a small polygon a step is a few
// microseconds of work, so launches, not memory, set the pace (third paper, 15 MP case).
//   1. every work-group sums one chunk of rows of one candidate segment (16 per phase node:
//      8 directions x 2 segments) and adds it atomically to that segment's accumulator;
//   2. the group that completes a node's 16·chunks sums evaluates the node: the criterion
//      of its 8 moves, the crossing test, its best move (and clears its accumulators);
//   3. the group that completes the last node chooses and applies the phase's moves.
// "Completes" is counted with atomics after a global fence; data written by other groups of
// this launch is read through volatile pointers (not from a possibly stale L1 line). The
// counters return to zero in the launch that used them. Semantics as region_reference.hpp.
#include "region_common.clh"

#define PHASE_G 64  // largest work-group (the host uses 64 on GPUs, 16 on CPUs)
#define BLOCK 128   // moving nodes per round of the pairwise conflict test

typedef volatile __global const long* vlong_p;
typedef volatile __global const int* vint_p;

long3 load3(vlong_p p, size_t i) { return (long3)(p[3 * i], p[3 * i + 1], p[3 * i + 2]); }

// The box around a move's two new segments (prev, q, next).
int4 move_box(int2 a, int2 q, int2 b) {
  const int2 lo = min(min(a, b), q), hi = max(max(a, b), q);
  return (int4)(lo.x, lo.y, hi.x, hi.y);
}
bool boxes_meet(int4 p, int4 q) { return !(p.z < q.x || q.z < p.x || p.w < q.y || q.w < p.y); }

// counters: [m] groups done for phase node m, [mcount] nodes evaluated, [mcount + 1] moving
// nodes listed in moveList. moveSums[6 m ..]: the two new segments' sums of node m's move.
__kernel void region_phase(__global const uint* cz, __global const uint* cz2lo,
                           __global const ushort* cz2hi, int width, int height,
                           __global int2* nodes, int n, __global const int* phaseNodes,
                           int mcount, int d, int orient, int chunks, int model,
                           __global long* state, __global long* cur, int stepIndex,
                           int iterationFirstStep, __global long* segAcc,
                           __global int* counters, __global int* moveDir,
                           __global double* bestCrit, __global long* moveSums,
                           __global int* moveList, __global int* keep) {
  __local long ln[PHASE_G], l1[PHASE_G], l2[PHASE_G], lk[PHASE_G];
  __local double lb[PHASE_G];
  __local int li[PHASE_G];
  __local double crit[8];
  __local int blocked[8];
  __local long moveSeg[8][6];
  __local int bM[BLOCK];
  __local int2 bQ[BLOCK];
  __local int4 bBox[BLOCK];
  __local int lastOfNode, lastOfPhase, movingCount, applyAll, newExt;
  __local long keptTotal, newTot[3];
  const int t = get_local_id(0), g = get_local_size(0);

  // A step after one that moved nothing moves nothing either, so the steps the host queued
  // past the end of an iteration return at once (uniform for the whole launch).
  if (stepIndex > iterationFirstStep && state[ST_LAST_MOVE] < stepIndex - 1) return;

  // ---- 1. one chunk of one candidate segment ----
  const int s = get_group_id(0) / chunks, c = get_group_id(0) % chunks, m = s >> 4;
  int2 a = (int2)(0), b = (int2)(0);
  const bool valid = candidate_ends(s, nodes, n, phaseNodes, d, width, height, &a, &b);
  group_sum3(valid ? segment_rows(cz, cz2lo, cz2hi, width, a, b, orient, c, chunks, t, g)
                   : (long3)(0),
             ln, l1, l2, t, g);
  if (t == 0) {
    if (ln[0] | l1[0] | l2[0]) {
      atom_add(&segAcc[3 * s], ln[0]);
      atom_add(&segAcc[3 * s + 1], l1[0]);
      atom_add(&segAcc[3 * s + 2], l2[0]);
    }
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    lastOfNode = atomic_inc(&counters[m]) == 16 * chunks - 1;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!lastOfNode) return;  // uniform: every other group is done

  // ---- 2. evaluate phase node m ----
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  vlong_p acc = (vlong_p)segAcc;
  const int i = phaseNodes[m], ip = (i + n - 1) % n, in = (i + 1) % n;
  const int2 prev = nodes[ip], next = nodes[in], here = nodes[i];
  const double c0 = as_double(state[ST_CRIT]);
  if (t < 8) {
    const int2 q = here + d * kDir[t];
    const bool inside = q.x >= 0 && q.y >= 0 && q.x < width && q.y < height &&
                        !same_point(q, prev) && !same_point(q, next) &&
                        !shared_end_overlap(q, prev, next);
    double cr = INFINITY;
    if (inside) {
      const long3 sa = load3(acc, 16 * m + 2 * t), sb = load3(acc, 16 * m + 2 * t + 1);
      const long3 tt = (long3)(state[0], state[1], state[2]) - cur_at(cur, ip) -
                       cur_at(cur, i) + sa + sb;
      cr = region_criterion(tt.x, tt.y, tt.z, state, model);
      moveSeg[t][0] = sa.x, moveSeg[t][1] = sa.y, moveSeg[t][2] = sa.z;
      moveSeg[t][3] = sb.x, moveSeg[t][4] = sb.y, moveSeg[t][5] = sb.z;
    }
    crit[t] = cr;
    blocked[t] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int improving = 0;  // bit w: direction w would be taken
  for (int w = 0; w < 8; ++w) improving |= (crit[w] < c0 - region_eps(c0)) << w;
  if (improving) {  // the O(n) crossing test, shared by the group
    const int jp = (i + n - 2) % n;
    for (int j = t; j < n; j += g) {
      if (j == ip || j == i) continue;
      const int2 p0 = nodes[j], p1 = nodes[(j + 1) % n];
      const int4 seg = (int4)(min(p0, p1), max(p0, p1));
      for (int w = 0; w < 8; ++w) {
        if (!(improving >> w & 1)) continue;
        const int2 q = here + d * kDir[w];
        if (!boxes_meet(seg, move_box(prev, q, next))) continue;
        if ((j == jp ? shared_end_overlap(prev, q, p0) : segments_intersect(prev, q, p0, p1)) ||
            (j == in ? shared_end_overlap(next, q, p1) : segments_intersect(q, next, p0, p1)))
          blocked[w] = 1;  // every writer stores the same value
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    int bw = -1;
    double best = INFINITY;
    for (int w = 0; w < 8; ++w) {
      const double v = blocked[w] ? INFINITY : crit[w];
      if (v < best) best = v, bw = w;
    }
    const int dir = best < c0 - region_eps(c0) ? bw : -1;
    moveDir[m] = dir;
    bestCrit[m] = best;
    if (dir >= 0) {
      for (int k = 0; k < 6; ++k) moveSums[6 * m + k] = moveSeg[dir][k];
      moveList[atomic_inc(&counters[mcount + 1])] = m;
    }
    counters[m] = 0;
  }
  for (int k = t; k < 48; k += g) segAcc[48 * m + k] = 0;  // for the next launch
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  if (t == 0) lastOfPhase = atomic_inc(&counters[mcount]) == mcount - 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (!lastOfPhase) return;

  // ---- 3. choose and apply the phase's moves ----
  // Each moving node takes its best move; moves whose new segments meet another move's are
  // dropped; the rest are applied together when their joint criterion is better, else only
  // the single best move (lowest node on ties). Phase nodes are not adjacent, so the moves'
  // segment changes are disjoint and the totals change by exact integer sums.
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  vint_p list = (vint_p)moveList, dirs = (vint_p)moveDir;
  vlong_p sums = (vlong_p)moveSums;
  volatile __global const double* bests = (volatile __global const double*)bestCrit;
  if (t == 0) {
    movingCount = atomic_xchg(&counters[mcount + 1], 0);
    counters[mcount] = 0;
    newExt = (int)state[ST_EXTENT];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int moving = movingCount;
  for (int e = t; e < moving; e += g) keep[e] = 1;
  for (int base = 0; base < moving; base += BLOCK) {
    for (int e = t; e < BLOCK && base + e < moving; e += g) {
      const int o = list[base + e], io = phaseNodes[o];
      const int2 q = nodes[io] + d * kDir[dirs[o]];
      bM[e] = o, bQ[e] = q;
      bBox[e] = move_box(nodes[(io + n - 1) % n], q, nodes[(io + 1) % n]);
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    const int count = min(BLOCK, moving - base);
    for (int e = t; e < moving; e += g) {
      if (!keep[e]) continue;
      const int m1 = list[e], i1 = phaseNodes[m1];
      const int2 q1 = nodes[i1] + d * kDir[dirs[m1]];
      const int4 box1 = move_box(nodes[(i1 + n - 1) % n], q1, nodes[(i1 + 1) % n]);
      for (int k = 0; k < count; ++k) {
        if (bM[k] == m1 || !boxes_meet(box1, bBox[k])) continue;
        if (moves_meet(nodes, n, i1, q1, phaseNodes[bM[k]], bQ[k])) {
          keep[e] = 0;
          break;
        }
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  long3 delta = (long3)(0);
  long kept = 0;
  double best = INFINITY;
  int bestM = -1;
  for (int e = t; e < moving; e += g) {
    const int mm = list[e], im = phaseNodes[mm];
    if (bests[mm] < best || (bests[mm] == best && mm < bestM)) best = bests[mm], bestM = mm;
    if (keep[e]) {
      delta += load3(sums, 2 * mm) + load3(sums, 2 * mm + 1) - cur_at(cur, (im + n - 1) % n) -
               cur_at(cur, im);
      ++kept;
    }
  }
  ln[t] = delta.x, l1[t] = delta.y, l2[t] = delta.z, lk[t] = kept, lb[t] = best, li[t] = bestM;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = g / 2; h > 0; h >>= 1) {
    if (t < h) {
      ln[t] += ln[t + h], l1[t] += l1[t + h], l2[t] += l2[t + h], lk[t] += lk[t + h];
      const int o = li[t + h];
      if (o >= 0 && (li[t] < 0 || lb[t + h] < lb[t] || (lb[t + h] == lb[t] && o < li[t])))
        lb[t] = lb[t + h], li[t] = o;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  const int single = li[0];
  if (t == 0) {
    applyAll = 0;
    keptTotal = lk[0];
    long3 nt = (long3)(state[0], state[1], state[2]);
    if (single >= 0) {
      const long3 joint = nt + (long3)(ln[0], l1[0], l2[0]);
      applyAll = lk[0] > 0 &&
                 region_criterion(joint.x, joint.y, joint.z, state, model) < c0 - region_eps(c0);
      if (applyAll) {
        nt = joint;
      } else {  // only the single best move: its two segments replace the current two
        const int is = phaseNodes[single];
        nt += load3(sums, 2 * single) + load3(sums, 2 * single + 1) -
              cur_at(cur, (is + n - 1) % n) - cur_at(cur, is);
      }
    }
    newTot[0] = nt.x, newTot[1] = nt.y, newTot[2] = nt.z;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int e = t; e < moving; e += g) {
    const int mm = list[e];
    if (!(applyAll ? keep[e] : mm == single)) continue;
    const int im = phaseNodes[mm], ip2 = (im + n - 1) % n;
    const long3 sa = load3(sums, 2 * mm), sb = load3(sums, 2 * mm + 1);
    cur[3 * ip2] = sa.x, cur[3 * ip2 + 1] = sa.y, cur[3 * ip2 + 2] = sa.z;
    cur[3 * im] = sb.x, cur[3 * im + 1] = sb.y, cur[3 * im + 2] = sb.z;
    const int2 q = nodes[im] + d * kDir[dirs[mm]];
    nodes[im] = q;
    // An upper bound of the largest vertical extent: it only sizes the row chunks.
    atomic_max(&newExt, max(abs(q.y - nodes[ip2].y), abs(nodes[(im + 1) % n].y - q.y)));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0) {
    if (single >= 0) {
      state[0] = newTot[0], state[1] = newTot[1], state[2] = newTot[2];
      state[ST_CRIT] = as_long(region_criterion(newTot[0], newTot[1], newTot[2], state, model));
      state[ST_MOVES] += applyAll ? keptTotal : 1;
      state[ST_LAST_MOVE] = stepIndex;
    }
    state[ST_EXTENT] = newExt;
  }
}
