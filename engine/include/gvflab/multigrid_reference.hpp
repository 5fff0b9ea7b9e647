#pragma once
// Double-precision reference of the multigrid GVF operators (kernels/multigrid.cl) and of the
// whole V-cycle / full-multigrid iteration. Tests compare the device against these.
//
// Discretisation (derived from seed eq. 2, μ∇²V − (V − V0)|V0|² = 0, per component):
//   A_l v = μ/h_l² (Σ_neighbours v − 2·dims·v) − S_l v,   A_0 V = f_0 = −S_0 V0,
// with S_0 = |V0|², h_l = 2^l, S_{l+1} = restrict(S_l) and the boundary rule of every kernel
// (a read at −1 returns index 1, at n returns n − 2) at every level. At level 0 (h = 1) the
// solution is exactly the fixed point of the unit-step Euler iteration. Gauss-Seidel solves
// the point equation for v:  v = (k Σ_neighbours − f) / (2·dims·k + S),  k = μ/h².
// (The paper's eq. 4 has h²S where this has 2h²S once both sides are doubled; its eq. 5, the
// residual, agrees with A above.)
// Anisotropic spacing s (V0's Field::spacing, world units): axis i's neighbours are weighted by
// w_i = 1/s_i² and 2·dims becomes 2·Σw_i; h_l = 2^l scales every axis alike, so the weights hold
// on every level:  A_l v = μ/h_l² (Σ_i w_i (v[i−1] + v[i+1]) − 2·Σw_i·v) − S_l v.
#include <array>
#include <vector>

#include "gvflab/params.hpp"
#include "gvflab/reference.hpp"

namespace gvflab::reference {

using Shape3 = std::array<int, 3>;  // width, height, depth

// The level pyramid: level 0 is the input size; each coarser level halves every axis rounding
// up (an axis of 1 stays 1) until no side exceeds 2. Nothing is cropped.
std::vector<Shape3> multigridLevels(int width, int height, int depth);

// f_0 = −|V0|² V0 and S_0 = |V0|².
Field multigridRhs(const Field& v0);
Grid multigridS(const Field& v0);

// One colour pass of red-black Gauss-Seidel in place: points with (x + y + z) % 2 == colour.
void smoothColour(Field& v, const Field& f, const Grid& s, double k, int colour,
                  const Spacing& spacing = {1.0, 1.0, 1.0});
// `sweeps` times red then black.
void smooth(Field& v, const Field& f, const Grid& s, double k, int sweeps,
            const Spacing& spacing = {1.0, 1.0, 1.0});
// f − A v.
Field multigridResidual(const Field& v, const Field& f, const Grid& s, double k,
                        const Spacing& spacing = {1.0, 1.0, 1.0});
// Average of the 2x2 (2x2x2) children; on an odd side the last cell's missing child is read
// through the boundary rule (fine index n returns n − 2), so every cell averages 4 (8) values.
Field restrictField(const Field& r);
Grid restrictGrid(const Grid& s);
// v += P e with nearest-cell prolongation, v(x) += e(x / 2) (paper eq. 8).
void prolongAdd(Field& v, const Field& e);

struct MultigridParams {
  double mu = 0.1;
  int a = kMultigridSweeps.a;          // full-multigrid cycles per iteration
  int b = kMultigridSweeps.b;          // pre-smoothing sweeps
  int c = kMultigridSweeps.c;          // post-smoothing sweeps
  int cycle = kMultigridSweeps.cycle;  // MultigridCycle (params.hpp), auto by v0's dims
};

// One V-cycle at level 0 on V (rhs f_0 from V0), in V0's spacing (as below).
Field multigridVCycle(Field v, const Field& v0, const MultigridParams& p);
// `iterations` iterations of the solver, `a` cycles each as p.cycle schedules them
// (multigrid_schedule.hpp's IterationKind; `done` iterations came before since V0): full
// multigrid on the residual equation, the correction added, then a V-cycle (paper Alg. 4,
// correction form); a V-cycle alone; or b sweeps, full multigrid on the restricted residual
// from level 1, the correction added, c sweeps.
Field multigridIterate(Field v, const Field& v0, const MultigridParams& p, int iterations,
                       long done = 0);

}  // namespace gvflab::reference
