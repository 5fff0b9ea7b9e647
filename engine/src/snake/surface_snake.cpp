#include "gvflab/surface_snake.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <deque>
#include <glm/geometric.hpp>
#include <memory>
#include <sstream>

#include "cl/launch.hpp"
#include "gvflab/device.hpp"
#include "gvflab/error.hpp"
#include "gvflab/kernel_library.hpp"
#include "gvflab/mesh_crossings.hpp"
#include "gvflab/snake_stop.hpp"
#include "gvflab/surface_measures.hpp"
#include "gvflab/typed_kernel.hpp"

namespace gvflab {
namespace {
constexpr std::size_t kLocal = 64;
constexpr int kMoving = 1, kForceShift = 5;  // = SURF_MOVING, FORCE_SHIFT in the .cl

// At least this many vertices once every edge is at most dmax long: a closed mesh has about
// 2 faces per vertex, and a face with edges <= dmax covers at most sqrt(3)/4 dmax^2.
double leastVertices(const SurfaceMesh& mesh, double dmax) {
  return 2 * meshArea(mesh) / (std::sqrt(3.0) * dmax * dmax);
}

void checkVertexCount(double count) {
  if (!(count <= static_cast<double>(SurfaceSnake::kMaxVertices))) {
    std::ostringstream msg;
    msg << "The surface would have about " << static_cast<long long>(std::min(count, 1e18))
        << " vertices; at most " << SurfaceSnake::kMaxVertices << " are supported.";
    throw ResourceError(msg.str());
  }
}

cl_float4 spacing4(const glm::dvec3& s) {
  return {{static_cast<float>(s.x), static_cast<float>(s.y), static_cast<float>(s.z), 1.0f}};
}

// Faces outward (positive volume), as the kernels' normals assume.
SurfaceMesh outward(SurfaceMesh mesh) {
  if (meshVolume(mesh) < 0)
    for (auto& f : mesh.faces) std::swap(f[1], f[2]);
  return mesh;
}
// The mesh with its vertices multiplied by `factor` per axis (voxel <-> world units).
SurfaceMesh scaled(SurfaceMesh mesh, const glm::dvec3& factor) {
  if (factor != glm::dvec3(1.0))
    for (auto& v : mesh.vertices) v = glm::vec3(glm::dvec3(v) * factor);
  return mesh;
}

// Untangling and remeshing again alternate at most this often (once is nearly always enough).
constexpr int kUntangleRounds = 3;

// A remeshing's result, swapped with the surface's mesh and rings when it succeeds, so that
// their storage is reused (fresh vectors would page-fault on every remeshing).
struct Remeshed {
  SurfaceMesh mesh;
  MeshRings rings;
};

// Remeshes `mesh` to [dmin, dmax] in world units (spacing: world units per voxel) and, with
// `untangle`, irons out local folds (untangleCrossings), with its one-rings in `rings`; false,
// both as they were, when that would take it past `budget` vertices.
bool remeshWithinBudget(SurfaceMesh& mesh, MeshRings& rings, Remeshed& r, const SnakeParams& params,
                        std::size_t budget, const glm::dvec3& spacing, bool untangle) {
  try {
    if (spacing == glm::dvec3(1.0))  // no world copy (the remeshing reads the mesh once)
      remeshInto(mesh, r.mesh, params.dmin, params.dmax, 2 * budget, &r.rings);
    else
      remeshInto(scaled(mesh, spacing), r.mesh, params.dmin, params.dmax, 2 * budget, &r.rings);
    if (r.mesh.vertices.size() > budget || r.mesh.faces.empty()) return false;
    // Smoothing a fold stretches or squeezes edges about it: those are remeshed again (splits
    // and the collapses remesh() allows do not fold faces over).
    for (int round = 0; untangle && round < kUntangleRounds && hasFoldedFaces(r.mesh) &&
                        untangleCrossings(r.mesh).found > 0;
         ++round) {
      remeshInto(r.mesh, r.mesh, params.dmin, params.dmax, 2 * budget, &r.rings);
      if (r.mesh.vertices.size() > budget) return false;
    }
  } catch (const ResourceError&) {
    return false;
  }
  r.mesh = scaled(std::move(r.mesh), 1.0 / spacing);
  std::swap(mesh, r.mesh);
  std::swap(rings, r.rings);
  return true;
}

// A window is still when all but this fraction of a mesh's vertices lie within tolerance of a
// past surface: a grad-f surface in noise keeps a few of its thousands of vertices jumping
// from noise sink to noise sink for ever (at SNR 10 and 3, 1500 iterations), where a 2D
// contour's hundred nodes settle.
constexpr double kStillFraction = 0.01;

// A past window's start: its mesh, that mesh's connectivity version and its distance grid.
struct WindowStart {
  SurfaceMesh mesh;
  long topology = 0;
  std::shared_ptr<MeshDistance> grid;  // null until needed
};

// Whether a window ends with all but `fraction` of the vertices within tolerance of the
// first `count` past surfaces, decided cheaply: a vertex within tolerance of its own position in a
// past surface of the same connectivity is within it of that surface; only the others are measured
// against the past meshes, whose distance grids are built when first needed and kept with them.
bool windowStill(const SurfaceMesh& now, long topology, std::deque<WindowStart>& past,
                 double tolerance, double fraction = kStillFraction, std::size_t count = SIZE_MAX) {
  count = std::min(count, past.size());
  const double cap = std::max(tolerance, 0.5);
  const double t2 = tolerance * tolerance;
  std::size_t far = 0;
  const auto allowed =
      static_cast<std::size_t>(fraction * static_cast<double>(now.vertices.size()));
  for (std::size_t i = 0; i < now.vertices.size(); ++i) {
    const glm::vec3 v = now.vertices[i];
    bool near = false;
    for (std::size_t r = count; r-- > 0 && !near;)
      if (past[r].topology == topology) {
        const glm::vec3 d = v - past[r].mesh.vertices[i];
        near = glm::dot(d, d) <= t2;
      }
    for (std::size_t r = count; r-- > 0 && !near;) {
      if (!past[r].grid) past[r].grid = std::make_shared<MeshDistance>(past[r].mesh, cap);
      near = past[r].grid->within(glm::dvec3(v), tolerance);
    }
    if (!near && ++far > allowed) return false;
  }
  return true;
}
}  // namespace

struct SurfaceSnake::Impl {
  struct Surface {
    int id = 0;
    SnakeForce force = SnakeForce::Gvf;
    std::optional<double> pressure;
    SurfaceMesh mesh;  // authoritative when !deviceAhead
    MeshRings rings;   // of mesh's current connectivity
    SurfaceMesh initial;
    double initialVolume = 0;
    std::size_t budget = 0;                // vertexBudget() for its start
    std::deque<WindowStart> references{};  // the last kProgressWindows windows' starts
    long topology = 0;                     // counts connectivity changes (remeshing)
    long sinceRemesh = 0;                  // iterations moved since the last remeshing
    StopStatus stop{};
  };

