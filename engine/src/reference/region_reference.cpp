#include "gvflab/region_reference.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "region/polygon_ops.hpp"

namespace gvflab::reference {
namespace {

constexpr int kDir[8][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}, {-1, 0}, {-1, -1}, {0, -1}, {1, -1}};

std::int64_t floorDiv(std::int64_t a, std::int64_t b) {  // b > 0
  return a >= 0 ? a / b : -((-a + b - 1) / b);
}

double eps(double c) { return 1e-12 * std::abs(c) + 1e-9; }

std::vector<std::vector<int>> phases(int n) {
  std::vector<std::vector<int>> ph(n % 2 ? 3 : 2);
  for (int i = 0; i < n; ++i) ph[(n % 2 && i == n - 1) ? 2 : i % 2].push_back(i);
  return ph;
}

// Do the two new segments of a move at node i1 (to q1) meet those of a move at i2 (to q2)?
bool movesMeet(const std::vector<Point2i>& s, int i1, Point2i q1, int i2, Point2i q2) {
  const int n = static_cast<int>(s.size());
  const Point2i a1 = s[(i1 + n - 1) % n], b1 = s[(i1 + 1) % n];
  const Point2i a2 = s[(i2 + n - 1) % n], b2 = s[(i2 + 1) % n];
  // B1 = q1–b1 and A2 = a2–q2 share b1 when i1 + 1 == i2 − 1; A1, B2 likewise.
  const bool shareB1A2 = (i1 + 1) % n == (i2 + n - 1) % n;
  const bool shareA1B2 = (i1 + n - 1) % n == (i2 + 1) % n;
  bool meet = false;
  meet |= segmentsIntersect(a1, q1, a2, q2);
  meet |= segmentsIntersect(q1, b1, q2, b2);
  meet |= shareA1B2 ? sharedEndOverlap(a1, q1, q2) : segmentsIntersect(a1, q1, q2, b2);
  meet |= shareB1A2 ? sharedEndOverlap(b1, q1, q2) : segmentsIntersect(q1, b1, a2, q2);
  return meet;
}

}  // namespace

RegionPrefix regionPrefix(const std::uint16_t* z, int width, int height) {
  RegionPrefix p;
  p.width = width;
  p.height = height;
  const std::size_t n = static_cast<std::size_t>(width) * height;
  p.cz.resize(n);
  p.cz2.resize(n);
  for (int y = 0; y < height; ++y) {
    std::uint64_t s = 0, q = 0;
    for (int x = 0; x < width; ++x) {
      const std::size_t i = static_cast<std::size_t>(y) * width + x;
      s += z[i];
      q += std::uint64_t(z[i]) * z[i];
      p.cz[i] = static_cast<std::uint32_t>(s);
      p.cz2[i] = q;
    }
    p.total.s1 += static_cast<std::int64_t>(s);
    p.total.s2 += static_cast<std::int64_t>(q);
  }
  p.total.n = static_cast<std::int64_t>(n);
  return p;
}

RegionSums segmentContribution(const RegionPrefix& p, Point2i a, Point2i b, int orientation) {
  RegionSums r;
  if (a.y == b.y) return r;
  const Point2i top = a.y < b.y ? a : b, bot = a.y < b.y ? b : a;
  const std::int64_t dy = bot.y - top.y, dx = bot.x - top.x;
  for (int y = top.y; y < bot.y; ++y) {
    const std::int64_t k = top.x + floorDiv((y - top.y) * dx, dy);
    const std::size_t i = static_cast<std::size_t>(y) * p.width + static_cast<std::size_t>(k);
    r.n += k + 1;
    r.s1 += p.cz[i];
    r.s2 += static_cast<std::int64_t>(p.cz2[i]);
  }
  const int sign = (b.y > a.y ? 1 : -1) * orientation;
  r.n *= sign, r.s1 *= sign, r.s2 *= sign;
  return r;
}

// The product's own exact shoelace sign (region/polygon_ops.hpp), as polygonIsSimple is.
int polygonOrientation(const std::vector<Point2i>& poly) { return detail::orientationOf(poly); }

RegionSums polygonSums(const RegionPrefix& p, const std::vector<Point2i>& poly) {
  const int o = polygonOrientation(poly);
  RegionSums r;
  for (std::size_t i = 0; i < poly.size(); ++i)
    r += segmentContribution(p, poly[i], poly[(i + 1) % poly.size()], o);
  return r;
}

std::vector<std::uint8_t> polygonMask(int width, int height, const std::vector<Point2i>& poly) {
  std::vector<std::uint8_t> mask(static_cast<std::size_t>(width) * height, 0);
  std::vector<int> winding(static_cast<std::size_t>(width) + 1);
  for (int y = 0; y < height; ++y) {
    std::fill(winding.begin(), winding.end(), 0);
    for (std::size_t i = 0; i < poly.size(); ++i) {
      const Point2i a = poly[i], b = poly[(i + 1) % poly.size()];
      if (a.y == b.y || y < std::min(a.y, b.y) || y >= std::max(a.y, b.y)) continue;
      const Point2i top = a.y < b.y ? a : b, bot = a.y < b.y ? b : a;
      const std::int64_t k =
          top.x + floorDiv(std::int64_t(y - top.y) * (bot.x - top.x), bot.y - top.y);
      // The crossing counts for every pixel x <= k.
      winding[std::clamp<std::int64_t>(k, -1, width - 1) + 1] += b.y > a.y ? 1 : -1;
    }
    int w = 0;
    for (int x = width - 1; x >= 0; --x) {
      w += winding[x + 1];
      mask[static_cast<std::size_t>(y) * width + x] = w != 0;
    }
  }
  return mask;
}

