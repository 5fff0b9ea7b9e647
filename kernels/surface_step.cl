// One iteration of every moving surface snake in the batch (surface_snake.hpp): the
// semi-implicit step
//   (gamma I + A) x_{t+1} = gamma x_t + kappa F(x_t) + p n(x_t),  A = -alpha L + beta L^2,
// L the umbrella Laplacian on each vertex's one-ring, solved approximately by a few
// Richardson sweeps y <- y + omega (b - (gamma I + A) y) from y = x_t (omega = 1 / (gamma +
// 2 alpha + 4 beta), the largest eigenvalue of gamma I + A; the host says why that is stable).
// Each sweep is two passes, surface_laplacian (lap = L y; the first sweep's surface_rhs also
// forms b) and surface_sweep (L lap, then the update; the last sweep clamps into the volume), or
// on GPUs one, surface_sweep forming L y and L L y from the 2-ring (and b in the first).
//
// Layout: all surfaces' vertices in one float4 array (w unused); the one-rings in CSR form,
// ring[ring_start[v] .. ring_start[v + 1]) the global indices of v's neighbours in fan order,
// counter-clockwise seen from outside; vert_surf[v] its surface; flags[s] bit 0 = moving,
// bits 5-7 its force (force_fields.clh); pressure[s] its balloon weight.
// Fields: packed float3 per voxel, x fastest; voxel (i, j, k) covers [i, i+1) x [j, j+1) x
// [k, k+1) and is sampled at its centre. Positions are in world units from the volume's corner:
// voxel coordinates times `spacing` (its xyz; 1 for unit voxels), so that normals, the
// Laplacian, edge lengths and steps are isotropic in the world; the fields are sampled at
// p / spacing.

#include "force_fields.clh"
#include "trilinear.clh"

#define SURF_MOVING 1

// How sample_force3 scales the field: as it is; each corner made unit length first (the hold
// test: do the corners' directions agree); or over the cell's longest corner (the step's unit
// force, at most 1 and zero exactly where the interpolated field is: normalised corners cancel
// where their count on each side says, up to half a cell off the field's zero, 1 mm on a 2 mm
// axis; issue 37). The 1e-12 keeps flat regions still.
#define FORCE_RAW 0
#define FORCE_UNIT_CORNERS 1
#define FORCE_CELL_PEAK 2

// Trilinear sample of a packed float3 field at a point in voxel coordinates.
float3 sample_force3(__global const float* field, float3 p, int w, int h, int d, int scale) {
  size_t at[8];
  const float3 f = cell3(p, w, h, d, at);
  float3 c[8];
  float peak = 0.0f;
  for (int k = 0; k < 8; ++k) {
    c[k] = vload3(at[k], field);
    peak = fmax(peak, length(c[k]));
    if (scale == FORCE_UNIT_CORNERS) c[k] *= rsqrt(dot(c[k], c[k]) + 1e-12f);
  }
  const float3 s = mix(mix(mix(c[0], c[1], f.x), mix(c[2], c[3], f.x), f.y),
                       mix(mix(c[4], c[5], f.x), mix(c[6], c[7], f.x), f.y), f.z);
  return scale == FORCE_CELL_PEAK ? s / sqrt(peak * peak + 1e-12f) : s;
}

// Mean of the one-ring minus the vertex: the umbrella Laplacian of a float4 array.
float3 umbrella(__global const float4* a, __global const int* ring_start, __global const int* ring,
                int i) {
  int b = ring_start[i], e = ring_start[i + 1];
  float3 s = (float3)(0.0f);
  for (int k = b; k < e; ++k) s += a[ring[k]].xyz;
  return e > b ? s / (float)(e - b) - a[i].xyz : (float3)(0.0f);
}

// Outward unit normal from the ordered one-ring: the sum of the fan's triangle normals
// (area-weighted), zero when they cancel.
float3 ring_normal(__global const float4* pos, __global const int* ring_start,
                   __global const int* ring, int i) {
  int b = ring_start[i], e = ring_start[i + 1];
  float3 x = pos[i].xyz;
  float3 n = (float3)(0.0f);
  for (int k = b; k < e; ++k) {
    float3 a = pos[ring[k]].xyz - x;
    float3 c = pos[ring[k + 1 < e ? k + 1 : b]].xyz - x;
    n += cross(a, c);
  }
  float l = length(n);
  return l > 0.0f ? n / l : (float3)(0.0f);
}