  std::shared_ptr<ComputeContext> ctx;
  std::vector<Surface> surfaces;
  // World units per voxel (the fields' input's): the device moves world positions (voxel
  // coordinates times it), so that the surface is isotropic in the world; meshes on the host
  // stay in voxel coordinates.
  glm::dvec3 spacing{1.0};
  int nextId = 1;
  bool deviceAhead = false;
  bool layoutDirty = true;
  // Positions: a sweep reads one buffer and writes another, never the one a chunk started
  // from (pos[keep]): a chunk enqueued before a check's flags are read leaves the positions
  // the check saw for a remeshing.
  int current = 0, keep = 0;
  int sinceResample = 0;
  std::size_t total = 0;

  ForceFieldSet fields;  // by SnakeForce
  cl::Buffer edge;
  bool haveFields = false;
  HoldLevels levels;  // the edge levels of the hold test, from the volume's noise
  cl::Buffer pos[3], rhs, lap, hold, ringStart, ring, vertSurf, flags, pressure, outOfRange;
  std::size_t vertexCapacity = 0, ringCapacity = 0, surfaceCapacity = 0;
  // Host staging for upload() and download(), kept between calls: the snake remeshes and
  // re-uploads every few iterations, and fresh vectors would page-fault on every call.
  std::vector<cl_float4> hostPos;
  std::vector<cl_int> hostRingStart, hostRing, hostVertSurf, hostFlags;
  std::vector<float> hostPressure;
  std::vector<cl_int> hostEdges;
  cl::Event uploaded;  // the last upload's writes, which read the staging vectors
  Remeshed remeshed;
  SurfaceSnake::Traffic traffic;

  // pos, rhs, lap, ring_start, ring, vert_surf, flags, pressure, the five fields, total, w, h,
  // d, gamma, kappa, unit_force, spacing
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int,
              cl_int, cl_int, cl_int, cl_float, cl_float, cl_int, cl_float4>
      rhsKernel;
  // y, lap, ring_start, ring, vert_surf, flags, total
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int>
      lapKernel;
  // y, lap, rhs, out, ring_start, ring, vert_surf, flags, pressure, the five fields, total, w, h,
  // d, gamma, kappa, unit_force, alpha, beta, omega, ring2, first, last, spacing
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl_int, cl_int, cl_int, cl_int, cl_float, cl_float, cl_int, cl_float, cl_float,
              cl_float, cl_int, cl_int, cl_int, cl_float4>
      sweepKernel;
  // One launch a sweep from the 2-ring (GPUs: a launch costs more than the gathers), else the
  // umbrella stored between launches (PoCL, where the 2-ring's gathers cost ~4x the sweeps').
  bool ringSweeps = false;
  // pos, hold, ring_start, ring, vert_surf, flags, the five fields, total, w, h, d, dist, edge,
  // have_edge, edge_level, min_strength, spacing
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer,
              cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int, cl_int, cl_int, cl_int,
              cl_float, cl::Buffer, cl_int, cl_float, cl_float, cl_float4>
      holdKernel;
  // pos, ring_start, ring, vert_surf, flags, out_of_range, total, dmin, dmax, far
  TypedKernel<cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl::Buffer, cl_int,
              cl_float, cl_float, cl_float>
      edgeKernel;

