#pragma once
// The grid spacing GVF works with: world units per sample along x, y, z (an input's
// geometry.spacing, or --spacing / spacing= instead). Gradients divide each central difference
// by its axis' spacing and the Laplacian weighs each axis by 1/h^2 (kernels/spacing.clh), so a
// field computed on 1 x 1 x 2 mm voxels matches the isotropic one at the shared points.
// Unit spacing (every image without geometry) keeps the unit-spacing kernels, float for float.
// 2D grids use x and y; their z is taken as 1.
#include <array>
#include <string>

namespace gvflab {

using GridSpacing = std::array<double, 3>;

// The spacing of a grid of `dims` dimensions: z set to 1 in 2D.
GridSpacing gridSpacing(const GridSpacing& spacing, int dims);
bool isUnitSpacing(const GridSpacing& spacing, int dims);
// ParameterError unless every axis of the grid has a positive, finite spacing; `what` names the
// source in the sentence ("--spacing", "spacing", "the image's voxel spacing").
void checkSpacing(const GridSpacing& spacing, int dims, const std::string& what);
// The edge map's blur σ along `axis`, in that axis' samples: σ is given in samples of the
// finest axis, so the blur is round in the world (σ·min h wide along every axis) and unit
// spacing keeps σ as given. A 1x1x2 volume blurs z by σ/2 samples (σ whole samples there moved
// a ball's field zero 1.4 mm inside its poles).
double blurSigma(double sigma, const GridSpacing& spacing, int dims, int axis);
// Each axis' sub-samples per voxel while a volume's edge map and V0 are built (buildGvfInput):
// round(h / min h), at most kMaxRefinement; {1, 1, 1} for near-cubes and 2D. On a 1x1x2 grid the
// central differences of f and of grad f span 4 mm along z, so a ball's ridge there reads weak
// (|V0| 0.16 at its poles, 0.39 at its equator) and its GVF zero fell 0.7 mm inside.
constexpr int kMaxRefinement = 4;
std::array<int, 3> edgeRefinement(const GridSpacing& spacing, int dims);
// Σ over the grid's axes of 1/h² (dims for unit spacing; Euler's stability bound, mu_rule.hpp).
double inverseSquareSum(const GridSpacing& spacing, int dims);
// "1x1x2" (2D: "1x1").
std::string spacingText(const GridSpacing& spacing, int dims);
// OpenCL build options of kernels/spacing.clh: "" for unit spacing, else " -DWORLD_SPACING ...".
std::string spacingBuildOptions(const GridSpacing& spacing, int dims);

}  // namespace gvflab