// L (L y) at i: the umbrella of each neighbour's umbrella (the 2-ring), each computed as
// umbrella() computes i's, so that one launch holds a whole sweep.
float3 umbrella_twice(__global const float4* y, __global const int* ring_start,
                      __global const int* ring, int i, float3 lap_i) {
  int b = ring_start[i], e = ring_start[i + 1];
  float3 s = (float3)(0.0f);
  for (int k = b; k < e; ++k) s += umbrella(y, ring_start, ring, ring[k]);
  return e > b ? s / (float)(e - b) - lap_i : (float3)(0.0f);
}

// b = gamma x + kappa F(x) + p n(x), and lap = L x for the first sweep.
__kernel void surface_rhs(__global const float4* pos, __global float4* rhs, __global float4* lap,
                          __global const int* ring_start, __global const int* ring,
                          __global const int* vert_surf, __global const int* flags,
                          __global const float* pressure, FORCE_FIELD_ARGS(float), int total, int w,
                          int h, int d, float gamma, float kappa, int unit_force, float4 spacing) {
  int i = get_global_id(0);
  if (i >= total) return;
  int s = vert_surf[i];
  int f = flags[s];
  if (!(f & SURF_MOVING)) return;
  float3 x = pos[i].xyz;
  __global const float* field = FORCE_FIELD(FORCE_OF(f));
  float3 force =
      sample_force3(field, x / spacing.xyz, w, h, d, unit_force ? FORCE_CELL_PEAK : FORCE_RAW);
  float3 n = ring_normal(pos, ring_start, ring, i);
  rhs[i] = (float4)(gamma * x + kappa * force + pressure[s] * n, 0.0f);
  lap[i] = (float4)(umbrella(pos, ring_start, ring, i), 0.0f);
}

// lap = L y for the next sweep.
__kernel void surface_laplacian(__global const float4* y, __global float4* lap,
                                __global const int* ring_start, __global const int* ring,
                                __global const int* vert_surf, __global const int* flags,
                                int total) {
  int i = get_global_id(0);
  if (i >= total) return;
  if (!(flags[vert_surf[i]] & SURF_MOVING)) return;
  lap[i] = (float4)(umbrella(y, ring_start, ring, i), 0.0f);
}

// One sweep: out = y + omega (b - (gamma y - alpha L y + beta L L y)), with L y from lap
// (surface_rhs, surface_laplacian) or, when ring2, L y and L L y from the 2-ring in this launch,
// the first (y = x_t) also forming b = gamma x + kappa F(x) + p n(x) into rhs. Clamped into the
// volume, [0, w] x [0, h] x [0, d] times spacing, when last. Surfaces that do not move are copied.
__kernel void surface_sweep(__global const float4* y, __global const float4* lap,
                            __global float4* rhs, __global float4* out,
                            __global const int* ring_start, __global const int* ring,
                            __global const int* vert_surf, __global const int* flags,
                            __global const float* pressure, FORCE_FIELD_ARGS(float), int total,
                            int w, int h, int d, float gamma, float kappa, int unit_force,
                            float alpha, float beta, float omega, int ring2, int first, int last,
                            float4 spacing) {
  int i = get_global_id(0);
  if (i >= total) return;
  float4 yi = y[i];
  int s = vert_surf[i];
  int f = flags[s];
  if (!(f & SURF_MOVING)) {
    out[i] = yi;
    return;
  }
  float3 b;
  if (first) {
    __global const float* field = FORCE_FIELD(FORCE_OF(f));
    float3 force = sample_force3(field, yi.xyz / spacing.xyz, w, h, d,
                                 unit_force ? FORCE_CELL_PEAK : FORCE_RAW);
    float3 n = ring_normal(y, ring_start, ring, i);
    b = gamma * yi.xyz + kappa * force + pressure[s] * n;
    rhs[i] = (float4)(b, 0.0f);
  } else {
    b = rhs[i].xyz;
  }
  float3 l = ring2 ? umbrella(y, ring_start, ring, i) : lap[i].xyz;
  float3 ll =
      ring2 ? umbrella_twice(y, ring_start, ring, i, l) : umbrella(lap, ring_start, ring, i);
  float3 r = yi.xyz + omega * (b - (gamma * yi.xyz - alpha * l + beta * ll));
  if (last) r = clamp(r, (float3)(0.0f), (float3)((float)w, (float)h, (float)d) * spacing.xyz);
  out[i] = (float4)(r, 0.0f);
}

