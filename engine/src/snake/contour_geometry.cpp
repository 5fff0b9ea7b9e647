// Host-side contour geometry used by the product path: circles, orientation, resampling and
// the circulant inverse of the semi-implicit snake matrix.
#include <algorithm>
#include <array>
#include <cmath>
#include <glm/geometric.hpp>
#include <numbers>

#include "gvflab/error.hpp"
#include "gvflab/parametric_snake.hpp"

namespace gvflab {

std::vector<glm::vec2> circleContour(double cx, double cy, double radius, double spacing) {
  if (!(radius > 0) || !std::isfinite(radius) || !std::isfinite(cx) || !std::isfinite(cy))
    throw ParameterError("A circle snake needs a finite centre and a radius > 0.");
  if (!(spacing > 0)) throw ParameterError("The node spacing must be > 0.");
  // Counted in double before anything is allocated: a radius of 1e8 asks for 10^9 nodes.
  const double nodes = std::ceil(2 * std::numbers::pi * radius / spacing);
  ParametricSnake::checkNodeCount(nodes > 1e12 ? std::size_t(1e12) : std::size_t(nodes));
  const int n = std::max(8, static_cast<int>(nodes));
  std::vector<glm::vec2> pts(n);
  for (int i = 0; i < n; ++i) {
    double a = 2 * std::numbers::pi * i / n;
    pts[i] = {static_cast<float>(cx + radius * std::cos(a)),
              static_cast<float>(cy + radius * std::sin(a))};
  }
  return pts;
}

double signedArea2(const std::vector<glm::vec2>& p) {
  double s = 0;
  for (std::size_t i = 0; i < p.size(); ++i) {
    const auto& a = p[i];
    const auto& b = p[(i + 1) % p.size()];
    s += static_cast<double>(a.x) * b.y - static_cast<double>(b.x) * a.y;
  }
  return s;
}

namespace {
double dist(const glm::dvec2& a, const glm::dvec2& b) { return std::hypot(a.x - b.x, a.y - b.y); }

double perimeterOf(const std::vector<glm::vec2>& p, bool closed = true) {
  double s = 0;
  for (std::size_t i = 0; i + (closed ? 0 : 1) < p.size(); ++i)
    s += glm::length(p[(i + 1) % p.size()] - p[i]);
  return s;
}

// Resampling's step 1: drop nodes closer than dmin to the last kept node (the first node
// always stays), and the closing gap too; never fewer than 3 nodes. Empty when the contour is
// too small for 3 nodes dmin apart (a collapsed snake, left as it is). Open (closed = false):
// both ends stay (an interior node too close to the last one goes instead), at least 2 nodes;
// empty when the polyline has no length.
std::vector<glm::dvec2> keptNodes(const std::vector<glm::vec2>& points, double dmin,
                                  bool closed = true) {
  std::vector<glm::dvec2> kept;
  if (points.size() < (closed ? 3u : 2u)) return kept;
  kept.reserve(points.size());
  kept.emplace_back(points[0]);
  for (std::size_t i = 1; i + (closed ? 0 : 1) < points.size(); ++i)
    if (dist(points[i], kept.back()) >= dmin) kept.emplace_back(points[i]);
  if (!closed) {  // the end stays: interior nodes too close to it go
    const glm::dvec2 last(points.back());
    while (kept.size() > 1 && dist(kept.back(), last) < dmin) kept.pop_back();
    kept.push_back(last);
    if (dist(kept.front(), kept.back()) == 0 && kept.size() == 2) kept.clear();
    return kept;
  }
  while (kept.size() > 3 && dist(kept.back(), kept.front()) < dmin) kept.pop_back();
  if (kept.size() < 3) kept.clear();
  return kept;
}
// Step 2's pieces for a gap of d pixels (a double: a gap across a huge image is counted,
// never allocated).
double pieces(double d, double dmax) { return d > dmax ? std::ceil(d / dmax) : 1; }
}  // namespace

std::size_t resampledNodeCount(const std::vector<glm::vec2>& points, double dmin, double dmax,
                               bool closed) {
  const std::vector<glm::dvec2> kept = keptNodes(points, dmin, closed);
  if (kept.empty()) return points.size();
  double n = closed ? 0 : 1;  // an open snake's last node
  for (std::size_t i = 0; i + (closed ? 0 : 1) < kept.size(); ++i)
    n += pieces(dist(kept[i], kept[(i + 1) % kept.size()]), dmax);
  return n > 1e15 ? std::size_t(1e15) : static_cast<std::size_t>(n);
}

std::vector<glm::vec2> resampleContour(const std::vector<glm::vec2>& points, double dmin,
                                       double dmax, bool closed) {
  // 1. Drop nodes closer than dmin (keptNodes).
  const std::vector<glm::dvec2> kept = keptNodes(points, dmin, closed);
  if (kept.empty()) return points;
  // 2. Split gaps longer than dmax into k equal pieces, k = ceil(d / dmax): each piece is
  // > dmax / 2 >= dmin, so the bounds hold on every gap.
  std::vector<glm::vec2> out;
  out.reserve(kept.size() * 2);
  for (std::size_t i = 0; i + (closed ? 0 : 1) < kept.size(); ++i) {
    const glm::dvec2 a = kept[i], b = kept[(i + 1) % kept.size()];
    const double d = dist(a, b);
    const int k = static_cast<int>(pieces(d, dmax));
    for (int j = 0; j < k; ++j) {
      const double t = static_cast<double>(j) / k;
      out.emplace_back(glm::vec2(a + t * (b - a)));
    }
  }
  if (!closed) out.emplace_back(glm::vec2(kept.back()));  // the end, exactly where it was
  return out;
}

std::vector<double> distancesToContour(const std::vector<glm::vec2>& points,
                                       const std::vector<glm::vec2>& ring, bool closed,
                                       double within) {
  const std::size_t m = ring.size();
  std::vector<double> out(points.size(), INFINITY);
  if (m == 0) return out;
  // Segment j runs from ring[j] to ring[j + 1] (mod m); an open polyline has no closing one.
  const std::size_t segs = closed || m == 1 ? m : m - 1;
  // Squared distances inside (no hypot per segment); one square root per point.
  auto segment2 = [&](std::size_t j, const glm::dvec2& p) {
    const glm::dvec2 a = ring[j], ab = glm::dvec2(ring[j + 1 == m ? 0 : j + 1]) - a;
    const double len2 = ab.x * ab.x + ab.y * ab.y;
    const double t =
        len2 > 0 ? std::clamp(((p.x - a.x) * ab.x + (p.y - a.y) * ab.y) / len2, 0.0, 1.0) : 0.0;
    const glm::dvec2 d = p - (a + t * ab);
    return d.x * d.x + d.y * d.y;
  };
  glm::dvec2 lo(ring[0]), hi(ring[0]);
  double longest = 0;
  for (std::size_t j = 0; j < m; ++j) {
    lo = glm::min(lo, glm::dvec2(ring[j]));
    hi = glm::max(hi, glm::dvec2(ring[j]));
    if (j < segs) longest = std::max(longest, dist(ring[j], ring[(j + 1) % m]));
  }
  // The grid covers the points too: an expanding snake's nodes lie outside the ring's box, and
  // searching all segments for each of them was O(N M) (17 ms a window at 2400 nodes).
  for (const auto& p : points) lo = glm::min(lo, glm::dvec2(p)), hi = glm::max(hi, glm::dvec2(p));
  // Cells one longest segment wide (a segment touches at most 2 x 2 of them), and no more
  // cells than about 16 M however long the longest one is relative to the contour.
  double cell = std::max(longest, 1e-3);
  const double extent = std::max(hi.x - lo.x, hi.y - lo.y);
  cell = std::max(cell, extent / (4 * std::sqrt(static_cast<double>(m)) + 1));
  const int gx = static_cast<int>((hi.x - lo.x) / cell) + 1;
  const int gy = static_cast<int>((hi.y - lo.y) / cell) + 1;
  auto cellOf = [&](double v, double origin, int count) {
    return std::clamp(static_cast<int>((v - origin) / cell), 0, count - 1);
  };
  // Segments per cell, in one array (counting sort by cell).
  std::vector<int> start(static_cast<std::size_t>(gx) * gy + 1, 0), items;
  auto forCells = [&](std::size_t j, auto&& visit) {
    const glm::dvec2 a = ring[j], b = ring[(j + 1) % m];
    for (int y = cellOf(std::min(a.y, b.y), lo.y, gy); y <= cellOf(std::max(a.y, b.y), lo.y, gy);
         ++y)
      for (int x = cellOf(std::min(a.x, b.x), lo.x, gx); x <= cellOf(std::max(a.x, b.x), lo.x, gx);
           ++x)
        visit(static_cast<std::size_t>(y) * gx + x);
  };
  for (std::size_t j = 0; j < segs; ++j) forCells(j, [&](std::size_t c) { ++start[c + 1]; });
  for (std::size_t c = 1; c < start.size(); ++c) start[c] += start[c - 1];
  items.resize(static_cast<std::size_t>(start.back()));
  std::vector<int> fill(start.begin(), start.end() - 1);
  for (std::size_t j = 0; j < segs; ++j)
    forCells(j, [&](std::size_t c) {
      items[static_cast<std::size_t>(fill[c]++)] = static_cast<int>(j);
    });
  for (std::size_t i = 0; i < points.size(); ++i) {
    const glm::dvec2 p = points[i];
    const int cx = cellOf(p.x, lo.x, gx), cy = cellOf(p.y, lo.y, gy);
    double best = INFINITY;  // squared
    // Cells r rings out lie at least (r - 1) cells from p: stop once best is within that, or
    // that is past `within`.
    for (int r = 0; r <= std::max(gx, gy) && (r < 1 || best > (r - 1) * cell * (r - 1) * cell) &&
                    (r - 1) * cell <= within;
         ++r)
      for (int y = cy - r; y <= cy + r; ++y) {
        if (y < 0 || y >= gy) continue;
        const bool edgeRow = y == cy - r || y == cy + r;
        for (int x = cx - r; x <= cx + r; x += edgeRow ? 1 : 2 * std::max(r, 1)) {
          if (x < 0 || x >= gx) continue;
          const std::size_t c = static_cast<std::size_t>(y) * gx + x;
          for (int k = start[c]; k < start[c + 1]; ++k)
            best = std::min(
                best, segment2(static_cast<std::size_t>(items[static_cast<std::size_t>(k)]), p));
        }
      }
    out[i] = std::sqrt(best);
  }
  return out;
}

double progressMove(const std::vector<glm::vec2>& now,
                    const std::deque<std::vector<glm::vec2>>& past, bool closed, double within) {
  if (past.empty() || now.empty()) return INFINITY;
  std::vector<double> nearest(now.size(), INFINITY);
  for (const auto& ring : past) {
    const auto d = distancesToContour(now, ring, closed, within);
    for (std::size_t i = 0; i < d.size(); ++i) nearest[i] = std::min(nearest[i], d[i]);
  }
  return *std::max_element(nearest.begin(), nearest.end());
}

bool collapsedContour(const std::vector<glm::vec2>& points, const std::vector<glm::vec2>& initial,
                      double dmin, bool closed) {
  if (!closed) {  // no area: a dot is a short line
    const double length = perimeterOf(points, false);
    return length < kCollapseFraction * perimeterOf(initial, false) &&
           length < kCollapseArea * dmin;
  }
  const double area = std::abs(signedArea2(points)) / 2;
  const double start = std::abs(signedArea2(initial)) / 2;
  const double floor =
      std::max(kCollapseArea * dmin * dmin, kCollapseWidth * dmin * perimeterOf(points));
  return area < kCollapseFraction * start && area < floor;
}

namespace {
// Band of γI + α D1ᵀD1 + β D2ᵀD2 for an open snake with free ends: m[i][2 + k] = M(i, i + k).
std::vector<std::array<double, 5>> openBand(int n, double alpha, double beta, double gamma) {
  std::vector<std::array<double, 5>> m(n, std::array<double, 5>{});
  auto add = [&](int r, int c, double v) { m[r][2 + c - r] += v; };
  for (int i = 0; i < n; ++i) add(i, i, gamma);
  for (int i = 0; i + 1 < n; ++i) {  // α |x_{i+1} − x_i|²
    add(i, i, alpha), add(i + 1, i + 1, alpha), add(i, i + 1, -alpha), add(i + 1, i, -alpha);
  }
  for (int i = 1; i + 1 < n; ++i) {  // β |x_{i−1} − 2x_i + x_{i+1}|²
    const int idx[3] = {i - 1, i, i + 1};
    const double w[3] = {1, -2, 1};
    for (int a = 0; a < 3; ++a)
      for (int b = 0; b < 3; ++b) add(idx[a], idx[b], beta * w[a] * w[b]);
  }
  return m;
}

// x ← (LU)⁻¹ x for 4 right-hand sides at once (independent chains: 4x faster than one by one),
// with openSnakeFactors' numbers (the snake_solve kernel's open path).
void solveOpen4(const std::vector<double>& lu, std::vector<std::array<double, 4>>& x) {
  const int n = static_cast<int>(x.size());
  for (int r = 1; r < n; ++r)
    for (int a = 0; a < 4; ++a)
      x[r][a] -= lu[5 * r + 1] * x[r - 1][a] + (r >= 2 ? lu[5 * r] * x[r - 2][a] : 0);
  for (int r = n - 1; r >= 0; --r)
    for (int a = 0; a < 4; ++a) {
      if (r + 1 < n) x[r][a] -= lu[5 * r + 3] * x[r + 1][a];
      if (r + 2 < n) x[r][a] -= lu[5 * r + 4] * x[r + 2][a];
      x[r][a] *= lu[5 * r + 2];
    }
}
}  // namespace

std::vector<double> circulantInverseRow(int n, double alpha, double beta, double gamma) {
  if (n < 1) throw ParameterError("A snake needs at least one node.");
  const double stencil[3] = {gamma + 2 * alpha + 6 * beta, -alpha - 4 * beta, beta};
  std::vector<double> row(n);
  if (n < 8) {  // the stencil folds onto itself: the Fourier sum c_j = (1/N) Σ_k cos(θ_k j) / λ_k
    for (int j = 0; j < n; ++j)
      for (int k = 0; k < n; ++k) {
        const double t = 2 * std::numbers::pi * k / n, c = 1 - std::cos(t);
        row[j] += std::cos(t * j) / (gamma + 2 * alpha * c + 4 * beta * c * c) / n;
      }
    return row;
  }
  // O(N) (the Fourier sum, O(N²), took 2-14 ms of CPU at 3000-8000 nodes, at each resampling
  // that changed N): γI + A = B + P D Pᵀ, B the open snake's SPD band, P the unit columns of
  // nodes 0, 1, N-2, N-1, D the wrap-around. Woodbury: M⁻¹ e0 = y0 − Y D (I + S D)⁻¹ S u0,
  // Y = B⁻¹ P, S = Pᵀ Y.
  const auto lu = openSnakeFactors(n, alpha, beta, gamma, SnakeBoundary::Free);
  const auto band = openBand(n, alpha, beta, gamma);
  const int idx[4] = {0, 1, n - 2, n - 1};
  std::vector<std::array<double, 4>> y(n, std::array<double, 4>{});  // y[i][a] = Y(i, a)
  for (int a = 0; a < 4; ++a) y[idx[a]][a] = 1;
  solveOpen4(lu, y);
  double d[4][4], k[4][5];  // k: I + S D | S u0
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) {
      const int off = idx[b] - idx[a], dist = std::min(std::abs(off), n - std::abs(off));
      d[a][b] = (dist <= 2 ? stencil[dist] : 0) - (std::abs(off) <= 2 ? band[idx[a]][2 + off] : 0);
    }
  for (int a = 0; a < 4; ++a) {
    for (int b = 0; b < 4; ++b) {
      k[a][b] = a == b ? 1 : 0;
      for (int c = 0; c < 4; ++c) k[a][b] += y[idx[a]][c] * d[c][b];
    }
    k[a][4] = y[idx[a]][0];
  }
  for (int c = 0; c < 4; ++c) {  // Gauss-Jordan with partial pivoting
    int piv = c;
    for (int r = c + 1; r < 4; ++r)
      if (std::abs(k[r][c]) > std::abs(k[piv][c])) piv = r;
    std::swap(k[c], k[piv]);
    for (int r = 0; r < 4; ++r)
      if (r != c)
        for (int e = 4; e >= c; --e) k[r][e] -= k[r][c] / k[c][c] * k[c][e];
  }
  double w[4] = {};  // D z
  for (int a = 0; a < 4; ++a)
    for (int b = 0; b < 4; ++b) w[a] += d[a][b] * k[b][4] / k[b][b];
  for (int i = 0; i < n; ++i)
    row[i] = y[i][0] - (y[i][0] * w[0] + y[i][1] * w[1] + y[i][2] * w[2] + y[i][3] * w[3]);
  return row;
}

