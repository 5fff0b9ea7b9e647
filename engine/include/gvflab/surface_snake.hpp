#pragma once
// GVF deformable surfaces (Xu & Prince's 3D active surfaces): closed triangle meshes whose
// vertices move under a 3D external force, many at once on the OpenCL device, the 3D
// counterpart of ParametricSnake. Each iteration moves every vertex of a moving surface by
//   γ (x_{t+1} - x_t) = α L x - β L² x + κ F(x_t) + p n(x_t)
// with L the umbrella (one-ring mean minus the vertex) Laplacian of the mesh (elasticity α,
// rigidity β: the 2D snake's second and fourth differences on a mesh), F the external force
// chosen per surface (GVF, ∇f, GGVF, VFC or the distance force), sampled trilinearly, and p n a
// pressure along the outward vertex normal, p per surface (its own, or SnakeParams::pressure). The
// parameters are the 2D snakes' (SnakeParams, the same flags and ranges): dmin and dmax bound the
// edge lengths that remesh() keeps every `resample` iterations, tolerance, window and holdGap drive
// the states.
//
// The step is semi-implicit in the internal forces, (γI + A) x_{t+1} = γ x_t + κF + p n with
// A = −αL + βL², as the 2D snakes' (an explicit step multiplies rough modes by up to
// 1 − (2α + 4β)/γ, −1199 at the table's α = β = 10, γ = 0.05). A mesh's matrix has no
// closed-form inverse like the 2D circulant one, so each iteration runs surfaceSweeps()
// Richardson sweeps y ← y + ω (b − (γI + A) y) from y = x_t, ω = 1 / (γ + 2α + 4β): every
// mode of the error shrinks by a factor in [0, 1) per sweep whatever α, β, γ (stable, no
// oscillation), two umbrella passes each (one launch on GPUs), no host work (surface_measures.hpp:
// 3 sweeps at the defaults, within 5 % of the exact step; at most 8, then the step falls short of
// it). Read-backs happen every `resample` iterations only when a window ends or remeshing is due (a
// kernel checks the edges; a flag per surface comes back): at once for an edge far longer than
// dmax, else after kRemeshPatience periods (surface_measures.hpp says why), so iterations stay on
// the device otherwise.
//
// States: the 2D snakes' rules (parametric_snake.hpp) on a mesh, applied by the one stop
// tracker (snake_stop.hpp) the 2D snakes use: Moving until a convergence window ends with no
// vertex farther than tolerance from the surfaces at the starts of the last kProgressWindows
// windows; Collapsed when its volume fell below kCollapseFraction of its start's and below what
// a thin sheet one quarter dmin thick over its area would hold; Converged when some vertex is
// held (the force sampled kHoldDistance outside and inside along its normal points back towards
// it, at an edge above the volume's own noise, holdLevels) and the largest connected unheld
// patch, grown by the hold test's reach, covers no more than a disc holdGap wide
// (unheldPatchExtent); else Stalled.
//
// Coordinates: voxel coordinates (surface_mesh.hpp), the volume's storage order, x fastest.
// Voxels need not be cubes: with the spacing of setFields' input (world units per voxel), the
// device moves world positions (voxel coordinates times the spacing), so that normals, the
// Laplacian, steps, edge lengths (dmin, dmax), the hold distance and the vertex budget are in
// world units and a ball sampled at 1x1x2 converges onto the ball, not onto a squashed one;
// meshes in and out stay in voxel coordinates.
//
// Meshes stay surfaces: each remeshing is followed by untangleCrossings() (mesh_crossings.hpp),
// which irons local folds flat, and by another remeshing where it moved anything; a surface
// that stops is remeshed once more, so its final edges are in [dmin, dmax] but for the
// collapses remesh() refuses; a surface that remeshing would take past its vertexBudget()
// stops, stalled.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "gvflab/cl.hpp"
#include "gvflab/force_fields.hpp"
#include "gvflab/gvf_input.hpp"
#include "gvflab/snake_types.hpp"
#include "gvflab/surface_mesh.hpp"

namespace gvflab {

class ComputeContext;

struct SurfaceContour {
  int id = 0;
  SurfaceMesh mesh;
  SnakeForce force = SnakeForce::Gvf;
  long iterations = 0;  // iterations run while moving
  SnakeState state = SnakeState::Moving;
  SurfaceMesh initial;  // the starting mesh (restart() goes back to it)
  double pressure = 0;  // the pressure this surface feels
  double held = 0;      // fraction of vertices held by the force at the last stop (0 before)
  double holdGap = 0;   // its widest unheld patch then (voxels; 0 before)
  bool ownPressure = false;
  bool converged() const { return state == SnakeState::Converged; }
};

class SurfaceSnake {
 public:
  static constexpr std::size_t kMaxVertices = 1u << 20;  // per surface
  // The vertex budget of a surface: kBudgetPerArea times the volume box's area over dmin^2
  // (a mesh whose edges are all dmin has about 1.15 vertices per dmin^2 of area, so this leaves
  // room for a surface of about 5 times the box's area at the typical edge (dmin + dmax) / 2;
  // no smooth surface in the box comes near), at least twice its start's vertices, at most
  // kMaxVertices. A surface that remeshing would take past it is driven by noise, not by an
  // object: it stops, stalled, with the mesh it had (grad f in noise grew a sphere from 2k to
  // 90k vertices in 800 iterations before).
  static constexpr double kBudgetPerArea = 2.0;
  // extent: the volume's size in world units (voxels times spacing).
  static std::size_t vertexBudget(const glm::dvec3& extent, const SnakeParams& params,
                                  std::size_t startVertices);
  // The most device memory `surfaces` surfaces of `vertices` vertices in all can hold (the
  // vertex and ring buffers at their doubled capacity), for a run's fit check before anything
  // is allocated.
  static std::uint64_t deviceBytes(std::size_t surfaces, std::size_t vertices);