  void launch(cl::Kernel& kernel, const char* name) {
    ++traffic.launches;
    detail::enqueue1D(*ctx, kernel, name, total, kLocal);
  }

  // Remeshes (and untangles) one surface's host mesh; a surface that would pass its budget
  // stops, stalled, as it is: noise drives it (no smooth surface needs that many vertices).
  // A moving surface is not untangled: smoothing its folds every remeshing moves more than
  // kStillFraction of a noisy surface's vertices each window, so it would never settle (seen
  // on grad-f surfaces in noise, test_generated_states). Its final mesh is untangled (when it
  // stops, or by settleMeshes), and the vertex budget bounds what folds do meanwhile.
  void remeshSurface(Surface& s, const SnakeParams& params, bool untangle) {
    // remesh() keeps the mesh closed and manifold (its contract; the tests check it through
    // whole runs): no checkMesh here, which would cost as much as the remeshing.
    if (!remeshWithinBudget(s.mesh, s.rings, remeshed, params, s.budget, spacing, untangle)) {
      s.stop.state = SnakeState::Stalled;
      return;
    }
    ++s.topology;
    s.sinceRemesh = 0;
    ++traffic.remeshes;
  }

  void waitUploaded() {  // the last upload's writes read the staging vectors until done
    if (uploaded()) traffic.waits += clWaitForEvents(1, &uploaded()) == CL_SUCCESS;
  }
  ~Impl() { waitUploaded(); }
};

SurfaceSnake::SurfaceSnake(std::shared_ptr<ComputeContext> ctx, int width, int height, int depth,
                           SnakeParams params)
    : impl_(std::make_unique<Impl>()),
      width_(width),
      height_(height),
      depth_(depth),
      params_(params) {
  if (width < 1 || height < 1 || depth < 1)
    throw InputError("Surface snakes need a volume of at least 1x1x1 voxels.");
  params_.validate();
  impl_->ctx = std::move(ctx);
  try {
    auto& lib = impl_->ctx->kernels();
    impl_->rhsKernel = lib.kernel("surface_step.cl", "surface_rhs");
    impl_->lapKernel = lib.kernel("surface_step.cl", "surface_laplacian");
    impl_->sweepKernel = lib.kernel("surface_step.cl", "surface_sweep");
    impl_->ringSweeps = impl_->ctx->info().isGpu;
    impl_->holdKernel = lib.kernel("surface_step.cl", "surface_hold");
    impl_->edgeKernel = lib.kernel("surface_step.cl", "surface_edge_check");
  } catch (const cl::Error& e) {
    rethrowClError(e, "setting up the surface snakes");
  }
}

SurfaceSnake::~SurfaceSnake() = default;

void SurfaceSnake::checkSphere(const glm::dvec3& c, double radius, int width, int height, int depth,
                               const SnakeParams& params) {
  if (!std::isfinite(c.x) || !std::isfinite(c.y) || !std::isfinite(c.z) || !std::isfinite(radius) ||
      !(radius > 0))
    throw ParameterError("A sphere surface needs a finite centre and a radius > 0.");
  if (c.x - radius < 0 || c.y - radius < 0 || c.z - radius < 0 || c.x + radius > width ||
      c.y + radius > height || c.z + radius > depth) {
    std::ostringstream msg;
    msg << "The sphere of centre (" << c.x << ", " << c.y << ", " << c.z << ") and radius "
        << radius << " lies outside the " << width << "x" << height << "x" << depth << " volume.";
    throw ParameterError(msg.str());
  }
  checkVertexCount(
      static_cast<double>(sphereMeshVertexCount(radius, 0.5 * (params.dmin + params.dmax))));
}

void SurfaceSnake::checkSurface(const SurfaceMesh& mesh, int width, int height, int depth,
                                const SnakeParams& params) {
  for (const auto& v : mesh.vertices) {
    if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
      throw ParameterError("A surface vertex is NaN or infinite.");
    if (v.x < 0 || v.y < 0 || v.z < 0 || v.x > width || v.y > height || v.z > depth) {
      std::ostringstream msg;
      msg << "The surface vertex (" << v.x << ", " << v.y << ", " << v.z << ") lies outside the "
          << width << "x" << height << "x" << depth << " volume.";
      throw ParameterError(msg.str());
    }
  }
  if (mesh.vertices.size() > kMaxVertices) checkVertexCount(mesh.vertices.size());
  const MeshCheck check = checkMesh(mesh);
  if (!check.ok())
    throw ParameterError("The surface is not a closed, manifold, consistently oriented mesh: " +
                         check.problem);
  checkVertexCount(leastVertices(mesh, params.dmax));
}

std::size_t SurfaceSnake::vertexBudget(const glm::dvec3& extent, const SnakeParams& params,
                                       std::size_t startVertices) {
  const double box = 2.0 * (extent.x * extent.y + extent.y * extent.z + extent.x * extent.z);
  const double smooth = kBudgetPerArea * box / (params.dmin * params.dmin);
  return std::min<std::size_t>(
      kMaxVertices, std::max<std::size_t>(2 * startVertices, static_cast<std::size_t>(smooth)));
}

std::uint64_t SurfaceSnake::deviceBytes(std::size_t surfaces, std::size_t vertices) {
  // Per vertex: pos[3], rhs, lap, hold, vertSurf, ringStart, and its ring (a closed triangle
  // mesh's rings hold 6 neighbours per vertex on average); per surface: flags, pressure,
  // outOfRange. Capacities double as they grow.
  const std::uint64_t perVertex =
      5 * sizeof(cl_float4) + sizeof(float) + 2 * sizeof(cl_int) + 6 * sizeof(cl_int);
  const std::uint64_t perSurface = 2 * sizeof(cl_int) + sizeof(float);
  return 2 * (perVertex * vertices + perSurface * surfaces);
}

glm::dvec3 SurfaceSnake::worldExtent() const {
  return glm::dvec3(width_, height_, depth_) * impl_->spacing;
}

SurfaceMesh SurfaceSnake::startMesh(const SurfaceMesh& mesh) const {
  checkSurface(mesh, width_, height_, depth_, params_);
  SurfaceMesh m = outward(scaled(remesh(scaled(mesh, impl_->spacing), params_.dmin, params_.dmax),
                                 1.0 / impl_->spacing));
  checkVertexCount(static_cast<double>(m.vertices.size()));
  return m;
}

void SurfaceSnake::setFields(const cl::Buffer& gvf, const GvfInput& edges) {
  setFields(ForceFieldSet{gvf, edges.v0}, edges);
}

void SurfaceSnake::setFields(const ForceFieldSet& fields, const GvfInput& edges) {
  if (edges.width != width_ || edges.height != height_ || edges.depth != depth_)
    throw InputError("The surfaces' edge map does not match their volume.");
  kernelFields(fields, {}, fieldBytes(), "surfaces");
  // The viewer sets the fields every frame (the GVF buffers alternate); the noise of one edge
  // map is estimated once.
  if (!impl_->haveFields || impl_->edge() != edges.edge())
    impl_->levels = holdLevels(*impl_->ctx, edges);
  const glm::dvec3 spacing(edges.spacing[0], edges.spacing[1], edges.spacing[2]);
  if (spacing != impl_->spacing) {  // the device's positions are in the old units
    download();
    impl_->spacing = spacing;
    impl_->layoutDirty = true;
    for (auto& s : impl_->surfaces)
      s.budget = vertexBudget(worldExtent(), params_, s.initial.vertices.size());
  }
  impl_->fields = fields;
  impl_->edge = edges.edge;
  impl_->haveFields = true;
}

std::size_t SurfaceSnake::fieldBytes() const {
  return static_cast<std::size_t>(width_) * height_ * depth_ * 3 * sizeof(float);
}

std::vector<SnakeForce> SurfaceSnake::forces() const { return forcesOf(impl_->surfaces); }

ForceFieldSet SurfaceSnake::boundFields() const {
  return kernelFields(impl_->fields, forces(), fieldBytes(), "surfaces");
}

int SurfaceSnake::add(const SurfaceMesh& mesh, SnakeForce force, std::optional<double> pressure) {
  const SurfaceMesh m = startMesh(mesh);
  checkSnakePressure(pressure);
  download();
  impl_->surfaces.push_back({impl_->nextId++, force, pressure, m, meshRings(m), m, meshVolume(m),
                             vertexBudget(worldExtent(), params_, m.vertices.size())});
  impl_->layoutDirty = true;
  return impl_->surfaces.back().id;
}

int SurfaceSnake::addSphere(const glm::dvec3& centre, double radius, SnakeForce force,
                            std::optional<double> pressure) {
  checkSphere(centre, radius, width_, height_, depth_, params_);
  return add(sphereMesh(centre, radius, 0.5 * (params_.dmin + params_.dmax)), force, pressure);
}

void SurfaceSnake::remove(int id) {
  download();
  std::erase_if(impl_->surfaces, [id](const Impl::Surface& s) { return s.id == id; });
  impl_->layoutDirty = true;
}

void SurfaceSnake::clear() {
  impl_->surfaces.clear();
  impl_->deviceAhead = false;
  impl_->layoutDirty = true;
}

void SurfaceSnake::setForce(int id, SnakeForce force) {
  download();
  if (editMember(impl_->surfaces, id, [&](Impl::Surface& s) { s.force = force; }))
    impl_->layoutDirty = true;
}

void SurfaceSnake::setPressure(int id, std::optional<double> pressure) {
  checkSnakePressure(pressure);
  download();
  if (editMember(impl_->surfaces, id, [&](Impl::Surface& s) { s.pressure = pressure; }))
    impl_->layoutDirty = true;
}

void SurfaceSnake::setInitial(int id, const SurfaceMesh& mesh) {
  auto* s = findMember(impl_->surfaces, id);
  if (!s) return;
  SurfaceMesh m = startMesh(mesh);
  s->initialVolume = meshVolume(m);
  s->budget = vertexBudget(worldExtent(), params_, m.vertices.size());
  s->initial = std::move(m);
}

void SurfaceSnake::restart() {
  download();
  for (auto& s : impl_->surfaces) {
    s.mesh = s.initial;
    s.rings = meshRings(s.mesh);
    ++s.topology;
    s.sinceRemesh = 0;
    s.stop.restart();
  }
  impl_->layoutDirty = true;
}

void SurfaceSnake::setParams(const SnakeParams& params) {
  params.validate();
  download();
  params_ = params;
  for (auto& s : impl_->surfaces) {
    s.stop.state = SnakeState::Moving;
    s.budget = vertexBudget(worldExtent(), params_, s.initial.vertices.size());
  }
  impl_->layoutDirty = true;
}

bool SurfaceSnake::allConverged() const { return allConvergedIn(impl_->surfaces); }

bool SurfaceSnake::allStopped() const { return allStoppedIn(impl_->surfaces); }

std::size_t SurfaceSnake::size() const { return impl_->surfaces.size(); }

SurfaceSnake::Traffic& SurfaceSnake::traffic() { return impl_->traffic; }

void SurfaceSnake::setRingSweeps(bool on) { impl_->ringSweeps = on; }

std::size_t SurfaceSnake::vertexCount() const {
  std::size_t n = 0;
  for (const auto& s : impl_->surfaces) n += s.mesh.vertices.size();
  return n;
}

void SurfaceSnake::download() {
  Impl& m = *impl_;
  if (!m.deviceAhead) return;
  std::vector<cl_float4>& all = m.hostPos;
  all.resize(m.total);
  try {
    m.ctx->queue().enqueueReadBuffer(m.pos[m.current], CL_TRUE, 0, all.size() * sizeof(cl_float4),
                                     all.data());
    m.traffic.read(all.size() * sizeof(cl_float4));
    ++m.traffic.waits;
  } catch (const cl::Error& e) {
    rethrowClError(e, "reading the surface vertices");
  }
  std::size_t off = 0;
  for (auto& s : m.surfaces)
    for (auto& v : s.mesh.vertices) {
      const cl_float4& p = all[off++];
      v = glm::vec3(glm::dvec3(p.s[0], p.s[1], p.s[2]) / m.spacing);
    }
  m.deviceAhead = false;
}

void SurfaceSnake::upload() {
  Impl& m = *impl_;
  std::vector<cl_float4>& pos = m.hostPos;
  std::vector<cl_int>&ring = m.hostRing, &vertSurf = m.hostVertSurf, &flags = m.hostFlags,
  &ringStart = m.hostRingStart;
  std::vector<float>& pressure = m.hostPressure;
  m.waitUploaded();  // long done: the device ran a chunk since
  pos.clear();
  ring.clear();
  vertSurf.clear();
  flags.clear();
  pressure.clear();
  ringStart.assign(1, 0);
  for (std::size_t k = 0; k < m.surfaces.size(); ++k) {
    const auto& s = m.surfaces[k];
    const cl_int base = static_cast<cl_int>(pos.size());
    for (const auto& v : s.mesh.vertices) {
      const glm::vec3 w(glm::dvec3(v) * m.spacing);
      pos.push_back({{w.x, w.y, w.z, 0.0f}});
    }
    const cl_int ringBase = static_cast<cl_int>(ring.size());
    for (std::size_t v = 0; v < s.mesh.vertices.size(); ++v)
      ringStart.push_back(ringBase + static_cast<cl_int>(s.rings.start[v + 1]));
    for (std::uint32_t r : s.rings.ring) ring.push_back(base + static_cast<cl_int>(r));
    vertSurf.insert(vertSurf.end(), s.mesh.vertices.size(), static_cast<cl_int>(k));
    flags.push_back((s.stop.moving() ? kMoving : 0) | (static_cast<int>(s.force) << kForceShift));
    pressure.push_back(static_cast<float>(s.pressure.value_or(params_.pressure)));
  }
  m.total = pos.size();
  m.layoutDirty = false;
  m.current = m.keep = 0;
  if (pos.empty()) return;
  try {
    auto& c = m.ctx->context();
    if (pos.size() > m.vertexCapacity) {
      const std::size_t cap = std::max(pos.size(), m.vertexCapacity * 2);
      m.ctx->checkAllocation(cap * sizeof(cl_float4), "the surface vertices");
      for (auto* b : {&m.pos[0], &m.pos[1], &m.pos[2], &m.rhs, &m.lap})
        *b = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_float4));
      m.hold = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(float));
      m.vertSurf = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_int));
      m.ringStart = cl::Buffer(c, CL_MEM_READ_WRITE, (cap + 1) * sizeof(cl_int));
      m.vertexCapacity = cap;
    }
    if (ring.size() > m.ringCapacity) {
      const std::size_t cap = std::max(ring.size(), m.ringCapacity * 2);
      m.ctx->checkAllocation(cap * sizeof(cl_int), "the surface meshes");
      m.ring = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_int));
      m.ringCapacity = cap;
    }
    if (flags.size() > m.surfaceCapacity) {
      const std::size_t cap = std::max(flags.size(), m.surfaceCapacity * 2);
      m.flags = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_int));
      m.pressure = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(float));
      m.outOfRange = cl::Buffer(c, CL_MEM_READ_WRITE, cap * sizeof(cl_int));
      m.surfaceCapacity = cap;
    }
    auto& q = m.ctx->queue();
    q.enqueueWriteBuffer(m.pos[0], CL_FALSE, 0, pos.size() * sizeof(cl_float4), pos.data());
    q.enqueueWriteBuffer(m.ringStart, CL_FALSE, 0, ringStart.size() * sizeof(cl_int),
                         ringStart.data());
    q.enqueueWriteBuffer(m.ring, CL_FALSE, 0, ring.size() * sizeof(cl_int), ring.data());
    q.enqueueWriteBuffer(m.vertSurf, CL_FALSE, 0, vertSurf.size() * sizeof(cl_int),
                         vertSurf.data());
    q.enqueueWriteBuffer(m.flags, CL_FALSE, 0, flags.size() * sizeof(cl_int), flags.data());
    q.enqueueWriteBuffer(m.pressure, CL_FALSE, 0, pressure.size() * sizeof(float), pressure.data(),
                         nullptr, &m.uploaded);
    q.flush();  // no wait: the next upload waits for these before it refills the vectors
    m.traffic.writes += 6;
    m.traffic.bytesWritten +=
        pos.size() * sizeof(cl_float4) +
        (ringStart.size() + ring.size() + vertSurf.size() + flags.size()) * sizeof(cl_int) +
        pressure.size() * sizeof(float);
  } catch (const cl::Error& e) {
    rethrowClError(e, "uploading the surfaces");
  }
}

