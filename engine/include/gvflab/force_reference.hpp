#pragma once
// Double-precision references of the external forces beside GVF (GGVF, VFC, the distance
// force), written plainly from their definitions: the tests compare the OpenCL results with
// these. The VFC reference sums over the kernel's disc itself and the distance reference takes
// the minimum over every edge point (brute force), independent of the device's methods.
#include "gvflab/force_params.hpp"
#include "gvflab/reference.hpp"

namespace gvflab::reference {

// g = exp(−|V0|/K) per point.
Grid ggvfWeights(const Field& v0, double k);
// One step V + μ (g ∇²V − (1 − g)(V − V0)), the Laplacian in V0's spacing, mirrored borders.
Field ggvfStep(const Field& v, const Field& v0, const Grid& g, double mu);
Field ggvfIterate(Field v, const Field& v0, double k, double mu, int iterations);
// The mean over points of |g ∇²V − (1 − g)(V − V0)|.
double ggvfError(const Field& v, const Field& v0, double k);

// Σ over offsets o with 0 < |o| ≤ radius (samples) of f(x + o) m(|u|) u/|u|, u = o in f's
// spacing, f = 0 outside the grid.
Field vfcField(const Grid& f, const VfcParams& params);

// The squared distance (world units) to the nearest point with f >= threshold, by brute force;
// +infinity everywhere when there is none.
Grid distanceSquared(const Grid& f, double threshold);
// −∇d/|∇d| with d = √(distanceSquared), central differences in f's spacing with mirrored
// borders; 0 where |∇d| ≤ 1e-6 or d is infinite.
Field distanceForce(const Grid& f, double threshold);

}  // namespace gvflab::reference
