// One explicit Euler step of 3D GVF (first paper, Alg. 2), unit time step:
//   V <- V + mu * lap(V) - (V - V0) |V0|^2   with the 7-point Laplacian,
// in the arithmetic of gvf_step3 (gvf_stencil.clh), which the tiled kernel shares.
// Build with -DDIMS3; storage and memory from gvf_storage.clh.
#include "gvf_storage.clh"
#include "gvf_stencil.clh"

__kernel void gvf_euler_step3d(FIELD_IN v, FIELD_IN v0, FIELD_OUT out, int width, int height,
                               int depth, float mu) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  const float3 c = LOAD_V3(v, x, y, z, width, height, depth);
  const float3 s = neighbour_sum3(v, x, y, z, width, height, depth);
  const float3 b = LOAD_V3(v0, x, y, z, width, height, depth);
  const float k0 = gvf_k0_3(mu);
  STORE_V3(out, x, y, z, width, height, depth, gvf_step3(c, s, gvf_k3(b, k0), gvf_cb3(b), mu));
}
