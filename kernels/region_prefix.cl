// Cumulated images of the region snake: row prefix sums of z (uint, exact for rows up to
// 65537 pixels of 16-bit values) and z², which stays below 2^48 for such rows and is stored as
// a uint low part and a ushort high part: 10 bytes per pixel, each buffer at most 4 B/px (so
// 150 MP fits devices that cap one allocation at 1 GiB). One pass: read 2 B, write 10 B.
// A launch covers rows [rowOffset, rowOffset + global rows); the host slices tall images.

// One work-item per row: the right shape for CPU devices (sequential, cache friendly).
__kernel void region_prefix_rows_seq(__global const ushort* z, __global uint* cz,
                                     __global uint* cz2lo, __global ushort* cz2hi, int width,
                                     int rowOffset, int rows) {
  int r = get_global_id(0);
  if (r >= rows) return;
  size_t base = (size_t)(rowOffset + r) * (size_t)width;
  uint s = 0;
  ulong q = 0;
  for (int x = 0; x < width; ++x) {
    uint v = z[base + x];
    s += v;
    q += (ulong)(v * v);
    cz[base + x] = s;
    cz2lo[base + x] = (uint)q;
    cz2hi[base + x] = (ushort)(q >> 32);
  }
}

// One work-group per row (GPUs). The row is walked in chunks of PREFIX_K * local size pixels:
// coalesced loads into local memory, PREFIX_K contiguous pixels scanned per work-item, a
// work-group scan of the per-item totals, coalesced stores; the running total carries from
// chunk to chunk, so rows of any width take one pass. Local size: a power of two <= 256.
#define PREFIX_K 8
#define PREFIX_MAX_G 256
#define PAD(i) ((i) + ((i) >> 5))  // skew local indices against bank conflicts
#define PREFIX_LOCAL (PAD(PREFIX_K * PREFIX_MAX_G) + 1)

__kernel void region_prefix_rows_group(__global const ushort* z, __global uint* cz,
                                       __global uint* cz2lo, __global ushort* cz2hi, int width,
                                       int rowOffset) {
  __local uint ls[PREFIX_LOCAL];
  __local ulong lq[PREFIX_LOCAL];
  __local uint ts[PREFIX_MAX_G];
  __local ulong tq[PREFIX_MAX_G];
  const int t = get_local_id(0);
  const int g = get_local_size(0);
  const size_t base = (size_t)(rowOffset + get_group_id(0)) * (size_t)width;
  uint carryS = 0;
  ulong carryQ = 0;
  for (int chunk = 0; chunk < width; chunk += PREFIX_K * g) {
    for (int k = 0; k < PREFIX_K; ++k) {
      int i = k * g + t;
      int x = chunk + i;
      ls[PAD(i)] = x < width ? (uint)z[base + x] : 0u;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    uint s = 0;
    ulong q = 0;
    for (int j = 0; j < PREFIX_K; ++j) {
      int i = PAD(t * PREFIX_K + j);
      uint v = ls[i];
      s += v;
      q += (ulong)(v * v);
      ls[i] = s;
      lq[i] = q;
    }
    ts[t] = s;
    tq[t] = q;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int off = 1; off < g; off <<= 1) {  // Hillis-Steele inclusive scan of item totals
      uint as = t >= off ? ts[t - off] : 0u;
      ulong aq = t >= off ? tq[t - off] : 0ul;
      barrier(CLK_LOCAL_MEM_FENCE);
      ts[t] += as;
      tq[t] += aq;
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    const uint addS = carryS + ts[t] - s;  // exclusive prefix of this item, plus the carry
    const ulong addQ = carryQ + tq[t] - q;
    for (int j = 0; j < PREFIX_K; ++j) {
      int i = PAD(t * PREFIX_K + j);
      ls[i] += addS;
      lq[i] += addQ;
    }
    carryS += ts[g - 1];
    carryQ += tq[g - 1];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < PREFIX_K; ++k) {
      int i = k * g + t;
      int x = chunk + i;
      if (x < width) {
        const ulong q = lq[PAD(i)];
        cz[base + x] = ls[PAD(i)];
        cz2lo[base + x] = (uint)q;
        cz2hi[base + x] = (ushort)(q >> 32);
      }
    }
    barrier(CLK_LOCAL_MEM_FENCE);  // the next chunk reuses the local arrays
  }
}

// Whole-image sums from the last column (one work-group): state[3..5] = N, Σz, Σz².
__kernel void region_total(__global const uint* cz, __global const uint* cz2lo,
                           __global const ushort* cz2hi, int width, int height,
                           __global long* state, __local ulong* scratch) {
  const int t = get_local_id(0);
  const int g = get_local_size(0);
  ulong s = 0, q = 0;
  for (int y = t; y < height; y += g) {
    size_t i = (size_t)y * (size_t)width + (size_t)(width - 1);
    s += cz[i];
    q += ((ulong)cz2hi[i] << 32) | cz2lo[i];
  }
  for (int pass = 0; pass < 2; ++pass) {
    scratch[t] = pass == 0 ? s : q;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int h = g / 2; h > 0; h >>= 1) {
      if (t < h) scratch[t] += scratch[t + h];
      barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (t == 0) state[4 + pass] = (long)scratch[0];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (t == 0) state[3] = (long)width * (long)height;
}