// Enqueues n iterations from pos[current], each sweep into a buffer other than its input and
// pos[keep]; no host bookkeeping (advance() does that once they count).
void SurfaceSnake::runIterations(int n) {
  Impl& m = *impl_;
  const cl_int total = static_cast<cl_int>(m.total);
  const int sweeps = surfaceSweeps(params_);
  try {
    const ForceFieldSet f = boundFields();
    const float gamma = static_cast<float>(params_.gamma),
                kappa = static_cast<float>(params_.kappa);
    const cl_int unit = params_.normalize ? 1 : 0;
    m.rhsKernel.set(m.pos[0], m.rhs, m.lap, m.ringStart, m.ring, m.vertSurf, m.flags, m.pressure,
                    f[0], f[1], f[2], f[3], f[4], total, width_, height_, depth_, gamma, kappa,
                    unit, spacing4(m.spacing));
    m.lapKernel.set(m.pos[0], m.lap, m.ringStart, m.ring, m.vertSurf, m.flags, total);
    m.sweepKernel.set(m.pos[0], m.lap, m.rhs, m.pos[1], m.ringStart, m.ring, m.vertSurf, m.flags,
                      m.pressure, f[0], f[1], f[2], f[3], f[4], total, width_, height_, depth_,
                      gamma, kappa, unit, static_cast<float>(params_.alpha),
                      static_cast<float>(params_.beta),
                      static_cast<float>(surfaceRelaxation(params_)), m.ringSweeps ? 1 : 0, 0, 0,
                      spacing4(m.spacing));
    m.keep = m.current;
    for (int it = 0; it < n; ++it) {
      if (!m.ringSweeps) {
        m.rhsKernel.arg<0>(m.pos[m.current]);
        m.launch(m.rhsKernel, "surface_rhs");
      }
      for (int k = 0; k < sweeps; ++k) {
        if (!m.ringSweeps && k > 0) {
          m.lapKernel.arg<0>(m.pos[m.current]);
          m.launch(m.lapKernel, "surface_laplacian");
        }
        int out = (m.current + 1) % 3;
        if (out == m.keep) out = (out + 1) % 3;
        m.sweepKernel.arg<0>(m.pos[m.current]);
        m.sweepKernel.arg<3>(m.pos[out]);
        m.sweepKernel.arg<25>(static_cast<cl_int>(m.ringSweeps && k == 0 ? 1 : 0));
        m.sweepKernel.arg<26>(static_cast<cl_int>(k == sweeps - 1 ? 1 : 0));
        m.launch(m.sweepKernel, "surface_sweep");
        m.current = out;
      }
    }
    m.ctx->queue().flush();  // the device starts while the host goes on (NVIDIA waits for it)
  } catch (const cl::Error& e) {
    rethrowClError(e, "moving the surfaces");
  }
  m.deviceAhead = true;
}