bool moveKeepsSimple(const std::vector<Point2i>& s, int i, Point2i p) {
  const int n = static_cast<int>(s.size());
  const Point2i prev = s[(i + n - 1) % n], next = s[(i + 1) % n];
  if (p == prev || p == next || sharedEndOverlap(p, prev, next)) return false;
  for (int j = 0; j < n; ++j) {
    if (j == (i + n - 1) % n || j == i) continue;  // the two segments being replaced
    const Point2i c = s[j], d = s[(j + 1) % n];
    const bool aShares = j == (i + n - 2) % n;  // ends at prev
    const bool bShares = j == (i + 1) % n;      // starts at next
    if (aShares ? sharedEndOverlap(prev, p, c) : segmentsIntersect(prev, p, c, d)) return false;
    if (bShares ? sharedEndOverlap(next, p, d) : segmentsIntersect(p, next, c, d)) return false;
  }
  return true;
}

int regionStep(const RegionPrefix& pf, std::vector<Point2i>& s, int d, NoiseModel model) {
  const int n = static_cast<int>(s.size());
  const int orient = polygonOrientation(s);
  int applied = 0;
  for (const auto& phase : phases(n)) {
    const RegionSums t = polygonSums(pf, s);
    const double c = regionCriterion(t, pf.total, model);
    const std::size_t m = phase.size();
    std::vector<int> dir(m, -1);
    std::vector<double> best(m, std::numeric_limits<double>::infinity());
    std::vector<RegionSums> delta(m);
    std::vector<Point2i> to(m);
    for (std::size_t k = 0; k < m; ++k) {
      const int i = phase[k];
      const Point2i prev = s[(i + n - 1) % n], cur = s[i], next = s[(i + 1) % n];
      const RegionSums old =
          segmentContribution(pf, prev, cur, orient) + segmentContribution(pf, cur, next, orient);
      for (int w = 0; w < 8; ++w) {
        const Point2i q{cur.x + d * kDir[w][0], cur.y + d * kDir[w][1]};
        if (q.x < 0 || q.y < 0 || q.x >= pf.width || q.y >= pf.height) continue;
        if (!moveKeepsSimple(s, i, q)) continue;
        const RegionSums dl = segmentContribution(pf, prev, q, orient) +
                              segmentContribution(pf, q, next, orient) - old;
        const double cw = regionCriterion(t + dl, pf.total, model);
        if (cw < best[k]) best[k] = cw, dir[k] = w, delta[k] = dl, to[k] = q;
      }
      if (!(best[k] < c - eps(c))) dir[k] = -1;
    }
    std::vector<char> keep(m, 0);
    for (std::size_t a = 0; a < m; ++a) {
      if (dir[a] < 0) continue;
      keep[a] = 1;
      for (std::size_t b = 0; b < m && keep[a]; ++b)
        if (b != a && dir[b] >= 0 && movesMeet(s, phase[a], to[a], phase[b], to[b])) keep[a] = 0;
    }
    RegionSums joint = t;
    int kept = 0, single = -1;
    for (std::size_t k = 0; k < m; ++k) {
      if (dir[k] < 0) continue;
      if (single < 0 || best[k] < best[single]) single = static_cast<int>(k);
      if (keep[k]) joint += delta[k], ++kept;
    }
    if (single < 0) continue;
    const double cj = regionCriterion(joint, pf.total, model);
    if (!(kept > 0 && cj < c - eps(c))) {
      std::fill(keep.begin(), keep.end(), 0);
      keep[single] = 1;
    }
    for (std::size_t k = 0; k < m; ++k)
      if (keep[k]) s[phase[k]] = to[k], ++applied;
  }
  return applied;
}

int insertNodes(std::vector<Point2i>& s, double minSegment) {
  // The polygon grows as the segments are visited in order; each midpoint must keep it simple.
  const int n = static_cast<int>(s.size());
  int added = 0, pos = 0;
  for (int seg = 0; seg < n; ++seg, ++pos) {
    const int size = static_cast<int>(s.size());
    const Point2i a = s[pos], b = s[(pos + 1) % size];
    const double len = std::hypot(double(b.x - a.x), double(b.y - a.y));
    if (!(len > minSegment)) continue;
    const Point2i m{(a.x + b.x) >> 1, (a.y + b.y) >> 1};
    if (m == a || m == b) continue;
    // In place, the midpoint's two segments must meet no other: as a move of it to itself.
    s.insert(s.begin() + pos + 1, m);
    if (!moveKeepsSimple(s, pos + 1, m)) {
      s.erase(s.begin() + pos + 1);
      continue;
    }
    ++added, ++pos;
  }
  return added;
}

RegionRun runRegionSnake(const RegionPrefix& p, std::vector<Point2i> s,
                         const RegionSnakeParams& params) {
  validate(params);
  RegionRun run;
  int d = params.dMax;
  for (int it = 0;;) {
    for (int k = 0; k < params.maxStepsPerIteration; ++k) {
      ++run.stats.steps;
      if (regionStep(p, s, d, params.noise) == 0) break;
    }
    ++it;
    run.stats.iteration = it;
    run.stats.step = d;
    if (it >= params.maxIterations) break;
    if (insertNodes(s, params.minSegment) == 0) {
      run.stats.converged = true;
      break;
    }
    d = std::max(1, d / 2);
  }
  run.stats.target = polygonSums(p, s);
  run.stats.nodes = static_cast<int>(s.size());
  fillRegionStats(run.stats, p.total, params.noise);
  run.nodes = std::move(s);
  return run;
}

}  // namespace gvflab::reference
