// Generalized GVF (Xu & Prince 1998), explicit Euler with time step mu:
//   V += mu (g lap(V) - (1 - g)(V - V0)),  g = exp(-|V0| / K)
// (engine/src/gvf/ggvf_solver.cpp; the stability bound is in mu_rule.hpp). Float32 buffers:
// float2 per pixel in 2D, packed float3 per voxel in 3D. Borders mirror (boundary.clh), the
// Laplacian weighs axes by 1/h^2 when WORLD_SPACING is defined (spacing.clh), as Euler's GVF.

#include "boundary.clh"
#include "spacing.clh"

__kernel void ggvf_weights2d(__global const float2* v0, __global float* g, int n, float k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[i] = exp(-length(v0[i]) / k);
}

__kernel void ggvf_weights3d(__global const float* v0, __global float* g, int n, float k) {
  int i = get_global_id(0);
  if (i >= n) return;
  g[i] = exp(-length(vload3(i, v0)) / k);
}

// The increment mu (g lap(V) - (1 - g)(V - V0)) at (x, y).
float2 ggvf_increment2d(__global const float2* v, __global const float2* v0,
                        __global const float* g, int x, int y, int width, int height, float mu) {
  const size_t i = (size_t)y * width + x;
  const size_t row = (size_t)y * width;
  const float2 c = v[i];
  const float2 l = v[row + mirror_index(x - 1, width)], r = v[row + mirror_index(x + 1, width)];
  const float2 u = v[(size_t)mirror_index(y - 1, height) * width + x];
  const float2 d = v[(size_t)mirror_index(y + 1, height) * width + x];
#ifdef WORLD_SPACING
  const float2 lap = LAP_PAIRS2(l + r, u + d) - LAP_CENTRE * c;
#else
  const float2 lap = (l + r) + (u + d) - 4.0f * c;
#endif
  const float gi = g[i];
  return mu * (gi * lap - (1.0f - gi) * (c - v0[i]));
}

float3 ggvf_increment3d(__global const float* v, __global const float* v0, __global const float* g,
                        int x, int y, int z, int width, int height, int depth, float mu) {
  const size_t i = ((size_t)z * height + y) * width + x;
  const size_t row = i - x;
#define GGVF_AT(xx, yy, zz) vload3(((size_t)(zz)*height + (yy)) * width + (xx), v)
  const float3 c = vload3(i, v);
  const float3 l = vload3(row + mirror_index(x - 1, width), v);
  const float3 r = vload3(row + mirror_index(x + 1, width), v);
  const float3 u = GGVF_AT(x, mirror_index(y - 1, height), z);
  const float3 d = GGVF_AT(x, mirror_index(y + 1, height), z);
  const float3 b = GGVF_AT(x, y, mirror_index(z - 1, depth));
  const float3 f = GGVF_AT(x, y, mirror_index(z + 1, depth));
#undef GGVF_AT
  const float3 lap = LAP_PAIRS3(l + r, u + d, b + f) - LAP_CENTRE3 * c;
  const float gi = g[i];
  return mu * (gi * lap - (1.0f - gi) * (c - vload3(i, v0)));
}

__kernel void ggvf_step2d(__global const float2* v, __global const float2* v0,
                          __global const float* g, __global float2* out, int width, int height,
                          float mu) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const size_t i = (size_t)y * width + x;
  out[i] = v[i] + ggvf_increment2d(v, v0, g, x, y, width, height, mu);
}

__kernel void ggvf_step3d(__global const float* v, __global const float* v0,
                          __global const float* g, __global float* out, int width, int height,
                          int depth, float mu) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const size_t i = ((size_t)z * height + y) * width + x;
  vstore3(vload3(i, v) + ggvf_increment3d(v, v0, g, x, y, z, width, height, depth, mu), i, out);
}

// |increment| per point; with mu = 1 the GGVF residual |g lap(V) - (1 - g)(V - V0)|, averaged
// on the host for Solver::error().
__kernel void ggvf_residual2d(__global const float2* v, __global const float2* v0,
                              __global const float* g, __global float* res, int width, int height,
                              float mu) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  res[(size_t)y * width + x] = length(ggvf_increment2d(v, v0, g, x, y, width, height, mu));
}

__kernel void ggvf_residual3d(__global const float* v, __global const float* v0,
                              __global const float* g, __global float* res, int width, int height,
                              int depth, float mu) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  res[((size_t)z * height + y) * width + x] =
      length(ggvf_increment3d(v, v0, g, x, y, z, width, height, depth, mu));
}
