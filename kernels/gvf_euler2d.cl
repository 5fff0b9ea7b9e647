// One explicit Euler step of 2D GVF (first paper, Alg. 1), unit time step:
//   V <- V + mu * lap(V) - (V - V0) |V0|^2
// Boundary rule: a read at -1 returns index 1, a read at n returns n-2 (zero gradient).

__kernel void gvf_euler_step(__global const float2* v, __global const float2* v0,
                             __global float2* out, int width, int height, float mu) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  int xm = x > 0 ? x - 1 : min(1, width - 1);
  int xp = x < width - 1 ? x + 1 : max(width - 2, 0);
  int ym = y > 0 ? y - 1 : min(1, height - 1);
  int yp = y < height - 1 ? y + 1 : max(height - 2, 0);
  size_t row = (size_t)y * width;
  float2 c = v[row + x];
  float2 lap = v[row + xm] + v[row + xp] + v[(size_t)ym * width + x] +
               v[(size_t)yp * width + x] - 4.0f * c;
  float2 b = v0[row + x];
  out[row + x] = c + mu * lap - (c - b) * dot(b, b);
}
