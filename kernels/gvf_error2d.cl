// Per-group partial sums of |mu lap(V) - (V - V0)|V0|^2| (multigrid paper, eq. 9).
// Same boundary rule as gvf_euler2d.cl. The group size (lx * ly) must be a power of two.

__kernel void gvf_residual_partial(__global const float2* v, __global const float2* v0,
                                   int width, int height, float mu, __global float* partial,
                                   __local float* scratch) {
  int x = get_global_id(0), y = get_global_id(1);
  int lid = get_local_id(1) * get_local_size(0) + get_local_id(0);
  int lsize = get_local_size(0) * get_local_size(1);
  float r = 0.0f;
  if (x < width && y < height) {
    int xm = x > 0 ? x - 1 : min(1, width - 1);
    int xp = x < width - 1 ? x + 1 : max(width - 2, 0);
    int ym = y > 0 ? y - 1 : min(1, height - 1);
    int yp = y < height - 1 ? y + 1 : max(height - 2, 0);
    size_t row = (size_t)y * width;
    float2 c = v[row + x];
    float2 lap = v[row + xm] + v[row + xp] + v[(size_t)ym * width + x] +
                 v[(size_t)yp * width + x] - 4.0f * c;
    float2 b = v0[row + x];
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
