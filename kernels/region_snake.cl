// Region-based polygonal snake (PLH criterion): segment contributions along the contour from
// the cumulated images, candidate moves, and the choice of moves, all on the device.
// The geometry rule and the step's semantics are written out in region_types.hpp and
// region_reference.hpp; engine/src/reference/region_reference.cpp is the double reference.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// state (long[16]): 0..2 target sums (N, Σz, Σz²), 3..5 image sums, 6 criterion (double
// bits), 7 moves applied so far, 8 largest vertical extent of a segment, 9 index of the last
// step that moved a node (lets the host queue several steps between two reads).
#define ST_CRIT 6
#define ST_MOVES 7
#define ST_EXTENT 8

#define MAX_LOCAL 256
#define MOVE_CAP 1024  // moving nodes compacted in region_apply
#define ROWS_PER_ITEM 4

__constant int2 kDir[8] = {(int2)(1, 0),  (int2)(1, 1),   (int2)(0, 1),  (int2)(-1, 1),
                           (int2)(-1, 0), (int2)(-1, -1), (int2)(0, -1), (int2)(1, -1)};

long floor_div(long a, long b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// ---- criterion (minimised), as regionCriterion() in region_params.cpp ----
double region_term(long n, long s1, long s2, int model) {
  double dn = (double)n;
  double mean = (double)s1 / dn;
  if (model == 1) return dn * log(fmax(mean, 0.5));
  if (model == 2) return s1 == 0 ? 0.0 : -(double)s1 * log(fmax(mean, 0.5));
  double var = (double)s2 / dn - mean * mean;
  return 0.5 * dn * log(fmax(var, 1.0 / 12.0));
}

double region_criterion(long n, long s1, long s2, __global const long* state, int model) {
  long nb = state[3] - n;
  if (n < 2 || nb < 2) return INFINITY;
  return region_term(n, s1, s2, model) + region_term(nb, state[4] - s1, state[5] - s2, model);
}

double region_eps(double c) { return 1e-12 * fabs(c) + 1e-9; }

// ---- geometry, integer exact ----
long cross3(int2 o, int2 a, int2 b) {
  return (long)(a.x - o.x) * (long)(b.y - o.y) - (long)(a.y - o.y) * (long)(b.x - o.x);
}
int sgnl(long v) { return (v > 0) - (v < 0); }
bool on_segment(int2 p, int2 q, int2 r) {
  return min(p.x, q.x) <= r.x && r.x <= max(p.x, q.x) && min(p.y, q.y) <= r.y &&
         r.y <= max(p.y, q.y);
}
bool segments_intersect(int2 p, int2 q, int2 r, int2 s) {
  int o1 = sgnl(cross3(p, q, r)), o2 = sgnl(cross3(p, q, s));
  int o3 = sgnl(cross3(r, s, p)), o4 = sgnl(cross3(r, s, q));
  if (o1 * o2 < 0 && o3 * o4 < 0) return true;
  return (o1 == 0 && on_segment(p, q, r)) || (o2 == 0 && on_segment(p, q, s)) ||
         (o3 == 0 && on_segment(r, s, p)) || (o4 == 0 && on_segment(r, s, q));
}
bool shared_end_overlap(int2 q, int2 u, int2 v) {
  long dot = (long)(u.x - q.x) * (long)(v.x - q.x) + (long)(u.y - q.y) * (long)(v.y - q.y);
  return cross3(q, u, v) == 0 && dot > 0;
}
bool same_point(int2 a, int2 b) { return a.x == b.x && a.y == b.y; }

// Segment s of a launch: mode 0 the current segment s (nodes s, s+1); mode 1 candidate
// s = 16 m + 2 w + side of phase node m moved by d in direction w, side 0 (prev, q) or 1
// (q, next). Returns false when the candidate leaves the image.
bool segment_ends(int s, int mode, __global const int2* nodes, int n,
                  __global const int* phaseNodes, int d, int width, int height, int2* a,
                  int2* b) {
  if (mode == 0) {
    *a = nodes[s];
    *b = nodes[(s + 1) % n];
    return true;
  }
  int m = s >> 4, w = (s >> 1) & 7, side = s & 1;
  int i = phaseNodes[m];
  int2 q = nodes[i] + d * kDir[w];
  if (q.x < 0 || q.y < 0 || q.x >= width || q.y >= height) return false;
  *a = side == 0 ? nodes[(i + n - 1) % n] : q;
  *b = side == 0 ? q : nodes[(i + 1) % n];
  return true;
}

// ---- contributions: one work-group per (segment, chunk of rows) ----
// partial[(s * chunks + c) * 3 + {0,1,2}] = this chunk's signed (N, Σz, Σz²).
__kernel void region_contrib(__global const uint* cz, __global const uint* cz2lo,
                             __global const ushort* cz2hi, int width,
                             int height, __global const int2* nodes, int n,
                             __global const int* phaseNodes, int d, int orient, int mode,
                             int chunks, __global long* partial) {
  __local long ln[MAX_LOCAL], l1[MAX_LOCAL], l2[MAX_LOCAL];
  const int t = get_local_id(0), g = get_local_size(0);
  const int s = get_group_id(0) / chunks, c = get_group_id(0) % chunks;
  int2 a, b;
  long sn = 0, s1 = 0, s2 = 0;
  if (segment_ends(s, mode, nodes, n, phaseNodes, d, width, height, &a, &b) && a.y != b.y) {
    int2 top = a.y < b.y ? a : b, bot = a.y < b.y ? b : a;
    long dy = bot.y - top.y, dx = bot.x - top.x;
    int y0 = top.y + c * g * ROWS_PER_ITEM + t;
    for (int r = 0; r < ROWS_PER_ITEM; ++r) {
      int y = y0 + r * g;
      if (y >= bot.y) break;
      long k = top.x + floor_div((long)(y - top.y) * dx, dy);
      size_t i = (size_t)y * (size_t)width + (size_t)k;
      sn += k + 1;
      s1 += (long)cz[i];
      s2 += (long)(((ulong)cz2hi[i] << 32) | cz2lo[i]);
    }
    long sign = (b.y > a.y ? 1 : -1) * orient;
    sn *= sign, s1 *= sign, s2 *= sign;
  }
  ln[t] = sn, l1[t] = s1, l2[t] = s2;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = g / 2; h > 0; h >>= 1) {
    if (t < h) ln[t] += ln[t + h], l1[t] += l1[t + h], l2[t] += l2[t + h];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) {
    size_t o = (size_t)get_group_id(0) * 3;
    partial[o] = ln[0], partial[o + 1] = l1[0], partial[o + 2] = l2[0];
  }
}

