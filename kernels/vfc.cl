// Vector field convolution (engine/src/gvf/vfc_field.cpp): V(x) = sum over taps t of
// f(x + o_t) w_t, f = 0 outside the grid. The taps (offsets and vectors) come from the host,
// the kernel's disc or ball with its centre left out.

__kernel void vfc2d(__global const float* f, __global const int2* offsets,
                    __global const float2* taps, int count, __global float2* out, int width,
                    int height) {
  int x = get_global_id(0), y = get_global_id(1);
  if (x >= width || y >= height) return;
  float2 acc = (float2)(0.0f, 0.0f);
  for (int t = 0; t < count; ++t) {
    const int2 o = offsets[t];
    const int xx = x + o.x, yy = y + o.y;
    if (xx >= 0 && xx < width && yy >= 0 && yy < height)
      acc += f[(size_t)yy * width + xx] * taps[t];
  }
  out[(size_t)y * width + x] = acc;
}

__kernel void vfc3d(__global const float* f, __global const int4* offsets,
                    __global const float4* taps, int count, __global float* out, int width,
                    int height, int depth) {
  int x = get_global_id(0), y = get_global_id(1), z = get_global_id(2);
  if (x >= width || y >= height || z >= depth) return;
  float3 acc = (float3)(0.0f, 0.0f, 0.0f);
  for (int t = 0; t < count; ++t) {
    const int4 o = offsets[t];
    const int xx = x + o.x, yy = y + o.y, zz = z + o.z;
    if (xx >= 0 && xx < width && yy >= 0 && yy < height && zz >= 0 && zz < depth)
      acc += f[((size_t)zz * height + yy) * width + xx] * taps[t].xyz;
  }
  vstore3(acc, ((size_t)z * height + y) * width + x, out);
}
