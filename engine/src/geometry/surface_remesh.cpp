// remesh() (surface_mesh.hpp): split long edges, collapse short ones, flip towards valence 6,
// on a half-edge structure held in flat arrays (face f's corners are 3f, 3f + 1, 3f + 2; corner
// h is also the half-edge from its vertex to the next corner's), so that a pass over a 50k-vertex
// surface is a few linear sweeps with no maps and no allocation per operation.
#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <glm/geometric.hpp>
#include <vector>

#include "gvflab/error.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab {
namespace {

using Index = std::uint32_t;
constexpr Index kNone = 0xffffffffu;
constexpr int kMaxPasses = 10;  // split, collapse, flip rounds (a few settle any mesh)

// A collapse may turn a face by at most this much (cosine): more would fold it over.
constexpr double kCollapseTurn = 0.2;
// A flip keeps edges whose faces bend more than this (cosine, 60 degrees): creases stay, and
// neither new face may turn from the other by more than it either (no fold).
constexpr double kFlipFlatness = 0.5;

inline Index next(Index h) { return h % 3 == 2 ? h - 2 : h + 1; }
inline Index prev(Index h) { return h % 3 == 0 ? h + 2 : h - 1; }

// Every array remesh() needs, kept per thread between calls (up to kKeptHalfEdges): a snake
// remeshes every few iterations, and fresh arrays would cost a page fault per 4 KiB each time
// (a third of the time for a 50k-vertex surface).
struct Buffers {
  std::vector<glm::dvec3> pos;
  std::vector<Index> corner, twin, out, mark, offset, outgoing, dest, third, fill, index;
  // For scan(): the faces linked anew or about a moved vertex since the last scan (repeats
  // allowed), the lower half-edges it listed, and a bit per half-edge to measure again.
  std::vector<Index> touched, emitted;
  std::vector<std::uint64_t> lower;
  std::vector<int> valence;
  // When > 0: corner, twin, out and valence are those build() would make of the last result
  // (its faces are `corner`), which has this many vertices.
  std::size_t keptVertices = 0;
};
constexpr std::size_t kKeptHalfEdges = std::size_t(1) << 21;

class Remesher {
 public:
  Remesher(const SurfaceMesh& mesh, double dmin, double dmax, std::size_t maxVertices,
           Buffers& buffers)
      : min2_(dmin * dmin),
        max2_(dmax * dmax),
        maxVertices_(maxVertices),
        b_(buffers),
        pos_(buffers.pos),
        corner_(buffers.corner),
        twin_(buffers.twin),
        out_(buffers.out),
        valence_(buffers.valence),
        mark_(buffers.mark) {
    const bool kept = reuse(mesh);
    b_.keptVertices = 0;  // build() and the passes change them
    if (!kept) build(mesh);
  }

  // One pass's work lists: edges out of range, as vertex pairs (slots move as faces split).
  struct Edge {
    double length2;
    Index a, b;
  };
  void scan(bool changedOnly, std::vector<Edge>& longEdges, std::vector<Edge>& shortEdges);
  int splitLong(std::vector<Edge>& longEdges, std::vector<Edge>& shortEdges);
  int collapseShort(std::vector<Edge>& shortEdges);
  int flipValence();
  // The remeshed mesh (and its one-rings), leaving the half-edges as build() would make them
  // of it, for the next call.
  void result(SurfaceMesh& mesh, MeshRings* rings);
  void rings(MeshRings& out) const;  // from each vertex's outgoing half-edge, turning

 private:
  Index from(Index h) const { return corner_[h]; }
  Index to(Index h) const { return corner_[next(h)]; }
  double length2(Index h) const {
    glm::dvec3 d = pos_[to(h)] - pos_[from(h)];
    return glm::dot(d, d);
  }
  bool alive(Index h) const { return corner_[h] != kNone; }
  // The next outgoing half-edge counter-clockwise about its vertex.
  Index turn(Index h) const { return twin_[prev(h)]; }
  // The first half-edge leaving v, turning once round, for which f is true (kNone if none);
  // f may relabel corners (turning reads only twins).
  template <class F>
  Index findOut(Index v, F&& f) const {
    Index h = out_[v];
    do {
      if (f(h)) return h;
      h = turn(h);
    } while (h != out_[v]);
    return kNone;
  }
  template <class F>
  void forEachOut(Index v, F&& f) const {  // calls f on each half-edge leaving v, once round
    findOut(v, [&](Index h) {
      f(h);
      return false;
    });
  }
  void link(Index a, Index b) {
    twin_[a] = b;
    twin_[b] = a;
    b_.touched.insert(b_.touched.end(), {a / 3, b / 3});
  }