void SurfaceSnake::advance(int n) {
  for (auto& s : impl_->surfaces) {
    if (s.stop.moving()) s.sinceRemesh += n;
    s.stop.advance(n);
  }
  impl_->sinceResample += n;
}

std::vector<float> SurfaceSnake::deviceHold() {
  Impl& m = *impl_;
  std::vector<float> out(m.total);
  try {
    const ForceFieldSet f = boundFields();
    m.holdKernel.set(m.pos[m.current], m.hold, m.ringStart, m.ring, m.vertSurf, m.flags, f[0], f[1],
                     f[2], f[3], f[4], static_cast<cl_int>(m.total), width_, height_, depth_,
                     static_cast<float>(kHoldDistance), m.edge, 1,
                     static_cast<float>(m.levels.edge), static_cast<float>(m.levels.strength),
                     spacing4(m.spacing));
    m.launch(m.holdKernel, "surface_hold");
    m.ctx->queue().enqueueReadBuffer(m.hold, CL_TRUE, 0, out.size() * sizeof(float), out.data());
    m.traffic.read(out.size() * sizeof(float));
    ++m.traffic.waits;
  } catch (const cl::Error& e) {
    rethrowClError(e, "testing whether the surfaces are held");
  }
  return out;
}

cl::Event SurfaceSnake::edgesOutOfRange() {
  Impl& m = *impl_;
  m.hostEdges.assign(m.surfaces.size(), 0);
  cl::Event read;
  try {
    auto& q = m.ctx->queue();
    q.enqueueFillBuffer(m.outOfRange, cl_int(0), 0, m.hostEdges.size() * sizeof(cl_int));
    ++m.traffic.writes;
    m.edgeKernel.set(m.pos[m.current], m.ringStart, m.ring, m.vertSurf, m.flags, m.outOfRange,
                     static_cast<cl_int>(m.total), static_cast<float>(params_.dmin),
                     static_cast<float>(params_.dmax), static_cast<float>(kRemeshFar));
    m.launch(m.edgeKernel, "surface_edge_check");
    q.enqueueReadBuffer(m.outOfRange, CL_FALSE, 0, m.hostEdges.size() * sizeof(cl_int),
                        m.hostEdges.data(), nullptr, &read);
    m.traffic.read(m.hostEdges.size() * sizeof(cl_int));
  } catch (const cl::Error& e) {
    rethrowClError(e, "checking the surfaces' edge lengths");
  }
  return read;
}

