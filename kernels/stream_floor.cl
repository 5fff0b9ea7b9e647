// The byte floor of a pass over a field (gvflab-bench floor): out = a + b over n lanes of type
// T, each work-item holding ILP lanes' loads in flight before it stores them, in a grid-stride
// loop. T is the bytes a lane moves (float, float2, float4; ushort, uint, uint2, uint4 for
// 16-bit fields: integer adds, the traffic is what counts). Build options: T and ILP.
#ifndef ILP
#define ILP 1
#endif

__kernel void stream_sum(__global const T* a, __global const T* b, __global T* out, ulong n) {
  const size_t g = get_global_size(0);
  for (size_t i = get_global_id(0); i < n; i += ILP * g) {
    T x[ILP], y[ILP];
    for (int u = 0; u < ILP; ++u)
      if (i + u * g < n) {
        x[u] = a[i + u * g];
        y[u] = b[i + u * g];
      }
    for (int u = 0; u < ILP; ++u)
      if (i + u * g < n) out[i + u * g] = x[u] + y[u];
  }
}
