// Edge map f = |∇(G_σ * I)| / max and initial field V0 = ∇f (or ∇(G_σ * I)), gradients in
// world units per axis (spacing.clh).
// Boundary rule (the same in every kernel and in engine/src/reference): a read at index -1
// returns index 1 and a read at n returns n-2, so central differences vanish at the border.

#include "boundary.clh"
#include "spacing.clh"

// Separable Gaussian, horizontal pass. w holds taps 0..r (symmetric).
__kernel void blur_rows(__global const float* in, __global float* out, __constant float* w, int r,
                        int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  __global const float* row = in + (size_t)y * width;
  float acc = w[0] * row[x];
  for (int k = 1; k <= r; ++k)
    acc += w[k] * (row[reflect_index(x - k, width)] + row[reflect_index(x + k, width)]);
  out[(size_t)y * width + x] = acc;
}

__kernel void blur_cols(__global const float* in, __global float* out, __constant float* w, int r,
                        int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  float acc = w[0] * in[(size_t)y * width + x];
  for (int k = 1; k <= r; ++k)
    acc += w[k] * (in[(size_t)reflect_index(y - k, height) * width + x] +
                   in[(size_t)reflect_index(y + k, height) * width + x]);
  out[(size_t)y * width + x] = acc;
}

float2 central_gradient(__global const float* g, int x, int y, int width, int height) {
  float gxp = g[(size_t)y * width + reflect_index(x + 1, width)];
  float gxm = g[(size_t)y * width + reflect_index(x - 1, width)];
  float gyp = g[(size_t)reflect_index(y + 1, height) * width + x];
  float gym = g[(size_t)reflect_index(y - 1, height) * width + x];
  return (float2)(GRAD_X(0.5f * (gxp - gxm)), GRAD_Y(0.5f * (gyp - gym)));
}

__kernel void gradient_magnitude(__global const float* g, __global float* f, int width,
                                 int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  f[(size_t)y * width + x] = length(central_gradient(g, x, y, width, height));
}

// Divides by the maximum found on the device, so the host never waits for it.
__kernel void normalise(__global float* f, int n, __global const float* max_value) {
  int i = get_global_id(0);
  if (i >= n) return;
  float m = max_value[0];
  f[i] = m > 0.0f ? f[i] / m : 0.0f;
}

// V0 = ∇g, and |V0|² for the stability bound.
__kernel void gradient_field(__global const float* g, __global float2* v0, __global float* s,
                             int width, int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  float2 d = central_gradient(g, x, y, width, height);
  size_t i = (size_t)y * width + x;
  v0[i] = d;
  s[i] = dot(d, d);
}
