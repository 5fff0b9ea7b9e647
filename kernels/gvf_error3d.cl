// Per-group partial sums of the 3D GVF residual norm (eq. 9); see gvf_error2d.cl.
// Build with -DDIMS3. The group size must be a power of two.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_residual_partial3d(FIELD_IN v, FIELD_IN v0, int width, int height, int depth,
                                     float mu, __global float* partial, __local float* scratch) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  int lid =
      (get_local_id(2) * get_local_size(1) + get_local_id(1)) * get_local_size(0) + get_local_id(0);
  int lsize = get_local_size(0) * get_local_size(1) * get_local_size(2);
  float r = 0.0f;
  if (x < width && y < height && z < depth) {
    float3 c = LOAD_V3(v, x, y, z, width, height, depth);
    float3 lap = laplacian3(v, x, y, z, width, height, depth, c);
    float3 b = LOAD_V3(v0, x, y, z, width, height, depth);
    r = length(mu * lap - (c - b) * dot(b, b));
  }
  scratch[lid] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (int s = lsize / 2; s > 0; s >>= 1) {
    if (lid < s) scratch[lid] += scratch[lid + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0)
    partial[(get_group_id(2) * get_num_groups(1) + get_group_id(1)) * get_num_groups(0) +
            get_group_id(0)] = scratch[0];
}