std::vector<double> openSnakeFactors(int n, double alpha, double beta, double gamma,
                                     SnakeBoundary boundary) {
  if (n < 2) throw ParameterError("An open snake needs at least two nodes.");
  auto m = openBand(n, alpha, beta, gamma);
  auto pin = [&](int r) {  // a fixed end: x_r = its own right-hand side
    m[r] = {};
    m[r][2] = 1;
  };
  if (startFixed(boundary)) pin(0);
  if (endFixed(boundary)) pin(n - 1);
  // Banded elimination without pivoting (diagonally dominant for γ > 0).
  std::vector<double> out(static_cast<std::size_t>(n) * 5, 0.0);
  for (int i = 0; i < n; ++i) {
    const double pivot = m[i][2];
    for (int r = i + 1; r <= std::min(i + 2, n - 1); ++r) {
      const double f = m[r][2 + i - r] / pivot;
      out[static_cast<std::size_t>(r) * 5 + (r - i == 2 ? 0 : 1)] = f;
      for (int c = i; c <= std::min(i + 2, n - 1); ++c) m[r][2 + c - r] -= f * m[i][2 + c - i];
    }
    out[static_cast<std::size_t>(i) * 5 + 2] = 1.0 / pivot;
    if (i + 1 < n) out[static_cast<std::size_t>(i) * 5 + 3] = m[i][3];
    if (i + 2 < n) out[static_cast<std::size_t>(i) * 5 + 4] = m[i][4];
  }
  return out;
}