long3 chunk_sum(__global const long* partial, int s, int chunks) {
  long3 r = (long3)(0);
  for (int c = 0; c < chunks; ++c) {
    size_t o = ((size_t)s * chunks + c) * 3;
    r += (long3)(partial[o], partial[o + 1], partial[o + 2]);
  }
  return r;
}

long3 cur_at(__global const long* cur, int j) {
  return (long3)(cur[3 * j], cur[3 * j + 1], cur[3 * j + 2]);
}

// ---- target sums of the current polygon (one work-group), after the current contributions
// were computed into partial with mode 0; stores them per segment in cur ----
__kernel void region_sum_current(__global const long* partial, int chunks, int n,
                                 __global const int2* nodes, __global long* cur,
                                 __global long* state, int model) {
  __local long ln[MAX_LOCAL], l1[MAX_LOCAL], l2[MAX_LOCAL], le[MAX_LOCAL];
  const int t = get_local_id(0), g = get_local_size(0);
  long3 acc = (long3)(0);
  long ext = 0;
  for (int j = t; j < n; j += g) {
    long3 v = chunk_sum(partial, j, chunks);
    cur[3 * j] = v.x, cur[3 * j + 1] = v.y, cur[3 * j + 2] = v.z;
    acc += v;
    ext = max(ext, (long)abs(nodes[(j + 1) % n].y - nodes[j].y));
  }
  ln[t] = acc.x, l1[t] = acc.y, l2[t] = acc.z, le[t] = ext;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int h = g / 2; h > 0; h >>= 1) {
    if (t < h) ln[t] += ln[t + h], l1[t] += l1[t + h], l2[t] += l2[t + h],
               le[t] = max(le[t], le[t + h]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) {
    state[0] = ln[0], state[1] = l1[0], state[2] = l2[0];
    state[ST_CRIT] = as_long(region_criterion(ln[0], l1[0], l2[0], state, model));
    state[ST_EXTENT] = le[0];
  }
}

