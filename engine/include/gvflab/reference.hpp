#pragma once
// Plain double-precision versions of every kernel's maths. The tests compare the OpenCL
// results with these; they are never the product path.
#include <vector>

#include "gvflab/params.hpp"

namespace gvflab::reference {

// The boundary rule used everywhere: a read at index −1 returns index 1 and a read at n
// returns n − 2 (mirror about the border pixel), so central differences vanish at the border.
int reflect(int i, int n);

struct Grid {
  int width = 0;
  int height = 0;
  std::vector<double> values;  // scalar, width * height
};

struct Field {
  int width = 0;
  int height = 0;
  std::vector<double> values;  // interleaved x, y
};

Grid gaussianBlur(const Grid& image, double sigma);
// |∇g| by central differences (no normalisation).
Grid gradientMagnitude(const Grid& g);
Field gradient(const Grid& g);
// f = |∇(G_σ * I)| / max (0 everywhere for a flat image).
Grid edgeMap(const Grid& image, double sigma);
// V0 = ∇f, or ∇(G_σ * I) in ImageGradient mode.
Field initialField(const Grid& image, double sigma, V0Mode mode);

Field eulerStep(const Field& v, const Field& v0, double mu);
Field eulerIterate(Field v, const Field& v0, double mu, int iterations);
double gvfError(const Field& v, const Field& v0, double mu);

}  // namespace gvflab::reference