double longestUnheldStretch(const std::vector<glm::vec2>& points, const std::vector<bool>& held,
                            bool closed) {
  const std::size_t n = std::min(points.size(), held.size());
  if (n == 0) return 0;
  auto seg = [&](std::size_t i) {  // from node i to the next one
    return static_cast<double>(glm::length(points[(i + 1) % n] - points[i]));
  };
  const auto first = std::find(held.begin(), held.begin() + static_cast<std::ptrdiff_t>(n), true);
  if (closed && first == held.begin() + static_cast<std::ptrdiff_t>(n)) return perimeterOf(points);
  // Closed: once around from a held node, so a stretch runs from one held node to the next.
  // Open: from the first node to the last, and the ends' stretches count too.
  const std::size_t start = closed ? static_cast<std::size_t>(first - held.begin()) : 0;
  double longest = 0, run = 0;
  for (std::size_t k = 0; k < (closed ? n : n - 1); ++k) {
    const std::size_t i = (start + k) % n;
    run += seg(i);
    if (held[(i + 1) % n]) {
      if (!held[i]) longest = std::max(longest, run);  // held to held directly: no gap
      run = 0;
    }
  }
  return closed || held[n - 1] ? longest : std::max(longest, run);
}

double unheldContourExtent(const std::vector<glm::vec2>& points, const std::vector<bool>& held,
                           bool closed) {
  const double stretch = longestUnheldStretch(points, held, closed);
  const bool anyHeld = std::any_of(held.begin(), held.end(), [](bool h) { return h; });
  if (stretch == 0 || !anyHeld) return stretch;
  return stretch + 2 * kHoldDistance;
}

}  // namespace gvflab
