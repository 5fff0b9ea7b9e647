// One semi-implicit step of every moving parametric snake in the batch:
//   (gamma I + A) x_{t+1} = gamma x_t + kappa F(x_t) + p n(x_t)
// snake_rhs builds the right-hand side per node; snake_solve applies the exact inverse of the
// circulant matrix gamma I + A as a cyclic convolution with its first row (per node count).
// Open snakes (flag bit 2) have a banded matrix instead: one work-item per snake runs the
// forward and back substitutions of its LU factors (parametric_snake.hpp, "Open snakes");
// a fixed end (bits 3, 4) has the identity row and its own position as right-hand side.
//
// Layout: all snakes' nodes in one float2 array; meta[s] = (first node, node count, offset of
// the circulant row, or of the 5 LU numbers per node, in coef, flags), flags bit 0 = moving,
// bit 2 = open, bit 3 = first node fixed, bit 4 = last node fixed,
// bits 5-7 = its force (force_fields.clh);
// pressure[s] = that snake's balloon weight.
// snake_hold measures, per node, how firmly the force holds it (the converged/stalled rule,
// with the noise floor of parametric_snake.hpp).
// Coordinates: pixel (i, j) covers [i, i+1) x [j, j+1); fields are sampled at pixel centres.

#include "field_sample.clh"
#include "force_fields.clh"

#define SNAKE_MOVING 1
#define SNAKE_OPEN 4
#define SNAKE_FIX_START 8
#define SNAKE_FIX_END 16
// The hold test's edge across the normal (edge_across): f sampled every 0.5 px within
// HOLD_CREST_REACH px; HOLD_OFF_EDGE and HOLD_LEVEL are kHoldOffEdge and kHoldLevel of
// snake_types.hpp (and of reference::holdStrengths).
#define HOLD_CREST_REACH 3
#define HOLD_CREST_SIDE 2.5f
#define HOLD_CREST_RISE 0.1f
#define HOLD_CREST_NOISE 2.0f
#define HOLD_CREST_SHARP 0.125f
#define HOLD_OFF_EDGE -2.0f
#define HOLD_LEVEL 0.2f

// Outward unit normal at node i of a contour stored with positive shoelace area:
// (t.y, -t.x) / |t| with t the chord between its neighbours (an open snake's end: its one
// segment).
float2 outward_normal(__global const float2* pos, int i, int4 m) {
  int k = i - m.x;
  int open = m.w & SNAKE_OPEN;
  float2 prev = pos[m.x + (k == 0 ? (open ? 0 : m.y - 1) : k - 1)];
  float2 next = pos[m.x + (k == m.y - 1 ? (open ? k : 0) : k + 1)];
  float2 t = next - prev;
  float tl = length(t);
  return tl > 0.0f ? (float2)(t.y, -t.x) / tl : (float2)(0.0f, 0.0f);
}

__kernel void snake_rhs(__global const float2* pos, __global float2* rhs,
                        __global const int* node_snake, __global const int4* meta,
                        FORCE_FIELD_ARGS(float2), int total, int width, int height, float gamma,
                        float kappa, __global const float* pressure, int unit_force) {
  int i = get_global_id(0);
  if (i >= total) return;
  int s = node_snake[i];
  int4 m = meta[s];
  if (!(m.w & SNAKE_MOVING)) return;
  float2 p = pos[i];
  int k = i - m.x;
  if (((m.w & SNAKE_FIX_START) && k == 0) || ((m.w & SNAKE_FIX_END) && k == m.y - 1)) {
    rhs[i] = p;  // a pinned end: its row of the matrix is the identity
    return;
  }
  __global const float2* field = FORCE_FIELD(FORCE_OF(m.w));
  float2 f = sample_force(field, p, width, height, unit_force);
  rhs[i] = gamma * p + kappa * f + pressure[s] * outward_normal(pos, i, m);
}

// How firmly the snake's own unit force holds node i: the unit force sampled `d` px outside
// and inside along the outward normal n points back at the node with normal components
// -F(p + d n).n and F(p - d n).n; the smaller of the two (> 0 only when both point back).
// How far along dir the hold is read: d, or the end of the edge band of a force that vanishes
// on its edges (force_fields.clh).
float hold_reach(__global const float2* field, float2 p, float2 dir, float d, int width, int height,
                 int force) {
  float r = d;
  if (FORCE_VANISHES_ON_EDGES(force))
    while (r < FORCE_BAND_REACH &&
           length(sample_force(field, p + r * dir, width, height, 0)) < 0.5f)
      r += 0.5f;
  return r;
}