  void build(const SurfaceMesh& mesh);
  bool reuse(const SurfaceMesh& mesh);
  void split(Index h);
  bool collapse(Index h);
  bool flip(Index h);
  Index findEdge(Index a, Index b) const;  // the half-edge a->b, kNone if none
  // True when moving vertex v to p keeps every face about v (but those of half-edges skip1 and
  // skip2) unfolded and its edges no longer than dmax.
  bool moveKeepsFaces(Index v, const glm::dvec3& p, Index skip1, Index skip2) const;

  double min2_, max2_;
  std::size_t maxVertices_;
  Buffers& b_;
  std::vector<glm::dvec3>& pos_;
  std::vector<Index>& corner_;  // the vertex of each corner; kNone for a removed face's
  std::vector<Index>& twin_;    // the opposite half-edge
  std::vector<Index>& out_;     // one outgoing half-edge per vertex; kNone for a removed vertex
  std::vector<int>& valence_;   // edges per vertex
  std::vector<Index>& mark_;    // per vertex: the stamp of the last ring that held it
  mutable Index stamp_ = 0;
};

[[noreturn]] void refuse(const SurfaceMesh& mesh) {
  MeshCheck check = checkMesh(mesh);
  throw ParameterError(
      "Remeshing needs a closed, manifold, consistently oriented mesh: " +
      (check.problem.empty() ? std::string("its faces do not fit together.") : check.problem));
}

void Remesher::build(const SurfaceMesh& mesh) {
  const std::size_t nv = mesh.vertices.size(), nh = 3 * mesh.faces.size();
  if (mesh.faces.empty()) refuse(mesh);
  pos_.assign(mesh.vertices.begin(), mesh.vertices.end());
  corner_.resize(nh);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const auto& t = mesh.faces[f];
    if (t[0] >= nv || t[1] >= nv || t[2] >= nv || t[0] == t[1] || t[1] == t[2] || t[0] == t[2])
      refuse(mesh);
    for (int i = 0; i < 3; ++i) corner_[3 * f + i] = t[i];
  }
  // Outgoing half-edges per vertex (counting sort), each with its face's other two corners, so
  // that everything below reads one vertex's short lists: no search across the mesh.
  auto &offset = b_.offset, &outgoing = b_.outgoing, &dest = b_.dest, &third = b_.third;
  offset.assign(nv + 1, 0);
  outgoing.resize(nh);
  dest.resize(nh);
  third.resize(nh);
  for (Index h = 0; h < nh; ++h) ++offset[corner_[h] + 1];
  for (std::size_t v = 0; v < nv; ++v) offset[v + 1] += offset[v];
  {
    auto& fill = b_.fill;
    fill.assign(offset.begin(), offset.end() - 1);
    for (Index h = 0; h < nh; ++h) {
      const Index i = fill[corner_[h]]++;
      outgoing[i] = h;
      dest[i] = corner_[next(h)];
      third[i] = corner_[prev(h)];
    }
  }
  // About each vertex a: no destination twice (else an edge has faces the same way round, or
  // more than two), and a->b of face a b c turns to a->c, which is the twin of c->a; from the
  // first, the turns must meet every half-edge (one fan). That pairs every half-edge: c->a is
  // the one before a->b in its face.
  twin_.assign(nh, kNone);
  out_.assign(nv, kNone);
  valence_.assign(nv, 0);
  for (Index a = 0; a < nv; ++a) {
    const Index begin = offset[a], end = offset[a + 1], count = end - begin;
    if (count == 0) continue;  // a stray vertex: dropped
    for (Index i = begin + 1; i < end; ++i)
      for (Index j = begin; j < i; ++j)
        if (dest[j] == dest[i]) refuse(mesh);
    Index i = begin, steps = 0;
    do {
      const Index c = third[i];
      Index j = begin;
      while (j < end && dest[j] != c) ++j;
      if (j == end) refuse(mesh);  // c->a has no way back: open
      link(prev(outgoing[i]), outgoing[j]);
      i = j;
      ++steps;
    } while (i != begin && steps <= count);
    if (steps != count) refuse(mesh);
    out_[a] = outgoing[begin];
    valence_[a] = static_cast<int>(count);
  }
  mark_.assign(nv, 0);
  b_.touched.clear();  // linked by the build: the first scan() reads every face anyway
}