  SurfaceSnake(std::shared_ptr<ComputeContext> ctx, int width, int height, int depth,
               SnakeParams params = SnakeParams::defaults());
  ~SurfaceSnake();
  SurfaceSnake(const SurfaceSnake&) = delete;
  SurfaceSnake& operator=(const SurfaceSnake&) = delete;

  // The rules add() applies, usable before any device work (the CLI checks every surface
  // before it opens an output): ParameterError when the sphere or a vertex is not finite or
  // reaches outside the width x height x depth volume, or the mesh is not closed and manifold
  // (checkMesh); ResourceError when it would have more than kMaxVertices vertices at params'
  // dmax.
  static void checkSphere(const glm::dvec3& centre, double radius, int width, int height, int depth,
                          const SnakeParams& params);
  static void checkSurface(const SurfaceMesh& mesh, int width, int height, int depth,
                           const SnakeParams& params);

  // The force fields, packed float3 per voxel (Solver::field() of a 3D solver), and the
  // traditional force from `edges` (its v0 = ∇f), whose edge map f and max |∇f| let the hold
  // test tell edges from noise as in 2D. Set them again before step() when they change.
  void setFields(const cl::Buffer& gvf, const GvfInput& edges);
  // Any forces' fields (force_fields.hpp), with `edges` as above; step() throws InputError
  // when a surface's force has no field.
  void setFields(const ForceFieldSet& fields, const GvfInput& edges);

  // Adds a closed surface (remeshed to [dmin, dmax]), also its starting mesh. pressure: its
  // own, else SnakeParams::pressure. Throws as checkSurface.
  int add(const SurfaceMesh& mesh, SnakeForce force = SnakeForce::Gvf,
          std::optional<double> pressure = std::nullopt);
  // A sphere with edges about (dmin + dmax) / 2 long.
  int addSphere(const glm::dvec3& centre, double radius, SnakeForce force = SnakeForce::Gvf,
                std::optional<double> pressure = std::nullopt);
  void remove(int id);  // unknown ids are ignored
  void clear();
  void setForce(int id, SnakeForce force);
  void setPressure(int id, std::optional<double> pressure);
  // Only the starting mesh (a session resumed from its current surfaces keeps its start).
  void setInitial(int id, const SurfaceMesh& mesh);
  void restart();  // every surface back to its start, 0 iterations, moving
  // New parameters; every surface starts moving again. Throws ParameterError (keeps the old).
  void setParams(const SnakeParams& params);
  const SnakeParams& params() const { return params_; }

  // n iterations of every moving surface; every `resample` iterations the vertices are read
  // back, checked for the states and remeshed. Stops early when no surface moves.
  void step(int n);

  // Remeshes (and untangles) every surface still moving, as its next remeshing would: between
  // remeshings a moving mesh may hold edges a little out of [dmin, dmax] and fresh folds.
  // Clients call it before they write meshes; stepping on continues as after a remeshing.
  void settleMeshes();

  std::vector<SurfaceContour> surfaces();  // reads back when the device is ahead
  // Per surface (surfaces() order), per vertex: how firmly its force holds the vertex now (the
  // states' hold test: held when >= kHoldLevel). Throws when setFields was never called.
  std::vector<std::vector<float>> holdStrengths();
  std::size_t size() const;
  std::vector<SnakeForce> forces() const;  // each surface's, in surfaces() order (no read-back)
  bool allConverged() const;
  bool allStopped() const;
  std::size_t vertexCount() const;
  // What the host asked of the device since the snake was made (the host path's profile): kernel
  // launches, reads and writes with their bytes, waits (the host blocked on the device),
  // remeshings, and the chunks enqueued before a check's flags came back (early), of which a
  // remeshing threw away `wasted`. Zero it to count from now.
  struct Traffic {
    long launches = 0, reads = 0, writes = 0, waits = 0, remeshes = 0, early = 0, wasted = 0;
    std::uint64_t bytesRead = 0, bytesWritten = 0;
    void read(std::uint64_t bytes) { ++reads, bytesRead += bytes; }
  };
  Traffic& traffic();
  // Each sweep in one launch, L L y from the 2-ring (GPUs' default), or the umbrella stored
  // between two launches (CPUs'): the same results.
  void setRingSweeps(bool on);
  int width() const { return width_; }
  int height() const { return height_; }
  int depth() const { return depth_; }

 private:
  void download();            // device -> meshes
  void upload();              // meshes -> device (positions, one-rings, flags)
  void syncLayout();          // after edits: upload, every window starting afresh
  void runIterations(int n);  // n iterations on the device, no read-back
  void advance(int n);        // the host's count of them
  // States of full windows, remeshing where edges are due; true when it enqueued the `next`
  // iterations (there was nothing to do).
  bool checkAndRemesh(int next);
  // The read-back of, per surface: 1 an edge out of [dmin, dmax], 2 one far too short, 4 one
  // far too long (into Impl::hostEdges when the event completes).
  cl::Event edgesOutOfRange();
  std::size_t fieldBytes() const;
  ForceFieldSet boundFields() const;  // kernelFields of the surfaces' forces
  std::vector<float> deviceHold();    // per vertex, on the device positions (surface_hold)
  glm::dvec3 worldExtent() const;     // the volume in world units
  // `mesh` checked (checkSurface), remeshed to [dmin, dmax] in world units, facing outward.
  SurfaceMesh startMesh(const SurfaceMesh& mesh) const;

  struct Impl;
  class Stops;  // the tracker's view of the surfaces (snake_stop.hpp)
  std::unique_ptr<Impl> impl_;
  int width_, height_, depth_;
  SnakeParams params_;
};

}  // namespace gvflab
