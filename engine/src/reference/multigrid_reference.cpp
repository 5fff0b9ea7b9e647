#include "gvflab/multigrid_reference.hpp"

#include <algorithm>

#include "grid_walk.hpp"

namespace gvflab::reference {
namespace {

template <typename T>
Shape3 shapeOf(const T& g) {
  return {g.width, g.height, g.depth};
}

// Σ over the 2·dims neighbours of component c at p, with the boundary rule, each axis' pair
// weighted by 1/s_i².
double neighbourSum(const Field& v, Point p, int c, const Spacing& sp) {
  const int d = v.dims();
  double sum = 0;
  for (int a = 0; a < d; ++a)
    sum += (v.values[d * index(v, shifted(p, a, -1)) + c] +
            v.values[d * index(v, shifted(p, a, 1)) + c]) /
           (sp[a] * sp[a]);
  return sum;
}

// 2·Σ 1/s_i² over the axes (2·dims for unit spacing).
double centreWeight(const Spacing& sp, int dims) {
  double w = 0;
  for (int a = 0; a < dims; ++a) w += 2.0 / (sp[a] * sp[a]);
  return w;
}

Shape3 coarser(Shape3 s) { return {(s[0] + 1) / 2, (s[1] + 1) / 2, (s[2] + 1) / 2}; }

Field zeros(Shape3 s, int dims) {
  return Field{s[0], s[1], std::vector<double>(static_cast<std::size_t>(dims) * s[0] * s[1] * s[2]),
               s[2], dims};
}

// The solver state shared by the cycles: S on every level, μ and the parameters.
struct Hierarchy {
  std::vector<Grid> s;
  MultigridParams p;
  Spacing spacing;  // V0's (level 0)
  int last() const { return static_cast<int>(s.size()) - 1; }
  double k(int level) const { return p.mu / double(1 << (2 * level)); }
};

Hierarchy makeHierarchy(const Field& v0, const MultigridParams& p) {
  Hierarchy hy{{multigridS(v0)}, p, v0.spacing};
  const auto levels = multigridLevels(v0.width, v0.height, v0.depth);
  for (std::size_t l = 1; l < levels.size(); ++l) hy.s.push_back(restrictGrid(hy.s.back()));
  return hy;
}

void vcycle(const Hierarchy& hy, int l, Field& v, const Field& f) {
  smooth(v, f, hy.s[l], hy.k(l), hy.p.b, hy.spacing);
  if (l < hy.last()) {
    const Field r = restrictField(multigridResidual(v, f, hy.s[l], hy.k(l), hy.spacing));
    Field e = zeros(shapeOf(r), r.dims());
    vcycle(hy, l + 1, e, r);
    prolongAdd(v, e);
  }
  smooth(v, f, hy.s[l], hy.k(l), hy.p.c, hy.spacing);
}

// Full multigrid for A_l e = f from zero (paper Alg. 4, RECURSIVEFULLMULTIGRID).
Field fmg(const Hierarchy& hy, int l, const Field& f) {
  Field e = zeros(shapeOf(f), f.dims());
  if (l < hy.last()) prolongAdd(e, fmg(hy, l + 1, restrictField(f)));
  vcycle(hy, l, e, f);
  return e;
}

}  // namespace

std::vector<Shape3> multigridLevels(int width, int height, int depth) {
  std::vector<Shape3> levels{{width, height, depth}};
  while (std::max({levels.back()[0], levels.back()[1], levels.back()[2]}) > 2)
    levels.push_back(coarser(levels.back()));
  return levels;
}

Grid multigridS(const Field& v0) {
  Grid s{v0.width, v0.height, std::vector<double>(v0.count()), v0.depth};
  for (std::size_t i = 0; i < v0.count(); ++i) s.values[i] = squaredNorm(v0, i);
  return s;
}

Field multigridRhs(const Field& v0) {
  const Grid s = multigridS(v0);
  Field f = v0;
  for (std::size_t i = 0; i < f.values.size(); ++i) f.values[i] *= -s.values[i / v0.dims()];
  return f;
}

void smoothColour(Field& v, const Field& f, const Grid& s, double k, int colour,
                  const Spacing& spacing) {
  const int d = v.dims();
  const double centre = centreWeight(spacing, d);
  forEach(v, [&](Point p) {
    const std::size_t i = index(v, p);
    const double denom = centre * k + s.values[i];
    // This colour's points; μ = 0 where S = 0: the point is free, left as it is.
    if (((p[0] + p[1] + p[2]) & 1) != colour || denom <= 0) return;
    for (int c = 0; c < d; ++c)
      v.values[d * i + c] = (k * neighbourSum(v, p, c, spacing) - f.values[d * i + c]) / denom;
  });
}

void smooth(Field& v, const Field& f, const Grid& s, double k, int sweeps, const Spacing& spacing) {
  for (int i = 0; i < sweeps; ++i) {
    smoothColour(v, f, s, k, 0, spacing);
    smoothColour(v, f, s, k, 1, spacing);
  }
}

Field multigridResidual(const Field& v, const Field& f, const Grid& s, double k,
                        const Spacing& spacing) {
  const int d = v.dims();
  const double centre = centreWeight(spacing, d);
  Field r = f;
  forEach(v, [&](Point p) {
    const std::size_t i = index(v, p);
    for (int c = 0; c < d; ++c) {
      const double u = v.values[d * i + c];
      r.values[d * i + c] -= k * (neighbourSum(v, p, c, spacing) - centre * u) - s.values[i] * u;
    }
  });
  return r;
}

namespace {
// Averages the 2 x 2 (x 2) children of every coarse cell, with `comps` values per point. On odd
// sides the last cell's missing child is read through the boundary rule (index n gives n − 2):
// skipping it instead gives boundary cells the wrong weight, and the coarse problem then
// over-corrects near-singular (flat, S ≈ 0) regions until the cycle diverges (17² U phantom).
std::vector<double> average(const std::vector<double>& in, Shape3 fine, Shape3 coarse, int comps) {
  std::vector<double> out(static_cast<std::size_t>(comps) * coarse[0] * coarse[1] * coarse[2]);
  const Grid from{fine[0], fine[1], {}, fine[2]}, to{coarse[0], coarse[1], {}, coarse[2]};
  const int count = coarse[2] > 1 || fine[2] > 1 ? 8 : 4;
  forEach(to, [&](Point p) {
    std::vector<double> acc(comps);
    forEach(Grid{2, 2, {}, count / 4}, [&](Point d) {  // the children (index() reflects)
      const std::size_t j = index(from, Point{2 * p[0] + d[0], 2 * p[1] + d[1], 2 * p[2] + d[2]});
      for (int c = 0; c < comps; ++c) acc[c] += in[comps * j + c];
    });
    for (int c = 0; c < comps; ++c) out[comps * index(to, p) + c] = acc[c] / count;
  });
  return out;
}
}  // namespace

Field restrictField(const Field& r) {
  const Shape3 c = coarser(shapeOf(r));
  return Field{c[0], c[1], average(r.values, shapeOf(r), c, r.dims()), c[2], r.dims()};
}

Grid restrictGrid(const Grid& s) {
  const Shape3 c = coarser(shapeOf(s));
  return Grid{c[0], c[1], average(s.values, shapeOf(s), c, 1), c[2]};
}

void prolongAdd(Field& v, const Field& e) {
  const int d = v.dims();
  forEach(v, [&](Point p) {
    for (int c = 0; c < d; ++c)
      v.values[d * index(v, p) + c] += e.values[d * index(e, {p[0] / 2, p[1] / 2, p[2] / 2}) + c];
  });
}

Field multigridVCycle(Field v, const Field& v0, const MultigridParams& p) {
  const Hierarchy hy = makeHierarchy(v0, p);
  vcycle(hy, 0, v, multigridRhs(v0));
  return v;
}

Field multigridIterate(Field v, const Field& v0, const MultigridParams& p, int iterations,
                       long done) {
  const Hierarchy hy = makeHierarchy(v0, p);
  const Field f = multigridRhs(v0);
  const int cycle = resolveMultigridCycle(p.cycle, v0.depth > 1);
  const auto correction = [&] {  // full multigrid on A e = f − A V from level 1
    return fmg(hy, 1, restrictField(multigridResidual(v, f, hy.s[0], hy.k(0), hy.spacing)));
  };
  for (int it = 0; it < iterations; ++it, ++done)
    for (int c = 0; c < p.a; ++c) {
      if (hy.last() > 0 && cycle == kCycleTwoGrid) {
        smooth(v, f, hy.s[0], hy.k(0), p.b, hy.spacing);
        prolongAdd(v, correction());
        smooth(v, f, hy.s[0], hy.k(0), p.c, hy.spacing);
        continue;
      }
      // Correction form of Alg. 4 worked on V directly: A(V + e) = f  ⇔  A e = f − A V.
      if (hy.last() > 0 && !(cycle == kCycleVCycles && done > 0)) prolongAdd(v, correction());
      vcycle(hy, 0, v, f);
    }
  return v;
}

}  // namespace gvflab::reference