// How far along dir the hold is read: dist, or the end of the edge band of a force that
// vanishes on its edges (force_fields.clh); p and dir in world units.
float hold_reach3(__global const float* field, float3 p, float3 dir, float dist, int w, int h,
                  int d, float4 spacing, int force) {
  float r = dist;
  if (FORCE_VANISHES_ON_EDGES(force))
    while (r < FORCE_BAND_REACH &&
           length(sample_force3(field, (p + r * dir) / spacing.xyz, w, h, d, FORCE_RAW)) < 0.5f)
      r += 0.5f;
  return r;
}

// How firmly the surface's own unit force holds vertex i (the states' hold test, as
// snake_hold in 2D): min(-F(x + d n).n, F(x - d n).n); with an edge map, a positive hold
// becomes 0 where f stays below edge_level at x + (d k / 3) n, k = -3..3, and the raw force
// at both samples is weaker than min_strength.
__kernel void surface_hold(__global const float4* pos, __global float* hold,
                           __global const int* ring_start, __global const int* ring,
                           __global const int* vert_surf, __global const int* flags,
                           FORCE_FIELD_ARGS(float), int total, int w, int h, int d, float dist,
                           __global const float* edge, int have_edge, float edge_level,
                           float min_strength, float4 spacing) {
  int i = get_global_id(0);
  if (i >= total) return;
  const int force = FORCE_OF(flags[vert_surf[i]]);
  __global const float* field = FORCE_FIELD(force);
  float3 p = pos[i].xyz;
  float3 n = ring_normal(pos, ring_start, ring, i);
  float3 po = (p + hold_reach3(field, p, n, dist, w, h, d, spacing, force) * n) / spacing.xyz;
  float3 pi = (p - hold_reach3(field, p, -n, dist, w, h, d, spacing, force) * n) / spacing.xyz;
  float outside = -dot(sample_force3(field, po, w, h, d, FORCE_UNIT_CORNERS), n);
  float inside = dot(sample_force3(field, pi, w, h, d, FORCE_UNIT_CORNERS), n);
  float hv = min(outside, inside);
  if (have_edge && hv > 0.0f) {
    float strength = min(length(sample_force3(field, po, w, h, d, FORCE_RAW)),
                         length(sample_force3(field, pi, w, h, d, FORCE_RAW)));
    float ridge = 0.0f;
    for (int k = -3; k <= 3; ++k)
      ridge = max(ridge, sample_scalar3(edge, (p + (dist * k / 3) * n) / spacing.xyz, w, h, d));
    if (ridge < edge_level && (strength < min_strength || !FORCE_IN_GRADIENT_UNITS(force)))
      hv = 0.0f;
  }
  hold[i] = hv;
}

// Marks each moving surface whose mesh has an edge outside [dmin, dmax] (bit 0: remeshing
// due within the host's patience) or far outside, shorter than dmin / far or longer than
// dmax * far (bit 1: remeshing due now), by atomic_or into out_of_range[s].
__kernel void surface_edge_check(__global const float4* pos, __global const int* ring_start,
                                 __global const int* ring, __global const int* vert_surf,
                                 __global const int* flags, __global int* out_of_range, int total,
                                 float dmin, float dmax, float far) {
  int i = get_global_id(0);
  if (i >= total) return;
  int s = vert_surf[i];
  if (!(flags[s] & SURF_MOVING)) return;
  float3 x = pos[i].xyz;
  float lo = dmin * dmin, hi = dmax * dmax;
  float flo = lo / (far * far), fhi = hi * far * far;
  int bits = 0;
  // 1: an edge out of [dmin, dmax]; 2: one shorter than dmin / far; 4: one longer than far dmax.
  for (int k = ring_start[i]; k < ring_start[i + 1] && bits != 7; ++k) {
    float3 e = pos[ring[k]].xyz - x;
    float l2 = dot(e, e);
    if (l2 < lo || l2 > hi) bits |= 1;
    if (l2 < flo) bits |= 2;
    if (l2 > fhi) bits |= 4;
  }
  if (bits) atomic_or(out_of_range + s, bits);
}