// The last result's half-edges when `mesh` has its faces (its vertices may have moved).
bool Remesher::reuse(const SurfaceMesh& mesh) {
  const std::size_t nv = mesh.vertices.size(), nf = mesh.faces.size();
  static_assert(sizeof(glm::uvec3) == 3 * sizeof(Index));  // faces are their corners in a row
  if (b_.keptVertices == 0 || b_.keptVertices != nv || corner_.size() != 3 * nf ||
      std::memcmp(corner_.data(), mesh.faces.data(), corner_.size() * sizeof(Index)) != 0)
    return false;
  pos_.assign(mesh.vertices.begin(), mesh.vertices.end());
  mark_.assign(nv, 0);
  return true;
}

// Edge a-b (h: a->b in face a b c, its twin b->a in face b a d) becomes a-m-b with faces
// a m c, m b c, b m d, m a d; the old faces keep their slots, so h stays a->m.
void Remesher::split(Index h) {
  const Index t = twin_[h];
  const Index hn = next(h), hp = prev(h), tn = next(t), tp = prev(t);
  const Index a = from(h), b = to(h), c = from(hp), d = from(tp);
  const Index m = static_cast<Index>(pos_.size());
  pos_.push_back((pos_[a] + pos_[b]) * 0.5);
  const Index f2 = static_cast<Index>(corner_.size()), f3 = f2 + 3;
  const Index outerBC = twin_[hn], outerAD = twin_[tn];
  corner_.insert(corner_.end(), {m, b, c, m, a, d});
  twin_.resize(corner_.size());
  corner_[hn] = m;        // face a m c
  corner_[tn] = m;        // face b m d
  link(h, f3);            // a->m, m->a
  link(hn, f2 + 2);       // m->c, c->m
  link(f2, t);            // m->b, b->m
  link(f2 + 1, outerBC);  // b->c
  link(tn, f3 + 2);       // m->d, d->m
  link(f3 + 1, outerAD);  // a->d
  out_.push_back(hn);
  out_[a] = h;
  out_[b] = t;
  valence_.push_back(4);
  ++valence_[c];
  ++valence_[d];
  mark_.push_back(0);
}

Index Remesher::findEdge(Index a, Index b) const {
  return findOut(a, [&](Index h) { return to(h) == b; });
}

bool Remesher::moveKeepsFaces(Index v, const glm::dvec3& p, Index skip1, Index skip2) const {
  const glm::dvec3 old = pos_[v];
  return findOut(v, [&](Index h) {  // a face that folds or an edge that grows too long
           if (h == skip1 || h == skip2) return false;
           const glm::dvec3 x = pos_[to(h)], y = pos_[from(prev(h))];
           const glm::dvec3 before = glm::cross(x - old, y - old), after = glm::cross(x - p, y - p);
           // Turned by less than acos(kCollapseTurn) and not degenerate, without square roots.
           const double lb2 = glm::dot(before, before), la2 = glm::dot(after, after);
           const double turn = glm::dot(before, after);
           return !(la2 > 1e-24 * max2_ * max2_) || turn <= 0 ||
                  turn * turn <= kCollapseTurn * kCollapseTurn * lb2 * la2 ||
                  glm::dot(x - p, x - p) > max2_;
         }) == kNone;
}

