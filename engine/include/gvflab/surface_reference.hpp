#pragma once
// Double-precision references for the surface snake kernels (kernels/surface_step.cl): one
// iteration by the same Richardson sweeps, the semi-implicit step solved exactly by dense
// elimination (to check the sweeps' method, not only their code), and the hold test.
#include <cstdint>
#include <glm/vec3.hpp>
#include <vector>

#include "gvflab/reference.hpp"

namespace gvflab::reference {

using Rings = std::vector<std::vector<std::uint32_t>>;  // one-rings in fan order, outward CCW

struct SurfaceStepParams {
  double alpha = 0, beta = 0, gamma = 1, kappa = 0, pressure = 0;
  bool normalize = true;
  int sweeps = 1;  // Richardson sweeps (surfaceSweeps())
  // World units per voxel: positions are voxel coordinates times it (the field is sampled at
  // x / spacing, the clamp is the volume's extent in those units).
  glm::dvec3 spacing{1.0};
};

// How sampleForce3 scales the field (kernels/surface_step.cl says why): as it is, each corner
// made unit length first (the hold test), or over the cell's longest corner (the step's unit
// force, zero exactly where the interpolated field is).
enum class ForceScale { Raw, UnitCorners, CellPeak };

// Trilinear sample of a 3-component field at a point in voxel coordinates (centres at
// i + 0.5), scaled as asked; the same of a scalar grid.
glm::dvec3 sampleForce3(const Field& field, glm::dvec3 p, ForceScale scale);
double sampleScalar3(const Grid& grid, glm::dvec3 p);

// Mean of the ring minus the vertex; the unit sum of the fan's triangle normals.
std::vector<glm::dvec3> umbrellaLaplacian(const std::vector<glm::dvec3>& x, const Rings& rings);
std::vector<glm::dvec3> ringNormals(const std::vector<glm::dvec3>& x, const Rings& rings);

// One iteration: b = γx + κF(x) + p n(x), then `sweeps` Richardson sweeps of
// (γI − αL + βL²) y = b from y = x with ω = 1 / (γ + 2α + 4β); clamped into the volume.
std::vector<glm::dvec3> surfaceStep(const std::vector<glm::dvec3>& x, const Rings& rings,
                                    const Field& force, const SurfaceStepParams& p);
// The same step with the system solved exactly (dense, partial pivoting; small meshes only).
std::vector<glm::dvec3> surfaceImplicitStep(const std::vector<glm::dvec3>& x, const Rings& rings,
                                            const Field& force, const SurfaceStepParams& p);

// Per vertex, the surface_hold kernel: min(−F(x + d n).n, F(x − d n).n) with F the unit
// force; with an edge map, a positive hold becomes 0 where f stays below edgeLevel at
// x + (d k/3) n, k = −3..3, and the raw force at both samples is weaker than minStrength.
std::vector<double> surfaceHold(const std::vector<glm::dvec3>& x, const Rings& rings,
                                const Field& force, double d, const Grid* edge = nullptr,
                                double edgeLevel = 0, double minStrength = 0,
                                const glm::dvec3& spacing = glm::dvec3(1.0));

}  // namespace gvflab::reference
