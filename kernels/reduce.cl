// Two-stage reductions: each group folds a grid-stride slice into local memory, then a tree.
// The local size must be a power of two.

__kernel void reduce_sum(__global const float* in, int n, __global float* out,
                         __local float* scratch) {
  int lid = get_local_id(0);
  int lsize = get_local_size(0);
  float acc = 0.0f;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc += in[i];
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

__kernel void reduce_max(__global const float* in, int n, __global float* out,
                         __local float* scratch) {
  int lid = get_local_id(0);
  int lsize = get_local_size(0);
  float acc = -INFINITY;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) acc = fmax(acc, in[i]);
  scratch[lid] = acc;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] = fmax(scratch[lid], scratch[lid + s]);
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// min and max of |V|^2 over n float2 vectors (pairs == 0), or over n (min, max) pairs of an
// earlier pass (pairs == 1); one (min, max) per group, which a second launch folds into one.
// The viewer's colour legend needs these alone, so the field never has to reach the host.
// fmin/fmax skip NaN, as the host's comparisons did.
__kernel void reduce_magnitude_range(__global const float2* in, int n, int pairs,
                                     __global float2* out, __local float2* scratch) {
  int lid = get_local_id(0);
  int lsize = get_local_size(0);
  float lo = INFINITY, hi = -INFINITY;
  for (int i = get_global_id(0); i < n; i += get_global_size(0)) {
    float2 v = in[i];
    if (pairs) {
      lo = fmin(lo, v.x);
      hi = fmax(hi, v.y);
    } else {
      float m2 = v.x * v.x + v.y * v.y;
      lo = fmin(lo, m2);
      hi = fmax(hi, m2);
    }
  }
  scratch[lid] = (float2)(lo, hi);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s)
      scratch[lid] = (float2)(fmin(scratch[lid].x, scratch[lid + s].x),
                              fmax(scratch[lid].y, scratch[lid + s].y));
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}