class SurfaceSnake::Stops : public StopGeometry {
 public:
  explicit Stops(SurfaceSnake& snakes) : s_(snakes), m_(*snakes.impl_) {}
  std::size_t members() const override { return m_.surfaces.size(); }
  StopStatus& status(std::size_t k) override { return m_.surfaces[k].stop; }
  std::size_t nodes(std::size_t k) const override { return m_.surfaces[k].mesh.vertices.size(); }
  bool collapsed(std::size_t k) override {
    const auto& s = m_.surfaces[k];
    return collapsedSurface(s.mesh, s.initialVolume, s_.params_.dmin);
  }
  // The window's start is recorded after remeshing (checkAndRemesh). A surface whose volume
  // crept on (a tip down a pocket) by a dmin x hold-gap patch moved by the tolerance a window
  // (2D: a dmin stretch; tolerance x dmin^2 let a fine ball's slow settling creep 0.3 voxel off
  // its field's zero), with a vertex farther than the tolerance from the oldest window's start,
  // is not still; nor is one that crept that much a window on the whole, pausing in some, while
  // its force does not hold it (it would read stalled): a tip crawling down a pocket jitters by
  // +-10 voxel^3 each 10 iterations, and float rounding (an H200's against PoCL's) decides
  // whether one window nets -0.3 or -20. A held surface (a ball settling on its
  // field's zero) must creep steadily, else it would settle on past its zero.
  bool still(std::size_t k) override {
    auto& s = m_.surfaces[k];
    const SnakeParams& p = s_.params_;
    auto within = [&](double fraction, std::size_t count) {
      return windowStill(s.mesh, s.topology, s.references, p.tolerance, fraction, count);
    };
    if (!within(kStillFraction, SIZE_MAX)) return false;
    std::vector<double> volumes;
    for (const auto& r : s.references) volumes.push_back(meshVolume(r.mesh));
    volumes.push_back(meshVolume(s.mesh));
    const double step = p.tolerance * p.dmin * p.holdGap;
    return !creptOverall(volumes, step) || within(0, 1) ||
           (!creptSteadily(volumes, step) && heldByForce(k));
  }
  std::vector<float> holdStrengths() override {  // once a check
    if (hold_.empty()) hold_ = s_.deviceHold();
    return hold_;
  }
  double unheldExtent(std::size_t k, const std::vector<bool>& held) override {
    return unheldPatchExtent(m_.surfaces[k].mesh, held, kHoldDistance);
  }