// Whether an edge of f lies across the normal n at p: f's largest value within
// HOLD_CREST_REACH px along n lies above f HOLD_CREST_SIDE px on both sides of it by a tenth of
// edge_level and twice f's noise (edge_noise, its robust standard deviation) at least, and by
// an eighth of itself (a wall's blurred flank met at a slant, as by a cap's end node in a slot,
// falls off slowly). A wall beside p, parallel to n, does not; the reach covers a node that
// rounds a corner by 2-3 px.
bool edge_across(__global const float* edge, float2 p, float2 n, int width, int height,
                 float edge_level, float edge_noise) {
  float crest = -1.0f, at = 0.0f;
  for (int k = -2 * HOLD_CREST_REACH; k <= 2 * HOLD_CREST_REACH; ++k) {
    float f = sample_edge(edge, p + 0.5f * k * n, width, height);
    if (f > crest) crest = f, at = 0.5f * k;
  }
  float sides = max(sample_edge(edge, p + (at - HOLD_CREST_SIDE) * n, width, height),
                    sample_edge(edge, p + (at + HOLD_CREST_SIDE) * n, width, height));
  float rise = max(HOLD_CREST_RISE * edge_level, HOLD_CREST_NOISE * edge_noise);
  return crest >= sides + max(rise, HOLD_CREST_SHARP * crest);
}

// With an edge map (have_edge), a hold counts (else it is at most 0) only where it is not
// noise: f reaches edge_level within d of the node along n, or the raw force is at least
// min_strength at both samples (GVF across a gap; grad f on noise is far weaker), and an edge
// lies across the normal (edge_across: not a wall beside it). A node the force holds (at least
// HOLD_LEVEL) there rests at a sink off any edge, as VFC's in a narrow slot between the walls'
// edges: HOLD_OFF_EDGE, and its snake cannot have converged.
__kernel void snake_hold(__global const float2* pos, __global float* hold,
                         __global const int* node_snake, __global const int4* meta,
                         FORCE_FIELD_ARGS(float2), int total, int width, int height, float d,
                         __global const float* edge, int have_edge, float edge_level,
                         float edge_noise, float min_strength) {
  int i = get_global_id(0);
  if (i >= total) return;
  int4 m = meta[node_snake[i]];
  const int force = FORCE_OF(m.w);
  __global const float2* field = FORCE_FIELD(force);
  float2 p = pos[i];
  float2 n = outward_normal(pos, i, m);
  float2 po = p + hold_reach(field, p, n, d, width, height, force) * n;
  float2 pi = p - hold_reach(field, p, -n, d, width, height, force) * n;
  float outside = -dot(sample_force(field, po, width, height, 1), n);
  float inside = dot(sample_force(field, pi, width, height, 1), n);
  float h = min(outside, inside);
  if (have_edge && h > 0.0f) {
    float strength = min(length(sample_force(field, po, width, height, 0)),
                         length(sample_force(field, pi, width, height, 0)));
    float ridge = 0.0f;
    for (int k = -3; k <= 3; ++k)
      ridge = max(ridge, sample_edge(edge, p + (d * k / 3) * n, width, height));
    if ((strength < min_strength || !FORCE_IN_GRADIENT_UNITS(force)) &&
        (ridge < edge_level || !edge_across(edge, p, n, width, height, edge_level, edge_noise)))
      h = h >= HOLD_LEVEL ? HOLD_OFF_EDGE : 0.0f;
  }
  hold[i] = h;
}

__kernel void snake_solve(__global const float2* rhs, __global const float2* pos,
                          __global float2* out, __global const int* node_snake,
                          __global const int4* meta, __global const float* coef, int total,
                          int width, int height) {
  int i = get_global_id(0);
  if (i >= total) return;
  int4 m = meta[node_snake[i]];
  if (!(m.w & SNAKE_MOVING)) {
    out[i] = pos[i];
    return;
  }
  int n = m.y;
  int j = i - m.x;
  __global const float* c = coef + m.z;
  __global const float2* b = rhs + m.x;
  if (m.w & SNAKE_OPEN) {
    // The snake's first work-item solves it all: L y = b, then U x = y, in place in out.
    if (j != 0) return;
    __global float2* x = out + m.x;
    for (int r = 0; r < n; ++r) {
      float2 y = b[r];
      if (r >= 1) y -= c[5 * r + 1] * x[r - 1];
      if (r >= 2) y -= c[5 * r] * x[r - 2];
      x[r] = y;
    }
    for (int r = n - 1; r >= 0; --r) {
      float2 y = x[r];
      if (r + 1 < n) y -= c[5 * r + 3] * x[r + 1];
      if (r + 2 < n) y -= c[5 * r + 4] * x[r + 2];
      x[r] = y * c[5 * r + 2];
    }
    const float2 hi = (float2)((float)width, (float)height);
    for (int r = 0; r < n; ++r) x[r] = clamp(x[r], (float2)(0.0f, 0.0f), hi);
    if (m.w & SNAKE_FIX_START) x[0] = pos[m.x];  // exactly, whatever the rounding
    if (m.w & SNAKE_FIX_END) x[n - 1] = pos[m.x + n - 1];
    return;
  }
  float2 acc = (float2)(0.0f, 0.0f);
  // x_i = sum_k c[k] b[(i + k) mod n], split in two runs to avoid a modulo per term.
  int k = 0;
  for (; j + k < n; ++k) acc += c[k] * b[j + k];
  for (; k < n; ++k) acc += c[k] * b[j + k - n];
  out[i] = clamp(acc, (float2)(0.0f, 0.0f), (float2)((float)width, (float)height));
}