// ---- candidates: one work-group of EVAL_G work-items per phase node m ----
// candCrit[8 m + w] = the criterion with node m moved in direction w, +inf when the move is
// invalid (outside the image, onto a neighbour, or its new segments meet the polygon). The
// first 8 work-items evaluate the criteria; the O(n) crossing test, needed only when some
// direction improves the criterion, is shared by the whole group (n / EVAL_G segments each).
#define EVAL_G 64
__kernel __attribute__((reqd_work_group_size(EVAL_G, 1, 1)))
void region_evaluate(__global const int2* nodes, int n, __global const int* phaseNodes,
                     int mcount, int d, int width, int height, __global const long* state,
                     __global const long* cur, __global const long* partial, int chunks,
                     int model, __global double* candCrit) {
  __local double crit[8];
  __local int blocked[8];
  const int m = get_group_id(0), t = get_local_id(0);
  if (m >= mcount) return;  // uniform for the whole group
  const int i = phaseNodes[m];
  const int ip = (i + n - 1) % n, in = (i + 1) % n;
  const int2 prev = nodes[ip], next = nodes[in];
  const double c0 = as_double(state[ST_CRIT]);
  if (t < 8) {
    const int2 q = nodes[i] + d * kDir[t];
    const bool inside = q.x >= 0 && q.y >= 0 && q.x < width && q.y < height &&
                        !same_point(q, prev) && !same_point(q, next) &&
                        !shared_end_overlap(q, prev, next);
    double c = INFINITY;
    if (inside) {
      long3 tt = (long3)(state[0], state[1], state[2]) - cur_at(cur, ip) - cur_at(cur, i) +
                 chunk_sum(partial, 16 * m + 2 * t, chunks) +
                 chunk_sum(partial, 16 * m + 2 * t + 1, chunks);
      c = region_criterion(tt.x, tt.y, tt.z, state, model);
    }
    crit[t] = c;
    blocked[t] = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  int improving = 0;  // bit w: direction w would be taken
  for (int w = 0; w < 8; ++w) improving |= (crit[w] < c0 - region_eps(c0)) << w;
  if (improving) {
    const int jp = (i + n - 2) % n;
    for (int j = t; j < n; j += EVAL_G) {
      if (j == ip || j == i) continue;
      const int2 c = nodes[j], e = nodes[(j + 1) % n];
      const int2 slo = min(c, e), shi = max(c, e);
      for (int w = 0; w < 8; ++w) {
        if (!(improving >> w & 1)) continue;
        const int2 q = nodes[i] + d * kDir[w];
        const int2 lo = min(min(prev, next), q), hi = max(max(prev, next), q);
        // Bounding boxes first: most segments are far from the moved node.
        if (shi.x < lo.x || slo.x > hi.x || shi.y < lo.y || slo.y > hi.y) continue;
        if ((j == jp ? shared_end_overlap(prev, q, c) : segments_intersect(prev, q, c, e)) ||
            (j == in ? shared_end_overlap(next, q, e) : segments_intersect(q, next, c, e)))
          blocked[w] = 1;  // every writer stores the same value
      }
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t < 8) candCrit[8 * m + t] = blocked[t] ? INFINITY : crit[t];
}

bool moves_meet(__global const int2* nodes, int n, int i1, int2 q1, int i2, int2 q2) {
  const int2 a1 = nodes[(i1 + n - 1) % n], b1 = nodes[(i1 + 1) % n];
  const int2 a2 = nodes[(i2 + n - 1) % n], b2 = nodes[(i2 + 1) % n];
  const bool shareB1A2 = (i1 + 1) % n == (i2 + n - 1) % n;
  const bool shareA1B2 = (i1 + n - 1) % n == (i2 + 1) % n;
  return segments_intersect(a1, q1, a2, q2) || segments_intersect(q1, b1, q2, b2) ||
         (shareA1B2 ? shared_end_overlap(a1, q1, q2) : segments_intersect(a1, q1, q2, b2)) ||
         (shareB1A2 ? shared_end_overlap(b1, q1, q2) : segments_intersect(q1, b1, a2, q2));
}

// ---- choice and application of the phase's moves (one work-group) ----
// Each node takes its best candidate if it beats the current criterion; moves whose new
// segments meet another move's are dropped; the rest are applied together when their joint
// criterion is better, else only the single best move is applied.
__kernel void region_apply(__global int2* nodes, int n, __global const int* phaseNodes,
                           int mcount, int d, __global long* state, __global long* cur,
                           __global const long* partial, int chunks, int model,
                           __global const double* candCrit, __global int* moveDir,
                           __global double* bestCrit, __global int* keep, int stepIndex) {
  __local long ln[MAX_LOCAL], l1[MAX_LOCAL], l2[MAX_LOCAL], lk[MAX_LOCAL];
  __local double lb[MAX_LOCAL];
  __local int li[MAX_LOCAL];
  __local int applyAll;
  __local long keptTotal;  // moves that pass the conflict test
  __local long newTot[3];  // totals of the polygon after this phase
  __local int newExt;      // an upper bound of its largest vertical segment extent
  // The moving nodes, compacted with their moves' bounding boxes: the pairwise conflict test
  // then runs over the few moving nodes, not over every node of the phase.
  __local int mvM[MOVE_CAP];
  __local int4 mvBox[MOVE_CAP];
  __local int mvCount;
  const int t = get_local_id(0), g = get_local_size(0);
  const double c0 = as_double(state[ST_CRIT]);
  if (t == 0) mvCount = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int m = t; m < mcount; m += g) {
    int bw = -1;
    double best = INFINITY;
    for (int w = 0; w < 8; ++w) {
      double v = candCrit[8 * m + w];
      if (v < best) best = v, bw = w;
    }
    const int dir = best < c0 - region_eps(c0) ? bw : -1;
    moveDir[m] = dir;
    bestCrit[m] = best;
    if (dir >= 0) {
      const int slot = atomic_inc(&mvCount);
      if (slot < MOVE_CAP) {
        const int i = phaseNodes[m];
        const int2 q = nodes[i] + d * kDir[dir];
        const int2 a = nodes[(i + n - 1) % n], b = nodes[(i + 1) % n];
        const int2 lo = min(min(a, b), q), hi = max(max(a, b), q);
        mvM[slot] = m;
        mvBox[slot] = (int4)(lo.x, lo.y, hi.x, hi.y);
      }
    }
  }
  barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
  const int moving = mvCount;
  for (int m = t; m < mcount; m += g) {
    int k = moveDir[m] >= 0;
    if (k) {
      const int i1 = phaseNodes[m];
      const int2 q1 = nodes[i1] + d * kDir[moveDir[m]];
      const int2 a1 = nodes[(i1 + n - 1) % n], b1 = nodes[(i1 + 1) % n];
      const int2 lo1 = min(min(a1, b1), q1), hi1 = max(max(a1, b1), q1);
      const int others = moving <= MOVE_CAP ? moving : mcount;
      for (int s = 0; s < others && k; ++s) {
        const int o = moving <= MOVE_CAP ? mvM[s] : s;
        if (o == m || moveDir[o] < 0) continue;
        const int i2 = phaseNodes[o];
        int4 box2;
        if (moving <= MOVE_CAP) {
          box2 = mvBox[s];
        } else {
          const int2 q = nodes[i2] + d * kDir[moveDir[o]];
          const int2 a2 = nodes[(i2 + n - 1) % n], b2 = nodes[(i2 + 1) % n];
          const int2 lo = min(min(a2, b2), q), hi = max(max(a2, b2), q);
          box2 = (int4)(lo.x, lo.y, hi.x, hi.y);
        }
        if (hi1.x < box2.x || box2.z < lo1.x || hi1.y < box2.y || box2.w < lo1.y) continue;
        if (moves_meet(nodes, n, i1, q1, i2, nodes[i2] + d * kDir[moveDir[o]])) k = 0;
      }
    }
    keep[m] = k;
  }
  barrier(CLK_GLOBAL_MEM_FENCE);
  long3 acc = (long3)(0);
  long kept = 0;
  double best = INFINITY;
  int bestM = -1;
  for (int m = t; m < mcount; m += g) {
    if (moveDir[m] < 0) continue;
    if (bestCrit[m] < best) best = bestCrit[m], bestM = m;  // ascending m: lowest m wins ties
    if (keep[m]) {
      const int i = phaseNodes[m], w = moveDir[m];
      acc += chunk_sum(partial, 16 * m + 2 * w, chunks) +
             chunk_sum(partial, 16 * m + 2 * w + 1, chunks) - cur_at(cur, (i + n - 1) % n) -
             cur_at(cur, i);
      ++kept;
    }
  }
  ln[t] = acc.x, l1[t] = acc.y, l2[t] = acc.z, lk[t] = kept, lb[t] = best, li[t] = bestM;
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
  if (t == 0) {
    applyAll = 0;
    keptTotal = lk[0];
    long3 nt = (long3)(state[0], state[1], state[2]);
    if (li[0] >= 0) {
      const long3 tj = nt + (long3)(ln[0], l1[0], l2[0]);
      const double cj = region_criterion(tj.x, tj.y, tj.z, state, model);
      applyAll = lk[0] > 0 && cj < c0 - region_eps(c0);
      if (applyAll) {
        nt = tj;
      } else {  // only the single best move: its two segments replace the current two
        const int m = li[0], i = phaseNodes[m], w = moveDir[m];
        nt += chunk_sum(partial, 16 * m + 2 * w, chunks) +
              chunk_sum(partial, 16 * m + 2 * w + 1, chunks) - cur_at(cur, (i + n - 1) % n) -
              cur_at(cur, i);
      }
    }
    // The moved nodes' segments are disjoint (phase nodes are not adjacent), so the new totals
    // are the old ones plus the applied moves' changes: exact integer sums, no pass over all
    // segments. The extent only bounds row chunks; it may stay larger until the next
    // iteration's region_sum_current recomputes it.
    newTot[0] = nt.x, newTot[1] = nt.y, newTot[2] = nt.z;
    newExt = (int)state[ST_EXTENT];
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  const int single = li[0];
  // Apply: only this phase's nodes and their two segments change, so the writes are disjoint.
  for (int m = t; m < mcount; m += g) {
    if (!(applyAll ? (moveDir[m] >= 0 && keep[m]) : m == single)) continue;
    const int i = phaseNodes[m], w = moveDir[m], ip = (i + n - 1) % n;
    const long3 ca = chunk_sum(partial, 16 * m + 2 * w, chunks);
    const long3 cb = chunk_sum(partial, 16 * m + 2 * w + 1, chunks);
    cur[3 * ip] = ca.x, cur[3 * ip + 1] = ca.y, cur[3 * ip + 2] = ca.z;
    cur[3 * i] = cb.x, cur[3 * i + 1] = cb.y, cur[3 * i + 2] = cb.z;
    const int2 q = nodes[i] + d * kDir[w];
    nodes[i] = q;
    atomic_max(&newExt, (int)max(abs(q.y - nodes[ip].y), abs(nodes[(i + 1) % n].y - q.y)));
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (t == 0 && single >= 0) {
    const long applied = applyAll ? keptTotal : 1;
    state[0] = newTot[0], state[1] = newTot[1], state[2] = newTot[2];
    state[ST_CRIT] = as_long(region_criterion(newTot[0], newTot[1], newTot[2], state, model));
    state[ST_MOVES] += applied;
    state[9] = stepIndex;
  }
  if (t == 0) state[ST_EXTENT] = newExt;
}