 private:
  // Whether surface k would read converged were it to stop now (one hold test a check).
  bool heldByForce(std::size_t k) {
    const std::vector<float> hold = holdStrengths();
    std::size_t off = 0;
    for (std::size_t j = 0; j < k; ++j) off += nodes(j);
    const StopStatus before = status(k);
    nameStop(*this, k, hold.data() + off, s_.params_);
    const bool held = status(k).state == SnakeState::Converged;
    status(k) = before;
    return held;
  }

  SurfaceSnake& s_;
  Impl& m_;
  std::vector<float> hold_;
};

bool SurfaceSnake::checkAndRemesh(int next) {
  Impl& m = *impl_;
  m.sinceResample = 0;
  // Read back only when some surface's window ended or its remeshing is due: far-long edges at
  // once; edges a little out or far short at a window's end (read back then anyway) or after
  // kRemeshPatience resampling periods.
  std::vector<char> remeshDue(m.surfaces.size(), 0), windowEnds(m.surfaces.size(), 0),
      patient(m.surfaces.size(), 0);
  bool likely = false;  // a read-back whatever the flags say (almost)
  for (std::size_t k = 0; k < m.surfaces.size(); ++k) {
    const auto& s = m.surfaces[k];
    if (!s.stop.moving()) continue;
    windowEnds[k] = s.stop.windowEnds(params_);
    patient[k] = windowEnds[k] || s.sinceRemesh >= kRemeshPatience * params_.resample;
    likely = likely || patient[k];
  }
  cl::Event flags = edgesOutOfRange();
  // Otherwise the next iterations go to the device before the flags come back, so that it does
  // not idle while the host waits (a clean check changes nothing they read); they start from
  // pos[keep], which they leave as the check saw it should a far-out edge remesh after all.
  const bool early = next > 0 && !likely;
  const int checked = m.current;
  try {
    if (early) runIterations(next);
    flags.wait();
  } catch (const cl::Error& e) {
    rethrowClError(e, "checking the surfaces' edge lengths");
  }
  ++m.traffic.waits;
  bool due = false;
  for (std::size_t k = 0; k < m.surfaces.size(); ++k) {
    const int edges = m.hostEdges[k];
    remeshDue[k] = (edges & 4) || ((edges & 1) && patient[k]);
    due = due || remeshDue[k] || windowEnds[k];
  }
  m.traffic.early += early;
  if (!due) return early;
  m.traffic.wasted += early;
  m.current = checked;
  download();
  std::vector<std::size_t> moving;
  for (std::size_t k = 0; k < m.surfaces.size(); ++k)
    if (m.surfaces[k].stop.moving()) moving.push_back(k);
  Stops stops(*this);
  checkStops(stops, params_);
  for (std::size_t k : moving) {
    auto& s = m.surfaces[k];
    // A surface that stopped in this check is remeshed once more, so that its final mesh is
    // in range too.
    if ((remeshDue[k] && s.stop.moving()) || !s.stop.moving())
      m.remeshSurface(s, params_, /*untangle=*/!s.stop.moving());
  }
  // The next window starts from the surface as remeshed (the 2D snakes keep the contour
  // before resampling): remeshing moves it by far less than a tolerance (a collapse's sagitta),
  // and the next window's test then bounds every vertex by its own position, O(N), unless a
  // far-out edge remeshes it in between.
  for (std::size_t k : moving) {
    auto& s = m.surfaces[k];
    if (!windowEnds[k]) continue;
    s.references.push_back({s.mesh, s.topology, nullptr});
    if (s.references.size() > static_cast<std::size_t>(kProgressWindows)) s.references.pop_front();
  }
  upload();
  return false;
}

