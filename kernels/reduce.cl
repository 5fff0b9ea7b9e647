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
