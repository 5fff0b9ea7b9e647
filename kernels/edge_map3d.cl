// 3D edge map f = |∇(G_σ * I)| / max and V0 = ∇f (or ∇(G_σ * I)) on volumes, x fastest,
// gradients in world units per axis (spacing.clh).
// Same boundary rule as edge_map.cl: a read at -1 returns index 1, at n returns n-2.

#include "boundary.clh"
#include "spacing.clh"
#include "trilinear.clh"

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

// The volume on a grid k times finer along each axis, the same extent (buildGvfInput on
// anisotropic voxels): read trilinearly between the coarse centres, clamped to the outer ones.
__kernel void refine_linear3d(__global const float* in, __global float* out, int width, int height,
                              int depth, int kx, int ky, int kz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width * kx || y >= height * ky || z >= depth * kz) return;
  const float3 p = (float3)((x + 0.5f) / kx, (y + 0.5f) / ky, (z + 0.5f) / kz);
  out[((size_t)z * height * ky + y) * width * kx + x] = sample_scalar3(in, p, width, height, depth);
}

// Each voxel's f and V0 from its kx*ky*kz sub-samples on the finer grid: f their mean, and V0
// such that the data term's source |V0|² V0 is their mean (|V0|² follows from it: a voxel whose
// sub-samples straddle a ridge, pointing apart, gets a V0 as weak as the ridge top's).
// s = |V0|² for the stability bound.
__kernel void coarsen_input3d(__global const float* f_fine, __global const float* v0_fine,
                              __global float* f, __global float* v0, __global float* s, int width,
                              int height, int depth, int kx, int ky, int kz) {
  const int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const int fw = width * kx, fh = height * ky;
  float fsum = 0.0f;
  float3 bv = (float3)(0.0f);
  for (int c = 0; c < kz; ++c)
    for (int b = 0; b < ky; ++b)
      for (int a = 0; a < kx; ++a) {
        const size_t j = ((size_t)(z * kz + c) * fh + y * ky + b) * fw + x * kx + a;
        const float3 g = vload3(j, v0_fine);
        fsum += f_fine[j];
        bv += dot(g, g) * g;
      }
  const float n = (float)(kx * ky * kz);
  const float l = length(bv);
  const float3 d = l > 0.0f ? bv * (cbrt(l / n) / l) : (float3)(0.0f);
  const size_t i = ((size_t)z * height + y) * width + x;
  f[i] = fsum / n;
  vstore3(d, i, v0);
  s[i] = dot(d, d);
}
