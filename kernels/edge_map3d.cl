// 3D edge map f = |∇(G_σ * I)| / max and V0 = ∇f (or ∇(G_σ * I)) on volumes, x fastest,
// gradients in world units per axis (spacing.clh).
// Same boundary rule as edge_map.cl: a read at -1 returns index 1, at n returns n-2.

#include "boundary.clh"
#include "spacing.clh"

// One pass of the separable Gaussian along `axis` (0 = x, 1 = y, 2 = z).
__kernel void blur_axis(__global const float* in, __global float* out, __constant float* w, int r,
                        int width, int height, int depth, int axis) {
  int p[3] = {get_global_id(0), get_global_id(1), get_global_id(2)};
  const int n[3] = {width, height, depth};
  if (p[0] >= width || p[1] >= height || p[2] >= depth) return;
  const size_t stride[3] = {1, (size_t)width, (size_t)width * height};
  const size_t base = p[0] + p[1] * stride[1] + p[2] * stride[2] - p[axis] * stride[axis];
  const int a = p[axis];
  float acc = w[0] * in[base + a * stride[axis]];
  for (int k = 1; k <= r; ++k)
    acc += w[k] * (in[base + reflect_index(a - k, n[axis]) * stride[axis]] +
                   in[base + reflect_index(a + k, n[axis]) * stride[axis]]);
  out[base + a * stride[axis]] = acc;
}

float3 central_gradient3(__global const float* g, int x, int y, int z, int width, int height,
                         int depth) {
  const size_t sy = width, sz = (size_t)width * height;
  const size_t c = z * sz + y * sy;
  return (float3)(GRAD_X(0.5f *
                         (g[c + reflect_index(x + 1, width)] - g[c + reflect_index(x - 1, width)])),
                  GRAD_Y(0.5f * (g[z * sz + reflect_index(y + 1, height) * sy + x] -
                                 g[z * sz + reflect_index(y - 1, height) * sy + x])),
                  GRAD_Z(0.5f * (g[reflect_index(z + 1, depth) * sz + y * sy + x] -
                                 g[reflect_index(z - 1, depth) * sz + y * sy + x])));
}

__kernel void gradient_magnitude3d(__global const float* g, __global float* f, int width,
                                   int height, int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  f[((size_t)z * height + y) * width + x] =
      length(central_gradient3(g, x, y, z, width, height, depth));
}

// V0 = ∇g (packed float3), and |V0|² for the stability bound.
__kernel void gradient_field3d(__global const float* g, __global float* v0, __global float* s,
                               int width, int height, int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const float3 d = central_gradient3(g, x, y, z, width, height, depth);
  const size_t i = ((size_t)z * height + y) * width + x;
  vstore3(d, i, v0);
  s[i] = dot(d, d);
}
