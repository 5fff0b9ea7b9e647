// Region snake, once per iteration: the sums of the current polygon's segments (chunked like
// the candidates of region_phase.cl) and their totals, criterion and largest extent.
#include "region_common.clh"

// ---- current segments: one work-group per (segment, chunk of rows) ----
// partial[(s * chunks + c) * 3 + {0,1,2}] = this chunk's signed (N, Σz, Σz²) of segment s.
__kernel void region_contrib(__global const uint* cz, __global const uint* cz2lo,
                             __global const ushort* cz2hi, int width, __global const int2* nodes,
                             int n, int orient, int chunks, __global long* partial) {
  __local long ln[MAX_LOCAL], l1[MAX_LOCAL], l2[MAX_LOCAL];
  const int t = get_local_id(0), g = get_local_size(0);
  const int s = get_group_id(0) / chunks, c = get_group_id(0) % chunks;
  const long3 v =
      segment_rows(cz, cz2lo, cz2hi, width, nodes[s], nodes[(s + 1) % n], orient, c, chunks, t, g);
  group_sum3(v, ln, l1, l2, t, g);
  if (t == 0) {
    size_t o = (size_t)get_group_id(0) * 3;
    partial[o] = ln[0], partial[o + 1] = l1[0], partial[o + 2] = l2[0];
  }
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
    if (t < h)
      ln[t] += ln[t + h], l1[t] += l1[t + h], l2[t] += l2[t + h], le[t] = max(le[t], le[t + h]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) {
    state[0] = ln[0], state[1] = l1[0], state[2] = l2[0];
    state[ST_CRIT] = as_long(region_criterion(ln[0], l1[0], l2[0], state, model));
    state[ST_EXTENT] = le[0];
  }
}
