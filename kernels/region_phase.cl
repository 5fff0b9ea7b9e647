// One phase of a region-snake step in ONE launch: on a small polygon a step is a few
// microseconds of work, so launches, not memory, set the pace (third paper, 15 MP case).
//   1. every work-group sums one chunk of rows of one candidate segment (16 per phase node:
//      8 directions x 2 segments) and adds it atomically to that segment's accumulator;
//   2. the group that completes a node's 16·chunks sums evaluates the node (evaluate_node);
//   3. the group that completes the last node chooses and applies the phase's moves.
// "Completes" is counted with atomics after a global fence. The counters return to zero in
// the launch that used them.
#include "region_common.clh"

#define SCRATCH_G 64  // largest work-group (the host uses 64 on GPUs, 16 on CPUs)
#include "region_moves.clh"

// counters: [m] groups done for phase node m, [mcount] nodes evaluated, [mcount + 1] moving
// nodes (their records in moveGeom, moveBest, moveSums: region_moves.clh).
__kernel void region_phase(__global const uint* cz, __global const uint* cz2lo,
                           __global const ushort* cz2hi, int width, int height,
                           __global int2* nodes, int n, int phase, int mcount, int d, int orient,
                           int chunks, int model, __global long* state, __global long* cur,
                           int stepIndex, int iterationFirstStep, __global long* segAcc,
                           __global int* counters, __global int8* moveGeom,
                           __global double* moveBest, __global long* moveSums, __global int* keep) {
  __local PhaseScratch sc;
  const int t = get_local_id(0), g = get_local_size(0);

  // A step after one that moved nothing moves nothing either, so the steps the host queued
  // past the end of an iteration return at once (uniform for the whole launch).
  if (stepIndex > iterationFirstStep && state[ST_LAST_MOVE] < stepIndex - 1) return;

  // Units of work: (candidate segment, chunk), 16 · mcount · chunks of them. The host launches
  // one group per unit or fewer groups that stride over them (RegionSnakeOptions::phaseGroups):
  // nothing waits on another group, so any count is correct.
  const int units = 16 * mcount * chunks;
  for (int u = get_group_id(0); u < units; u += get_num_groups(0)) {
    // ---- 1. one chunk of one candidate segment ----
    const int s = u / chunks, c = u % chunks, m = s >> 4;
    int2 a = (int2)(0), b = (int2)(0);
    const bool valid = candidate_ends(s, nodes, n, phase, d, width, height, &a, &b);
    group_sum3(
        valid ? segment_rows(cz, cz2lo, cz2hi, width, a, b, orient, c, chunks, t, g) : (long3)(0),
        sc.ln, sc.l1, sc.l2, t, g);
    if (t == 0) {
      if (sc.ln[0] | sc.l1[0] | sc.l2[0]) {
        atom_add(&segAcc[3 * s], sc.ln[0]);
        atom_add(&segAcc[3 * s + 1], sc.l1[0]);
        atom_add(&segAcc[3 * s + 2], sc.l2[0]);
      }
      mem_fence(CLK_GLOBAL_MEM_FENCE);
      sc.flag = atomic_inc(&counters[m]) == 16 * chunks - 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!sc.flag) continue;  // uniform: another group completes node m

    // ---- 2. evaluate phase node m ----
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    evaluate_node(m, nodes, n, phase, d, width, height, model, state, cur, segAcc,
                  &counters[mcount + 1], moveGeom, moveBest, moveSums, &sc, t, g);
    if (t == 0) counters[m] = 0;
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE);
    if (t == 0) sc.flag = atomic_inc(&counters[mcount]) == mcount - 1;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (!sc.flag) continue;

    // ---- 3. choose and apply the phase's moves (every unit is done: the loop ends here) ----
    mem_fence(CLK_GLOBAL_MEM_FENCE);
    if (t == 0) counters[mcount] = 0;
    apply_moves(nodes, n, model, state, cur, &counters[mcount + 1], moveGeom, moveBest, moveSums,
                keep, stepIndex, &sc, t, g);
  }
}
