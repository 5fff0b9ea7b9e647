// One explicit Euler step of 2D GVF (first paper, Alg. 1), unit time step:
//   V <- V + mu * lap(V) - (V - V0) |V0|^2
// Storage (f32 / f16 / snorm16) and memory (buffer / image) come from gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_euler_step(FIELD_IN v, FIELD_IN v0, FIELD_OUT out, int width, int height,
                             float mu) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  float2 c = LOAD_V2(v, x, y, width);
  float2 lap = laplacian2(v, x, y, width, height, c);
  float2 b = LOAD_V2(v0, x, y, width);
  STORE_V2(out, x, y, width, c + mu * lap - (c - b) * dot(b, b));
}
