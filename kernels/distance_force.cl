// The distance force (engine/src/gvf/distance_force.cpp): edge points, an exact squared
// Euclidean distance transform one axis at a time, and F = -grad d / |grad d|.

#include "boundary.clh"
#include "spacing.clh"

// 0 on edge points (f >= threshold), +infinity elsewhere.
__kernel void distance_seed(__global const float* f, __global float* d2, int n, float threshold) {
  int i = get_global_id(0);
  if (i >= n) return;
  d2[i] = f[i] >= threshold ? 0.0f : INFINITY;
}

// One line of the lower envelope of parabolas (Felzenszwalb & Huttenlocher 2012):
//   out(p) = min_q in(q) + w (p - q)^2,  w = h^2 of the axis.
// Line `line` starts at (line / inner) * inner * n + line % inner with stride `inner` (the
// product of the sides before the axis). v and z are the line's scratch (n each): the
// parabolas' apexes and their left ends; z[0] is never read. Points at +infinity add no
// parabola; a line without any stays at +infinity.
__kernel void distance_pass(__global const float* in, __global float* out, __global int* vs,
                            __global float* zs, int n, int lines, int inner, float w) {
  const int line = get_global_id(0);
  if (line >= lines) return;
  const size_t base = (size_t)(line / inner) * inner * n + line % inner;
  const size_t stride = (size_t)inner;
  __global int* v = vs + (size_t)line * n;
  __global float* z = zs + (size_t)line * n;
  int k = -1;
  for (int q = 0; q < n; ++q) {
    const float fq = in[base + q * stride];
    if (isinf(fq)) continue;
    float s = 0.0f;
    while (k >= 0) {
      const int p = v[k];
      // The parabolas of p and q meet at s; (fq - fp) / (2w(q - p)) + (q + p) / 2 keeps the
      // large q^2 terms out of the float difference.
      s = (fq - in[base + p * stride]) / (2.0f * w * (float)(q - p)) + 0.5f * (float)(q + p);
      if (k > 0 && s <= z[k])
        --k;
      else
        break;
    }
    ++k;
    v[k] = q;
    z[k] = s;
  }
  int j = 0;
  for (int p = 0; p < n; ++p) {
    float d = INFINITY;
    if (k >= 0) {
      while (j < k && z[j + 1] < (float)p) ++j;
      const float dp = (float)(p - v[j]);
      d = w * dp * dp + in[base + v[j] * stride];
    }
    out[base + p * stride] = d;
  }
}

float distance_at(__global const float* d2, size_t i) { return sqrt(d2[i]); }

// -grad d / |grad d|, 0 where |grad d| <= 1e-6 or is not finite (no edge point at all).
float2 distance_unit2(float2 g) {
  const float len = length(g);
  return isfinite(len) && len > 1e-6f ? -g / len : (float2)(0.0f, 0.0f);
}
float3 distance_unit3(float3 g) {
  const float len = length(g);
  return isfinite(len) && len > 1e-6f ? -g / len : (float3)(0.0f, 0.0f, 0.0f);
}

__kernel void distance_force2d(__global const float* d2, __global float2* out, int width,
                               int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  const size_t row = (size_t)y * width;
  const float2 g =
      (float2)(GRAD_X(0.5f * (distance_at(d2, row + mirror_index(x + 1, width)) -
                              distance_at(d2, row + mirror_index(x - 1, width)))),
               GRAD_Y(0.5f * (distance_at(d2, (size_t)mirror_index(y + 1, height) * width + x) -
                              distance_at(d2, (size_t)mirror_index(y - 1, height) * width + x))));
  out[row + x] = distance_unit2(g);
}

__kernel void distance_force3d(__global const float* d2, __global float* out, int width, int height,
                               int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
#define DISTANCE_AT(xx, yy, zz) distance_at(d2, ((size_t)(zz)*height + (yy)) * width + (xx))
  const float3 g = (float3)(GRAD_X(0.5f * (DISTANCE_AT(mirror_index(x + 1, width), y, z) -
                                           DISTANCE_AT(mirror_index(x - 1, width), y, z))),
                            GRAD_Y(0.5f * (DISTANCE_AT(x, mirror_index(y + 1, height), z) -
                                           DISTANCE_AT(x, mirror_index(y - 1, height), z))),
                            GRAD_Z(0.5f * (DISTANCE_AT(x, y, mirror_index(z + 1, depth)) -
                                           DISTANCE_AT(x, y, mirror_index(z - 1, depth)))));
#undef DISTANCE_AT
  vstore3(distance_unit3(g), ((size_t)z * height + y) * width + x, out);
}