// Edge a-b (h: a->b in face a b c, twin in face b a d) shrinks to a at the midpoint, or where
// that folds a face at a's or b's place, when the mesh stays a closed manifold: a and b share
// no neighbours but c and d (the link condition), c and d keep three edges or more, no face
// folds and no edge grows beyond dmax. On a crumpled surface (noise) the midpoint folds a face
// for about half the short edges; an end often does not.
bool Remesher::collapse(Index h) {
  const Index t = twin_[h];
  const Index a = from(h), b = to(h), c = from(prev(h)), d = from(prev(t));
  if (valence_[c] <= 3 || valence_[d] <= 3 || valence_[a] + valence_[b] - 4 < 3) return false;
  ++stamp_;
  forEachOut(a, [&](Index g) { mark_[to(g)] = stamp_; });
  int shared = 0;
  forEachOut(b, [&](Index g) { shared += mark_[to(g)] == stamp_; });
  if (shared != 2) return false;
  glm::dvec3 p(0.0);
  bool fits = false;
  for (const glm::dvec3& q : {(pos_[a] + pos_[b]) * 0.5, pos_[a], pos_[b]})
    if (moveKeepsFaces(a, q, h, next(t)) && moveKeepsFaces(b, q, t, next(h))) {
      p = q;
      fits = true;
      break;
    }
  if (!fits) return false;

  const Index hn = next(h), hp = prev(h), tn = next(t), tp = prev(t);
  forEachOut(b, [&](Index g) { corner_[g] = a; });  // b's half-edges leave a from now on
  const Index cb = twin_[hn], ac = twin_[hp], da = twin_[tn], bd = twin_[tp];
  link(cb, ac);
  link(da, bd);
  for (Index k : {h, hn, hp, t, tn, tp}) corner_[k] = kNone;
  out_[a] = ac;
  out_[c] = cb;
  out_[d] = da;
  out_[b] = kNone;
  valence_[a] += valence_[b] - 4;
  valence_[b] = 0;
  --valence_[c];
  --valence_[d];
  pos_[a] = p;
  // Every edge about a has moved (b's former faces among them).
  forEachOut(a, [&](Index g) { b_.touched.push_back(g / 3); });
  return true;
}

// Edge a-b (faces a b c, b a d) becomes c-d (faces d c a, c d b) when that brings the four
// valences nearer 6, the faces are nearly flat, the new ones do not fold and c-d is in range.
bool Remesher::flip(Index h) {
  const Index t = twin_[h];
  const Index hn = next(h), hp = prev(h), tn = next(t), tp = prev(t);
  const Index a = from(h), b = to(h), c = from(hp), d = from(tp);
  auto off = [](int v) { return std::abs(v - 6); };
  const int before = off(valence_[a]) + off(valence_[b]) + off(valence_[c]) + off(valence_[d]);
  const int after =
      off(valence_[a] - 1) + off(valence_[b] - 1) + off(valence_[c] + 1) + off(valence_[d] + 1);
  if (after >= before || valence_[a] <= 3 || valence_[b] <= 3 || c == d) return false;
  const glm::dvec3 pa = pos_[a], pb = pos_[b], pc = pos_[c], pd = pos_[d];
  const double cd2 = glm::dot(pd - pc, pd - pc);
  if (cd2 > max2_ || cd2 < min2_) return false;
  auto flatEnough = [](const glm::dvec3& n0, const glm::dvec3& n1) {
    const double l0 = glm::length(n0), l1 = glm::length(n1);
    return l0 > 0 && l1 > 0 && glm::dot(n0, n1) >= kFlipFlatness * l0 * l1;
  };
  if (!flatEnough(glm::cross(pb - pa, pc - pa), glm::cross(pa - pb, pd - pb)) ||
      !flatEnough(glm::cross(pc - pd, pa - pd), glm::cross(pd - pc, pb - pc)))
    return false;
  if (findEdge(c, d) != kNone) return false;

  const Index cb = twin_[hn], ac = twin_[hp], da = twin_[tn], bd = twin_[tp];
  corner_[h] = d;  // face d c a: d->c, c->a, a->d
  corner_[hn] = c;
  corner_[hp] = a;
  corner_[t] = c;  // face c d b: c->d, d->b, b->c
  corner_[tn] = d;
  corner_[tp] = b;
  link(hn, ac);
  link(hp, da);
  link(tn, bd);
  link(tp, cb);
  out_[a] = hp;
  out_[b] = tp;
  out_[c] = hn;
  out_[d] = tn;
  --valence_[a];
  --valence_[b];
  ++valence_[c];
  ++valence_[d];
  return true;
}

