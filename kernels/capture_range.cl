// Capture-range map: from each pixel centre follow the unit-length force in unit steps until
// the edge map f reaches the threshold (captured: steps taken) or max_steps pass (-1).
// The force at a point is the snake's: corner samples normalised, then bilinear (see
// snake_step.cl); a point where it nearly vanishes (a sink or a flat region) is stuck.
// Coordinates: pixel (i, j) covers [i, i+1) x [j, j+1); samples sit at pixel centres.

#include "field_sample.clh"

// count[0] += captured pixels (one global atomic per work-group).
__kernel void capture_range(__global const float2* field, __global const float* edge,
                            __global int* steps, __global int* count, int width, int height,
                            float threshold, int max_steps) {
  __local int group_count;
  int x = get_global_id(0), y = get_global_id(1);
  if (get_local_id(0) == 0 && get_local_id(1) == 0) group_count = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (x < width && y < height) {
    float2 p = (float2)(x + 0.5f, y + 0.5f);
    int result = -1;
    for (int s = 0; s <= max_steps; ++s) {
      if (sample_edge(edge, p, width, height) >= threshold) {
        result = s;
        break;
      }
      if (s == max_steps) break;
      float2 d = sample_force(field, p, width, height, 1);
      float len = length(d);
      if (len < 1e-3f) break;
      p = clamp(p + d / len, (float2)(0.0f, 0.0f), (float2)((float)width, (float)height));
    }
    steps[(size_t)y * width + x] = result;
    if (result >= 0) atomic_inc(&group_count);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  if (get_local_id(0) == 0 && get_local_id(1) == 0 && group_count > 0)
    atomic_add(count, group_count);
}
