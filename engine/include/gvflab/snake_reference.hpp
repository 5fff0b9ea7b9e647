#pragma once
// Double-precision references for the snake and capture-range kernels. They solve the
// pentadiagonal system by dense Gaussian elimination, independently of the product's
// circulant inverse, so a test that compares the two checks the method as well as the code.
#include <glm/vec2.hpp>
#include <vector>

#include "gvflab/reference.hpp"
#include "gvflab/snake_boundary.hpp"

namespace gvflab::reference {

struct SnakeStepParams {
  double alpha = 0, beta = 0, gamma = 1, kappa = 0, pressure = 0;
  bool normalize = true;
  SnakeBoundary boundary = SnakeBoundary::Periodic;
};

// γI + A for N nodes, row-major N x N; A's cyclic stencils are α(−1, 2, −1) and
// β(1, −4, 6, −4, 1), accumulated modulo N (so N < 5 folds them).
std::vector<double> snakeMatrix(int n, double alpha, double beta, double gamma);
// The same for an open snake, built from its energy term by term (α |x_{i+1} − x_i|² for the
// N−1 segments, β |x_{i−1} − 2x_i + x_{i+1}|² for the N−2 inner nodes), a fixed end's row
// replaced by the identity. Periodic gives snakeMatrix above.
std::vector<double> snakeMatrix(int n, double alpha, double beta, double gamma,
                                SnakeBoundary boundary);
// Solves M x = b for each coordinate with partial pivoting.
std::vector<glm::dvec2> solveDense(std::vector<double> m, std::vector<glm::dvec2> b);

// The force a node feels at p (pixel-corner coordinates): corner samples normalised (when
// asked), then bilinear.
glm::dvec2 sampleForce(const Field& field, glm::dvec2 p, bool normalize);
double sampleScalar(const Grid& grid, glm::dvec2 p);

// One semi-implicit step of a closed contour stored with a positive shoelace area, or of an
// open one (p.boundary): its ends' normals along their one segment, a fixed end's right-hand
// side its own position.
std::vector<glm::dvec2> snakeStep(const std::vector<glm::dvec2>& x, const Field& force,
                                  const SnakeStepParams& p);

// Per node, how firmly the unit force holds it (the snake_hold kernel): with n the outward
// normal, min(-F(x + d n).n, F(x - d n).n), F sampled normalised. With an edge map, where the
// raw force at x +- d n is weaker than minStrength and f stays below edgeLevel at the 7 samples
// x + (d k/3) n, k = -3..3, or has no crest across n (noise or a wall beside the node), a
// positive hold becomes 0, or kHoldOffEdge where it is at least kHoldLevel.
std::vector<double> holdStrengths(const std::vector<glm::dvec2>& x, const Field& force, double d,
                                  const Grid* edge = nullptr, double edgeLevel = 0,
                                  double minStrength = 0, double edgeNoise = 0);

// Steps to reach f >= threshold from every pixel centre, or -1 (see capture_range.hpp).
std::vector<int> captureSteps(const Field& field, const Grid& edge, double threshold, int maxSteps);

}  // namespace gvflab::reference
