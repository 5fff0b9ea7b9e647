#pragma once
// Plain double-precision versions of every kernel's maths, in 2D and 3D. The tests compare the
// OpenCL results with these; they are never the product path.
#include <array>
#include <cstddef>
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab::reference {

// The boundary rule used everywhere: a read at index −1 returns index 1 and a read at n
// returns n − 2 (mirror about the border pixel), so central differences vanish at the border.
int reflect(int i, int n);

// World units per sample along x, y, z (z unused in 2D): gradients divide by it and the
// Laplacian weighs axis i by 1/h_i² (gvflab/grid_spacing.hpp).
using Spacing = std::array<double, 3>;

// A scalar grid; depth 1 is a 2D image.
struct Grid {
  int width = 0;
  int height = 0;
  std::vector<double> values;  // width * height * depth, x fastest
  int depth = 1;
  Spacing spacing{1.0, 1.0, 1.0};
  int dims() const { return depth > 1 ? 3 : 2; }
  std::size_t count() const { return static_cast<std::size_t>(width) * height * depth; }
};

// A vector field with dims() components per point (x, y[, z]), interleaved.
struct Field {
  int width = 0;
  int height = 0;
  std::vector<double> values;
  int depth = 1;
  // Components per point; 0: 3 when depth > 1, else 2. Set to 3 for a one-slice level of a
  // 3D multigrid pyramid.
  int components = 0;
  Spacing spacing{1.0, 1.0, 1.0};  // of the grid it came from; Euler and ε use V0's
  int dims() const { return components ? components : (depth > 1 ? 3 : 2); }
  std::size_t count() const { return static_cast<std::size_t>(width) * height * depth; }
};

Grid gaussianBlur(const Grid& image, double sigma);  // σ per axis by gvflab::blurSigma
// |∇g| by central differences in world units (no normalisation).
Grid gradientMagnitude(const Grid& g);
Field gradient(const Grid& g);
// f = |∇(G_σ * I)| / max (0 everywhere for a flat image).
Grid edgeMap(const Grid& image, double sigma);
// V0 = ∇f, or ∇(G_σ * I) in ImageGradient mode.
Field initialField(const Grid& image, double sigma, V0Mode mode);
double maxSquaredNorm(const Field& v);

Field eulerStep(const Field& v, const Field& v0, double mu);
Field eulerIterate(Field v, const Field& v0, double mu, int iterations);
double gvfError(const Field& v, const Field& v0, double mu);

}  // namespace gvflab::reference