// The edges out of range, in half-edge order. After a pass (changedOnly) only those of faces
// changed since the last scan (corners, twins, a moved vertex) and those it listed can be.
void Remesher::scan(bool changedOnly, std::vector<Edge>& longEdges, std::vector<Edge>& shortEdges) {
  std::vector<std::uint64_t>& lower = b_.lower;  // sorted, no repeats
  lower.assign(changedOnly ? corner_.size() / 64 + 1 : 0, 0);
  auto add = [&](Index h) { lower[h / 64] |= std::uint64_t(1) << (h % 64); };
  if (changedOnly) {
    for (Index h : b_.emitted) add(h);
    for (Index f : b_.touched)
      for (Index h = 3 * f; h < 3 * f + 3; ++h)
        if (alive(h)) add(std::min(h, twin_[h]));
  }
  longEdges.clear();
  shortEdges.clear();
  b_.touched.clear();
  b_.emitted.clear();
  auto consider = [&](Index h) {  // each edge once, from its lower half-edge
    if (!alive(h) || twin_[h] < h) return;
    const double l2 = length2(h);
    if (l2 > max2_ && std::isfinite(l2))
      longEdges.push_back({l2, from(h), to(h)});
    else if (l2 < min2_)
      shortEdges.push_back({l2, from(h), to(h)});
    else
      return;
    b_.emitted.push_back(h);
  };
  if (!changedOnly)
    for (Index h = 0; h < corner_.size(); ++h) consider(h);
  for (Index w = 0; w < lower.size(); ++w)
    for (std::uint64_t bits = lower[w]; bits != 0; bits &= bits - 1)
      consider(64 * w + static_cast<Index>(std::countr_zero(bits)));
}

// Longest first: each split edge is then the longest of its faces (Rivara's longest-edge
// bisection), so triangles keep their angles bounded. Splitting in any other order bisects
// shorter edges of long thin faces again and again, into slivers that never end. A split's new
// short edges (to a vertex near the midpoint) join the collapse list.
int Remesher::splitLong(std::vector<Edge>& heap, std::vector<Edge>& shortEdges) {
  auto longer = [](const Edge& x, const Edge& y) { return x.length2 < y.length2; };
  std::make_heap(heap.begin(), heap.end(), longer);
  int count = 0;
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), longer);
    const Edge e = heap.back();
    heap.pop_back();
    // A split moves two neighbouring edges to new slots: find a-b again (gone: split).
    const Index h = findEdge(e.a, e.b);
    if (h == kNone) continue;
    if (pos_.size() >= maxVertices_)
      throw ResourceError("Remeshing would give the surface more than " +
                          std::to_string(maxVertices_) +
                          " vertices: it has grown far beyond its start (diverged?).");
    split(h);
    ++count;
    const Index m = static_cast<Index>(pos_.size() - 1);
    forEachOut(m, [&](Index g) {  // the new vertex's four edges are the only new ones
      const double l2 = length2(g);
      if (l2 > max2_) {
        heap.push_back({l2, m, to(g)});
        std::push_heap(heap.begin(), heap.end(), longer);
      } else if (l2 < min2_) {
        shortEdges.push_back({l2, m, to(g)});
      }
    });
  }
  return count;
}

// Shortest first, so that merges spread evenly instead of one vertex swallowing its
// neighbours until its edges are too long for any further collapse around it. Edges a
// collapse leaves short (about the moved vertex) wait for the next round, sorted again: a heap
// of them all costs several times more and hardly changes the result.
int Remesher::collapseShort(std::vector<Edge>& edges) {
  auto shorter = [](const Edge& x, const Edge& y) { return x.length2 < y.length2; };
  thread_local std::vector<Edge> pending;
  int count = 0;
  while (!edges.empty()) {
    std::sort(edges.begin(), edges.end(), shorter);
    pending.clear();
    for (const Edge& e : edges) {
      if (out_[e.a] == kNone || out_[e.b] == kNone) continue;
      const Index h = findEdge(e.a, e.b);
      if (h == kNone || length2(h) != e.length2 || !collapse(h)) continue;
      ++count;
      forEachOut(e.a, [&](Index g) {  // a moved: its edges have new lengths
        const double l2 = length2(g);
        if (l2 < min2_) pending.push_back({l2, e.a, to(g)});
      });
    }
    edges.swap(pending);
  }
  return count;
}

// An improving flip lowers a's or b's valence from above 6 (it changes four valences by one,
// and needs three of them to come nearer 6), so only such vertices' edges are tried.
int Remesher::flipValence() {
  int count = 0;
  for (Index v = 0; v < out_.size(); ++v) {
    bool flipped = true;
    while (flipped && out_[v] != kNone && valence_[v] > 6) {
      flipped = findOut(v, [&](Index h) { return flip(h); }) != kNone;
      count += flipped;
    }
  }
  return count;
}