void SurfaceSnake::settleMeshes() {
  Impl& m = *impl_;
  bool changed = false;
  for (auto& s : m.surfaces)
    if (s.stop.moving() && s.sinceRemesh > 0) {
      download();
      m.remeshSurface(s, params_, /*untangle=*/true);
      changed = true;
    }
  if (changed) upload();
}

void SurfaceSnake::syncLayout() {
  Impl& m = *impl_;
  if (!m.layoutDirty) return;
  download();
  for (auto& s : m.surfaces) {
    s.references.assign(1, {s.mesh, s.topology, nullptr});
    s.stop.sinceWindow = 0;
  }
  m.sinceResample = 0;
  upload();
}

void SurfaceSnake::step(int n) {
  Impl& m = *impl_;
  if (n <= 0 || m.surfaces.empty()) return;
  if (!m.haveFields) throw InputError("The surfaces have no force field yet (call setFields).");
  syncLayout();
  bool enqueued = false;  // the chunk is on the device already (checkAndRemesh)
  while (n > 0 && !allStopped()) {
    const int chunk = std::max(1, std::min(n, params_.resample - m.sinceResample));
    if (!enqueued) runIterations(chunk);
    advance(chunk);
    n -= chunk;
    enqueued = m.sinceResample >= params_.resample && checkAndRemesh(std::min(n, params_.resample));
  }
}

std::vector<std::vector<float>> SurfaceSnake::holdStrengths() {
  if (!impl_->haveFields)
    throw InputError("The surfaces have no force field yet (call setFields).");
  syncLayout();
  if (impl_->surfaces.empty()) return {};
  return perMember(deviceHold(), impl_->surfaces,
                   [](const Impl::Surface& s) { return s.mesh.vertices.size(); });
}

std::vector<SurfaceContour> SurfaceSnake::surfaces() {
  download();
  std::vector<SurfaceContour> out;
  out.reserve(impl_->surfaces.size());
  for (const auto& s : impl_->surfaces)
    out.push_back({s.id, s.mesh, s.force, s.stop.iterations, s.stop.state, s.initial,
                   s.pressure.value_or(params_.pressure), s.stop.held, s.stop.holdGap,
                   s.pressure.has_value()});
  return out;
}

}  // namespace gvflab
