// Per-group partial sums of |mu lap(V) - (V - V0)|V0|^2| (multigrid paper, eq. 9), 2D.
// Same storage, memory and boundary rule as gvf_euler2d.cl. The group size must be a power
// of two.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_residual_partial(FIELD_IN v, FIELD_IN v0, int width, int height, float mu,
                                   __global float* partial, __local float* scratch) {
  int x = get_global_id(0), y = get_global_id(1);
  int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  int lsize = get_local_size(0) * get_local_size(1);
  float r = 0.0f;
  if (x < width && y < height) {
    float2 c = LOAD_V2(v, x, y, width);
    float2 lap = laplacian2(v, x, y, width, height, c);
    float2 b = LOAD_V2(v0, x, y, width);
    r = length(mu * lap - (c - b) * dot(b, b));
  }
  scratch[lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) partial[get_group_id(1) * get_num_groups(0) + get_group_id(0)] = scratch[0];
}