void Remesher::result(SurfaceMesh& mesh, MeshRings* rings) {
  std::vector<Index>&index = b_.index, &faceIndex = b_.fill;
  index.assign(pos_.size(), kNone);
  mesh.vertices.clear();
  mesh.vertices.reserve(pos_.size());
  for (Index v = 0; v < pos_.size(); ++v)
    if (out_[v] != kNone) {
      index[v] = static_cast<Index>(mesh.vertices.size());
      valence_[index[v]] = valence_[v];
      mesh.vertices.push_back(glm::vec3(pos_[v]));
    }
  const std::size_t nv = mesh.vertices.size();
  faceIndex.resize(corner_.size() / 3);
  Index faces = 0;
  for (Index f = 0; 3 * f < corner_.size(); ++f) faceIndex[f] = alive(3 * f) ? faces++ : kNone;
  // Compacted in place (every slot moves down, in order): the faces' corners, twins renumbered,
  // and each vertex's first corner in face order as its outgoing half-edge, as build() would
  // make them.
  const std::size_t nh = 3 * std::size_t(faces);
  mesh.faces.resize(faces);
  out_.assign(nv, kNone);
  for (Index f = 0, slot = 0; 3 * f < corner_.size(); ++f) {
    if (faceIndex[f] == kNone) continue;
    for (Index h = 3 * f; h < 3 * f + 3; ++h, ++slot) {
      const Index t = twin_[h], v = index[corner_[h]];
      corner_[slot] = v;
      twin_[slot] = 3 * faceIndex[t / 3] + t % 3;
      if (out_[v] == kNone) out_[v] = slot;
    }
    mesh.faces[faceIndex[f]] = {corner_[slot - 3], corner_[slot - 2], corner_[slot - 1]};
  }
  corner_.resize(nh);
  twin_.resize(nh);
  valence_.resize(nv);
  b_.keptVertices = nv;
  if (rings) this->rings(*rings);
}

void Remesher::rings(MeshRings& out) const {
  out.start.resize(out_.size() + 1);
  out.ring.resize(corner_.size());
  Index at = 0;
  for (Index v = 0; v < out_.size(); ++v) {
    out.start[v] = at;
    if (out_[v] != kNone)  // none for a stray vertex
      forEachOut(v, [&](Index h) { out.ring[at++] = to(h); });
  }
  out.start[out_.size()] = at;
}

}  // namespace

MeshRings meshRings(const SurfaceMesh& mesh) {
  thread_local Buffers buffers;  // not remesh()'s, which keep its last result
  MeshRings rings;
  Remesher(mesh, 1, 2, 0, buffers).rings(rings);
  return rings;
}

SurfaceMesh remesh(const SurfaceMesh& mesh, double dmin, double dmax, std::size_t maxVertices,
                   MeshRings* rings) {
  SurfaceMesh result;
  remeshInto(mesh, result, dmin, dmax, maxVertices, rings);
  return result;
}

void remeshInto(const SurfaceMesh& mesh, SurfaceMesh& result, double dmin, double dmax,
                std::size_t maxVertices, MeshRings* rings) {
  if (!std::isfinite(dmin) || !std::isfinite(dmax) || dmin <= 0 || dmax < 2 * dmin)
    throw ParameterError("Remeshing needs 0 < dmin and 2 dmin <= dmax (got dmin " +
                         std::to_string(dmin) + ", dmax " + std::to_string(dmax) + ").");
  thread_local Buffers buffers;
  thread_local std::vector<Remesher::Edge> longEdges, shortEdges;
  Remesher r(mesh, dmin, dmax, maxVertices, buffers);
  for (int pass = 0; pass < kMaxPasses; ++pass) {
    r.scan(pass > 0, longEdges, shortEdges);
    int changes = r.splitLong(longEdges, shortEdges);
    changes += r.collapseShort(shortEdges);
    changes += r.flipValence();
    if (changes == 0) break;
  }
  r.result(result, rings);
  if (buffers.corner.capacity() > kKeptHalfEdges) {
    buffers = Buffers{};
    longEdges = shortEdges = {};
  }
}

}  // namespace gvflab
