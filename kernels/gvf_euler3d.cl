// One explicit Euler step of 3D GVF (first paper, Alg. 2), unit time step:
//   V <- V + mu * lap(V) - (V - V0) |V0|^2   with the 7-point Laplacian.
// Build with -DDIMS3; storage and memory from gvf_storage.clh (3 packed components).
#include "gvf_storage.clh"

__kernel void gvf_euler_step3d(FIELD_IN v, FIELD_IN v0, FIELD_OUT out, int width, int height,
                               int depth, float mu) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  int xm = mirror_index(x - 1, width), xp = mirror_index(x + 1, width);
  int ym = mirror_index(y - 1, height), yp = mirror_index(y + 1, height);
  int zm = mirror_index(z - 1, depth), zp = mirror_index(z + 1, depth);
  float3 c = LOAD_V3(v, x, y, z, width, height);
  float3 lap = LOAD_V3(v, xm, y, z, width, height) + LOAD_V3(v, xp, y, z, width, height) +
               LOAD_V3(v, x, ym, z, width, height) + LOAD_V3(v, x, yp, z, width, height) +
               LOAD_V3(v, x, y, zm, width, height) + LOAD_V3(v, x, y, zp, width, height) -
               6.0f * c;
  float3 b = LOAD_V3(v0, x, y, z, width, height);
  STORE_V3(out, x, y, z, width, height, c + mu * lap - (c - b) * dot(b, b));
}
